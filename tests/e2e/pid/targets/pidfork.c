/*
 * pidfork: calls add() twice, forks; the child calls add() three times and
 * exits 0 (had a breakpoint survived in its text with no one to handle it,
 * it would die of SIGTRAP); the parent waits and exits with 0 only if the
 * child exited normally, after calling add() once more.
 */
#include <sys/wait.h>
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) int
add(int a, int b)
{
	__asm__ volatile("");
	return a + b;
}

int
main(void)
{
	int status;
	pid_t pid;

	sink += add(1, 1);
	sink += add(2, 2);
	if ((pid = fork()) < 0)
		return 3;
	if (pid == 0) {
		for (int i = 0; i < 3; i++)
			sink += add(i, 100);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 4;
	sink += add(3, 3);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
