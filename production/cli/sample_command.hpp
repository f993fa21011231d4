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

namespace dpfl::cli {

// One subcommand of `dpfl`: its CLI11 app and the function that computes its JSON.
struct Command {
  CLI::App* app;
  std::function<nlohmann::json()> run;
};

// `dpfl sample ldpq|corbinq|coq ...` (sample_command.cpp).
void RegisterSampleCommand(CLI::App& root, std::vector<Command>& commands);

// --backend cpu|cuda|auto: true to run on the GPU. "cuda" without a device or without the CUDA
// build throws InvalidArgument("--backend", …); "auto" falls back to the CPU.
bool UseCudaBackend(const std::string& backend);


}  // namespace dpfl::cli
