averyveryveryveryveryveryveryveryveryveryveryverylongprovidername0123456789:::entry
{
	exit(0);
}
