# DTrace's dt_opt_setenv takes out of the -c command's environment every
# variable whose whole name begins the option's argument: unsetenv=DT_PA takes
# DT_P as well as DT_PA, not DT_PAT; setenv=DT_Q=new takes DT_ and DT_Q.  A
# variable taken out is replaced by the last one, which is not examined again
# (the second run keeps DT_PA), and a variable set goes last.  env -i fixes
# the order of the environment dtrace starts with.
env -i DT_P=1 DT_PA=2 DT_PAT=3 Z=4 "$1" -q -x unsetenv=DT_PA -c /usr/bin/env -s setenv_prefix.d
echo "status $?"
env -i DT_P=1 Z=4 DT_PA=2 "$1" -q -x unsetenv=DT_PA -c /usr/bin/env -s setenv_prefix.d
echo "status $?"
env -i DT_=0 DT_Q=old A=1 "$1" -q -x setenv=DT_Q=new -c /usr/bin/env -s setenv_prefix.d
echo "status $?"
