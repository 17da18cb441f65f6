#!/bin/sh
# tests/rump/run_e2e_rump.sh DTRACE COMPONENT DIR NAME: run one end-to-end
# test of tests/e2e (DIR/NAME.d and its expected files) with the dtrace
# command driving the NetBSD kernel of a rump kernel (DTRACE_BACKEND=rump)
# instead of the Linux host.  The same files, the same comparison
# (tests/e2e/run_e2e.sh); exits 77 (skipped) when the rump component was
# not built, because the rump kernel (../shared/rump) is not beside the tree.
set -u
DTRACE=$1
COMPONENT=$2
DIR=$3
NAME=$4
if [ ! -f "$COMPONENT" ]; then
	echo "skip $NAME: no rump kernel component ($COMPONENT): ../shared/rump is missing" >&2
	exit 77
fi
# As many virtual CPUs as this host has processors: tests size their checks
# with nproc.
DTRACE_BACKEND=rump DTRACE_RUMP_COMPONENT=$COMPONENT DTRACE_RUMP_NCPU=${DTRACE_RUMP_NCPU:-$(nproc)} \
	exec "$(dirname "$0")/../e2e/run_e2e.sh" "$DTRACE" "$DIR" "$NAME"
