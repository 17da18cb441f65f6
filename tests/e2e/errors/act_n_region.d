/* the program is the -n argument: errors name the region, not a line */
