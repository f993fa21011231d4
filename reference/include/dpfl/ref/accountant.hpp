// dpfl::ref — RDP accountant: composition over steps and RDP → (ε, δ) conversion.
//
//  * Composition (Mironov 2017, Prop. 1): T adaptive releases of an (α, ρ(α))-RDP mechanism are
//    (α, T ρ(α))-RDP — additive, for the same adjacency notion as the mechanism's.
//  * Classic conversion (Mironov 2017, Prop. 3): (α, ρ)-RDP ⇒ (ρ + log(1/δ)/(α − 1), δ)-DP.
//  * Improved conversion (Balle et al. 2020, Thm 21; Canonne, Kamath, Steinke 2020, Prop. 12):
//    (α, ρ)-RDP ⇒ (ρ + log((α − 1)/α) − (log δ + log α)/(α − 1), δ)-DP.
//    Both hold for every α > 1 and δ ∈ (0, 1); a negative value implies (0, δ)-DP, so ε is
//    reported as max(0, ·). The best order minimises the upper endpoint of the enclosure; since
//    every order gives a valid guarantee, the reported enclosure is rigorous for that order.
//  * Default orders: 1.25, 1.5, …, 10 (step 1/4), then 11, 12, …, 64 (90 orders).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "dpfl/ref/sampled_gaussian.hpp"

namespace dpfl::ref {

enum class Conversion { kClassic, kImproved };
// "classic" | "improved"; anything else throws InvalidArgument naming `flag`.
Conversion ParseConversion(const std::string& text, const std::string& flag);

std::vector<Rational> DefaultOrders();

// ε(α) for a total RDP value `rdp` at order α. Names "order", "delta".
Enclosure RdpToEpsilon(const Enclosure& rdp, const Rational& order, const Rational& delta, Conversion conversion);

struct AccountantResult {
  Interval epsilon;
  Rational order;
  Interval rdp_total;  // T ρ(α) at the best order
};

// Best ε over `orders` for T steps of a mechanism with per-step RDP `rdp_per_step(α)`.
// Names "orders" (empty or an order ≤ 1), "steps" (not an integer ≥ 1), "delta".
AccountantResult Account(const std::function<Enclosure(const Rational&)>& rdp_per_step, const Rational& steps,
                         const Rational& delta, const std::vector<Rational>& orders, Conversion conversion);

// Sampled Gaussian: per-step RDP from sampled_gaussian.hpp (add/remove adjacency).
AccountantResult SampledGaussianAccountant(const Rational& q, const Rational& sigma, const Rational& steps,
                                           const Rational& delta, const std::vector<Rational>& orders,
                                           Conversion conversion, const SgmOptions& options = {});

}  // namespace dpfl::ref
