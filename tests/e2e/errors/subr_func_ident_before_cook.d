tick-1s
{
	@hits = rate - 5();
}
