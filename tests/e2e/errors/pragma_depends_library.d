#pragma D depends_on library ip.d
BEGIN { exit(0); }
