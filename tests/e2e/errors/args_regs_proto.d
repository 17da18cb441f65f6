BEGIN
{
	trace(uregs["rip"]);
}
