# dtrace -h writes the header for the script's providers to the -o file;
# with _DTRACE_VERSION unset (no dtrace -G here) its macros are empty and a
# C program using them compiles warning-free.
"$1" -h -o "$E2E_TMP/prov.h" -s header_from_providers.d
echo "status $?"
cat "$E2E_TMP/prov.h"
printf '#include "prov.h"\nint main(void) { if (MYAPP_QUERY_START_ENABLED()) { MYAPP_QUERY_START("q", 1); } MYAPP_IDLE(); return 0; }\n' >"$E2E_TMP/use.c"
if cc -fsyntax-only -Wall -Wextra -Werror -I"$E2E_TMP" "$E2E_TMP/use.c"; then
	echo "a C program using it compiles"
fi
