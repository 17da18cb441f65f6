pid$target:a.out:tick:entry
{
	n++;
}

pid$target:a.out:tick:entry
/n == 5/
{
	printf("five calls seen\n");
	exit(0);
}
