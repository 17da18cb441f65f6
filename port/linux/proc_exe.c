/*
 * port/linux/proc_exe.c: the file a traced process runs, for `a.out`.
 *
 * Normally /proc/<pid>/exe.  A program of another ISA started through
 * binfmt_misc runs inside qemu-user, and there /proc/<pid>/exe names the
 * emulator while the program is an ordinary mapping of the process; the
 * kernel hands the interpreter the program's path as its first argument
 * (argv[1], before the program's own argv[0] when the entry has the P
 * flag), so that argument, resolved against the process's working
 * directory, is the program.  Only binfmt's way of starting qemu is
 * recognised (argv[1] not an option); a qemu started by hand with options
 * keeps its own name.  Not probe context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"

/* Is path a qemu-user emulator (qemu-<arch>[-static], or Debian's
 * binfmt wrappers <arch>-binfmt-P)? */
static bool
exe_is_qemu(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strncmp(base, "qemu-", 5) == 0 || strstr(base, "-binfmt-") != NULL;
}

int
dtrace_linux_proc_exe(pid_t pid, char *buf, size_t len)
{
	char path[64], cmd[PATH_MAX + 64], cwd[PATH_MAX], full[2 * PATH_MAX + 2], real[PATH_MAX];
	const char *arg;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (n <= 0)
		return errno;
	if (!exe_is_qemu(buf))
		return 0;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, cmd, sizeof(cmd) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	cmd[n] = '\0';
	arg = cmd + strlen(cmd) + 1; /* argv[1] */
	if (arg >= cmd + n || *arg == '\0' || *arg == '-')
		return 0;
	if (*arg == '/') {
		snprintf(full, sizeof(full), "%s", arg);
	} else {
		snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
		if ((n = readlink(path, cwd, sizeof(cwd) - 1)) <= 0)
			return 0;
		cwd[n] = '\0';
		snprintf(full, sizeof(full), "%s/%s", cwd, arg);
	}
	if (realpath(full, real) != NULL)
		snprintf(buf, len, "%s", real);
	return 0;
}
