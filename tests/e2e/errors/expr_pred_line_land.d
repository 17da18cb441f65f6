BEGIN
/1 &&
    "x"
/

{
	exit(0);
}
