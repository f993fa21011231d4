// Runs a program with arguments (no shell interpretation of the arguments) and captures its
// exit code, stdout and stderr, for tests of the project's command-line tools.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dpfl::testing {

struct RunResult {
  int exit_code;
  std::string out, err;
};

inline std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += (ch == '\'') ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

inline RunResult RunProgram(const std::string& program, const std::vector<std::string>& args,
                            const std::string& scratch_dir) {
  // A unique file per call (ctest runs test processes in parallel).
  std::string err_template = scratch_dir + "dpfl_subprocess_err_XXXXXX";
  const int fd = mkstemp(err_template.data());
  if (fd < 0) return {-1, "", "mkstemp failed"};
  close(fd);
  const std::string err_path = err_template;
  std::string cmd = ShellQuote(program);
  for (const std::string& a : args) cmd += " " + ShellQuote(a);
  cmd += " 2>" + ShellQuote(err_path) + " </dev/null";
  RunResult r{};
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "", "popen failed"};
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(err_path);
  std::stringstream ss;
  ss << f.rdbuf();
  r.err = ss.str();
  std::remove(err_path.c_str());
  return r;
}

// A fresh scratch directory for this test process (ctest runs test processes in parallel):
// <tmp>/<prefix><pid>/, emptied first; returned with a trailing '/'.
inline std::string ProcessScratchDir(const std::string& prefix) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string() + "/";
}

// The whole file as bytes ("" if it cannot be read).
inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace dpfl::testing
