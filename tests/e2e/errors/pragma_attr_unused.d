inline int limit = 10;
#pragma D attributes Evolving/Evolving/Common limit
#pragma D attributes Evolving/Evolving/Common limt
BEGIN { exit(0); }
