/*
 * printa("%a") formats a sym() key as an address, offset included, as
 * printf("%a") formats the address itself; the .sed turns two equal
 * symbolic lines into one word.
 */
#pragma D option quiet

BEGIN
{
	@k[sym(caller)] = count();
	printf("%a\n", caller);
	exit(0);
}

END
{
	printa("%a\n", @k);
}
