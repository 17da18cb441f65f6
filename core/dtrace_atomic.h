/*
 * core/dtrace_atomic.h: atomics and memory barriers for the core.
 *
 * Probe context is lock-free: CPUs coordinate through compare-and-swap on
 * shared words (dynamic-variable chains and free lists, speculation states,
 * error counters) and through producer/consumer barriers around data that
 * another CPU reads without a lock (ECB chains, buffers swapped by a
 * cross-call).  Everything here is a static inline over the compiler's
 * __atomic builtins (gcc >= 4.7, clang >= 3.1), so the core needs nothing
 * from the port for atomics.
 *
 * A port whose compiler lacks the builtins replaces this one header and must
 * provide, with the same names, types and semantics (all usable in probe
 * context: no locks, no allocation, no faults):
 *
 *   uint32_t  dtrace_cas32(volatile uint32_t *p, uint32_t cmp, uint32_t nv);
 *   uint64_t  dtrace_cas64(volatile uint64_t *p, uint64_t cmp, uint64_t nv);
 *   void     *dtrace_casptr(void *volatile *p, void *cmp, void *nv);
 *       Atomically: old = *p; if (old == cmp) *p = nv; return old.
 *       Full barrier (sequentially consistent) on success and failure.
 *   uint32_t  dtrace_add32(volatile uint32_t *p, uint32_t v);
 *   uint64_t  dtrace_add64(volatile uint64_t *p, uint64_t v);
 *       Atomically add v; return the NEW value.
 *   uint32_t  dtrace_load_acquire32(const volatile uint32_t *p);
 *   uint64_t  dtrace_load_acquire64(const volatile uint64_t *p);
 *   void     *dtrace_load_acquireptr(void *const volatile *p);
 *       Load; later loads and stores are not reordered before it.
 *   void      dtrace_store_release32(volatile uint32_t *p, uint32_t v);
 *   void      dtrace_store_release64(volatile uint64_t *p, uint64_t v);
 *   void      dtrace_store_releaseptr(void *volatile *p, void *v);
 *       Store; earlier loads and stores are not reordered after it.
 *   void      dtrace_membar_producer(void);
 *       Earlier stores become visible before later stores (illumos
 *       membar_producer, a store-store barrier).
 *   void      dtrace_membar_consumer(void);
 *       Earlier loads complete before later loads (membar_consumer,
 *       a load-load barrier).
 *   void      dtrace_membar_full(void);
 *       Full barrier.
 *
 * 64-bit operations must be atomic on 32-bit targets too (cmpxchg8b,
 * ldrexd/strexd, or a lock-free sequence); the core never falls back to a
 * lock for them.
 */
#ifndef DTRACE_CORE_ATOMIC_H
#define DTRACE_CORE_ATOMIC_H

#include <stdint.h>

static inline uint32_t
dtrace_cas32(volatile uint32_t *p, uint32_t cmp, uint32_t nv)
{
	__atomic_compare_exchange_n(p, &cmp, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return cmp; /* on failure the builtin stored the current value here */
}

static inline uint64_t
dtrace_cas64(volatile uint64_t *p, uint64_t cmp, uint64_t nv)
{
	__atomic_compare_exchange_n(p, &cmp, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return cmp;
}

static inline void *
dtrace_casptr(void *volatile *p, void *cmp, void *nv)
{
	__atomic_compare_exchange_n(p, &cmp, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return cmp;
}

static inline uint32_t
dtrace_add32(volatile uint32_t *p, uint32_t v)
{
	return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST);
}

static inline uint64_t
dtrace_add64(volatile uint64_t *p, uint64_t v)
{
	return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST);
}

static inline uint32_t
dtrace_load_acquire32(const volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline uint64_t
dtrace_load_acquire64(const volatile uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void *
dtrace_load_acquireptr(void *const volatile *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void
dtrace_store_release32(volatile uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void
dtrace_store_release64(volatile uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void
dtrace_store_releaseptr(void *volatile *p, void *v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/*
 * C11 has no store-store-only or load-load-only fence; release and acquire
 * fences are the cheapest that order those pairs on every supported ISA.
 */
static inline void
dtrace_membar_producer(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void
dtrace_membar_consumer(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline void
dtrace_membar_full(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#endif /* DTRACE_CORE_ATOMIC_H */
