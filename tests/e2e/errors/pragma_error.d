/* a script that refuses to run until it is finished */
#error this script is not finished
BEGIN { exit(0); }
