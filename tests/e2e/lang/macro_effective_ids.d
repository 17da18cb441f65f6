/* The rest of DTrace's macro variables: $euid and $egid are dtrace's
   effective user and group ids (here checked against id -u / id -g, passed
   as $1 and $2), in both forms; $projid and $taskid, Solaris projects and
   tasks, are 0, also in a probe description (BEGIN0 matches nothing). */
#pragma D option quiet

BEGIN
{
	printf("euid %s, egid %s\n", $euid == $1 ? "ok" : "wrong",
	    $$egid == $$2 ? "ok" : "wrong");
	printf("projid %d taskid %d\n", $projid, $taskid);
}

dtrace:::BEGIN$taskid
{
	printf("no such probe\n");
}

BEGIN
/$egid == $2 && $uid == $euid/
{
	exit(0);
}
