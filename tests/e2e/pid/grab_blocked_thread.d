pid$target:a.out:work:entry
{
	n++;
}

pid$target:a.out:work:entry
/n == 5/
{
	printf("five calls seen\n");
	exit(0);
}
