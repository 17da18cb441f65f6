/*
 * Debian's python3.11, a real program: its SystemTap probes
 * (python:::function-entry/-return) count the script's functions and give
 * their file, name and line.
 */
python$target:::function-entry
/strstr(copyinstr(arg0), "work.py") != NULL/
{
	@entry[copyinstr(arg1), arg2] = count();
}

/* the profile function itself is not the script's */
python$target:::function-return
/strstr(copyinstr(arg0), "work.py") != NULL && copyinstr(arg1) != "<lambda>"/
{
	@return[copyinstr(arg1)] = count();
}

END
{
	printa("entry %s line %d: %@d\n", @entry);
	printa("return %s: %@d\n", @return);
}
