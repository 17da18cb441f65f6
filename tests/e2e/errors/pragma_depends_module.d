#pragma D depends_on module nosuchmodule.so.1
BEGIN { exit(0); }
