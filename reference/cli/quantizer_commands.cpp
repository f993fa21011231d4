// dpfl-ref ldpq / corbinq — spec 000 §7 R1–R6 from the command line.
#include "cli_common.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/ldpq.hpp"

namespace dpfl::cli {
namespace {

template <class Real>
json LdpqJson(const Real& E, const Rational& c, const Rational& r, const Rational& w, bool exact, int bits) {
  const ref::LdpqLaw<Real> law = ref::Ldpq(E, c, r, w);
  JsonResult out(exact, bits);
  out.Put("alpha", law.alpha);
  out.Put("q_plus", law.q_plus);
  out.Put("q_minus", law.q_minus);
  out.Put("level_minus", law.level_minus);
  out.Put("level_plus", law.level_plus);
  out.Put("mean", law.mean);
  out.Put("mse", law.mse);
  out.Put("pldp_ratio", law.pldp_ratio);
  return std::move(out).Finish();
}

template <class Real>
json CorBinQJson(const Real& E, const Rational& c, const Rational& r, const Rational& w1,
                 const Rational& w2, int d, ref::Line14 line14, bool exact, int bits) {
  const ref::CorBinQResult<Real> res = ref::EvaluateCorBinQ(E, c, r, w1, w2, d, line14);
  JsonResult out(exact, bits);
  out.PutRaw("variant", line14 == ref::Line14::kCorrected ? "corrected" : "as-printed");
  out.PutRaw("d", d);
  out.Put("alpha", res.alpha);
  out.Put("q1", res.q1);
  out.Put("q2", res.q2);
  out.PutInt("t1", res.cells.t1);
  out.PutInt("t2", res.cells.t2);
  out.Put("f1", res.cells.f1);
  out.Put("f2", res.cells.f2);
  out.Put("joint", "--", res.joint.mm);
  out.Put("joint", "-+", res.joint.mp);
  out.Put("joint", "+-", res.joint.pm);
  out.Put("joint", "++", res.joint.pp);
  out.Put("mean1", res.mean1);
  out.Put("mean2", res.mean2);
  out.Put("cov", res.cov);
  out.Put("mse", res.mse);
  out.Put("mse_min", res.mse_min);
  out.Put("mse_independent", res.mse_independent);
  out.Put("thm1_bound_as_printed", res.thm1_bound_as_printed);
  out.Put("thm1_bound_sharp", res.thm1_bound_sharp);
  return std::move(out).Finish();
}

}  // namespace

void RegisterQuantizerCommands(CLI::App& root, std::vector<Command>& commands) {
  {
    auto* app = root.add_subcommand("ldpq", "LDPQ (seed 000 Alg. 1; LDP-FL): law, mean, MSE, PLDP ratio");
    struct Args { PrivacyOptions privacy; std::string c, r, w; };
    auto args = std::make_shared<Args>();
    args->privacy.Register(app);
    app->add_option("--c", args->c, "center c")->required();
    app->add_option("--r", args->r, "radius r > 0")->required();
    app->add_option("--w", args->w, "weight w in [c - r, c + r]")->required();
    commands.push_back({app, [args]() {
      const Rational c = ParseFlag(args->c, "--c"), r = ParseFlag(args->r, "--r"), w = ParseFlag(args->w, "--w");
      if (args->privacy.Exact()) return LdpqJson(args->privacy.ExactE(), c, r, w, true, 0);
      return LdpqJson(args->privacy.EnclosedE(), c, r, w, false, args->privacy.precision_bits);
    }});
  }
  {
    auto* app = root.add_subcommand(
        "corbinq", "CorBinQ (seed 000 Alg. 2): exact joint pmf, means, m_d, m*, independent MSE, Thm 1 bounds");
    struct Args { PrivacyOptions privacy; std::string c, r, w1, w2, variant = "corrected"; int d = 0; };
    auto args = std::make_shared<Args>();
    args->privacy.Register(app);
    app->add_option("--c", args->c, "center c")->required();
    app->add_option("--r", args->r, "radius r > 0")->required();
    app->add_option("--d", args->d, "shared bits per parameter, 0..62")->required();
    app->add_option("--w1", args->w1, "Q1-role weight in [c - r, c + r]")->required();
    app->add_option("--w2", args->w2, "Q2-role weight in [c - r, c + r]")->required();
    app->add_option("--variant", args->variant,
                    "corrected (line 14 compares T2) or as-printed (erratum E3: compares T1)")
        ->check(CLI::IsMember({"corrected", "as-printed"}));
    commands.push_back({app, [args]() {
      const Rational c = ParseFlag(args->c, "--c"), r = ParseFlag(args->r, "--r");
      const Rational w1 = ParseFlag(args->w1, "--w1"), w2 = ParseFlag(args->w2, "--w2");
      const ref::Line14 line14 = args->variant == "as-printed" ? ref::Line14::kAsPrinted : ref::Line14::kCorrected;
      if (args->privacy.Exact())
        return CorBinQJson(args->privacy.ExactE(), c, r, w1, w2, args->d, line14, true, 0);
      return CorBinQJson(args->privacy.EnclosedE(), c, r, w1, w2, args->d, line14, false,
                         args->privacy.precision_bits);
    }});
  }
}

}  // namespace dpfl::cli
