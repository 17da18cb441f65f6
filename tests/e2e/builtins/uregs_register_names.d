/*
 * uregs[] indexed by the register names of the target ISA (DTrace's
 * regs.d): in profile-N, uregs[R_PC] is the interrupted user PC, which is
 * also arg1, and uregs[R_SP] a stack pointer.  R_PC and R_SP exist on
 * every ISA, so the output is the same on all of them.
 */
#pragma D option quiet

int n, badpc, badsp;

profile-997
{
	n++;
	badpc += uregs[R_PC] != arg1;
	badsp += uregs[R_SP] == 0;
}

tick-300ms
{
	printf("profile fired: %s\n", n > 0 ? "yes" : "no");
	printf("uregs[R_PC] is arg1: %s\n", badpc == 0 ? "yes" : "no");
	printf("uregs[R_SP] is set: %s\n", badsp == 0 ? "yes" : "no");
	exit(0);
}
