/* An inline of a D library is outside the program's scope for #pragma D attributes. */
#pragma D attributes Stable/Stable/Common lib_stamp
BEGIN { exit(0); }
