//===- Subprocess.h - Starting and ending child processes -------*- C++ -*-===//
//
// loopyc starts two kinds of programs: loopy-worker, which drives the GPU
// so that a fault stays in a child process, and loopy-extract, which lifts
// C and C++ loops to .loop text. Both go through these helpers, built on
// posix_spawn: spawnProcess starts a program with exactly the descriptors
// it is given (the parent's own are close-on-exec), waitProcess reaps it
// (killing it after a grace period where one is given), and runCapturing
// runs a program to its end with its standard output read into a string.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_RUNTIME_SUBPROCESS_H
#define LOOPY_RUNTIME_SUBPROCESS_H

#include "loopy/Support/Expected.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace loopy {

struct SpawnOptions {
  /// Descriptors the child keeps, at the same numbers.
  std::vector<int> KeepFds;
  /// The descriptor that becomes the child's standard output; -1 keeps the
  /// parent's.
  int StdoutFd = -1;
  /// Give the child /dev/null as standard input (unless it keeps
  /// descriptor 0): programs that read nothing stay off the terminal.
  bool NullStdin = false;
};

/// Starts \p Argv[0] with the arguments \p Argv and the parent's
/// environment, with no signals blocked. Returns the child's process id,
/// or a Failure with the system's reason ("No such file or directory").
Expected<pid_t> spawnProcess(const std::vector<std::string> &Argv,
                             const SpawnOptions &Opts = {});

/// How a child ended.
struct ProcessEnd {
  enum class Kind { Exited, Signaled, Unknown } K = Kind::Unknown;
  /// The exit status or the signal number.
  int Code = 0;
  bool succeeded() const { return K == Kind::Exited && Code == 0; }
  /// "exit status 1", "signal 9: Killed" or "status unknown".
  std::string describe() const;
};

/// Waits for \p Pid to end. With \p Grace, kills it (SIGKILL) once that
/// much time has passed. Status unknown if another part of the program
/// reaped it.
ProcessEnd waitProcess(pid_t Pid,
                       std::optional<std::chrono::milliseconds> Grace = {});

/// What a program run to its end printed on its standard output.
struct CapturedRun {
  std::string Output;
  ProcessEnd End;
};

/// Runs \p Argv to its end, its standard output read into the result and
/// its standard error the caller's. A Failure if it cannot be started.
Expected<CapturedRun> runCapturing(const std::vector<std::string> &Argv);

} // namespace loopy

#endif
