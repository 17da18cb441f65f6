# DTrace's classic workflow: dtrace -h makes the header, the program is
# compiled with it, dtrace -G rewrites its probe calls and makes the object
# with the DOF, and the two are linked.  Untraced, the is-enabled test says
# no; traced, every probe fires with its arguments (eight, two on the
# stack; reordered by the output prototype; translated; in a static
# function) and the is-enabled work runs.
T=$(cd "$(dirname "$0")" && pwd)/targets
cd "$E2E_TMP" || exit 1
"$1" -L "$T/dtg_lib" -h -s "$T/dtg_provider.d" -o dtg_provider.h || exit 1
cc -O2 -g -D_DTRACE_VERSION=1 -I. -c "$T/dtgprog.c" -o dtgprog.o || exit 1
"$1" -L "$T/dtg_lib" -G -s "$T/dtg_provider.d" -o dtg_provider.o dtgprog.o || exit 1
cc -o dtgprog dtgprog.o dtg_provider.o || exit 1
objdump -d dtgprog.o | grep -c 'call.*__dtrace' | sed 's/^/calls left: /'
./dtgprog 2
"$1" -L "$T/dtg_lib" -qs "$T/../dtrace_G_workflow.d" -o dt.out -c "./dtgprog 2" || exit 1
cat dt.out
