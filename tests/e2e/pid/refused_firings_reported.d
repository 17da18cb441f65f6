/*
 * Each call of add() spins 2 ms in probe context; the target's profile
 * timer expires meanwhile, and its probe cannot enter probe context in a
 * thread already there.  Those firings are lost: dtrace must say so.
 */
pid$target::add:entry
{
	chill(2000000);
}

profile-4999
/pid == $target/
{
	@ = count();
}
