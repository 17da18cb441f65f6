BEGIN
{
	printf("%d\n",
	    widen(1,
	    2));
}
