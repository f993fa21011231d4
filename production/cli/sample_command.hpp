// dpfl sample — draw n outputs of a production binary quantizer and print their counts.
//
// A production tool: it uses the production library only (never dpfl/ref/). Output contract:
// one JSON object on stdout, printed once everything is computed; bad input exits with status 2
// and one line on stderr naming the flag, with nothing on stdout.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"

namespace dpfl::cli {

// One subcommand of `dpfl`: its CLI11 app and the function that computes its JSON.
struct Command {
  CLI::App* app;
  std::function<nlohmann::json()> run;  // JSON printed on stdout (null: nothing), exit 0
  std::function<int()> run_with_status = nullptr;  // set: prints its own output, returns the exit code
};

// `dpfl sample ldpq|corbinq|coq ...` (sample_command.cpp).
void RegisterSampleCommand(CLI::App& root, std::vector<Command>& commands);
// `dpfl check MECHANISM … -- COMMAND` (check_command.cpp) and `dpfl serve MECHANISM …`
// (serve_command.cpp): the conformance check and the production encoders behind its protocol.
void RegisterCheckCommand(CLI::App& root, std::vector<Command>& commands);
void RegisterServeCommand(CLI::App& root, std::vector<Command>& commands);

// --backend cpu|cuda|auto: true to run on the GPU. "cuda" without a device or without the CUDA
// build throws InvalidArgument("--backend", …); "auto" falls back to the CPU.
bool UseCudaBackend(const std::string& backend);

// Shared parsers of the sample subcommands (sample_command.cpp). Each throws
// InvalidArgument(flag, …): a finite decimal (digits, sign, '.', exponent only); an integer in
// [lo, hi]; a decimal that is finite as a float.
double ParseDecimal(const std::string& text, const std::string& flag);
std::uint64_t ParseUnsigned(const std::string& text, const std::string& flag, std::uint64_t lo, std::uint64_t hi);
float ParseWeight(const std::string& text, const std::string& flag);

// --n, --seed, --threads, --generator, --backend of a sample subcommand, and the stream context
// (key from the seed, round 0).
struct Draws {
  std::uint64_t n, seed;
  int threads;
  quant::StreamContext ctx;
};
Draws ParseDraws(const std::string& n, const std::string& seed, const std::string& threads, const std::string& generator,
                 const std::string& backend);

// `dpfl sample cepam …` (sample_cepam.cpp), registered under `sample`.
void RegisterCepamSample(CLI::App* sample, std::vector<Command>& commands);
// `dpfl sample qgauss …` (sample_qgauss.cpp), registered under `sample`.
void RegisterQgaussSample(CLI::App* sample, std::vector<Command>& commands);


}  // namespace dpfl::cli
