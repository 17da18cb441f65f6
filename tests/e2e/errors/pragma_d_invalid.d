#pragma D optoin quiet
BEGIN { exit(0); }
