/*
 * A #pragma D attributes ... provider NAME args sets the attributes of its
 * provider's arguments for the rest of the program, which the probe listing
 * of -v shows.  ERROR's argument types are None: the dtrace provider
 * describes none (arg1 is a plain Stable variable).
 */
#pragma D attributes Evolving/Unstable/ISA provider dtrace args

dtrace:::ERROR
{
	trace(arg1);
}
