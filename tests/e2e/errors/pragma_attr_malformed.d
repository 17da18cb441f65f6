#pragma D attributes Stable/Stable/Common
BEGIN { exit(0); }
