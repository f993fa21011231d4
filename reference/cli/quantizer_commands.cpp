// dpfl-ref ldpq / corbinq — spec 000 §7 R1–R6 from the command line.
#include "cli_common.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/experiment8.hpp"
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
  {
    auto* app = root.add_subcommand(
        "surface", "seed 000 Experiment 8 (R12): exact pair-MSE surfaces of CorBinQ and of two independent LDPQ");
    struct Args { std::string E, c = "0", r = "1/2"; int d = 5, grid = 10; };
    auto args = std::make_shared<Args>();
    app->add_option("--E", args->E, "E = e^eps > 1, exact rational")->required();
    app->add_option("--d", args->d, "shared bits, 0..62 (default 5)");
    app->add_option("--grid", args->grid, "grid intervals per axis, 1..512 (default 10)");
    app->add_option("--c", args->c, "center (default 0, as in Exp. 8)");
    app->add_option("--r", args->r, "radius (default 1/2, as in Exp. 8)");
    commands.push_back({app, [args]() {
      const Rational E = ParseFlag(args->E, "--E");
      if (!(E > 1)) throw InvalidArgument("--E", "must satisfy E > 1");
      const ref::Experiment8Surface s =
          ref::Experiment8(E, args->d, args->grid, ParseFlag(args->c, "--c"), ParseFlag(args->r, "--r"));
      json out;
      out["w"] = json::array();
      for (const Rational& w : s.w) out["w"].push_back(ref::ToExactString(w));
      out["corbinq_mse"] = json::array();
      out["ldpq_pair_mse"] = json::array();
      for (std::size_t i = 0; i < s.w.size(); ++i) {
        json a = json::array(), b = json::array();
        for (std::size_t j = 0; j < s.w.size(); ++j) {
          a.push_back(ref::ToExactString(s.corbinq[i][j]));
          b.push_back(ref::ToExactString(s.ldpq[i][j]));
        }
        out["corbinq_mse"].push_back(a);
        out["ldpq_pair_mse"].push_back(b);
      }
      out["d"] = args->d;
      out["exact"] = true;
      out["notes"] = "rows: w1 = w[i]; columns: w2 = w[j]; MSE of the pair sum E[(Q1+Q2-w1-w2)^2]";
      return out;
    }});
  }
}

}  // namespace dpfl::cli
