/* the program is the -n argument: printf's checks come after the action list is cooked */
