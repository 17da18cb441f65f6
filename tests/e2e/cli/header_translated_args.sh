# dtrace -h for probes with output prototypes: the header's macros and
# declarations use the native (input) argument types and count.
"$1" -h -o "$E2E_TMP/srv.h" -s header_translated_args.d
echo "status $?"
cat "$E2E_TMP/srv.h"
