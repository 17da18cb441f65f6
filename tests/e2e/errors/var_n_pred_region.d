/* the program is the -n argument */
