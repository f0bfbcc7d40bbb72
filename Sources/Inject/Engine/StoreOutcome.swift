/// What came of storing a new instance (``RollbackLog/store(in:ifNoRollbackSince:_:)``): kept
/// for later consumers, or not, and why not.
enum StoreOutcome {
  /// A rollback happened while the instance was built: the store did not run, and the instance
  /// goes only to the consumer that asked.
  case overlappedByRollback
  /// A session generation that the build resolved ended meanwhile and refused the slot: nothing
  /// is stored, and the instance goes only to the consumer that asked.
  case refusedByEndedGeneration
  /// The slot keeps the instance, as `keeping` says; `replaced` is what it kept before, for the
  /// caller to release once no state is being changed any more.
  case stored(Keeping, replaced: Any?)
}
