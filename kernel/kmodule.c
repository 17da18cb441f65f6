/*
 * kernel/kmodule.c: a kernel backend's load and unload steps (kmodule.h).
 */
#include "kmodule.h"

/* Undo steps [0, to) last first, ignoring refusals: only for a load
 * that failed, whose later steps never ran. */
static void
kmod_undo(const kmod_step_t *steps, size_t to)
{
	while (to-- > 0) {
		if (steps[to].km_down != NULL)
			(void)steps[to].km_down();
	}
}

int
kmod_up(const kmod_step_t *steps, size_t n)
{
	int err;

	for (size_t i = 0; i < n; i++) {
		if (steps[i].km_up != NULL && (err = steps[i].km_up()) != 0) {
			kmod_undo(steps, i);
			return err;
		}
	}
	return 0;
}

int
kmod_down(const kmod_step_t *steps, size_t n)
{
	int err;

	for (size_t i = n; i-- > 0;) {
		if (steps[i].km_down == NULL || (err = steps[i].km_down()) == 0)
			continue;
		/* redo what was undone; a step that came up once comes up again */
		while (++i < n) {
			if (steps[i].km_up != NULL)
				(void)steps[i].km_up();
		}
		return err;
	}
	return 0;
}
