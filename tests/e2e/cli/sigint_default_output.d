BEGIN
{
	@c["key"] = count();
	trace("ready");
}
