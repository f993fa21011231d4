// fuzz_round_wire — parser fuzzer of the multi-process round's frames (dpfl/fl/round_wire.hpp;
// STYLE.md "Fuzz targets", kind "parser"): the bytes a rank receives from another rank are
// untrusted. The first input byte picks the decoder (hello, begin, announce, round, outputs),
// the rest is the frame. The ONLY acceptable outcomes are wire::WireError, or a decoded value
// that encodes back to exactly the input frame (W1: the format is canonical, so nothing in a
// frame is silently ignored or reinterpreted). Anything else — another exception, a sanitizer
// report, an allocation beyond the frame's size (a count is checked against the bytes left
// first) — aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dpfl/fl/round_wire.hpp"

namespace {

namespace wire = dpfl::fl::wire;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_round_wire: invariant broken: %s\n", what);
  std::abort();
}

void Check(const std::string& frame, const std::string& again, const char* what) {
  if (frame != again) Fail(what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string frame(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 5) {
      case 0:
        Check(frame, wire::EncodeHello(wire::DecodeHello(frame)), "W1 hello");
        break;
      case 1:
        Check(frame, wire::EncodeBegin(wire::DecodeBegin(frame)), "W1 begin");
        break;
      case 2: {
        const auto [round, keys] = wire::DecodeAnnounce(frame);
        Check(frame, wire::EncodeAnnounce(round, keys), "W1 announce");
        break;
      }
      case 3:
        Check(frame, wire::EncodeRound(wire::DecodeRound(frame)), "W1 round");
        break;
      default: {
        std::uint64_t in = 0, out = 0;
        const auto [round, outputs] = wire::DecodeOutputs(frame, &in);
        Check(frame, wire::EncodeOutputs(round, outputs, &out), "W1 outputs");
        if (in != out || in > frame.size()) Fail("W1 outputs: message byte counts");
        break;
      }
    }
  } catch (const wire::WireError&) {
  }
  return 0;
}
