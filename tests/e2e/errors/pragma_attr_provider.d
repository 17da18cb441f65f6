#pragma D attributes Evolving/Evolving/Common provider profile probes
BEGIN { exit(0); }
