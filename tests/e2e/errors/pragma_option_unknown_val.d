#pragma D option nosuchoption=3
BEGIN { exit(0); }
