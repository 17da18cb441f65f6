/* ERROR's arguments are typed: args[1] is the uint32_t EPID */
dtrace:::ERROR
{
	x = args[1];
	x = "s";
}
