# The host's C library headers, if cpp finds them (else the test is skipped).
if ! printf '#include <stdint.h>\n#include <inttypes.h>\n' | cpp >/dev/null 2>&1; then
	echo "cpp finds no <stdint.h> and <inttypes.h> on this host" >&2
	exit 77
fi
"$1" -C -q -s cpp_include_stdint.d
