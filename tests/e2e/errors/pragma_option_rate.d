#pragma D option switchrate=10parsecs
BEGIN { exit(0); }
