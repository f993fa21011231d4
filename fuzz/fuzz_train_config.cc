// fuzz_train_config — the `dpfl train --config FILE.json` parser (contract:
// production/cli/train_config.hpp): dpfl::cli::ApplyConfigText on the input as text.
//
// Input: an optional first line "#cmdline k1,k2,...\n" lists the keys that count as given on the
// command line (on_command_line(key) is true exactly for them); the rest is the config text.
// The ONLY acceptable outcomes are dpfl::InvalidArgument("--config", ...) whose message names the
// source, or success; and the outcome is predicted exactly by an oracle written here from the
// header's contract (nlohmann_json parses the text independently):
//   T1  the text is not JSON, or not one JSON object, or has a key outside the table below, or a
//       key not on the command line whose value has the wrong type (string flags: a string;
//       real flags: a number; integer flags: a JSON integer inside the C++ type's range)
//       → InvalidArgument; otherwise success;
//   T2  on success every key of the object that is not on the command line has exactly the
//       JSON value (an integer is in its type's range and equal, never wrapped or truncated;
//       reals are finite), every other field keeps its prior value (the fields start from
//       sentinels, not the defaults, so a stray write of a default is caught too), and the
//       command-line-only fields (config_file, resume, lambda_grid, quiet, no_plots) are never
//       touched;
//   T3  on_command_line is asked about known keys only.
// Any other exception, a sanitizer report, a hang or > 2 GB RSS aborts. If ApplyConfigText
// learns a key, add it to kKeys (an unknown-to-the-oracle key that is accepted aborts).
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "dpfl/error.hpp"
#include "train_config.hpp"

namespace {

using dpfl::cli::TrainArgs;
using Field = std::variant<std::string TrainArgs::*, double TrainArgs::*, int TrainArgs::*, std::uint32_t TrainArgs::*,
                           std::uint64_t TrainArgs::*>;
struct Key {
  const char* name;
  Field field;
};
// The oracle's copy of the flags a config file may set (train_config.hpp, `dpfl train --help`).
const Key kKeys[] = {
    {"dataset", &TrainArgs::dataset},
    {"mechanism", &TrainArgs::mechanism},
    {"data-dir", &TrainArgs::data_dir},
    {"out", &TrainArgs::out},
    {"split", &TrainArgs::split},
    {"model", &TrainArgs::model},
    {"optimizer", &TrainArgs::optimizer},
    {"generator", &TrainArgs::generator},
    {"keys", &TrainArgs::keys},
    {"signing-key", &TrainArgs::signing_key},
    {"eps-p", &TrainArgs::eps_p},
    {"gamma", &TrainArgs::gamma},
    {"dropout", &TrainArgs::dropout},
    {"lambda", &TrainArgs::lambda},
    {"delta", &TrainArgs::delta},
    {"delta-u", &TrainArgs::delta_u},
    {"lr", &TrainArgs::lr},
    {"momentum", &TrainArgs::momentum},
    {"beta", &TrainArgs::beta},
    {"radius-scale", &TrainArgs::radius_scale},
    {"d", &TrainArgs::d},
    {"local-epochs", &TrainArgs::local_epochs},
    {"local-steps", &TrainArgs::local_steps},
    {"batch", &TrainArgs::batch},
    {"patience", &TrainArgs::patience},
    {"threads", &TrainArgs::threads},
    {"clients", &TrainArgs::clients},
    {"rounds", &TrainArgs::rounds},
    {"seed", &TrainArgs::seed},
    {"max-samples", &TrainArgs::max_samples},
    {"synthetic-samples", &TrainArgs::synthetic_samples},
    {"monitor-samples", &TrainArgs::monitor_samples},
    {"target-epsilon", &TrainArgs::target_epsilon},
    {"target-mode", &TrainArgs::target_mode},
    {"rr-gamma", &TrainArgs::rr_gamma},
    {"mix-beta", &TrainArgs::mix_beta},
    {"adam-beta1", &TrainArgs::adam_beta1},
    {"binarizer", &TrainArgs::binarizer},
    {"lr-schedule", &TrainArgs::lr_schedule},
    {"eval-clients", &TrainArgs::eval_clients},
    {"eval-samples", &TrainArgs::eval_samples},
    {"lattice-dim", &TrainArgs::lattice_dim},
    {"clip", &TrainArgs::clip},
    {"sigma", &TrainArgs::sigma},
    {"b", &TrainArgs::b},
    {"sdq-step", &TrainArgs::sdq_step},
    {"eps", &TrainArgs::eps},
    {"calibration", &TrainArgs::calibration},
    {"levels", &TrainArgs::levels},
    {"client-sampling", &TrainArgs::client_sampling},
    {"workers", &TrainArgs::workers},
};

const char* kSource = "fuzz.json";

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_train_config: invariant broken: %s\n", what.c_str());
  std::abort();
}

const Key* Find(const std::string& name) {
  for (const Key& k : kKeys)
    if (name == k.name) return &k;
  return nullptr;
}

// Distinct starting values: a field that is written although it should not be, even with its
// default, no longer holds its sentinel.
TrainArgs Sentinels() {
  TrainArgs a;
  std::uint64_t i = 0;
  for (const Key& k : kKeys) {
    ++i;
    std::visit(
        [&](auto member) {
          using T = std::remove_reference_t<decltype(a.*member)>;
          if constexpr (std::is_same_v<T, std::string>) {
            a.*member = "<sentinel " + std::to_string(i) + ">";
          } else if constexpr (std::is_same_v<T, double>) {
            a.*member = -1000.25 - static_cast<double>(i);
          } else {
            a.*member = static_cast<T>(777 + i);
          }
        },
        k.field);
  }
  a.config_file = "<config file>";
  a.resume = a.quiet = true;
  a.lambda_grid = a.no_plots = false;
  return a;
}

template <class T>
bool IntegerFits(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  if (v.is_number_integer()) {
    const std::int64_t s = v.get<std::int64_t>();
    if constexpr (std::is_unsigned_v<T>) {
      return s >= 0 && static_cast<std::uint64_t>(s) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    } else {
      return s >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
             s <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
    }
  }
  return false;  // floats (also 5.0), strings, ...
}

bool ValueFits(const Key& k, const nlohmann::json& v) {
  return std::visit(
      [&](auto member) {
        using T = std::remove_reference_t<decltype(std::declval<TrainArgs&>().*member)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return v.is_string();
        } else if constexpr (std::is_same_v<T, double>) {
          return v.is_number();
        } else {
          return IntegerFits<T>(v);
        }
      },
      k.field);
}

// T2 for one field: `args` holds `v` (written) or the sentinel (untouched).
void CheckField(const Key& k, const TrainArgs& args, const TrainArgs& before, const nlohmann::json* v) {
  std::visit(
      [&](auto member) {
        using T = std::remove_cvref_t<decltype(args.*member)>;
        const T& got = args.*member;
        if (v == nullptr) {
          // (rr-gamma's "absent" default is NaN: compared as NaN == NaN.)
          bool same = got == before.*member;
          if constexpr (std::is_same_v<T, double>) same = same || (std::isnan(got) && std::isnan(before.*member));
          if (!same) Fail(std::string("T2: field '") + k.name + "' changed although not set");
          return;
        }
        if constexpr (std::is_same_v<T, std::string>) {
          if (got != v->get<std::string>()) Fail(std::string("T2: string field '") + k.name + "' differs");
        } else if constexpr (std::is_same_v<T, double>) {
          if (!std::isfinite(got) || got != v->get<double>()) Fail(std::string("T2: real field '") + k.name + "' differs");
        } else {
          bool equal = false;
          if (v->is_number_unsigned()) {
            const std::uint64_t u = v->get<std::uint64_t>();
            if constexpr (std::is_signed_v<T>) {
              equal = got >= 0 && static_cast<std::uint64_t>(got) == u;
            } else {
              equal = static_cast<std::uint64_t>(got) == u;
            }
          } else {
            const std::int64_t s = v->get<std::int64_t>();
            if constexpr (std::is_signed_v<T>) {
              equal = static_cast<std::int64_t>(got) == s;
            } else {
              equal = s >= 0 && static_cast<std::uint64_t>(s) == static_cast<std::uint64_t>(got);
            }
          }
          if (!equal) Fail(std::string("T2: integer field '") + k.name + "' differs (wrapped or truncated)");
        }
      },
      k.field);
}

void Check(std::string_view input) {
  std::set<std::string> cmdline;
  std::string_view text = input;
  constexpr std::string_view kPrefix = "#cmdline ";
  if (text.substr(0, kPrefix.size()) == kPrefix) {
    const std::size_t nl = text.find('\n');
    std::string_view list = text.substr(kPrefix.size(), nl == std::string_view::npos ? std::string_view::npos : nl - kPrefix.size());
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      cmdline.emplace(list.substr(0, comma));
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
  }
  // T1: the oracle's prediction.
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  bool expect_ok = !j.is_discarded() && j.is_object();
  if (expect_ok) {
    for (const auto& [key, value] : j.items()) {
      const Key* k = Find(key);
      if (k == nullptr) {
        expect_ok = false;
      } else if (cmdline.count(key) == 0 && !ValueFits(*k, value)) {
        expect_ok = false;
      }
    }
  }
  const TrainArgs before = Sentinels();
  TrainArgs args = before;
  bool asked_unknown = false;
  try {
    dpfl::cli::ApplyConfigText(args, text, kSource, [&](const std::string& key) {
      asked_unknown = asked_unknown || Find(key) == nullptr;
      return cmdline.count(key) != 0;
    });
  } catch (const dpfl::InvalidArgument& e) {
    if (e.argument() != "--config") Fail("InvalidArgument names '" + e.argument() + "', not --config");
    if (std::string(e.what()).find(kSource) == std::string::npos) Fail("the error does not name the source");
    if (asked_unknown) Fail("T3: on_command_line was asked about an unknown key");
    if (expect_ok) Fail(std::string("T1: a valid config was rejected: ") + e.what());
    return;
  }
  if (asked_unknown) Fail("T3: on_command_line was asked about an unknown key");
  if (!expect_ok) Fail("T1: an invalid config was accepted (a key missing from the oracle's kKeys?)");
  for (const Key& k : kKeys) {
    const auto it = j.find(k.name);
    const bool set = it != j.end() && cmdline.count(k.name) == 0;
    CheckField(k, args, before, set ? &*it : nullptr);
  }
  if (args.config_file != before.config_file || args.resume != before.resume || args.lambda_grid != before.lambda_grid ||
      args.quiet != before.quiet || args.no_plots != before.no_plots)
    Fail("T2: a command-line-only field was changed");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  try {
    Check(std::string_view(reinterpret_cast<const char*>(bytes), size));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_train_config: unexpected exception: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz_train_config: unexpected non-std exception\n");
    std::abort();
  }
  return 0;
}
