// See dpfl/fl/worker_pool.hpp.
#include "dpfl/fl/worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "dpfl/error.hpp"

namespace dpfl::fl {

void ForEachItem(std::size_t workers, std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn) {
  if (workers == 0) throw InvalidArgument("--workers", "must be >= 1");
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::size_t error_item = n;
  std::exception_ptr error;
  const auto run = [&](std::size_t worker) {
    while (!failed.load(std::memory_order_relaxed)) {
      const std::size_t item = next.fetch_add(1);
      if (item >= n) return;
      try {
        fn(worker, item);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (item < error_item) {
          error_item = item;
          error = std::current_exception();
        }
        failed = true;
      }
    }
  };
  const std::size_t threads = std::min(workers, n);
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < threads; ++w) {
    try {
      pool.emplace_back(run, w);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the started ones (and this one) take every item
    }
  }
  run(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

std::size_t DefaultWorkers() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace dpfl::fl
