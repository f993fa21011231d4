// dpfl verify-certificate and dpfl keygen (docs/training.md "Certificate"). The replay itself is
// the training's (Replay, train_command.cpp).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <iostream>
#include <optional>

#include "certificate.hpp"
#include "dpfl/error.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"
#include "train_command.hpp"

namespace dpfl::cli {

namespace fs = std::filesystem;

void RegisterVerifyCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* app = root.add_subcommand("verify-certificate",
                                  "Check certificate.json: signature, file hashes, monitor, privacy (recomputed), "
                                  "optionally a full replay");
  struct VerifyArgs {
    std::string file, public_key, replay_dir, data_dir;
    bool replay = false, quiet = false;
  };
  auto v = std::make_shared<VerifyArgs>();
  app->add_option("file,--file", v->file, "certificate.json (final_weights.bin and metrics.csv are read beside it)")->required();
  app->add_option("--public-key", v->public_key, "operator's Ed25519 public key (KEY.pub from dpfl keygen)");
  app->add_flag("--replay", v->replay, "re-run the training and compare every round's transcript hash and the weights");
  app->add_option("--replay-dir", v->replay_dir, "keep the replay's outputs here (default: a temporary directory)");
  app->add_option("--data-dir", v->data_dir, "data directory for --replay (default: where the certificate's files were)");
  app->add_flag("--quiet", v->quiet, "no progress lines (privacy recomputation, --replay)");
  commands.push_back({app, [v]() -> nlohmann::json {
    const std::string bytes = ReadText(v->file, "file");
    const nlohmann::json cert = certify::ParseCertificateText(bytes, v->file, "file");
    std::optional<std::array<std::uint8_t, 32>> public_key;
    if (!v->public_key.empty()) public_key = certify::ParsePublicKey(ReadText(v->public_key, "--public-key"), "--public-key");
    if (v->replay && !fl::HaveTorchTrainer())
      throw InvalidArgument("--replay", "this dpfl was built without LibTorch, so it cannot re-run training");

    certify::VerifyOptions options;
    options.directory = fs::path(v->file).parent_path().string();
    if (options.directory.empty()) options.directory = ".";
    if (!v->quiet)
      options.progress = [](const std::string& line) { std::cerr << "dpfl: verify-certificate: " << line << "\n"; };
    certify::Verification ver = certify::VerifyCertificate(cert, options);
    const std::string sig_path = v->file + ".sig";
    std::optional<std::string> signature;
    if (public_key && fs::exists(sig_path)) signature = ReadText(sig_path, "signature");
    const certify::Authenticity auth = certify::CheckAuthenticity(bytes, cert, signature, sig_path, public_key);
    ver.problems.insert(ver.problems.end(), auth.problems.begin(), auth.problems.end());
    ver.checked.insert(ver.checked.end(), auth.checked.begin(), auth.checked.end());

    nlohmann::json out = {{"file", v->file}, {"authenticity", auth.status}};
    if (v->replay) out["replay"] = Replay(cert, v->data_dir, v->replay_dir, v->quiet, ver.problems);
    if (!ver.problems.empty()) ver.ok = false;
    out["verified"] = ver.ok;
    out["problems"] = ver.problems;
    out["checked"] = ver.checked;
    out["not_checked"] = ver.not_checked;
    if (!ver.ok) {
      for (const auto& p : ver.problems) std::cerr << "dpfl: verify-certificate: " << p << "\n";
      std::cout << out.dump(2) << "\n";
      std::exit(1);
    }
    return out;
  }});
}

void RegisterKeygenCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* app = root.add_subcommand("keygen", "Write an Ed25519 key pair for signing certificates: KEY (secret) and KEY.pub");
  auto out = std::make_shared<std::string>();
  auto force = std::make_shared<bool>(false);
  app->add_option("--out", *out, "path of the secret key file; the public key goes to OUT.pub")->required();
  app->add_flag("--force", *force, "overwrite existing key files");
  commands.push_back({app, [out, force]() -> nlohmann::json {
    const certify::KeyPair keys = certify::GenerateKeyPair();
    const std::string pub = *out + ".pub";
    if (!*force && (fs::exists(*out) || fs::exists(pub)))
      throw InvalidArgument("--out", "'" + *out + "' or '" + pub + "' exists (use --force to overwrite)");
    // The secret key file is created with mode 0600 before anything is written to it.
    fs::remove(*out);
    const int fd = ::open(out->c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) throw fs::filesystem_error("cannot create key file", *out, std::error_code(errno, std::generic_category()));
    const std::string text = certify::SecretKeyText(keys);
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int err = errno;
    if (::close(fd) != 0 || !written)
      throw fs::filesystem_error("cannot write key file", *out, std::error_code(written ? errno : err, std::generic_category()));
    fl::WriteFileAtomic(pub, certify::PublicKeyText(keys));
    return {{"secret_key", *out}, {"public_key", pub},
            {"public_key_hex", certify::Hex(keys.public_key.data(), keys.public_key.size())}};
  }});
}

}  // namespace dpfl::cli
