// The mechanisms `dpfl check` knows: their parameters, their input design and their exact law at
// one input, computed by the reference (dpfl::ref: rationals, or MPFI enclosures at 256 bits whose
// midpoints are used). The engine (engine.cpp) only counts and tests.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace dpfl::check {

// The exact law of one input, in the form the tests need.
struct InputLaw {
  std::vector<double> target;            // what the loss is measured from (the clipped input)
  std::vector<double> cell_prob;         // exact probability of every cell of the law test
  std::vector<std::string> cell_names;   // "c+ra", "(-,+)", "|e|^2/s^2 in [a, b), e_1 >= 0", …
  std::vector<double> mean, sd;          // exact mean and standard deviation of every output
  double loss_mean = 0, loss_sd = 0;     // exact mean and standard deviation of the loss
  std::vector<std::vector<double>> points;  // discrete laws: the support point of every cell
  std::int64_t grid_index = 0;              // grid baselines: the index k the noise Z is added to
};

class MechanismLaw {
 public:
  MechanismLaw(int input_arity, int output_arity) : input_arity_(input_arity), output_arity_(output_arity) {}
  virtual ~MechanismLaw() = default;
  int input_arity() const { return input_arity_; }
  int output_arity() const { return output_arity_; }
  // The fixed design (clip ends, centre, boundaries, …) plus `random_inputs` random inputs.
  virtual std::vector<std::vector<double>> Design(std::mt19937_64& rng, int random_inputs) const = 0;
  // An input near x (scale in (0, 1]: a fraction of the input domain), or a random one.
  virtual std::vector<double> Perturb(const std::vector<double>& x, double scale, std::mt19937_64& rng) const = 0;
  virtual InputLaw LawAt(const std::vector<double>& x) const = 0;
  // The cell of an answer row y at input x: an index, −1 when y is no point of the mechanism's
  // support (within the relative tolerance; relative to the largest support magnitude).
  virtual int Cell(const InputLaw& law, std::span<const double> x, std::span<const double> y, double tolerance) const;
  // The loss whose mean the "mse" check tests: (Σ_k (y_k − target_k))² by default (the pair
  // sum's squared error for pairs).
  virtual double Loss(const InputLaw& law, std::span<const double> x, std::span<const double> y) const;
  // A scalar of one run for the independence tests (Σ_k y_k by default).
  virtual double Summary(std::span<const double> x, std::span<const double> y) const;
  // What the report prints about the support ("{c - r*alpha, c + r*alpha}").
  virtual std::string SupportText() const = 0;

 protected:
  // Fills mean, sd, loss_mean, loss_sd of a discrete law from its points and cell_prob.
  void FinishDiscrete(InputLaw& law) const;

 private:
  int input_arity_, output_arity_;
};

class Params;
// The seed-000 gaussian / laplace baselines on their grid (grid_noise_laws.cpp).
std::unique_ptr<MechanismLaw> MakeGridNoiseLaw(bool gaussian, Params& params);

// Throws dpfl::InvalidArgument naming the flag ("--eps") for a missing, unknown or bad parameter.
std::unique_ptr<MechanismLaw> MakeMechanismLaw(const std::string& name,
                                               const std::map<std::string, std::string>& parameters);

// Rounds to float32 and back (every input the engine sends is a float32 value, so that an
// implementation that takes float weights sees exactly the input the law is computed at).
double ToFloat(double v);

// k random inputs in [lo, hi], one in each of k equal strata (so no band of width (hi − lo)/k is
// missed), in random order.
std::vector<double> StratifiedInputs(std::mt19937_64& rng, double lo, double hi, int k);

}  // namespace dpfl::check
