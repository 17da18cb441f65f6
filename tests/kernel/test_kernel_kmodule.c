/*
 * kernel/kmodule.c, a kernel backend's load and unload steps: load runs
 * them in order and undoes the ones done when one fails; unload undoes
 * them last first and, when one refuses, redoes the ones it undid, so the
 * module is as it was; steps with nothing to do (NULL) are passed over.
 */
#include "kmodule.h"
#include "test_util.h"

static char trail[64]; /* "+a" for a step's up, "-a" for its down */
static int fail_up = -1, fail_down = -1;

static void
note(char sign, int step)
{
	size_t n = strlen(trail);

	trail[n] = sign;
	trail[n + 1] = (char)('a' + step);
	trail[n + 2] = '\0';
}

#define STEP(i)                                                                            \
	static int up_##i(void)                                                            \
	{                                                                                  \
		note('+', i);                                                              \
		return fail_up == i ? 5 : 0;                                               \
	}                                                                                  \
	static int down_##i(void)                                                          \
	{                                                                                  \
		note('-', i);                                                              \
		return fail_down == i ? 16 : 0;                                            \
	}
STEP(0)
STEP(1)
STEP(2)
STEP(3)

static const kmod_step_t steps[] = {
	{up_0, down_0},
	{up_1, NULL},
	{up_2, down_2},
	{up_3, down_3},
};

static int
run(bool up, int fu, int fd)
{
	trail[0] = '\0';
	fail_up = fu;
	fail_down = fd;
	return up ? kmod_up(steps, 4) : kmod_down(steps, 4);
}

int
main(void)
{
	(void)down_1; /* step b has nothing to undo */
	CHECK_EQ(run(true, -1, -1), 0);
	CHECK(strcmp(trail, "+a+b+c+d") == 0);
	CHECK_EQ(run(false, -1, -1), 0);
	CHECK(strcmp(trail, "-d-c-a") == 0);

	/* the third fails: the two before are undone, last first */
	CHECK_EQ(run(true, 2, -1), 5);
	CHECK(strcmp(trail, "+a+b+c-a") == 0);
	/* the first fails: nothing to undo */
	CHECK_EQ(run(true, 0, -1), 5);
	CHECK(strcmp(trail, "+a") == 0);

	/* the third refuses to go: the fourth comes back */
	CHECK_EQ(run(false, -1, 2), 16);
	CHECK(strcmp(trail, "-d-c+d") == 0);
	/* the last refuses: nothing was undone */
	CHECK_EQ(run(false, -1, 3), 16);
	CHECK(strcmp(trail, "-d") == 0);
	/* the first refuses: all the others come back, in order */
	CHECK_EQ(run(false, -1, 0), 16);
	CHECK(strcmp(trail, "-d-c-a+b+c+d") == 0);
	return TEST_DONE();
}
