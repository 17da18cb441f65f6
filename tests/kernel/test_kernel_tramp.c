/*
 * kernel/tramp.c, trampolines carved from the OS's chunks: 16-byte steps,
 * a first chunk the backend already has used up before any other is
 * asked for, a new chunk when one is full, lengths no chunk holds and
 * other address spaces refused, an OS out of chunks reported.
 */
#include "test_util.h"
#include "tramp.h"

static _Alignas(16) unsigned char pool[64], chunks[2][128];
static int nchunks;

static uintptr_t
chunk(void)
{
	return nchunks < 2 ? (uintptr_t)chunks[nchunks++] : 0;
}

int
main(void)
{
	ktramp_t kt = {(uintptr_t)pool, sizeof(pool), 0, sizeof(chunks[0]), chunk};
	uintptr_t a = 0;

	CHECK_EQ(ktramp_alloc(&kt, NULL, 20, &a), 0); /* 32 bytes */
	CHECK_EQ(a, (uintptr_t)pool);
	CHECK_EQ(ktramp_alloc(&kt, NULL, 32, &a), 0); /* fills the pool */
	CHECK_EQ(a, (uintptr_t)pool + 32);
	CHECK_EQ(nchunks, 0);
	CHECK_EQ(ktramp_alloc(&kt, NULL, 1, &a), 0);
	CHECK_EQ(a, (uintptr_t)chunks[0]);
	CHECK_EQ(ktramp_alloc(&kt, NULL, 112, &a), 0); /* the rest of chunk 0 */
	CHECK_EQ(a, (uintptr_t)chunks[0] + 16);
	CHECK_EQ(ktramp_alloc(&kt, NULL, 113, &a), 0); /* 128: the next chunk */
	CHECK_EQ(a, (uintptr_t)chunks[1]);
	CHECK_EQ(nchunks, 2);
	CHECK_EQ(ktramp_alloc(&kt, NULL, 129, &a), DTRACE_EINVAL);
	CHECK_EQ(ktramp_alloc(&kt, NULL, 0, &a), DTRACE_EINVAL);
	CHECK_EQ(ktramp_alloc(&kt, &kt, 16, &a), DTRACE_EINVAL);
	CHECK_EQ(ktramp_alloc(&kt, NULL, 16, &a), DTRACE_ENOMEM); /* the OS has no more */
	return TEST_DONE();
}
