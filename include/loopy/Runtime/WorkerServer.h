//===- WorkerServer.h - The GPU worker's side of the protocol ---*- C++ -*-===//
//
// What loopy-worker does between its arguments and its exit: it answers
// the requests of WorkerProtocol.h on the inherited socket, driving the
// device that Hello names through the CUDA layer of Cuda.h (one worker per
// GPU), with the buffers' host side in the
// inherited memfd. It exits on end of file, after answering NoGpu, and
// after a sticky CUDA error (the context is lost; only a new process can
// use the GPU again).
//
// With Fake set it drives no GPU: it reports an invented device (one of
// LOOPY_WORKER_FAKE_DEVICES, default 1), and its
// launches act by name ("hang" never returns, "crash" raises SIGSEGV,
// "fault" fails with a sticky CUDA_ERROR_ILLEGAL_ADDRESS, "copy" copies
// its first buffer argument to its second, any other does nothing; a
// "copy" whose blocks have as many threads as LOOPY_WORKER_FAKE_SHORT_COPY
// says leaves its last 4 bytes unwritten, a wrong variant). The
// unit tests use it to drive GpuWorker's timeout, crash and restart paths
// on machines without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_RUNTIME_WORKERSERVER_H
#define LOOPY_RUNTIME_WORKERSERVER_H

#include <functional>

namespace loopy::gpu {

/// loopy-worker's exit statuses.
enum WorkerExit : int {
  WorkerExitOk = 0,
  WorkerExitUsage = 2,
  /// A sticky CUDA error, after replying FailedExiting.
  WorkerExitSticky = 3,
  /// No usable GPU, after replying NoGpu.
  WorkerExitNoGpu = 4,
  /// A message that does not decode, or a socket error.
  WorkerExitProtocol = 5,
};

struct WorkerOptions {
  int Socket = -1; // connected to the parent (GpuWorker)
  int Memfd = -1;  // the buffers' shared host memory
  bool Fake = false;
};

/// Serves requests until the parent closes the socket; returns the exit
/// status (a sticky error ends the process at once, without unwinding).
int serveWorker(const WorkerOptions &Options);

/// The repeat rule of Request::Time.
struct TimingPlan {
  double MinTotalSeconds = 0;
  unsigned MinRepeats = 1;
  unsigned MaxRepeats = 1; // at least one repeat runs regardless
};
struct Timing {
  double MedianSeconds = 0;
  double MinSeconds = 0;
  unsigned Repeats = 0;
};
/// Calls \p Repeat (which returns the seconds one repeat took) until
/// MinTotalSeconds have been measured and MinRepeats ran, or MaxRepeats
/// ran; the median of an even count is the mean of the middle two.
Timing timeRepeats(const TimingPlan &Plan,
                   const std::function<double()> &Repeat);

} // namespace loopy::gpu

#endif
