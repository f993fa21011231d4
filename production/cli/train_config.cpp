// See train_config.hpp.
#include "train_config.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include "dpfl/error.hpp"

namespace dpfl::cli {
namespace {

using Field = std::variant<std::string TrainArgs::*, double TrainArgs::*, int TrainArgs::*, std::uint32_t TrainArgs::*,
                           std::uint64_t TrainArgs::*>;

struct Key {
  const char* name;
  Field field;
};

// One row per flag that a config file may set (the command-line-only flags --config, --resume,
// --lambda-grid, --quiet and --no-plots are not here on purpose: they say how to run, not what).
const Key kKeys[] = {
    {"dataset", &TrainArgs::dataset},       {"mechanism", &TrainArgs::mechanism},
    {"data-dir", &TrainArgs::data_dir},     {"out", &TrainArgs::out},
    {"split", &TrainArgs::split},           {"model", &TrainArgs::model},
    {"optimizer", &TrainArgs::optimizer},   {"generator", &TrainArgs::generator},
    {"keys", &TrainArgs::keys},             {"signing-key", &TrainArgs::signing_key},
    {"eps-p", &TrainArgs::eps_p},           {"gamma", &TrainArgs::gamma},
    {"dropout", &TrainArgs::dropout},       {"lambda", &TrainArgs::lambda},
    {"delta", &TrainArgs::delta},           {"delta-u", &TrainArgs::delta_u},
    {"lr", &TrainArgs::lr},                 {"momentum", &TrainArgs::momentum},
    {"beta", &TrainArgs::beta},             {"radius-scale", &TrainArgs::radius_scale},
    {"d", &TrainArgs::d},                   {"local-epochs", &TrainArgs::local_epochs},
    {"local-steps", &TrainArgs::local_steps}, {"batch", &TrainArgs::batch},
    {"patience", &TrainArgs::patience},     {"threads", &TrainArgs::threads},
    {"clients", &TrainArgs::clients},       {"rounds", &TrainArgs::rounds},
    {"seed", &TrainArgs::seed},             {"max-samples", &TrainArgs::max_samples},
    {"synthetic-samples", &TrainArgs::synthetic_samples}, {"monitor-samples", &TrainArgs::monitor_samples},
    {"target-epsilon", &TrainArgs::target_epsilon}, {"target-mode", &TrainArgs::target_mode},
    {"rr-gamma", &TrainArgs::rr_gamma},     {"mix-beta", &TrainArgs::mix_beta},
    {"adam-beta1", &TrainArgs::adam_beta1}, {"binarizer", &TrainArgs::binarizer},
    {"lr-schedule", &TrainArgs::lr_schedule}, {"eval-clients", &TrainArgs::eval_clients},
    {"eval-samples", &TrainArgs::eval_samples},
    {"lattice-dim", &TrainArgs::lattice_dim}, {"clip", &TrainArgs::clip},
    {"sigma", &TrainArgs::sigma},           {"b", &TrainArgs::b},
    {"sdq-step", &TrainArgs::sdq_step},     {"eps", &TrainArgs::eps},
    {"calibration", &TrainArgs::calibration},
    {"levels", &TrainArgs::levels},         {"client-sampling", &TrainArgs::client_sampling},
    {"workers", &TrainArgs::workers},
};

[[noreturn]] void Bad(const std::string& source, const std::string& key, const std::string& what) {
  throw InvalidArgument("--config", "key '" + key + "' in '" + source + "' " + what);
}

// An unknown key as quoted in the error: JSON-escaped (a key may hold NUL, newlines or terminal
// escapes, which must not reach stderr raw; a NUL would also cut what() short) and at most 64
// bytes of it (cut at a UTF-8 character boundary).
std::string QuotedKey(const std::string& key) {
  std::size_t n = key.size();
  if (n > 64) {
    n = 64;
    while (n > 0 && (static_cast<unsigned char>(key[n]) & 0xC0) == 0x80) --n;
  }
  std::string quoted = nlohmann::json(key.substr(0, n)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (n < key.size()) quoted += " (" + std::to_string(key.size()) + " bytes)";
  return quoted;
}

// An integer of type T from a JSON number, without wrapping or truncation.
template <class T>
T Integer(const nlohmann::json& v, const std::string& source, const std::string& key) {
  constexpr auto lo = std::numeric_limits<T>::min();
  constexpr auto hi = std::numeric_limits<T>::max();
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(hi)) Bad(source, key, "must be " + range);
    return static_cast<T>(u);
  }
  if (v.is_number_integer()) {
    const auto s = v.get<std::int64_t>();
    if (s < 0 && std::is_unsigned_v<T>) Bad(source, key, "must be " + range);
    if (s > 0 && static_cast<std::uint64_t>(s) > static_cast<std::uint64_t>(hi)) Bad(source, key, "must be " + range);
    if constexpr (std::is_signed_v<T>)
      if (s < static_cast<std::int64_t>(lo)) Bad(source, key, "must be " + range);
    return static_cast<T>(s);
  }
  Bad(source, key, "must be " + range + " (a JSON integer, not " + std::string(v.type_name()) + ")");
}

}  // namespace

void ApplyConfigText(TrainArgs& args, std::string_view text, const std::string& source,
                     const std::function<bool(const std::string& key)>& on_command_line) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const std::exception&) {
    throw InvalidArgument("--config", "'" + source + "' is not valid JSON");
  }
  if (!j.is_object()) throw InvalidArgument("--config", "'" + source + "' must hold one JSON object");
  // Named references rather than a structured binding: the lambda below captures them, which
  // clang before 16 rejects for structured bindings (the clang fuzz build compiles this file).
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    const nlohmann::json& value = item.value();
    const Key* row = nullptr;
    for (const Key& k : kKeys)
      if (key == k.name) row = &k;
    if (row == nullptr) throw InvalidArgument("--config", "unknown key " + QuotedKey(key) + " in '" + source + "'");
    if (on_command_line(key)) continue;
    std::visit(
        [&](auto member) {
          using T = std::remove_reference_t<decltype(args.*member)>;
          if constexpr (std::is_same_v<T, std::string>) {
            if (!value.is_string()) Bad(source, key, "must be a string");
            args.*member = value.get<std::string>();
          } else if constexpr (std::is_same_v<T, double>) {
            if (!value.is_number()) Bad(source, key, "must be a number");
            args.*member = value.get<double>();
          } else {
            args.*member = Integer<T>(value, source, key);
          }
        },
        row->field);
  }
}

}  // namespace dpfl::cli
