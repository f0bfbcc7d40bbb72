#include "_InjectShims.h"

_Atomic(long) _inject_worlds_alive = 0;
_Atomic(uint64_t) _inject_layers_made = 0;
_Atomic(intptr_t) _inject_fast_path_closers = 0;
_Atomic(uint64_t) _inject_stack_changes = 0;
