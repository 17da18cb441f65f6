#pragma D depends_on provider profile
#pragma D depends_on provider nosuchprovider
BEGIN { exit(0); }
