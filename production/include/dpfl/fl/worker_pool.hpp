// Parallel clients in one process (dpfl train --workers W; docs/scaling.md): W threads take items
// 0..n−1 from a shared counter, each on its own worker slot (a model replica), so the order in
// which items finish is free but every item's result is a pure function of the item. The caller
// stores results by item index and combines them in index order, which is what makes the
// aggregate — and so the final weights — bit-identical for every W.
#pragma once

#include <cstddef>
#include <functional>

namespace dpfl::fl {

// Runs fn(worker, item) for every item in [0, n) on min(workers, n) threads (worker 0 is the
// calling thread; workers ≥ 1). Once an item throws, no further item starts; after every thread
// has stopped, the exception of the lowest failed item is rethrown (so which error the caller
// sees does not depend on the scheduling). workers == 0 is an InvalidArgument.
void ForEachItem(std::size_t workers, std::size_t n, const std::function<void(std::size_t worker, std::size_t item)>& fn);

// The default worker count: std::thread::hardware_concurrency(), at least 1.
std::size_t DefaultWorkers();

}  // namespace dpfl::fl
