/*
 * PostgreSQL 15, a real server: its SystemTap probes give each query's
 * text as it starts and say when it is done.
 */
BEGIN
{
	printf("ready\n");
}

postgresql$target:::query-start
{
	self->q = copyinstr(arg0);
	printf("query-start: %s", self->q);
}

postgresql$target:::query-done
/self->q != NULL/
{
	printf("query-done: %s", copyinstr(arg0));
	self->q = 0;
}
