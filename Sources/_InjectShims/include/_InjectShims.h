// What Inject's Swift code needs of C: an atomic count that code inlined into a consumer's module
// reads with one relaxed load, on every deployment target (Swift's `Atomic` needs macOS 15 and
// iOS 18). Not API: a module of Inject's own, whose names are all `_inject_`.

#ifndef INJECT_SHIMS_H
#define INJECT_SHIMS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/// How many worlds are alive, in every thread: defined in WorldCount.c.
extern _Atomic(long) _inject_worlds_alive;

/// Whether no world is alive now.
///
/// Relaxed: a task in a world holds it, and the world was counted before any task could see it,
/// so a task that reads zero here is in no world, whatever other threads do meanwhile.
static inline __attribute__((always_inline)) bool _inject_no_world_alive(void) {
  return atomic_load_explicit(&_inject_worlds_alive, memory_order_relaxed) == 0;
}

/// Adds `delta` to the count of worlds alive.
static inline void _inject_count_worlds(long delta) {
  atomic_fetch_add_explicit(&_inject_worlds_alive, delta, memory_order_relaxed);
}

/// Whether the flag at `flag` is set. A flag is a word that only these two functions touch
/// after it was initialized to zero, by the thread that allocated it.
static inline bool _inject_flag_is_set(intptr_t *flag) {
  return atomic_load_explicit((_Atomic(intptr_t) *)flag, memory_order_relaxed) != 0;
}

/// Sets the flag at `flag`.
static inline void _inject_flag_set(intptr_t *flag) {
  atomic_store_explicit((_Atomic(intptr_t) *)flag, 1, memory_order_relaxed);
}

#endif
