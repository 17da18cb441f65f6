pid$target:a.out:jumpable:entry
{
	n++;
}

pid$target:a.out:jumpable:entry
/n == 200000/
{
	printf("200000 calls seen");
	exit(0);
}
