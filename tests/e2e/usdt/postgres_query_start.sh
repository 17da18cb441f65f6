# A standalone PostgreSQL 15 backend (postgres --single, which must not run
# as root) reads queries from a FIFO; dtrace -p grabs it and prints each
# query's text at query-start and query-done.  Skipped where PostgreSQL 15
# is not installed, or where it cannot be started as the postgres user.
PG=/usr/lib/postgresql/15/bin
if [ ! -x "$PG/postgres" ] || [ ! -x "$PG/initdb" ]; then
	echo "PostgreSQL 15 is not installed ($PG/postgres)" >&2
	exit 77
fi
if [ "$(id -u)" != 0 ] || ! id postgres >/dev/null 2>&1 || ! command -v runuser >/dev/null; then
	echo "needs root and a postgres user to start PostgreSQL as postgres" >&2
	exit 77
fi
# (postgres must reach its directory: not under the harness's private one)
D=$(mktemp -d /tmp/dtrace-pg.XXXXXX) || exit 1
trap 'rm -rf "$D"' EXIT
chown postgres "$D" && chmod 755 "$D"
if ! runuser -u postgres -- "$PG/initdb" -D "$D/data" -A trust -N >"$D/initdb.log" 2>&1; then
	echo "initdb failed: $(tail -1 "$D/initdb.log")" >&2
	exit 77
fi
mkfifo "$D/in" && chown postgres "$D/in"
runuser -u postgres -- "$PG/postgres" --single -D "$D/data" postgres <"$D/in" >"$D/out" 2>&1 &
exec 3>"$D/in"
pg=
for i in $(seq 100); do
	pg=$(pgrep -f "^$PG/postgres --single -D $D/data") && break
	sleep 0.05
done
# grabbed once it reads queries, not while its loader is still at work
for i in $(seq 200); do grep -q 'stand-alone backend' "$D/out" && break; sleep 0.05; done
if [ -z "$pg" ] || ! grep -q 'stand-alone backend' "$D/out"; then
	echo "postgres --single did not start: $(tail -1 "$D/out")" >&2
	exit 77
fi
# (not holding the FIFO open: postgres ends at its end-of-file)
"$1" -qs postgres_query_start.d -p "$pg" >"$D/dt" 2>"$D/dt.err" 3>&- &
dt=$!
for i in $(seq 200); do grep -q ready "$D/dt" 2>/dev/null && break; sleep 0.05; done
echo "select 1 + 1;" >&3
echo "select count(*) > 0 from pg_class;" >&3
exec 3>&-
wait "$dt"
echo "dtrace status $?"
grep -v '^ready$' "$D/dt"
grep -c 'backend>' "$D/out" | sed 's/^/backend prompts: /'
