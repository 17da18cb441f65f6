#pragma D option quiet
#pragma D option loud
BEGIN { exit(0); }
