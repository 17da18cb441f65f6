pid$target:a.out:jumpable:entry
{
	n++;
}

pid$target:a.out:jumpable:entry
/n == 500/
{
	printf("500 calls seen\n");
	exit(0);
}
