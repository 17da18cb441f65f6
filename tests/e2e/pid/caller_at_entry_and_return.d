/* The caller of a function at its entry (no frame made yet) and at its
 * return instruction (its frame gone): main, whether or not the
 * program's object has call-frame information for greet. */
pid$target:a.out:greet:entry,
pid$target:a.out:greet:return
{
	printf("%s: ucaller in %A, ustack frame 2 the same: ", probename, ucaller);
	ustack(2);
}
