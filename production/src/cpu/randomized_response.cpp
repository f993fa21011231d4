// DPFL-BNN client encoders and server decoding on the CPU (dpfl/quant/randomized_response.hpp).
#include "dpfl/quant/randomized_response.hpp"

#include <cmath>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/quant/rr_encoders.hpp"

namespace dpfl::quant {
namespace {
fast::Isa Isa() { return fast::ActiveIsa(); }
}  // namespace

RandomizedResponse MakeRandomizedResponse(double gamma) {
  if (!std::isfinite(gamma) || gamma < 0.0 || gamma > 0.5)
    throw InvalidArgument("rr-gamma", "RR bias gamma must be in [0, 1/2] (keep probability 1/2 + gamma, seed-004 "
                                      "Def. 3; 0 = output independent of the input, 1/2 = no noise), got " +
                                          ShortestDouble(gamma));
  RandomizedResponse rr;
  rr.gamma = gamma;
  rr.flip_threshold = RrFlipThreshold(gamma);
  return rr;
}

void ValidateLatents(std::span<const float> theta, std::size_t packed_words) {
  ValidateOutputSize(theta.size(), packed_words);
  if (!detail::AnyNonFinite(theta.data(), theta.size())) return;
  for (std::size_t j = 0; j < theta.size(); ++j)
    if (!std::isfinite(theta[j]))
      throw InvalidArgument("theta", "latent weight theta[" + std::to_string(j) + "] is " + std::to_string(theta[j]) +
                                         " (NaN and +-Inf are rejected; finite values binarize as if clipped to [-1, 1])");
}

void EncodeSign(std::span<const float> theta, std::span<std::uint64_t> bits, int threads) {
  detail::EncodeSignT<NoRrFaults>(theta, bits, threads);
}

void EncodeStoSign(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                   std::span<std::uint64_t> bits, int threads) {
  fast::EncodeStoSignFast(theta, ctx, client, bits, threads, Isa());
}

void Binarize(Binarizer binarizer, std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
              std::span<std::uint64_t> bits, int threads) {
  if (binarizer == Binarizer::kSign) {
    EncodeSign(theta, bits, threads);
  } else {
    EncodeStoSign(theta, ctx, client, bits, threads);
  }
}

namespace {
void ValidateRr(const RandomizedResponse& rr) {
  // γ first: RrFlipThreshold is defined for γ ∈ [0, 1/2] only (a NaN or negative γ would make
  // its conversion to an integer undefined).
  if (!(rr.gamma >= 0.0 && rr.gamma <= 0.5) || rr.flip_threshold != RrFlipThreshold(rr.gamma))
    throw InvalidArgument("rr", "not made by MakeRandomizedResponse (threshold does not match gamma)");
}
}  // namespace

void ApplyRandomizedResponse(const RandomizedResponse& rr, std::size_t m, const StreamContext& ctx,
                             std::uint32_t client, std::span<std::uint64_t> bits, int threads) {
  ValidateRr(rr);
  fast::ApplyRandomizedResponseFast(rr.flip_threshold, m, ctx, client, bits, threads, Isa());
}

void EncodeBnnUpload(Binarizer binarizer, const RandomizedResponse* rr, std::span<const float> theta,
                     const StreamContext& ctx, std::uint32_t client, std::span<std::uint64_t> bits, int threads) {
  if (binarizer == Binarizer::kStoSign && rr != nullptr) {  // one pass, the same bits as the two below
    ValidateRr(*rr);
    fast::EncodeBnnUploadFast(theta, rr->flip_threshold, ctx, client, bits, threads, Isa());
    return;
  }
  Binarize(binarizer, theta, ctx, client, bits, threads);
  if (rr != nullptr) ApplyRandomizedResponse(*rr, theta.size(), ctx, client, bits, threads);
}

void DecodeBnnAverage(std::span<const std::uint32_t> counts, std::uint32_t n, std::span<float> mean) {
  detail::DecodeBnnAverageT<NoRrFaults>(counts, n, mean);
}

}  // namespace dpfl::quant
