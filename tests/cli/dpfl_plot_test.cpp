// `dpfl plot compare` through the real binary: one PNG with the validation and test accuracy of
// several run directories side by side, labelled from their certificates; bad run directories
// and unusable paths are one line on stderr and exit 2 (docs/training.md "Outputs").
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "testing/subprocess.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

dpfl::testing::RunResult RunDpfl(const std::vector<std::string>& args) {
  return dpfl::testing::RunProgram(DPFL_BINARY, args, ::testing::TempDir());
}

const char* kHeader =
    "round,train_loss,val_loss,val_accuracy,test_loss,test_accuracy,survivors,pairs,solo,uplink_bits,reloaded_best,"
    "monitor_passed,seconds,mechanism_seconds,idle_clients\n";

// A run directory as `dpfl train --out` leaves it (the files `plot compare` reads).
fs::path MakeRun(const fs::path& root, const std::string& name, const std::string& mechanism, double final_test,
                 bool with_certificate = true) {
  const fs::path dir = root / name;
  fs::create_directories(dir);
  std::ofstream(dir / "metrics.csv") << kHeader << "1,2.1,2.0,0.31,2.0,0.30,10,5,0,1000,0,1,1.5,0.01,0\n"
                                     << "2,1.5,1.4,0.52,1.4,0.50,10,5,0,1000,0,1,1.5,0.01,0\n"
                                     << "3,1.1,1.0,0.66," << 1.0 << ',' << final_test << ",10,5,0,1000,0,1,1.5,0.01,0\n";
  if (with_certificate)
    std::ofstream(dir / "certificate.json")
        << json{{"configuration", {{"mechanism", mechanism}, {"eps_p", 1.0}, {"dataset", "synthetic"},
                                   {"clients", 10}, {"seed", 1}}}}.dump();
  return dir;
}

fs::path Root(const std::string& test) {
  const fs::path root = fs::path(::testing::TempDir()) / ("dpfl_plot_" + test + "_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  return root;
}

TEST(DpflPlotCompare, OnePictureOfEveryRunLabelledByMechanism) {
  const fs::path root = Root("ok");
  const fs::path a = MakeRun(root, "vanilla", "vanilla", 0.71), b = MakeRun(root, "corbin-fl", "corbin-fl", 0.64),
                 c = MakeRun(root, "plain", "", 0.5, false);
  const auto r = RunDpfl({"plot", "compare", a.string(), b.string(), c.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["plot"], (root / "accuracy_compare.png").string());  // default: beside the first run
  EXPECT_EQ(out["title"], "accuracy per round") << out.dump();  // "plain" has no certificate to agree with
  ASSERT_EQ(out["runs"].size(), 3u);
  EXPECT_EQ(out["runs"][0]["label"], "vanilla");
  EXPECT_EQ(out["runs"][1]["label"], "corbin-fl (eps_p 1)");
  EXPECT_EQ(out["runs"][2]["label"], "plain");               // no certificate: the directory's name
  EXPECT_EQ(out["runs"][1]["rounds"], 3);
  EXPECT_DOUBLE_EQ(out["runs"][1]["final_test_accuracy"].get<double>(), 0.64);
  std::ifstream png(out["plot"].get<std::string>(), std::ios::binary);
  char magic[8] = {};
  png.read(magic, 8);
  EXPECT_EQ(std::string(magic, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << "not a PNG";
  const std::string script = out["script"].get<std::string>();
  std::ifstream gp(script);
  const std::string text((std::istreambuf_iterator<char>(gp)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("multiplot layout 1,2"), std::string::npos);  // side by side
  EXPECT_NE(text.find("using 1:4"), std::string::npos);             // validation accuracy
  EXPECT_NE(text.find("using 1:6"), std::string::npos);             // test accuracy
  const auto common = RunDpfl({"plot", "compare", a.string(), b.string()});
  ASSERT_EQ(common.exit_code, 0) << common.err;
  EXPECT_EQ(json::parse(common.out)["title"], "synthetic, 10 clients, seed 1");
  const fs::path chosen = root / "sub" / "cmp.png";
  const auto r2 = RunDpfl({"plot", "compare", a.string(), "--out", chosen.string(), "--title", "mine"});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  EXPECT_TRUE(fs::exists(chosen));
  EXPECT_EQ(json::parse(r2.out)["title"], "mine");
  fs::remove_all(root);
}

TEST(DpflPlotCompare, BadRunDirectoriesAreOneLineAndExit2) {
  const fs::path root = Root("bad");
  const fs::path good = MakeRun(root, "good", "ldp-fl", 0.6);
  const fs::path header = root / "header", text = root / "text", empty = root / "empty", quote = root / "it's";
  for (const auto& d : {header, text, empty}) fs::create_directories(d);
  std::ofstream(header / "metrics.csv") << "a,b,c\n1,2,3\n";
  std::ofstream(text / "metrics.csv") << kHeader << "1,2,x,0.3,2,0.3\n";
  std::ofstream(empty / "metrics.csv") << kHeader;
  MakeRun(root, "it's", "vanilla", 0.7);
  struct Case {
    std::vector<std::string> args;
    std::string expect;
  };
  for (const Case& c : {Case{{(root / "absent").string()}, "no readable metrics.csv"},
                        Case{{header.string()}, "does not start with dpfl's header"},
                        Case{{text.string()}, "'x' is not a number"},
                        Case{{empty.string()}, "has no rounds"},
                        Case{{quote.string()}, "contains a quote"},
                        Case{{good.string(), "--out", (root / "o'k.png").string()}, "contains a quote"},
                        Case{{}, "RUN_DIR"}}) {
    std::vector<std::string> args = {"plot", "compare"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = RunDpfl(args);
    EXPECT_EQ(r.exit_code, 2) << c.expect << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.expect;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  fs::remove_all(root);
}

}  // namespace
