//===- loopy-worker.cpp - The process that drives the GPU for loopyc ------===//
//
// Started by GpuWorker (never by hand) with the two descriptors it shares:
//   loopy-worker --socket FD --memfd FD
// Everything it does is in lib/Runtime/WorkerServer.cpp. LOOPY_WORKER_FAKE=1
// in its environment makes it act without a GPU, for the unit tests.
//
//===----------------------------------------------------------------------===//
#include "loopy/Runtime/WorkerServer.h"

#include <fcntl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// The open descriptor given by the value after \p Flag, or -1.
int descriptorArgument(int Argc, char **Argv, const char *Flag) {
  for (int I = 1; I + 1 < Argc; ++I) {
    if (std::strcmp(Argv[I], Flag) != 0)
      continue;
    char *End = nullptr;
    long Fd = std::strtol(Argv[I + 1], &End, 10);
    if (*End || Fd < 0 || Fd > 1 << 20 || ::fcntl(int(Fd), F_GETFD) < 0)
      return -1;
    return int(Fd);
  }
  return -1;
}

} // namespace

int main(int Argc, char **Argv) {
  loopy::gpu::WorkerOptions Options;
  Options.Socket = descriptorArgument(Argc, Argv, "--socket");
  Options.Memfd = descriptorArgument(Argc, Argv, "--memfd");
  if (Argc != 5 || Options.Socket < 0 || Options.Memfd < 0) {
    std::fprintf(stderr,
                 "loopy-worker: runs kernels on the GPU for loopyc, which "
                 "starts it (usage: loopy-worker --socket FD --memfd FD, "
                 "both open descriptors)\n");
    return loopy::gpu::WorkerExitUsage;
  }
  const char *Fake = std::getenv("LOOPY_WORKER_FAKE");
  Options.Fake = Fake && std::string(Fake) == "1";
  return loopy::gpu::serveWorker(Options);
}
