// dpfl — the one error type of the project's public APIs.
//
// Every function that validates its arguments throws dpfl::InvalidArgument with a
// message naming the argument, its value, the accepted domain and, where there is
// one, the spec reference. Nothing returns NaN or a partial result instead.
#pragma once

#include <stdexcept>
#include <string>

namespace dpfl {

class InvalidArgument : public std::invalid_argument {
 public:
  InvalidArgument(const std::string& argument, const std::string& message)
      : std::invalid_argument(argument + ": " + message), argument_(argument) {}
  // The name of the offending argument (e.g. "--r" or "r").
  const std::string& argument() const noexcept { return argument_; }

 private:
  std::string argument_;
};

// Thrown when an enclosure is too wide to decide a comparison or a floor that the
// exact algorithm needs (e.g. 2^d q lies within the enclosure radius of an integer).
// The fix is more precision or an exact (rational) input; the result is never guessed.
class Undecidable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dpfl
