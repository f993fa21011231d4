// dpfl-ref coq — seed-001 §7 items 1–10 (CoQ-FL / LDP-FedCR pair) from the command line.
#include "cli_common.hpp"
#include "dpfl/ref/coq_budget.hpp"
#include "dpfl/ref/coq.hpp"

namespace dpfl::cli {
namespace {

template <class Real>
json CoqJson(const Real& E, const Rational& c, const Rational& r, const Rational& wA, const Rational& wB, int d,
             const Rational& px, ref::CoqList list, bool exact, int bits) {
  const ref::CoqResult<Real> res = ref::EvaluateCoq(E, c, r, wA, wB, d, px, list);
  JsonResult out(exact, bits);
  out.PutRaw("variant", list == ref::CoqList::kCorrected ? "corrected" : "as-printed");
  out.PutRaw("d", d);
  out.PutRaw("px", ref::ToExactString(px));
  out.Put("alpha", res.alpha);
  out.Put("P_A", res.P_A);
  out.Put("P_B", res.P_B);
  out.PutInt("k_A", res.cell_A.k);
  out.Put("theta_A", res.cell_A.theta);
  out.PutInt("k_B", res.cell_B.k);
  out.Put("theta_B", res.cell_B.theta);
  out.Put("joint", "++", res.joint.pp);
  out.Put("joint", "+-", res.joint.pm);
  out.Put("joint", "-+", res.joint.mp);
  out.Put("joint", "--", res.joint.mm);
  out.Put("marginal_A_plus", res.marginal_A_plus);
  out.Put("marginal_B_plus", res.marginal_B_plus);
  out.Put("mean_A", res.mean_A);
  out.Put("mean_B", res.mean_B);
  out.Put("cov", res.cov);
  out.Put("var_A", res.var_A);
  out.Put("var_B", res.var_B);
  out.Put("var_sum", res.var_sum);
  out.Put("ideal", "pi_pp", res.ideal_pi_pp);
  out.Put("ideal", "cov", res.ideal_cov);
  out.Put("ideal", "var_sum", res.ideal_var_sum);
  out.Put("var_sum_independent", res.var_sum_independent);
  return std::move(out).Finish();
}

}  // namespace

void RegisterCoqCommands(CLI::App& root, std::vector<Command>& commands) {
  auto* app = root.add_subcommand(
      "coq",
      "CoQ-FL / LDP-FedCR pair (seed 001 Alg. 2, corrected per E1): cells k, theta; exact joint pmf "
      "(D3; first sign = Alice, UP=+1); marginals (D2); means; Cov, variances, Var(sum) (D4); ideal "
      "d->inf coupling (Lemma 2, Eq. 6); independent LDP-FL baseline");
  struct Args {
    PrivacyOptions privacy;
    std::string c, r, d, wA, wB, px = "1/2", list = "corrected";
  };
  auto args = std::make_shared<Args>();
  args->privacy.Register(app);
  app->add_option("--c", args->c, "layer center c (rational)")->required();
  app->add_option("--r", args->r, "layer radius r > 0 (rational); weights must lie in [c - r, c + r]")
      ->required();
  app->add_option("--d", args->d,
                  "shared CR bits per weight, 0..62 (d > 20 only with --px 1/2 and --list corrected; "
                  "d = 0 is plain LDP-FL)")
      ->required();
  app->add_option("--wA", args->wA, "Alice's weight (UP = +1, generates the CR), in [c - r, c + r]")->required();
  app->add_option("--wB", args->wB, "Bob's weight (UP = -1), in [c - r, c + r]")->required();
  app->add_option("--px", args->px, "bias p_x of each shared CR bit, rational in (0, 1) (default 1/2)");
  app->add_option("--list", args->list,
                  "ProbabilityList: 'corrected' (exclusive prefix sums, spec 001 3.6; default) or "
                  "'as-printed' (Alg. 3 as printed, erratum E1: biased marginals; d <= 20)");
  commands.push_back({app, [args]() {
    const Rational c = ParseFlag(args->c, "--c"), r = ParseFlag(args->r, "--r");
    const Rational wA = ParseFlag(args->wA, "--wA"), wB = ParseFlag(args->wB, "--wB");
    const Rational px = ParseFlag(args->px, "--px");
    const int d = ref::ParseInt(args->d, "--d");
    ref::CoqList list;
    if (args->list == "corrected") list = ref::CoqList::kCorrected;
    else if (args->list == "as-printed") list = ref::CoqList::kAsPrinted;
    else throw InvalidArgument("--list", "must be 'corrected' or 'as-printed', got '" + args->list + "'");
    if (args->privacy.Exact())
      return CoqJson(args->privacy.ExactE(), c, r, wA, wB, d, px, list, true, 0);
    return CoqJson(args->privacy.EnclosedE(), c, r, wA, wB, d, px, list, false, args->privacy.precision_bits);
  }});

  {
    auto* app = root.add_subcommand(
        "coq-budget", "seed 001 D10: eps_cor that matches independent LDP-FL's worst-case pair variance at eps_ind "
                      "(the draft's '50% of the privacy budget' claim, E16)");
    struct Args { std::string eps; int precision = 256; };
    auto args = std::make_shared<Args>();
    app->add_option("--eps-ind", args->eps, "independent LDP-FL budget eps_ind > 0 (decimal, read exactly)")->required();
    app->add_option("--precision", args->precision, "MPFR bits (default 256)");
    commands.push_back({app, [args]() {
      const ref::BudgetEquivalence b = ref::CoqBudgetEquivalence(ParseFlag(args->eps, "--eps-ind"), args->precision);
      JsonResult out(false, args->precision);
      out.Put("alpha_ind", b.alpha_ind);
      out.Put("eps_cor_loose", b.eps_cor_loose);
      out.Put("ratio_loose", b.ratio_loose);
      out.Put("eps_cor_exact", b.eps_cor_exact);
      out.Put("ratio_exact", b.ratio_exact);
      out.PutRaw("log", "natural");
      out.PutRaw("notes", "loose: alpha_cor = sqrt(2) alpha_ind (the draft's bounds); exact: the admissible sup of "
                          "spec 001 §4.6(d); eps = ln((alpha+1)/(alpha-1))");
      return std::move(out).Finish();
    }});
  }
}

}  // namespace dpfl::cli
