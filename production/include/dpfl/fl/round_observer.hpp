// A read-only view of what crosses the wire in one round of the update-based loops (seed 002's
// CEPAM loop, seed 003's quantized-Gaussian loop, seed 004's DPFL-BNN loop): who took part, what
// each client sent, what the server made of it and what it broadcast. The loops call an observer,
// when one is set, once per round after aggregation; setting one changes nothing they compute.
//
// It exists for behaviour-level checks of the loops' wiring (tests/statistical/
// loop_wiring_stat_test.cpp: every message's law given its input, independence across rounds,
// clients and coordinates, participation, the server's decode and aggregation) and for audits.
// `input` is the client's private value the mechanism was applied to; only an in-process
// simulation can see it.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace dpfl::fl {

struct ObservedUplink {
  std::uint32_t client = 0;
  std::vector<float> input;           // the mechanism's input: the update W^k − W_t (002, 003), the latents θ (004)
  std::uint64_t bits = 0;             // the message's size on the wire
  std::vector<std::uint64_t> words;   // bitstream / packed indices / packed bits (empty for float messages)
  std::vector<float> floats;          // float messages (the unquantized baselines)
  std::vector<double> decoded;        // the server's estimate of this client's contribution (002, 003; empty for 004)
};

struct ObservedRound {
  std::uint32_t round = 0;                  // 0-based
  std::vector<ObservedUplink> uplinks;      // the participants, in the order the server consumes them
  std::vector<std::uint32_t> counts;        // 004: the secure aggregate K_j the server sees
  std::vector<float> broadcast;             // the global model after the round (002, 003); W̃ (004)
};

using RoundObserver = std::function<void(const ObservedRound&)>;

}  // namespace dpfl::fl
