#pragma D depends_on provider "dtrace"
BEGIN { exit(0); }
