// The line protocol of `dpfl check` over a child process's stdin/stdout (docs/check.md
// "Protocol"): request `N x_1 … x_k`, answer N lines of numbers; closing stdin means "done".
// Every failure is a ProtocolError naming the request: an exit, a short or long answer, a
// non-number, a stall past the timeout. SIGPIPE is ignored while writing (a child that exited is
// reported, not a signal that kills dpfl).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>

#include "conformance.hpp"
#include "dpfl/format.hpp"

namespace dpfl::check {

std::vector<double> ParseAnswerLine(std::string_view line, int arity) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<double> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    std::string_view token = line.substr(i, j - i);
    std::string_view digits = token;
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    std::string shown(token.substr(0, 40));
    for (char& ch : shown)
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f) ch = '?';
    if (r.ec == std::errc::result_out_of_range && r.ptr == digits.data() + digits.size())
      throw ProtocolError("'" + shown + "' is outside the range of double");
    if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size())
      throw ProtocolError("'" + shown + "' is not a decimal number");
    if (!std::isfinite(v)) throw ProtocolError("'" + shown + "' is not a finite number");
    out.push_back(v);
    i = j;
  }
  if (static_cast<int>(out.size()) != arity)
    throw ProtocolError("expected " + std::to_string(arity) + " number" + (arity == 1 ? "" : "s") + " per line, got " +
                        std::to_string(out.size()));
  return out;
}

struct ProcessSampler::State {
  std::vector<std::string> command;
  int input_arity = 1, output_arity = 1;
  double timeout = 60;
  pid_t pid = -1;
  int to_child = -1, from_child = -1;
  std::string buffer;  // bytes read but not yet consumed
  std::uint64_t requests = 0;
  bool closed = false, killed = false;

  std::string Name() const { return command.empty() ? "COMMAND" : command[0]; }

  // Exit status text of the child, if it has exited (non-blocking).
  std::string ExitText() {
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
      pid = -1;
      if (WIFEXITED(status)) return " (it exited with status " + std::to_string(WEXITSTATUS(status)) + ")";
      if (WIFSIGNALED(status)) return " (it was killed by signal " + std::to_string(WTERMSIG(status)) + ")";
    }
    return "";
  }
};

ProcessSampler::ProcessSampler(std::vector<std::string> command, int input_arity, int output_arity,
                               double timeout_seconds)
    : state_(new State) {
  State& s = *state_;
  s.command = std::move(command);
  s.input_arity = input_arity;
  s.output_arity = output_arity;
  s.timeout = timeout_seconds;
  if (s.command.empty()) {
    delete state_;
    throw ProtocolError("no COMMAND after --");
  }
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    delete state_;
    throw ProtocolError(std::string("pipe: ") + std::strerror(errno));
  }
  signal(SIGPIPE, SIG_IGN);
  std::vector<char*> argv;
  for (auto& a : s.command) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // its own process group: Close() ends it and anything it started
    dup2(in[0], 0);
    dup2(out[1], 1);
    execvp(argv[0], argv.data());
    const char msg[] = "dpfl check: cannot start COMMAND\n";
    (void)!write(err[1], msg, sizeof msg - 1);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (pid < 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    delete state_;
    throw ProtocolError(std::string("fork: ") + std::strerror(errno));
  }
  // exec failure: the child writes to err before exiting; success closes err (O_CLOEXEC).
  char probe[64];
  const ssize_t got = read(err[0], probe, sizeof probe);
  close(err[0]);
  s.pid = pid;
  s.to_child = in[1];
  s.from_child = out[0];
  if (got > 0) {
    const std::string name = s.Name();
    Close();
    delete state_;
    throw ProtocolError("cannot start '" + name + "': " + std::strerror(ENOENT) + " or not executable");
  }
}

ProcessSampler::~ProcessSampler() {
  try {
    Close();
  } catch (const ProtocolError&) {
  }
  delete state_;
}

std::vector<std::vector<double>> ProcessSampler::operator()(std::span<const double> input, std::uint64_t runs) {
  State& s = *state_;
  if (s.closed) throw ProtocolError("the implementation's process was already closed");
  if (input.size() != static_cast<std::size_t>(s.input_arity))
    throw std::invalid_argument("ProcessSampler: " + std::to_string(input.size()) + " inputs for a mechanism of " +
                                std::to_string(s.input_arity));
  ++s.requests;
  std::string request = std::to_string(runs);
  for (double v : input) request += " " + ShortestDouble(v);
  const std::string where = "request " + std::to_string(s.requests) + " ('" + request + "')";
  request += "\n";
  for (std::size_t off = 0; off < request.size();) {
    const ssize_t w = write(s.to_child, request.data() + off, request.size() - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw ProtocolError(where + ": cannot write to " + s.Name() + s.ExitText());
    off += static_cast<std::size_t>(w);
  }
  std::vector<std::vector<double>> rows;
  rows.reserve(runs);
  std::size_t pos = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(s.timeout);
  char chunk[1 << 16];
  while (rows.size() < runs) {
    const std::size_t nl = s.buffer.find('\n', pos);
    if (nl != std::string::npos) {
      try {
        rows.push_back(ParseAnswerLine(std::string_view(s.buffer).substr(pos, nl - pos), s.output_arity));
      } catch (const ProtocolError& e) {
        throw ProtocolError(where + ", answer line " + std::to_string(rows.size() + 1) + ": " + e.what());
      }
      pos = nl + 1;
      continue;
    }
    s.buffer.erase(0, pos);
    pos = 0;
    if (s.buffer.size() > (1u << 20))
      throw ProtocolError(where + ", answer line " + std::to_string(rows.size() + 1) + ": longer than 1 MiB");
    const auto left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0)
      throw ProtocolError(where + ": no complete answer within " + ShortestDouble(s.timeout) + " s (" +
                          std::to_string(rows.size()) + " of " + std::to_string(runs) +
                          " lines; does it flush stdout after each answer? Python: print(..., flush=True))");
    pollfd p{s.from_child, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min(left * 1000 + 1, 1e6)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t got = read(s.from_child, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      usleep(20000);  // let it finish exiting, for the status in the message
      throw ProtocolError(where + ": " + s.Name() + " closed its output after " + std::to_string(rows.size()) + " of " +
                          std::to_string(runs) + " lines" + s.ExitText());
    }
    s.buffer.append(chunk, static_cast<std::size_t>(got));
    deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(s.timeout);  // progress resets it
  }
  s.buffer.erase(0, pos);
  if (!s.buffer.empty())
    throw ProtocolError(where + ": more than the " + std::to_string(runs) + " lines asked for");
  return rows;
}

bool ProcessSampler::Killed() const { return state_->killed; }

void ProcessSampler::Abort() {
  State& s = *state_;
  if (s.closed) return;
  s.closed = true;
  if (s.pid > 0) {
    kill(-s.pid, SIGKILL);
    kill(s.pid, SIGKILL);
    int status = 0;
    waitpid(s.pid, &status, 0);
    s.pid = -1;
  }
  for (int* fd : {&s.to_child, &s.from_child})
    if (*fd >= 0) {
      close(*fd);
      *fd = -1;
    }
}

void ProcessSampler::Close() {
  State& s = *state_;
  if (s.closed) return;
  s.closed = true;
  if (s.to_child >= 0) close(s.to_child);
  s.to_child = -1;
  // Read what is left until EOF (bounded by the timeout), then reap or kill the child.
  std::string extra;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(std::min(s.timeout, 10.0));
  char chunk[4096];
  while (s.from_child >= 0) {
    const auto left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    pollfd p{s.from_child, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left * 1000 + 1)) <= 0) continue;
    const ssize_t got = read(s.from_child, chunk, sizeof chunk);
    if (got <= 0) break;
    if (extra.size() < 4096) extra.append(chunk, static_cast<std::size_t>(got));
  }
  if (s.from_child >= 0) close(s.from_child);
  s.from_child = -1;
  if (s.pid > 0) {
    int status = 0;
    // EOF on its output comes as it exits: give it until the deadline to be reaped.
    pid_t done = waitpid(s.pid, &status, WNOHANG);
    while (done == 0 && std::chrono::steady_clock::now() < deadline) {
      usleep(5000);
      done = waitpid(s.pid, &status, WNOHANG);
    }
    if (done == 0) {
      s.killed = true;
      kill(-s.pid, SIGKILL);
      kill(s.pid, SIGKILL);
      waitpid(s.pid, &status, 0);
    } else {
      kill(-s.pid, SIGKILL);  // children it left behind holding our pipes
    }
    s.pid = -1;
  }
  extra.append(s.buffer);
  s.buffer.clear();
  if (extra.find_first_not_of(" \t\r\n") != std::string::npos)
    throw ProtocolError("after request " + std::to_string(s.requests) + ": " + "output beyond the last answer");
}

}  // namespace dpfl::check
