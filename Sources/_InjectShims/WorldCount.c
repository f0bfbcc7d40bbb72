#include "_InjectShims.h"

_Atomic(long) _inject_worlds_alive = 0;
