/* Macro variables: $1..$9 as integers and $$1.. as strings, the process's
   $pid $ppid $uid $gid $cwd (dtrace's own, as BEGIN runs in it), $target
   without -c or -p, and a macro in a probe description. */
#pragma D option quiet

BEGIN
{
	printf("%d %s %d %s\n", $1, $$2, $1 + 1, $$1);
	printf("%d %d %d %d %d\n", $pid == pid, $ppid == ppid, $uid == uid, $gid == gid, $target);
	printf("%d\n", strlen($cwd) > 0 && substr($cwd, 0, 1) == "/");
}

dtrace:::$3
{
	printf("%s from $3\n", probename);
	exit(0);
}
