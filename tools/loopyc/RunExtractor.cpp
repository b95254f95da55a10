//===- RunExtractor.cpp - C and C++ input through loopy-extract -----------===//
#include "RunExtractor.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace loopy {

namespace {

/// loopy-extract in the folder of the running executable.
std::string extractorPath() {
  std::vector<char> Buf(4096);
  ssize_t N = readlink("/proc/self/exe", Buf.data(), Buf.size() - 1);
  std::string Self = N > 0 ? std::string(Buf.data(), N) : "";
  size_t Slash = Self.rfind('/');
  return (Slash == std::string::npos ? "." : Self.substr(0, Slash)) +
         "/loopy-extract";
}

/// Kept for the rest of the run: std::cin reads from it.
std::stringbuf &liftedText() {
  static std::stringbuf Text;
  return Text;
}

} // namespace

bool isCSource(const std::string &Path) {
  for (const char *Ext : {".c", ".cc", ".cpp", ".cxx", ".C"}) {
    size_t L = std::strlen(Ext);
    if (Path.size() > L && Path.compare(Path.size() - L, L, Ext) == 0)
      return true;
  }
  return false;
}

int liftCSource(std::string &Input, std::ostream &Err) {
  std::string Tool = extractorPath();
  int Pipe[2];
  if (pipe(Pipe) != 0) {
    Err << "loopyc: error: cannot run " << Tool << ": " << std::strerror(errno)
        << "\n";
    return 1;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&Actions, Pipe[0]);
  posix_spawn_file_actions_addclose(&Actions, Pipe[1]);
  std::vector<char *> Argv = {Tool.data(), Input.data(), nullptr};
  pid_t Pid;
  int Spawned = posix_spawn(&Pid, Tool.c_str(), &Actions, nullptr, Argv.data(),
                            environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  if (Spawned != 0) {
    close(Pipe[0]);
    Err << "loopyc: error: cannot run '" << Tool << "': "
        << std::strerror(Spawned)
        << "; C and C++ input needs loopy-extract next to loopyc (it is "
           "built where the Clang 14 development files are installed)\n";
    return 1;
  }
  std::string Text;
  char Buf[65536];
  for (ssize_t N; (N = read(Pipe[0], Buf, sizeof Buf)) != 0;) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      break;
    Text.append(Buf, N);
  }
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(Status)) {
    Err << "loopyc: internal error: loopy-extract was killed by signal "
        << WTERMSIG(Status) << " on '" << Input << "'\n";
    return 2;
  }
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return 1;
  liftedText().str(Text);
  std::cin.rdbuf(&liftedText());
  Input = "-";
  return 0;
}

void noteLiftedSource(const std::string &Source, std::ostream &Err) {
  Err << "loopyc: note: '<stdin>' is the .loop text lifted from '" << Source
      << "'; 'loopy-extract " << Source << "' prints it\n";
}

} // namespace loopy
