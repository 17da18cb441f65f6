#pragma D option bufsize=lots
BEGIN { exit(0); }
