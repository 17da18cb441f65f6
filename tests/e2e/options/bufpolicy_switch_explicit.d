#pragma D option quiet
#pragma D option bufpolicy=switch

BEGIN
{
	printf("switch\n");
	exit(0);
}
