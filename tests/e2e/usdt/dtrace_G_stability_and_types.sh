# dtrace -lv of probes dtrace -G made: the provider's stability from its
# #pragma D attributes, the function each site is in, native and
# translated argument types (done's output prototype reorders them).
T=$(cd "$(dirname "$0")" && pwd)/targets
cd "$E2E_TMP" || exit 1
"$1" -L "$T/dtg_lib" -h -s "$T/dtg_provider.d" -o dtg_provider.h || exit 1
cc -O2 -g -D_DTRACE_VERSION=1 -I. -c "$T/dtgprog.c" -o dtgprog.o || exit 1
"$1" -L "$T/dtg_lib" -G -s "$T/dtg_provider.d" -o dtg_provider.o dtgprog.o || exit 1
cc -o dtgprog dtgprog.o dtg_provider.o || exit 1
"$1" -L "$T/dtg_lib" -lv -s "$T/../dtrace_G_stability_and_types.d" -c "./dtgprog 1" |
	sed 's/^ *[0-9]* *usdtg[0-9]* */usdtgPID /'
