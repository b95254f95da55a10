//===- Subprocess.cpp - Starting and ending child processes ---------------===//
#include "loopy/Runtime/Subprocess.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace loopy {

Expected<pid_t> spawnProcess(const std::vector<std::string> &Argv,
                             const SpawnOptions &Opts) {
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  bool KeepsStdin = false;
  // A dup2 onto itself clears FD_CLOEXEC in the child only (POSIX.1-2024;
  // glibc since 2.29): exactly these descriptors cross the exec, and the
  // parent's copies stay close-on-exec for any other program it starts
  // meanwhile, on any thread.
  for (int Fd : Opts.KeepFds) {
    posix_spawn_file_actions_adddup2(&Actions, Fd, Fd);
    KeepsStdin |= Fd == 0;
  }
  if (Opts.StdoutFd >= 0)
    posix_spawn_file_actions_adddup2(&Actions, Opts.StdoutFd, STDOUT_FILENO);
  if (Opts.NullStdin && !KeepsStdin)
    posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  sigset_t NoSignals;
  sigemptyset(&NoSignals);
  posix_spawnattr_setsigmask(&Attr, &NoSignals);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETSIGMASK);
  pid_t Child = -1;
  int E = ::posix_spawn(&Child, Args[0], &Actions, &Attr, Args.data(), environ);
  posix_spawnattr_destroy(&Attr);
  posix_spawn_file_actions_destroy(&Actions);
  if (E != 0)
    return Failure::user(std::strerror(E));
  return Child;
}

std::string ProcessEnd::describe() const {
  switch (K) {
  case Kind::Exited:
    return "exit status " + std::to_string(Code);
  case Kind::Signaled:
    return "signal " + std::to_string(Code) + ": " + strsignal(Code);
  case Kind::Unknown:
    break;
  }
  return "status unknown";
}

ProcessEnd waitProcess(pid_t Pid,
                       std::optional<std::chrono::milliseconds> Grace) {
  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + Grace.value_or(std::chrono::milliseconds(0));
  int Status = 0;
  for (bool Blocking = !Grace;;) {
    pid_t R = ::waitpid(Pid, &Status, Blocking ? 0 : WNOHANG);
    if (R == Pid) {
      ProcessEnd End;
      if (WIFSIGNALED(Status)) {
        End.K = ProcessEnd::Kind::Signaled;
        End.Code = WTERMSIG(Status);
      } else if (WIFEXITED(Status)) {
        End.K = ProcessEnd::Kind::Exited;
        End.Code = WEXITSTATUS(Status);
      } else {
        End.Code = Status;
      }
      return End;
    }
    if (R < 0 && errno == EINTR)
      continue;
    if (R < 0) // reaped elsewhere (SIGCHLD ignored): the status is gone
      return {};
    if (Clock::now() >= Deadline) {
      ::kill(Pid, SIGKILL);
      Blocking = true;
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

Expected<CapturedRun> runCapturing(const std::vector<std::string> &Argv) {
  int Pipe[2];
  if (::pipe2(Pipe, O_CLOEXEC) != 0)
    return Failure::user(std::strerror(errno));
  SpawnOptions Opts;
  Opts.StdoutFd = Pipe[1];
  auto Pid = spawnProcess(Argv, Opts);
  ::close(Pipe[1]);
  if (!Pid) {
    ::close(Pipe[0]);
    return Pid.takeFailure();
  }
  CapturedRun Run;
  char Buf[65536];
  for (ssize_t N; (N = ::read(Pipe[0], Buf, sizeof Buf)) != 0;) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      break;
    Run.Output.append(Buf, N);
  }
  ::close(Pipe[0]);
  Run.End = waitProcess(*Pid);
  return Run;
}

} // namespace loopy
