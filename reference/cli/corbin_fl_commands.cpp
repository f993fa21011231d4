// dpfl-ref thm2 / thm3 / thm4 / aggregate / e12 — spec 000 §7 R5 (E12), R7–R11.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli_common.hpp"
#include "dpfl/ref/corbin_fl.hpp"
#include "dpfl/ref/corbin_fl_privacy.hpp"

namespace dpfl::cli {
namespace {

constexpr const char* kAdjacency = "replace-one-client (E25: the proofs bound replacement, not the printed removal of eq. (1))";

// ---- parsing ---------------------------------------------------------------------------------

std::vector<std::string> SplitComma(const std::string& text, const std::string& flag) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    std::string token = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (token.empty()) throw InvalidArgument(flag, "empty entry in the comma-separated list '" + text + "'");
    out.push_back(std::move(token));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

size_t ParseIndex(const std::string& token, const std::string& flag) {
  const int v = ref::ParseInt(token, flag);
  if (v < 0) throw InvalidArgument(flag, "client indices are >= 0, got " + token);
  return static_cast<size_t>(v);
}

std::vector<Rational> ParseWeights(const std::string& text) {
  std::vector<Rational> out;
  for (const std::string& token : SplitComma(text, "--weights")) out.push_back(ParseFlag(token, "--weights"));
  if (out.empty()) throw InvalidArgument("--weights", "at least one client weight is required");
  return out;
}

ref::ClientLayout ParseLayout(const std::string& pairs, const std::string& solo) {
  ref::ClientLayout layout;
  for (const std::string& token : SplitComma(pairs, "--pairs")) {
    const size_t dash = token.find('-');
    if (dash == std::string::npos || dash == 0 || dash + 1 == token.size())
      throw InvalidArgument("--pairs", "expected pairs as i-j (e.g. 0-1,2-3), got '" + token + "'");
    layout.pairs.push_back({ParseIndex(token.substr(0, dash), "--pairs"), ParseIndex(token.substr(dash + 1), "--pairs")});
  }
  for (const std::string& token : SplitComma(solo, "--solo")) layout.solo.push_back(ParseIndex(token, "--solo"));
  return layout;
}

ref::PrivacyBudget Budget(const PrivacyOptions& privacy) {
  if (privacy.Exact()) return ref::PrivacyBudget::FromE(privacy.ExactE());
  const Rational eps = ParseFlag(privacy.eps, "--eps");
  if (!(eps > 0)) throw InvalidArgument("--eps", "must be > 0, got " + ref::EchoValue(eps));
  return ref::PrivacyBudget::FromEpsilon(eps);
}

// Rewrites out[key] = {"0": x0, "1": x1, ...} (and its error bounds) as a JSON array.
void ObjectToArray(json& out, const std::string& key) {
  auto convert = [](json& obj) {
    json arr = json::array();
    for (size_t i = 0; obj.contains(std::to_string(i)); ++i) arr.push_back(obj[std::to_string(i)]);
    obj = std::move(arr);
  };
  if (out.contains(key)) convert(out[key]);
  if (out.contains("error_bound") && out["error_bound"].contains(key)) convert(out["error_bound"][key]);
}

// ---- thm2 ------------------------------------------------------------------------------------

template <class Real>
json Thm2Json(const Real& E, const Rational& r, const Rational& n, std::optional<int> d, bool exact, int bits) {
  const ref::Thm2Bounds<Real> b = ref::Theorem2Bounds(E, r, n, d);
  const ref::Thm2ProductIdentity id = ref::CheckThm2ProductIdentity();
  JsonResult out(exact, bits);
  out.PutRaw("quantity", "seed 000 Theorem 2 (CorBin-FL, all clients paired): bounds on "
                         "E[(W_g,j - (1/n) sum_i w_i,j)^2] as d -> infinity");
  out.Put("alpha", b.alpha);
  out.Put("n", n);
  out.Put("r", r);
  out.Put("bound_as_printed", b.as_printed);
  json identity = json::object();
  identity["printed"] = "((sqrt2-1)*alpha+1)*((sqrt2+1)*alpha-1)";
  json coefficients = json::array();  // coefficient of alpha^k as rational + sqrt2 * rational
  for (const ref::QSqrt2& coeff : id.expanded)
    coefficients.push_back({{"rational", ref::ToExactString(coeff.a)}, {"sqrt2", ref::ToExactString(coeff.b)}});
  identity["expanded_coefficients_alpha^0_alpha^1_alpha^2"] = coefficients;
  identity["target"] = "alpha^2 + 2*alpha - 1";
  identity["holds"] = id.holds;
  identity["method"] = "exact polynomial expansion in alpha over Q(sqrt2)";
  out.PutRaw("product_form_identity", identity);
  out.Put("bound_corrected_proof", b.corrected_proof);
  out.Put("bound_tight", b.tight);
  if (b.finite_d_slack) {
    out.PutRaw("d", *d);
    out.Put("finite_d_slack", *b.finite_d_slack);
    out.Put("bound_tight_finite_d", Real(b.tight + *b.finite_d_slack));
  }
  out.Put("ldp_fl_reference", b.ldp_fl_reference);
  json notes = json::object();
  notes["bound_as_printed"] = "r^2 (alpha^2 + 2 alpha - 1)/(2n), the printed product form (valid, loose: E15)";
  notes["bound_corrected_proof"] = "r^2 (2 alpha - 1)/n, the paper's argument without the extra 1/2 (E15)";
  notes["bound_tight"] = "exact worst case: 2 r^2 (alpha-1)/n if alpha >= 2, r^2 alpha^2/(2n) if alpha <= 2";
  notes["finite_d_slack"] = "r^2 alpha^2/(n 2^d), added to the d -> infinity values at finite d";
  notes["ldp_fl_reference"] = "r^2 alpha^2/n (LDP-FL worst case)";
  out.PutRaw("notes", notes);
  return std::move(out).Finish();
}

// ---- thm3 ------------------------------------------------------------------------------------

void PutPrecondition(JsonResult& out, const std::string& key, const ref::Precondition& p) {
  out.Put(key, "lhs", p.lhs);
  out.Put(key, "rhs", p.rhs);
}

template <class Real>
json Thm3Json(const PrivacyOptions& privacy, const Real& E, const ref::Thm3Params& params) {
  const ref::Thm3Privacy t = ref::Theorem3Privacy(params);
  const ref::Thm3MseBounds<Real> mse = ref::Theorem3MseBound(E, params.r, params.n, params.gamma);
  JsonResult out(false, privacy.precision_bits);
  out.PutRaw("quantity", "seed 000 Theorem 3 (AugCorBin-FL): (eps_u, delta)-UCDP via cpSGD [20, Thm 1], "
                         "and the d -> infinity MSE bound");
  out.PutRaw("adjacency", kAdjacency);
  out.PutRaw("log", "natural");
  out.Put("alpha", t.alpha);
  out.Put("e_p", t.e_p);
  out.Put("b_p", t.b_p);
  out.Put("eps_u_as_printed", t.eps_u_as_printed);
  for (size_t i = 0; i < 3; ++i) out.Put("eps_u_as_printed_terms", std::to_string(i), t.terms_as_printed[i]);
  PutPrecondition(out, "precondition_as_printed", t.precondition_as_printed);
  out.Put("c_p", t.c_p);
  out.Put("d_p", t.d_p);
  out.Put("eps_u_corrected", t.eps_u_corrected);
  for (size_t i = 0; i < 3; ++i) out.Put("eps_u_corrected_terms", std::to_string(i), t.terms_corrected[i]);
  PutPrecondition(out, "precondition_corrected", t.precondition_corrected);
  out.Put("mse_bound", mse.bound);
  out.Put("mse_ldp_fl_reference", mse.ldp_fl_reference);
  json result = std::move(out).Finish();
  ObjectToArray(result, "eps_u_as_printed_terms");
  ObjectToArray(result, "eps_u_corrected_terms");
  result["precondition_as_printed"]["holds"] = t.precondition_as_printed.holds;
  result["precondition_as_printed"]["statement"] = "(n gamma - 1)(1/4 - 1/(4 alpha^2)) >= max(23 log(m/delta), 2 r alpha)";
  result["precondition_corrected"]["holds"] = t.precondition_corrected.holds;
  result["precondition_corrected"]["statement"] = "N_b (1/4)(1 - alpha^-2) >= max(23 log(10 m/delta), 2), N_b = n gamma - 1";
  json notes = json::object();
  notes["eps_u_as_printed"] = "eq. (5) as printed: r alpha * (sum of eps_u_as_printed_terms), e_p = 1 + alpha^-2, "
                              "b_p = e_p/3 + 1/alpha, constant 3.75 (E20-E24)";
  notes["eps_u_as_printed_terms"] = "the three bracket terms of (5) before the factor r alpha";
  notes["eps_u_corrected"] = "re-derived eps_u (spec 000 4.4): normalized units, no r alpha factor, "
                             "c_p = sqrt2 (1.75 + 3.25/alpha^2), d_p = 2 e_p/3; still assumes the binomial "
                             "approximation (E18)";
  notes["mse_bound"] = "gamma r^2 alpha^2/n + (1-gamma) r^2 (alpha^2 + 2 alpha - 1)/(2n) (R9)";
  notes["mse_ldp_fl_reference"] = "r^2 alpha^2/n";
  result["notes"] = notes;
  return result;
}

// ---- thm4 ------------------------------------------------------------------------------------

void PutThm4Variant(JsonResult& out, const std::string& key, const ref::Thm4Variant& v) {
  out.Put(key, "gamma", v.gamma);
  out.Put(key, "gamma_prime", v.gamma_prime);
  out.Put(key, "theta", v.theta);
  out.Put(key, "theta_prime", v.theta_prime);
  out.Put(key, "mse_bound", v.mse_bound);
  out.Put(key, "eps_u", v.eps_u);
  out.Put(key, "precondition_lhs", v.precondition.lhs);
  out.Put(key, "precondition_rhs", v.precondition.rhs);
}

json Thm4Json(const PrivacyOptions& privacy, const ref::Thm4Params& params) {
  const ref::Thm4Result t = ref::Theorem4(params);
  JsonResult out(false, privacy.precision_bits);
  out.PutRaw("quantity", "seed 000 Theorem 4 (client dropout with probability p gives central DP): "
                         "Chebyshev ranges, MSE bound as d -> infinity, eps_u of (5) with delta1");
  out.PutRaw("adjacency", kAdjacency);
  out.PutRaw("log", "natural");
  out.Put("alpha", t.alpha);
  PutThm4Variant(out, "as_printed", t.as_printed);
  PutThm4Variant(out, "corrected", t.corrected);
  out.Put("moments", "expected_solo", t.moments.expected_solo);
  out.Put("moments", "var_solo", t.moments.var_solo);
  out.Put("moments", "expected_survivors", t.moments.expected_survivors);
  out.Put("moments", "var_survivors", t.moments.var_survivors);
  out.Put("moments", "expected_survivors_as_printed", t.moments.expected_survivors_as_printed);
  json result = std::move(out).Finish();
  result["as_printed"]["precondition_holds"] = t.as_printed.precondition.holds;
  result["corrected"]["precondition_holds"] = t.corrected.precondition.holds;
  json notes = json::object();
  notes["as_printed"] = "gamma, gamma' = p(1-p) -/+ sqrt(p(1-p)(1-2p(1-p))/(4(delta-delta1)n)) (E26), "
                        "theta, theta' = p(1-p) -/+ sqrt(p(1-p)/((delta-delta1)n)) (E28), mse = gamma' r^2 alpha^2/(n theta) "
                        "+ 8 r^2 alpha^2 delta1 + (1-gamma) r^2 (alpha^2+2alpha-1)/(2 n theta) (E29, E30); eps_u = printed (5) "
                        "with delta1 and this gamma, precondition with 23 log(m/delta1)";
  notes["corrected"] = "Chebyshev-consistent: radius without the 4, theta, theta' = (1-p) -/+ sqrt(p(1-p)/((delta-delta1)n)), "
                       "mse = gamma' r^2 alpha^2/(theta^2 n) + (1-gamma) r^2 (alpha^2+2alpha-1)/(2 theta n) + "
                       "8 r^2 alpha^2 (delta-delta1); eps_u = re-derived eps_u with delta1 and this gamma";
  notes["moments"] = "exact: E sum E_i = n p(1-p), Var = n p(1-p)(1-2p(1-p)), E N = n(1-p), Var N = n p(1-p); "
                     "expected_survivors_as_printed = n p (E27)";
  result["notes"] = notes;
  return result;
}

// ---- aggregate -------------------------------------------------------------------------------

template <class Real>
json AggregateJson(const Real& E, const Rational& c, const Rational& r, int d, const std::vector<Rational>& weights,
                   const ref::ClientLayout& layout, bool exact, int bits) {
  const ref::AggregateResult<Real> res = ref::AggregateMse(E, c, r, d, weights, layout);
  JsonResult out(exact, bits);
  out.PutRaw("quantity", "seed 000 R7: exact E[(W_g,j - (1/n) sum_i w_i,j)^2] of one coordinate, pairs run "
                         "CorBinQ (first index = Q1 role), solo clients run LDPQ");
  out.PutRaw("n", weights.size());
  out.PutRaw("d", d);
  out.Put("alpha", res.alpha);
  out.Put("mse", res.mse);
  out.Put("mse_closed_form", res.mse_closed_form);
  out.Put("mse_ldp_fl", res.mse_ldp_fl);
  out.Put("bias", res.bias);
  for (size_t i = 0; i < layout.pairs.size(); ++i)
    out.Put("pair_mse", std::to_string(layout.pairs[i].first) + "-" + std::to_string(layout.pairs[i].second),
            res.pair_mse[i]);
  json result = std::move(out).Finish();
  json notes = json::object();
  notes["mse"] = "from the exact joint pmfs and LDPQ laws (no unbiasedness assumed)";
  notes["mse_closed_form"] = "(1/n^2)[sum_solo (r^2 alpha^2 - (w-c)^2) + sum_pairs m_d]";
  notes["mse_ldp_fl"] = "E45: every client LDPQ, (1/n^2) sum_i (r^2 alpha^2 - (w_i-c)^2)";
  notes["bias"] = "E W_g - (1/n) sum_i w_i (0 for clipped inputs)";
  result["notes"] = notes;
  return result;
}

// ---- e12 -------------------------------------------------------------------------------------

json E12Json(const Rational& E, const Rational& c, const Rational& r, const Rational& w1, const Rational& w2, int max_d) {
  const ref::E12Construction k = ref::BuildE12(E, c, r, w1, w2);
  JsonResult out(true, 0);
  out.PutRaw("quantity", "seed 000 E12: a pair in the literal Q (free alphabet {gamma1, gamma2}) satisfying C4-C5 "
                         "with pair MSE 0, against which printed Theorem 1 (eq. 4) fails");
  out.Put("alpha", k.alpha);
  out.Put("S", k.S);
  out.Put("gamma1", k.gamma1);
  out.Put("gamma2", k.gamma2);
  out.Put("a", k.a);
  out.Put("b", k.b);
  out.PutRaw("c4_holds", k.c4_holds);
  out.Put("c5_max_ratio", k.c5_max_ratio);
  out.PutRaw("c5_holds", k.c5_holds);
  for (int d = 0; d <= max_d; ++d) {
    const Rational construction = ref::E12PairMse(k, w1, w2, d);
    const ref::CorBinQResult<Rational> cq = ref::EvaluateCorBinQ(E, c, r, w1, w2, d, ref::Line14::kCorrected);
    out.Put("mse_construction", std::to_string(d), construction);
    out.Put("corbinq_mse", std::to_string(d), cq.mse);
    out.Put("thm1_printed_rhs", std::to_string(d), ref::Thm1BoundAsPrinted(construction, k.alpha, r, d));
  }
  const std::optional<int> first = ref::E12FirstFailingD(E, c, r, w1, w2, ref::kMaxSharedBits);
  out.PutRaw("first_failing_d", first ? json(*first) : json(nullptr));
  json result = std::move(out).Finish();
  json notes = json::object();
  notes["gamma1"] = "c - r alpha + min(S, 0)";
  notes["gamma2"] = "c + r alpha + max(S, 0)";
  notes["a"] = "P(Q1 = gamma1) = (gamma2 - w1)/(gamma2 - gamma1); b likewise for w2; a + b = 1";
  notes["c5_max_ratio"] = "max over outputs and inputs v, v' in [c-r, c+r] of P(Q(v)=.)/P(Q(v')=.); C5 needs <= E";
  notes["mse_construction"] = "exact pair MSE of the countermonotone coupling on {gamma1, gamma2} realized with d shared bits";
  notes["corbinq_mse"] = "m_d of CorBinQ (Alg. 2, corrected line 14)";
  notes["thm1_printed_rhs"] = "mse_construction + 64 r^2 alpha^2/2^d";
  notes["first_failing_d"] = "smallest d <= 62 with corbinq_mse > thm1_printed_rhs (null if none)";
  result["notes"] = notes;
  return result;
}

}  // namespace

void RegisterCorbinFlCommands(CLI::App& root, std::vector<Command>& commands) {
  {
    auto* app = root.add_subcommand("thm2", "seed 000 Theorem 2 bounds (R8): printed, corrected proof, tight, finite-d slack");
    struct Args { PrivacyOptions privacy; std::string r, n; std::optional<int> d; };
    auto args = std::make_shared<Args>();
    args->privacy.Register(app);
    app->add_option("--r", args->r, "radius r > 0")->required();
    app->add_option("--n", args->n, "number of clients (even, all paired)")->required();
    app->add_option("--d", args->d, "shared bits per parameter (optional; adds the finite-d slack)");
    commands.push_back({app, [args]() {
      const Rational r = ParseFlag(args->r, "--r"), n = ParseFlag(args->n, "--n");
      if (args->d && (*args->d < 0 || *args->d > ref::kMaxSharedBits))
        throw InvalidArgument("--d", "must be in [0, 62], got " + std::to_string(*args->d));
      if (args->privacy.Exact()) return Thm2Json(args->privacy.ExactE(), r, n, args->d, true, 0);
      return Thm2Json(args->privacy.EnclosedE(), r, n, args->d, false, args->privacy.precision_bits);
    }});
  }
  {
    auto* app = root.add_subcommand("thm3", "seed 000 Theorem 3 (R9, R10): eps_u as printed and re-derived, preconditions, MSE bound");
    struct Args { PrivacyOptions privacy; std::string n, gamma, m, delta, r; };
    auto args = std::make_shared<Args>();
    args->privacy.Register(app);
    app->add_option("--n", args->n, "number of clients")->required();
    app->add_option("--gamma", args->gamma, "AugCorBin-FL fraction in (0, 1]")->required();
    app->add_option("--m", args->m, "number of model parameters")->required();
    app->add_option("--delta", args->delta, "delta in (0, 1)")->required();
    app->add_option("--r", args->r, "max radius r > 0")->required();
    commands.push_back({app, [args]() {
      ref::Thm3Params params;
      params.budget = Budget(args->privacy);
      params.n = ParseFlag(args->n, "--n");
      params.gamma = ParseFlag(args->gamma, "--gamma");
      params.m = ParseFlag(args->m, "--m");
      params.delta = ParseFlag(args->delta, "--delta");
      params.r = ParseFlag(args->r, "--r");
      params.precision_bits = args->privacy.precision_bits;
      if (args->privacy.Exact()) return Thm3Json(args->privacy, args->privacy.ExactE(), params);
      return Thm3Json(args->privacy, args->privacy.EnclosedE(), params);
    }});
  }
  {
    auto* app = root.add_subcommand("thm4", "seed 000 Theorem 4 (R11): gamma, gamma', theta, theta', MSE bound, eps_u, moments");
    struct Args { PrivacyOptions privacy; std::string p, n, delta, delta1, r, m; };
    auto args = std::make_shared<Args>();
    args->privacy.Register(app);
    app->add_option("--p", args->p, "dropout probability in (0, 1)")->required();
    app->add_option("--n", args->n, "number of clients")->required();
    app->add_option("--delta", args->delta, "delta in (0, 1)")->required();
    app->add_option("--delta1", args->delta1, "delta1 in (0, delta): the binomial part's delta")->required();
    app->add_option("--r", args->r, "max radius r > 0")->required();
    app->add_option("--m", args->m, "number of model parameters (for eps_u)")->required();
    commands.push_back({app, [args]() {
      ref::Thm4Params params;
      params.budget = Budget(args->privacy);
      params.p = ParseFlag(args->p, "--p");
      params.n = ParseFlag(args->n, "--n");
      params.delta = ParseFlag(args->delta, "--delta");
      params.delta1 = ParseFlag(args->delta1, "--delta1");
      params.r = ParseFlag(args->r, "--r");
      params.m = ParseFlag(args->m, "--m");
      params.precision_bits = args->privacy.precision_bits;
      return Thm4Json(args->privacy, params);
    }});
  }
  {
    auto* app = root.add_subcommand("aggregate", "seed 000 R7: exact aggregate MSE and bias of one coordinate (pairs + solo)");
    struct Args { PrivacyOptions privacy; std::string c, r, weights, pairs, solo; int d = 0; };
    auto args = std::make_shared<Args>();
    args->privacy.Register(app);
    app->add_option("--c", args->c, "center c")->required();
    app->add_option("--r", args->r, "radius r > 0")->required();
    app->add_option("--d", args->d, "shared bits per parameter, 0..62")->required();
    app->add_option("--weights", args->weights, "client weights w0,w1,... in [c - r, c + r]")->required();
    app->add_option("--pairs", args->pairs, "CorBinQ pairs i-j,k-l (first index = Q1 role)");
    app->add_option("--solo", args->solo, "LDPQ (solo) clients i,j,...");
    commands.push_back({app, [args]() {
      const Rational c = ParseFlag(args->c, "--c"), r = ParseFlag(args->r, "--r");
      const std::vector<Rational> weights = ParseWeights(args->weights);
      const ref::ClientLayout layout = ParseLayout(args->pairs, args->solo);
      if (args->privacy.Exact())
        return AggregateJson(args->privacy.ExactE(), c, r, args->d, weights, layout, true, 0);
      return AggregateJson(args->privacy.EnclosedE(), c, r, args->d, weights, layout, false,
                           args->privacy.precision_bits);
    }});
  }
  {
    auto* app = root.add_subcommand("e12", "seed 000 E12: counterexample to the literal Theorem 1 (exact; needs --E)");
    struct Args { std::string E, c, r, w1, w2; int max_d = 16; };
    auto args = std::make_shared<Args>();
    app->add_option("--E", args->E, "E = e^eps > 1, exact rational")->required();
    app->add_option("--c", args->c, "center c")->required();
    app->add_option("--r", args->r, "radius r > 0")->required();
    app->add_option("--w1", args->w1, "Q1-role weight in [c - r, c + r]")->required();
    app->add_option("--w2", args->w2, "Q2-role weight in [c - r, c + r]")->required();
    app->add_option("--max-d", args->max_d, "largest d listed in mse_construction / corbinq_mse (default 16)");
    commands.push_back({app, [args]() {
      const Rational E = ParseFlag(args->E, "--E");
      if (!(E > 1)) throw InvalidArgument("--E", "must satisfy E = e^eps > 1, got " + ref::EchoValue(E));
      if (args->max_d < 0 || args->max_d > ref::kMaxSharedBits)
        throw InvalidArgument("--max-d", "must be in [0, 62], got " + std::to_string(args->max_d));
      return E12Json(E, ParseFlag(args->c, "--c"), ParseFlag(args->r, "--r"), ParseFlag(args->w1, "--w1"),
                     ParseFlag(args->w2, "--w2"), args->max_d);
    }});
  }
}

}  // namespace dpfl::cli
