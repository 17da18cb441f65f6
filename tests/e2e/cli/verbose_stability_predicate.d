/* The program is the -n: its predicate's attributes count (curthread's Private data). */
