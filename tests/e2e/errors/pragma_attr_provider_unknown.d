/*
 * #pragma D attributes for a provider the host does not know: DTrace keeps
 * it for an identifier of the provider's name, which never comes.
 */
#pragma D attributes Evolving/Evolving/Common provider nosuchprov name
BEGIN { exit(0); }
