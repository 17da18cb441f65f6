#!/bin/sh
# run_e2e.sh DTRACE DIR NAME: run one end-to-end test and compare.
#
# The test is DIR/NAME.d.  The command line is `dtrace -s NAME.d`, or, when
# DIR/NAME.args exists, the words of that file with every {d} replaced by
# NAME.d (so a test can use -n, -l, -q, ... or several scripts).  The test
# runs in DIR, so messages name the script as written.  Expected:
#   NAME.out  standard output, exactly (required)
#   NAME.err  standard error, exactly (optional: unchecked without it)
#   NAME.rc   exit status (optional: 0 without it)
#   NAME.sed  sed script applied to standard output before comparing
#             (for what varies between runs, such as the CPU column)
#   NAME.sh   a shell script run instead of the command line, as
#             `sh NAME.sh DTRACE`, for tests that send signals, grab a
#             process or run a script through its #! line (E2E_TMP names a
#             scratch directory); its output and status are compared; exit
#             status 77 skips the test (the first line of its standard
#             error says why)
#   NAME.esed sed script applied to standard error before comparing (drop
#             counts and CPU numbers, process ids)
#   NAME.out.ISA, NAME.err.ISA  what a build for ISA (DT_E2E_ISA) expects
#             instead of NAME.out/NAME.err, where the processor shows
#             (frames of the C library's start-up, say)
# A build for another ISA that runs under qemu-user (DT_E2E_QEMU set) skips,
# saying why, the tests it cannot run there: dtrace -p (qemu-user gives its
# guests no ptrace) and -c of one of this machine's own programs (/bin/...,
# /usr/bin/..., sh, env, printenv, python: another ISA than dtrace's, so the
# agent cannot be preloaded into them).  Also skipped there, with the reason
# the file gives: a test with a NAME.qemu file, and every test of a directory
# with a QEMU-SKIP file.
# Timing-dependent tests use tick-N and exit() so that all of this is
# deterministic; TZ is UTC for %Y and walltimestamp.
set -u
DTRACE=$1
DIR=$2
NAME=$3

cd "$DIR" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/e2e.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT

if [ -f "$NAME.args" ]; then
	ARGS=$(sed "s|{d}|$NAME.d|g" "$NAME.args")
else
	ARGS="-s $NAME.d"
fi
WANT_RC=0
[ -f "$NAME.rc" ] && WANT_RC=$(cat "$NAME.rc")
OUT=$NAME.out ERR=$NAME.err
if [ -n "${DT_E2E_ISA:-}" ]; then
	[ -f "$NAME.out.$DT_E2E_ISA" ] && OUT=$NAME.out.$DT_E2E_ISA
	[ -f "$NAME.err.$DT_E2E_ISA" ] && ERR=$NAME.err.$DT_E2E_ISA
fi
if [ -n "${DT_E2E_QEMU:-}" ]; then
	for why in QEMU-SKIP "$NAME.qemu"; do
		if [ -f "$why" ]; then
			echo "skip $NAME under qemu-user: $(head -1 "$why")"
			exit 77
		fi
	done
	# dtrace's own arguments: a .args file, or the lines of a .sh that run "$1"
	# (continued lines joined first)
	CMDTEXT=$( (cat "$NAME.args" 2>/dev/null
		sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$NAME.sh" 2>/dev/null | grep -h '"$1"') |
		tr '\n' ' ')
	if printf '%s\n' "$CMDTEXT" | grep -Eq -- '(^|[[:space:]])-p([[:space:]]|$)'; then
		echo "skip $NAME: dtrace -p needs ptrace, which qemu-user does not give its guests"
		exit 77
	fi
	if printf '%s\n' "$CMDTEXT" |
		grep -Eq -- "-c[[:space:]]+[\"']?(/bin/|/usr/bin/|sh |python|[\$]PY|printenv|env )"; then
		echo "skip $NAME: its -c program is this machine's ($(uname -m)), not ${DT_E2E_ISA:-dtrace's ISA}"
		exit 77
	fi
fi


if [ -f "$NAME.sh" ]; then
	# The test drives dtrace itself (signals, -p, shebang scripts): it is
	# run as `sh NAME.sh DTRACE` with a scratch directory in E2E_TMP.
	mkdir "$TMP/scratch" && E2E_TMP=$TMP/scratch TZ=UTC LC_ALL=C timeout -s KILL 60 sh "$NAME.sh" "$DTRACE" \
		>"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	# 77: the host lacks what the test needs (its standard error says what)
	if [ "$RC" = 77 ]; then
		echo "skip $NAME: $(head -1 "$TMP/err")"
		exit 77
	fi
else
	# eval: .args may quote D programs for -n
	eval "set -- $ARGS"
	TZ=UTC LC_ALL=C timeout -s INT 60 "$DTRACE" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
fi

if [ -f "$NAME.sed" ]; then
	sed -f "$NAME.sed" "$TMP/out" >"$TMP/out.sed" && mv "$TMP/out.sed" "$TMP/out"
fi

if [ -f "$NAME.esed" ]; then
	sed -f "$NAME.esed" "$TMP/err" >"$TMP/err.sed" && mv "$TMP/err.sed" "$TMP/err"
fi

FAIL=0
if ! cmp -s "$TMP/out" "$OUT"; then
	echo "FAIL $NAME: standard output differs (expected, got):"
	diff -u "$OUT" "$TMP/out" | head -60
	FAIL=1
fi
if [ -f "$ERR" ] && ! cmp -s "$TMP/err" "$ERR"; then
	echo "FAIL $NAME: standard error differs (expected, got):"
	diff -u "$ERR" "$TMP/err" | head -40
	FAIL=1
fi
if [ "$RC" != "$WANT_RC" ]; then
	echo "FAIL $NAME: exit status $RC, expected $WANT_RC"
	echo "--- standard error:"
	head -20 "$TMP/err"
	FAIL=1
fi
[ $FAIL -eq 0 ] && echo "ok $NAME"
exit $FAIL
