// Memory left to the process exit on purpose (IndexOptions::free_memory false: the process ends after one
// run): freeing millions of small blocks one by one costs CPU time that the exit does not. What is left
// stays reachable from a global, so a leak checker (LeakSanitizer in scripts/safety-nets.sh) sees memory
// kept on purpose, not memory lost. Thread-safe.
#pragma once

#include <memory>

namespace errdex {

// Keeps OBJECT alive until the process exits; it is never destroyed.
void LeaveToExit(std::shared_ptr<void> object);

// How many objects were left so far.
size_t LeftToExitCount();

}  // namespace errdex
