/* a void value fits no conversion */
BEGIN
{
	printf("%d\n", printf(""));
}
