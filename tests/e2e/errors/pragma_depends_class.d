#pragma D depends_on driver e1000
BEGIN { exit(0); }
