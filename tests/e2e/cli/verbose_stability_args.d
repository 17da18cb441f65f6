/*
 * args[] has the attributes of its provider's arguments, which a #pragma D
 * attributes ... provider NAME args sets for the rest of the program, the
 * probe listing of -v included.
 */
#pragma D attributes Evolving/Unstable/ISA provider dtrace args

dtrace:::ERROR
{
	trace(args[1]);
}
