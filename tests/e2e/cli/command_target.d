BEGIN
{
	printf("$target is %s\n", $target > 0 ? "set" : "unset");
}
