# -x setenv adds a variable to the -c command's environment (replacing one
# of the same name), -x unsetenv removes one.
DT_OPT_A=old DT_OPT_B=gone "$1" -q -x setenv=DT_OPT_A=new -x setenv=DT_OPT_C=added \
    -x unsetenv=DT_OPT_B -c 'printenv DT_OPT_A DT_OPT_B DT_OPT_C' -s setenv_for_command.d
echo "status $?"
