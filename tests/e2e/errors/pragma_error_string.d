#pragma error "stop here" now

BEGIN { exit(0); }
