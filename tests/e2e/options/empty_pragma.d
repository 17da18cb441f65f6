/* the option, set in the program itself, lets it have no clause at all */
#pragma D option empty
