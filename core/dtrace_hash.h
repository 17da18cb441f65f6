/*
 * core/dtrace_hash.h: the core's one hash function, xxHash (XXH3 and XXH64).
 *
 * Used for dynamic-variable keys (core/dif/dynvar.c) and any other table the
 * core hashes.  Everything is inline (XXH_INLINE_ALL): no xxhash library is
 * linked, and the functions run in probe context (no allocation, bounded by
 * the length they are given).  One-shot hashes use XXH3 (fastest on short
 * keys), incremental ones XXH64 (its state is 88 bytes, XXH3's 576: stack is
 * scarce in probe context).
 *
 * Freestanding builds.  Debian's xxhash.h (0.8.1) includes <stdlib.h>,
 * <string.h>, <limits.h> and <assert.h> for helpers the core never calls
 * (XXH64_createState() and friends use malloc/free).  A build without libc
 * headers (ci/, kernels) must put on the include path small headers that
 * declare just: `void *malloc(size_t)`, `void free(void *)` (stdlib.h),
 * `memcpy` and `memset` (string.h), `static_assert` (assert.h, C11's
 * _Static_assert), and ULLONG_MAX (limits.h, the compiler's own).  When the
 * target enables SSE2 or NEON, xxhash.h also includes the compiler's own
 * <emmintrin.h> or <arm_neon.h> (never used with XXH_VECTOR scalar; kernel
 * builds with -mno-sse skip them).  Nothing else in the core may include
 * xxhash.h.
 */
#ifndef DTRACE_CORE_HASH_H
#define DTRACE_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
/*
 * Scalar XXH3 only: probe context may not touch SIMD registers on a kernel.
 * (XXH_NO_XXH3 is not an option with 0.8.1: it leaves XXH3 declared static
 * and undefined, which gcc reports in every file that includes us.)
 */
#undef XXH_VECTOR
#define XXH_VECTOR 0 /* XXH_SCALAR */
#include <xxhash.h>

/* Incremental hashing of a key assembled from pieces (a tuple). */
typedef XXH64_state_t dtrace_hash_state_t;

/* Hash `len` bytes of core-owned (directly readable) memory. */
static inline uint64_t
dtrace_hash64(const void *buf, size_t len, uint64_t seed)
{
	return (uint64_t)XXH3_64bits_withSeed(buf, len, seed);
}

/* Hash one 64-bit word (as its native-endian bytes). */
static inline uint64_t
dtrace_hash_u64(uint64_t v, uint64_t seed)
{
	return (uint64_t)XXH3_64bits_withSeed(&v, sizeof(v), seed);
}

static inline void
dtrace_hash_init(dtrace_hash_state_t *st, uint64_t seed)
{
	(void)XXH64_reset(st, seed);
}

static inline void
dtrace_hash_update(dtrace_hash_state_t *st, const void *buf, size_t len)
{
	(void)XXH64_update(st, buf, len);
}

static inline uint64_t
dtrace_hash_final(const dtrace_hash_state_t *st)
{
	return (uint64_t)XXH64_digest(st);
}

#endif /* DTRACE_CORE_HASH_H */
