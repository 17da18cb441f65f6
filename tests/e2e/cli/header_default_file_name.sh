# Without -o, dtrace -h writes x.h for script x.d, in the current directory.
d=$PWD/header_default_file_name.d
cd "$E2E_TMP" && "$1" -h -s "$d"
echo "status $?"
ls
grep -c '^#define	P_A' header_default_file_name.h
