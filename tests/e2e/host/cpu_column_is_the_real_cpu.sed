/^CPU /d
/^$/d
s/^.*:tick-150ms *done$/done/
/^ *\([0-9][0-9]*\)  .*  \1$/d
s/^ *[0-9].*/differs/
