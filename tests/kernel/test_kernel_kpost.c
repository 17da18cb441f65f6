/*
 * kernel/kpost.c, signals posted from probe context: nothing pending at
 * first, a post taken once with its own signal, a later post replacing an
 * earlier one, the largest pid and signal numbers kept whole.
 */
#include "kpost.h"
#include "test_util.h"

int
main(void)
{
	kpost_t kp = {0};
	uint64_t w;

	CHECK_EQ(kpost_take(&kp), 0);
	kpost_put(&kp, 42, 17);
	w = kpost_take(&kp);
	CHECK_EQ(kpost_pid(w), 42);
	CHECK_EQ(kpost_sig(w), 17);
	CHECK_EQ(kpost_take(&kp), 0);
	kpost_put(&kp, 7, 15);
	kpost_put(&kp, 8, 19);
	w = kpost_take(&kp);
	CHECK_EQ(kpost_pid(w), 8);
	CHECK_EQ(kpost_sig(w), 19);
	kpost_put(&kp, UINT32_MAX, 64);
	w = kpost_take(&kp);
	CHECK_EQ(kpost_pid(w), UINT32_MAX);
	CHECK_EQ(kpost_sig(w), 64);
	return TEST_DONE();
}
