// dpfl-ref accounting commands — what the per-family registration files share (internal to the
// CLI; main.cpp only sees RegisterAccountingCommands and RdpGroup in cli_common.hpp).
#pragma once

#include <string>
#include <vector>

#include "cli_common.hpp"

namespace dpfl::cli {

// The neighbouring relation each output names under "adjacency".
inline constexpr const char* kSensitivityAdjacency =
    "any neighbouring relation under which the query's sensitivity is at most --sensitivity "
    "(add/remove or replace-one, as the caller's sensitivity encodes)";
inline constexpr const char* kPoissonAdjacency = "add/remove one record (Poisson subsampling, rate q)";
inline constexpr const char* kRrAdjacency = "replace-one (the input bit may change arbitrarily; spec 004 E7)";
inline constexpr const char* kBinomialAdjacency =
    "any neighbouring relation under which the integer-valued query moves by at most Delta1, Delta2, "
    "Delta_inf in l1, l2, l_inf (cpSGD Theorem 1; spec 000 Thm 3 uses replace-one client)";

// A subcommand group: creates `name` once (or returns the existing one).
CLI::App* SubcommandGroup(CLI::App& root, const std::string& name, const std::string& help);
// Registers a command for `group` that runs whichever child command was parsed (main stops at
// the first parsed command, group or child).
void AddGroupDispatcher(CLI::App* group, std::vector<Command>& commands);

// --order: a rational > 1.
Rational ParseOrderFlag(const std::string& text);
// --orders: comma-separated rationals > 1; empty means the library's default grid.
std::vector<Rational> ParseOrdersFlag(const std::string& text);

// The JSON every accounting command starts from: quantity, adjacency, natural logs, enclosures
// at `bits` (validated).
JsonResult AccountingResult(const std::string& quantity, const std::string& adjacency, int bits);

// Per-family registration, called by RegisterAccountingCommands in this order (which is also
// the order of the --help listing).
void RegisterRdpCommands(CLI::App& root, std::vector<Command>& commands);          // accounting_rdp_commands.cpp
void RegisterAccountantCommand(CLI::App& root, std::vector<Command>& commands);    // accounting_commands.cpp
void RegisterCalibrateCommands(CLI::App& root, std::vector<Command>& commands);    // accounting_commands.cpp
void RegisterBnnCommand(CLI::App& root, std::vector<Command>& commands);           // accounting_bnn_commands.cpp
void RegisterBnnGammaMaxCommand(CLI::App& root, std::vector<Command>& commands);   // accounting_bnn_commands.cpp
void RegisterBinomialMechanismCommand(CLI::App& root, std::vector<Command>& commands);  // accounting_commands.cpp
void RegisterBnnExactDeltaCommand(CLI::App& root, std::vector<Command>& commands);  // accounting_bnn_commands.cpp
void RegisterPldCommands(CLI::App& root, std::vector<Command>& commands);           // pld_commands.cpp

}  // namespace dpfl::cli
