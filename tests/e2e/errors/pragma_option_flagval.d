#pragma D option zdefs=1
BEGIN { exit(0); }
