pid$target:a.out:jumpable:entry
{
	n++;
}

pid$target:a.out:jumpable:entry
/n == 200/
{
	printf("200 calls seen\n");
	exit(0);
}
