END
{
	clear(@c["never assigned"]);
}
