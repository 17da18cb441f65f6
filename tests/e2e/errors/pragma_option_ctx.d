#pragma D option define=LIMIT=10
BEGIN { exit(0); }
