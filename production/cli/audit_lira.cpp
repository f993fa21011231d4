// dpfl audit lira — an empirical privacy audit by membership inference (LiRA, Carlini et al. 2022;
// seed 003 Alg. 3): the target and M shadow models are full FL trainings of the same configuration
// (`dpfl train`'s own loops: the seed-003 loop, RunQgaussTrain, for qgauss, qgauss-gaussian and
// vanilla; the seed-000/001 loop, RunPldpTrain, for ldp-fl, corbin-fl, augcorbin-fl, coq-fl, cq,
// gaussian, laplace) on independent random halves of a target pool; each example's logit-scaled
// confidence under the shadows that did / did not train on it is fitted by Gaussians and the target
// model's confidence scored (dpfl/fl/lira.hpp). Writes audit.json (all numbers), roc.csv, roc.png
// (gnuplot, if installed) and prints a one-line verdict on stderr.
//
//   dpfl audit lira --mechanism NAME --out DIR
//                   [--dataset D] [--pool N] [--shadows M] [--variance auto|global|per-example]
//                   [--jobs J] [--bootstrap B] [training flags of dpfl train: --levels --sigma --clip
//                   (seed 003) | --eps-p --d --gamma --dropout --lambda (seed 000/001) | --delta
//                   --clients --rounds --local-epochs --batch --lr --optimizer --model --seed
//                   --client-sampling --generator --synthetic-samples --max-samples --data-dir]
//
// Membership: example j of the pool is in run r's training set iff bit j of run r's membership
// stream (BLAKE2b(seed, "lira-membership", r)) is 1 — independent fair coins, so every example is
// a member of about half of the runs. Run 0 is the target, runs 1…M the shadows; run r trains with
// the seed seed + r (initial weights, client keys, noise) and the same data split into clients.
// Every mechanism is trained with the same local training (the audit's defaults below, or the
// flags given), so the rows of a results table differ in the mechanism alone.
// Resumable: a run directory is reused when its certificate.json exists and its run.json records
// the same membership and training arguments (any change retrains that run).
//
// The certified ε compared with the empirical lower bound is a client-level, all-rounds ε of the
// target run's certificate covering an observer of the final model, at a δ no larger than the
// audit's: an example's membership changes one client's data. Seed 003: the first guarantee
// (client level, replace-one). Seed 000/001: the smallest ε among the tight central row (an
// observer of the aggregates, which the final model is a function of) and, for mechanisms whose
// messages are released independently (no pairs), the whole-update local row over all rounds — for
// CorBin-FL/CoQ-FL the local row does not cover the server's joint view of a pair, so it is not used.
// A certified ε below the empirical bound is reported as a violation (exit 1): a bug in the
// mechanism or its accounting.
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "dpfl/error.hpp"
#include "dpfl/fl/lira.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/fl/qgauss_training.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/format.hpp"
#include "certificate.hpp"
#include "run_report.hpp"
#include "train_command.hpp"
#include "train_qgauss.hpp"

namespace dpfl::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct LiraArgs {
  TrainArgs train;
  std::uint64_t pool = 0;  // 0: min(5000, training split)
  std::uint32_t shadows = 16;
  std::string variance = "auto";
  int bootstrap = 1000, jobs = 1;
};

std::vector<bool> Membership(std::uint64_t seed, std::uint32_t run, std::size_t n) {
  fl::StreamCursor cur;
  cur.ctx.key = fl::DeriveKey(seed, "lira-membership", run);
  cur.addr = {0, run, rng::Purpose::kPrivateCoin};
  std::vector<bool> in(n);
  std::uint64_t word = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (j % 64 == 0) word = cur.Next();
    in[j] = (word >> (j % 64)) & 1u;
  }
  return in;
}

std::string MaskText(const std::vector<bool>& in) {
  std::string s(in.size(), '0');
  for (std::size_t j = 0; j < in.size(); ++j)
    if (in[j]) s[j] = '1';
  return s;
}

std::vector<float> ReadWeights(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f.good() && !f.eof()) throw std::runtime_error("cannot read " + path);
  std::vector<float> w(bytes.size() / sizeof(float));
  std::memcpy(w.data(), bytes.data(), w.size() * sizeof(float));
  return w;
}

struct RunOutput {
  std::vector<double> confidence;  // φ on every pool example
  json certificate;
  double test_accuracy = 0;
};

json AttackJson(const std::vector<double>& scores, const std::vector<bool>& labels, double delta, int bootstrap,
                std::uint64_t seed) {
  const fl::RocCurve roc = fl::Roc(scores, labels);
  const std::vector<double> fprs = {0.001, 0.01};
  const fl::LiraBootstrap boot = fl::BootstrapRoc(scores, labels, fprs, bootstrap, 0.05, seed);
  const fl::EmpiricalEpsilon e = fl::EmpiricalEpsilonLowerBound(scores, labels, delta, 0.05, 50);
  return {{"auc", roc.auc},
          {"auc_ci95", {boot.auc.lo, boot.auc.hi}},
          {"tpr_at_fpr_0.001", fl::TprAtFpr(roc, 0.001)},
          {"tpr_at_fpr_0.001_ci95", {boot.tpr_at[0].lo, boot.tpr_at[0].hi}},
          {"tpr_at_fpr_0.01", fl::TprAtFpr(roc, 0.01)},
          {"tpr_at_fpr_0.01_ci95", {boot.tpr_at[1].lo, boot.tpr_at[1].hi}},
          {"empirical_epsilon_lower_bound",
           {{"epsilon", e.epsilon}, {"delta", delta}, {"confidence", e.confidence}, {"threshold", e.threshold},
            {"tpr", e.tpr}, {"fpr", e.fpr}, {"members", e.members}, {"non_members", e.non_members},
            {"thresholds", e.thresholds_tried},
            {"method", "max over a grid of score quantiles of log((TPR_lo - delta)/FPR_hi) and "
                       "log((1 - FPR_hi - delta)/(1 - TPR_lo)), Clopper-Pearson with a Bonferroni split"}}}};
}

void WriteRoc(const fs::path& dir, const std::vector<double>& off, const std::vector<double>& on, const std::vector<bool>& labels) {
  const fl::RocCurve a = fl::Roc(off, labels), b = fl::Roc(on, labels);
  std::ostringstream o;
  o << "attack,fpr,tpr\n";
  for (std::size_t i = 0; i < a.fpr.size(); ++i) o << "offline," << a.fpr[i] << ',' << a.tpr[i] << '\n';
  for (std::size_t i = 0; i < b.fpr.size(); ++i) o << "online," << b.fpr[i] << ',' << b.tpr[i] << '\n';
  fl::WriteFileAtomic((dir / "roc.csv").string(), o.str());
  std::ostringstream d;  // gnuplot blocks (index 0: offline, index 1: online)
  d << "# offline: fpr tpr\n";
  for (std::size_t i = 0; i < a.fpr.size(); ++i) d << a.fpr[i] << ' ' << a.tpr[i] << '\n';
  d << "\n\n# online: fpr tpr\n";
  for (std::size_t i = 0; i < b.fpr.size(); ++i) d << b.fpr[i] << ' ' << b.tpr[i] << '\n';
  fl::WriteFileAtomic((dir / "roc.dat").string(), d.str());
}

// Which of `dpfl train`'s loops trains the audited mechanism.
enum class AuditLoop { kQgauss, kPldp };

AuditLoop LoopOf(std::string& mechanism) {
  if (mechanism == "vanilla") mechanism = "qgauss-vanilla";  // plain FedAvg with the seed-003 local training
  if (fl::IsQgaussFlMechanism(mechanism)) return AuditLoop::kQgauss;
  bool pldp = true;
  try {
    (void)fl::ParseMechanism(mechanism);
  } catch (const InvalidArgument&) {
    pldp = false;
  }
  if (pldp) return AuditLoop::kPldp;
  throw InvalidArgument("--mechanism", "dpfl audit lira trains qgauss, qgauss-gaussian, vanilla (= qgauss-vanilla) "
                                       "with the seed-003 loop, or ldp-fl, corbin-fl, augcorbin-fl, coq-fl, cq, gaussian, "
                                       "laplace with the seed-000/001 loop; got '" + mechanism + "'");
}

// The guarantee the audit compares with: see the file comment. Returns the row (null if none
// applies) and its ε; `delta` is the audit's δ, rows with a larger δ are not used.
struct CertifiedRow {
  json row;  // null: no guarantee
  double epsilon = 0, delta = 0;
};

double Decimal(const json& v) { return std::stod(v.get<std::string>()); }

CertifiedRow CertifiedForAudit(const json& cert, AuditLoop loop, double delta) {
  const json& rows = cert.at("privacy").at("guarantees");
  CertifiedRow best;
  const auto consider = [&](const json& g) {
    if (!g.value("applies", false) || g.value("epsilon_hi", json()).is_null() || g.value("delta", json()).is_null()) return;
    const double eps = Decimal(g.at("epsilon_hi")), d = Decimal(g.at("delta"));
    if (d > delta * (1 + 1e-12)) return;  // only (ε, δ') with δ' ≤ δ imply (ε, δ)
    if (best.row.is_null() || eps < best.epsilon) best = {g, eps, d};
  };
  if (loop == AuditLoop::kQgauss) {
    consider(rows.at(0));
    return best;
  }
  const fl::MechanismKind kind = fl::ParseMechanism(cert.at("configuration").at("mechanism").get<std::string>());
  for (const json& g : rows) {
    const std::string notion = g.value("notion", std::string()), unit = g.value("unit", std::string());
    const bool central = notion == certify::kTightCentralNotion;
    // The local rows over the whole run: m·T·ε_p, and (gaussian, laplace) the tight PLD of the
    // client's whole participation.
    const bool local_all_rounds = unit.rfind(certify::kWholeUpdateAllRoundsUnit, 0) == 0 || notion == certify::kTightLocalNotion;
    if (central || (local_all_rounds && !fl::UsesPairs(kind))) consider(g);
  }
  return best;
}

json RunAudit(LiraArgs a, const GivenFlag& given) {
  TrainArgs& t = a.train;
  if (t.out.empty()) throw InvalidArgument("--out", "an output directory is required");
  const AuditLoop loop = LoopOf(t.mechanism);
  if (a.shadows < 2 || a.shadows > 1024) throw InvalidArgument("--shadows", "must be in [2, 1024]");
  if (a.jobs < 1 || a.jobs > 64) throw InvalidArgument("--jobs", "must be in [1, 64]");
  if (a.bootstrap < 100 || a.bootstrap > 100000) throw InvalidArgument("--bootstrap", "must be in [100, 100000]");
  if (a.variance != "auto" && a.variance != "global" && a.variance != "per-example")
    throw InvalidArgument("--variance", "must be auto, global or per-example, got '" + a.variance + "'");
  CheckQgaussFlags(t, given);  // seed-003 flags with another mechanism, or seed-000 flags with qgauss
  if (loop == AuditLoop::kPldp)
    for (const char* flag : {"--sigma", "--clip"})
      if (given(flag))
        throw InvalidArgument(flag, "not used by --mechanism " + t.mechanism + " (seed 000/001: set the budget by --eps-p)");
  // The audit's own defaults for the flags not given: trainings that see their members many times
  // (an attack needs a model that can memorise), fast on small data; give the flags of the run you
  // want to audit to override them (docs/audit.md).
  std::set<std::string> defaulted;
  const auto set_default = [&](const char* flag, auto& field, auto value) {
    if (given(flag)) return;
    field = value;
    defaulted.insert(flag);
  };
  set_default("--clients", t.clients, std::uint32_t{2});
  set_default("--rounds", t.rounds, std::uint32_t{10});
  set_default("--local-epochs", t.local_epochs, 10);
  set_default("--lr", t.lr, 0.01);
  // The seed-003 setting (spec 003 Table I) for every loop, so that the mechanisms of one results
  // table share their local training.
  set_default("--optimizer", t.optimizer, std::string("adam"));
  set_default("--batch", t.batch, 128);
  set_default("--model", t.model, std::string("mlp"));
  if (loop == AuditLoop::kPldp) t.delta_u = t.delta;  // the central row at the audit's δ
  const GivenFlag run_given = [&](const std::string& flag) { return given(flag) || defaulted.count(flag) > 0; };
  if (!fl::HaveTorchTrainer())
    throw InvalidArgument("audit", "this dpfl was built without LibTorch (DPFL_TORCH=OFF or DPFL_SANITIZE=ON)");
  const fs::path dir(t.out);
  fs::create_directories(dir);
  const LoadedData loaded = LoadData(t);
  const data::Split split = data::SplitTrainValidationTest(loaded.all, t.seed);
  const std::size_t n = a.pool ? a.pool : std::min<std::size_t>(5000, split.train.size());
  if (n < 20 || n > split.train.size())
    throw InvalidArgument("--pool", "must be in [20, " + std::to_string(split.train.size()) + "] (the training split)");
  std::vector<std::size_t> pool_idx(n);
  for (std::size_t j = 0; j < n; ++j) pool_idx[j] = j;  // the split is already a seeded permutation
  const data::Dataset pool = split.train.Subset(pool_idx);
  const std::uint32_t runs = a.shadows + 1;
  std::vector<std::vector<bool>> member(runs);
  for (std::uint32_t r = 0; r < runs; ++r) member[r] = Membership(t.seed, r, n);
  std::vector<RunOutput> outputs(runs);
  std::atomic<std::uint32_t> next{0}, done{0};
  std::mutex print_mutex;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(a.jobs));
  const auto worker = [&](int w) {
    try {
      for (std::uint32_t r = next++; r < runs; r = next++) {
        TrainArgs ra = t;
        ra.seed = t.seed + r;
        ra.out = (dir / ("run-" + std::to_string(r))).string();
        ra.quiet = true;
        ra.no_plots = true;
        ra.threads = 1;
        std::vector<std::size_t> in_idx;
        for (std::size_t j = 0; j < n; ++j)
          if (member[r][j]) in_idx.push_back(j);
        data::Split rs{pool.Subset(in_idx), split.validation, split.test};
        // What defines the run: its members and every training argument. A directory is reused only
        // if its run.json says exactly this (a changed flag or pool retrains).
        // Round-tripped through text, as it is stored: an absent flag (NaN) is null on both sides.
        const json identity = json::parse(json{
            {"membership", MaskText(member[r])}, {"pool", n}, {"dataset", ra.dataset},
            {"synthetic_samples", ra.synthetic_samples}, {"max_samples", ra.max_samples}, {"mechanism", ra.mechanism},
            {"levels", ra.levels}, {"sigma", ra.sigma}, {"clip", ra.clip}, {"delta", ra.delta}, {"clients", ra.clients},
            {"rounds", ra.rounds}, {"local_epochs", ra.local_epochs}, {"batch", ra.batch}, {"lr", ra.lr},
            {"optimizer", ra.optimizer}, {"momentum", ra.momentum}, {"model", ra.model}, {"seed", ra.seed},
            {"client_sampling", ra.client_sampling}, {"generator", ra.generator}, {"split", ra.split}, {"beta", ra.beta},
            {"eps_p", ra.eps_p}, {"d", ra.d}, {"gamma", ra.gamma}, {"dropout", ra.dropout}, {"lambda", ra.lambda},
            {"delta_u", ra.delta_u}}
                                             .dump());
        const fs::path cert_path = fs::path(ra.out) / "certificate.json", id_path = fs::path(ra.out) / "run.json";
        bool reuse = false;
        if (fs::exists(cert_path) && fs::exists(id_path)) {
          std::ifstream f(id_path);
          const json old = json::parse(f, nullptr, false);
          reuse = !old.is_discarded() && old == identity;
        }
        if (!reuse) {
          fs::create_directories(ra.out);
          fs::remove(id_path);
          if (loop == AuditLoop::kQgauss)
            (void)RunQgaussTrain(ra, run_given, rs, loaded.description, std::nullopt);
          else
            (void)RunPldpTrain(ra, rs, loaded.description);
          fl::WriteFileAtomic(id_path.string(), identity.dump(1) + "\n");
        }
        RunOutput& o = outputs[r];
        std::ifstream cf(cert_path);
        o.certificate = json::parse(cf);
        o.test_accuracy = o.certificate.at("final").at("test_accuracy").get<double>();
        fl::TrainerOptions topt;
        topt.model = o.certificate.at("configuration").at("model").get<std::string>();
        topt.optimizer = o.certificate.at("configuration").at("optimizer").get<std::string>();
        topt.lr = o.certificate.at("configuration").at("lr").get<double>();
        topt.seed = ra.seed;
        auto trainer = fl::MakeTorchTrainer(topt, pool.channels, pool.height, pool.width, pool.classes);
        const std::vector<float> logits = trainer->Logits(ReadWeights((fs::path(ra.out) / "final_weights.bin").string()), pool);
        const std::size_t k = static_cast<std::size_t>(pool.classes);
        o.confidence.resize(n);
        for (std::size_t j = 0; j < n; ++j)
          o.confidence[j] = fl::LogitConfidence(std::span<const float>(logits.data() + j * k, k), pool.labels[j]);
        const std::uint32_t finished = ++done;
        if (!t.quiet) {
          const std::lock_guard<std::mutex> lock(print_mutex);
          std::fprintf(stderr, "[lira] run %u/%u done (%s)%s\n", finished, runs, r == 0 ? "target" : "shadow",
                       reuse ? ", reused" : "");
        }
      }
    } catch (...) {
      errors[static_cast<std::size_t>(w)] = std::current_exception();
    }
  };
  {
    std::vector<std::thread> pool_threads;
    for (int w = 0; w < a.jobs; ++w) pool_threads.emplace_back(worker, w);
    for (auto& th : pool_threads) th.join();
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  std::vector<std::vector<double>> shadow_conf;
  std::vector<std::vector<bool>> shadow_member;
  for (std::uint32_t r = 1; r < runs; ++r) {
    shadow_conf.push_back(outputs[r].confidence);
    shadow_member.push_back(member[r]);
  }
  const bool global = a.variance == "global" || (a.variance == "auto" && a.shadows < 16);
  const fl::LiraScores scores =
      fl::LiraScore(shadow_conf, shadow_member, outputs[0].confidence, global ? fl::LiraVariance::kGlobal : fl::LiraVariance::kPerExample);
  const std::vector<bool>& labels = member[0];
  const json& cert = outputs[0].certificate;
  const CertifiedRow row = CertifiedForAudit(cert, loop, t.delta);
  const bool certified = !row.row.is_null();
  const double delta = certified ? row.delta : t.delta;
  json out = {{"command", "audit lira"}, {"mechanism", t.mechanism}, {"pool", n}, {"shadows", a.shadows},
              {"members_of_target", std::count(labels.begin(), labels.end(), true)},
              {"variance", global ? "global" : "per-example"},
              {"confidence", "logit-scaled phi = log(p_y/(1 - p_y)) of the true label (Carlini et al. 2022)"},
              {"target", {{"directory", (dir / "run-0").string()}, {"test_accuracy", outputs[0].test_accuracy},
                          {"configuration", cert.at("configuration")}}},
              {"shadow_mean_test_accuracy", [&] {
                 double s = 0;
                 for (std::uint32_t r = 1; r < runs; ++r) s += outputs[r].test_accuracy;
                 return s / a.shadows;
               }()}};
  out["offline"] = AttackJson(scores.offline, labels, delta, a.bootstrap, t.seed);
  out["online"] = AttackJson(scores.online, labels, delta, a.bootstrap, t.seed + 1);
  const double emp = std::max(out["offline"]["empirical_epsilon_lower_bound"]["epsilon"].get<double>(),
                              out["online"]["empirical_epsilon_lower_bound"]["epsilon"].get<double>());
  json certified_json = {{"delta", delta}, {"unit", "client level (an example's membership changes one client's data)"}};
  bool consistent = true;
  if (certified) {
    // A row may state ε = inf (e.g. CorBin-FL's central row with too few solo clients): a true
    // statement that nothing is guaranteed; JSON has no infinity, so `epsilon` is null and
    // `epsilon_hi` keeps the certificate's text.
    certified_json["epsilon"] = std::isfinite(row.epsilon) ? json(row.epsilon) : json(nullptr);
    certified_json["epsilon_hi"] = row.row.at("epsilon_hi");
    certified_json["bounded"] = std::isfinite(row.epsilon);
    certified_json["row"] = row.row.at("notion");
    certified_json["row_unit"] = row.row.at("unit");
    if (row.row.contains("reason")) certified_json["reason"] = row.row.at("reason");
    consistent = row.epsilon >= emp;
  } else {
    certified_json["epsilon"] = nullptr;
    const json& first = cert.at("privacy").at("guarantees").at(0);
    certified_json["row"] = "none: " + first.value("reason", std::string("no guarantee of the certificate covers an "
                                                                         "observer of the final model at this delta"));
  }
  out["certified"] = certified_json;
  out["empirical_epsilon_lower_bound"] = emp;
  out["consistent"] = consistent;
  WriteRoc(dir, scores.offline, scores.online, labels);
  out["roc_csv"] = (dir / "roc.csv").string();
  out["roc_png"] = PlotRoc(dir);
  fl::WriteFileAtomic((dir / "audit.json").string(), out.dump(2) + "\n");
  char line[512];
  std::snprintf(line, sizeof line,
                "lira %s: AUC %.3f [%.3f, %.3f] offline, %.3f online; TPR@1%%FPR %.3f; empirical eps >= %.3f vs certified %s%s\n",
                t.mechanism.c_str(), out["offline"]["auc"].get<double>(), out["offline"]["auc_ci95"][0].get<double>(),
                out["offline"]["auc_ci95"][1].get<double>(), out["online"]["auc"].get<double>(),
                out["offline"]["tpr_at_fpr_0.01"].get<double>(), emp,
                certified ? certified_json["epsilon_hi"].get<std::string>().c_str() : "none (no guarantee)",
                consistent ? "" : "  VIOLATION: certified below empirical");
  if (!t.quiet) std::fputs(line, stderr);
  if (!consistent) throw std::runtime_error(std::string("certified epsilon below the empirical lower bound: ") + line);
  return out;
}

}  // namespace

void RegisterAuditCommand(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* audit = root.add_subcommand("audit", "Empirical privacy audits of trained models");
  audit->require_subcommand(1);
  auto a = std::make_shared<LiraArgs>();
  a->train.mechanism = "";
  CLI::App* app = audit->add_subcommand(
      "lira", "LiRA membership inference (Carlini et al. 2022, seed 003 Alg. 3) against FL trainings: AUC, TPR at low "
              "FPR, empirical epsilon lower bound vs the certified client-level epsilon; writes DIR/audit.json");
  TrainArgs& t = a->train;
  app->add_option("--out", t.out, "output directory (audit.json, roc.csv, roc.png, run-0 … run-M)")->required();
  app->add_option("--mechanism", t.mechanism,
                  "qgauss, qgauss-gaussian, vanilla (= qgauss-vanilla): seed-003 loop; ldp-fl, corbin-fl, augcorbin-fl, "
                  "coq-fl, cq, gaussian, laplace: seed-000/001 loop")
      ->required();
  app->add_option("--shadows", a->shadows, "shadow trainings M (default 16; the target is one more)");
  app->add_option("--pool", a->pool, "target pool size (default min(5000, training split))");
  app->add_option("--variance", a->variance, "auto (global below 16 shadows), global or per-example");
  app->add_option("--jobs", a->jobs, "trainings run in parallel (default 1; each uses one thread)");
  app->add_option("--bootstrap", a->bootstrap, "bootstrap resamples for the 95% intervals (default 1000)");
  app->add_option("--dataset", t.dataset, "fashion-mnist (default), mnist, cifar10, synthetic");
  app->add_option("--data-dir", t.data_dir, "data directory (default per data set)");
  app->add_option("--synthetic-samples", t.synthetic_samples, "synthetic: samples generated (default 3000)");
  app->add_option("--max-samples", t.max_samples, "use at most N samples of the data set");
  app->add_option("--levels", t.levels, "qgauss: levels k (default 16)");
  app->add_option("--sigma", t.sigma, "qgauss, qgauss-gaussian: noise standard deviation");
  app->add_option("--clip", t.clip, "C_q (default 1): updates clipped to C_q/2");
  app->add_option("--eps-p", t.eps_p, "seed 000/001: per-parameter per-round budget (default 1)");
  app->add_option("--d", t.d, "seed 000/001: shared bits of a pair (default 5)");
  app->add_option("--gamma", t.gamma, "augcorbin-fl: solo fraction");
  app->add_option("--dropout", t.dropout, "seed 000/001: client absence probability per round");
  app->add_option("--lambda", t.lambda, "seed 000/001: server step");
  app->add_option("--delta", t.delta, "delta of the certified and the empirical epsilon (default 1e-5)");
  app->add_option("--clients", t.clients, "clients per run (audit default 2)");
  app->add_option("--rounds", t.rounds, "rounds per run (audit default 10)");
  app->add_option("--local-epochs", t.local_epochs, "local epochs (audit default 10)");
  app->add_option("--batch", t.batch, "mini-batch (audit default 128)");
  app->add_option("--lr", t.lr, "learning rate (audit default 0.01)");
  app->add_option("--optimizer", t.optimizer, "adam (audit default) or sgd");
  app->add_option("--momentum", t.momentum, "sgd momentum");
  app->add_option("--model", t.model, "model (audit default mlp)");
  app->add_option("--seed", t.seed, "seed of the data, the memberships and the runs (run r uses seed + r)");
  app->add_option("--client-sampling", t.client_sampling, "full (default) or poisson:q");
  app->add_option("--generator", t.generator, "chacha20 (default) or philox");
  app->add_option("--split", t.split, "iid (default) or dirichlet");
  app->add_option("--beta", t.beta, "Dirichlet concentration");
  app->add_flag("--quiet", t.quiet, "no progress lines");
  commands.push_back({app, [a, app]() -> json {
    // Flags the audit does not have (e.g. --eps-p) are simply not given.
    const GivenFlag given = [app](const std::string& flag) {
      const CLI::Option* o = app->get_option_no_throw(flag);
      return o != nullptr && o->count() > 0;
    };
    return RunAudit(*a, given);
  }});
}

}  // namespace dpfl::cli
