// What Inject's Swift code needs of C: atomic counters and flags, on every deployment target
// (Swift's `Atomic` needs macOS 15 and iOS 18), some of which code inlined into a consumer's
// module reads or writes with one plain instruction. Not API: a module of Inject's own, whose
// names are all `_inject_`.

#ifndef INJECT_SHIMS_H
#define INJECT_SHIMS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/// How many worlds are alive, in every thread: defined in Counters.c.
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

/// Sets or clears the flag at `flag`, a Swift `Bool`, with release ordering: a thread that reads
/// it with ``_inject_flag_acquire`` and finds the value stored here sees what this thread wrote
/// before storing it.
static inline __attribute__((always_inline)) void _inject_flag_release(bool *flag, bool value) {
  atomic_store_explicit((_Atomic(bool) *)flag, value, memory_order_release);
}

/// The flag at `flag`, a Swift `Bool`, read with acquire ordering (see ``_inject_flag_release``).
static inline bool _inject_flag_acquire(bool *flag) {
  return atomic_load_explicit((_Atomic(bool) *)flag, memory_order_acquire);
}

/// How many layers were made, in every thread: defined in Counters.c.
extern _Atomic(uint64_t) _inject_layers_made;

/// A number that no other layer of the process has: 1 for the first layer made, and so on.
static inline uint64_t _inject_next_layer_serial(void) {
  return atomic_fetch_add_explicit(&_inject_layers_made, 1, memory_order_relaxed) + 1;
}

/// The count of the reasons that a sendable injection's resolution may not take its fast path
/// (`SendableFastPath`): defined in Counters.c.
extern _Atomic(intptr_t) _inject_fast_path_closers;

/// Adds `delta` to the count of the fast path's closers, sequentially consistent.
static inline void _inject_count_fast_path_closers(intptr_t delta) {
  atomic_fetch_add_explicit(&_inject_fast_path_closers, delta, memory_order_seq_cst);
}

/// The count of the fast path's closers, read with acquire ordering.
static inline __attribute__((always_inline)) intptr_t _inject_fast_path_closers_now(void) {
  return atomic_load_explicit(&_inject_fast_path_closers, memory_order_acquire);
}

/// The count at `count`, a word that only these two functions touch after it was initialized,
/// read with acquire ordering.
static inline uint64_t _inject_count_acquire(uint64_t *count) {
  return atomic_load_explicit((_Atomic(uint64_t) *)count, memory_order_acquire);
}

/// Sets the count at `count` to `value`, with release ordering.
static inline void _inject_count_release(uint64_t *count, uint64_t value) {
  atomic_store_explicit((_Atomic(uint64_t) *)count, value, memory_order_release);
}

/// How many times an override stack changed, in every thread: defined in Counters.c.
extern _Atomic(uint64_t) _inject_stack_changes;

/// Counts a change of an override stack, made before this, with release ordering: a thread that
/// reads the count with ``_inject_stack_changes_now`` and finds this one's sees the change.
static inline void _inject_count_stack_change(void) {
  atomic_fetch_add_explicit(&_inject_stack_changes, 1, memory_order_release);
}

/// How many times an override stack changed, read with acquire ordering.
static inline uint64_t _inject_stack_changes_now(void) {
  return atomic_load_explicit(&_inject_stack_changes, memory_order_acquire);
}

#endif
