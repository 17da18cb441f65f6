# A library built with dtrace -G, loaded and unloaded twice while traced
# (-Z: its provider does not exist yet when the script is compiled): its
# DOF is read when it appears, its probes fire (and its is-enabled test says
# yes) each time it is loaded, they go with it, and nothing crashes.
T=$(cd "$(dirname "$0")" && pwd)/targets
cd "$E2E_TMP" || exit 1
"$1" -h -s "$T/dtg_libprovider.d" -o dtg_libprovider.h || exit 1
cc -O2 -fPIC -D_DTRACE_VERSION=1 -I. -c "$T/dtglib.c" -o dtglib.o || exit 1
"$1" -G -s "$T/dtg_libprovider.d" -o dtg_libprovider.o dtglib.o || exit 1
cc -shared -o libdtgl.so dtglib.o dtg_libprovider.o || exit 1
"$1" -Zqs "$T/../dtrace_G_dlopen.d" -o dt.out -c "$DT_USDT_TARGETS/usdtdlopen $PWD/libdtgl.so" ||
	exit 1
cat dt.out
