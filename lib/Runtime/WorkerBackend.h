//===- WorkerBackend.h - What the GPU worker drives -------------*- C++ -*-===//
//
// The worker's server (WorkerServer.cpp) decodes requests and keeps the
// shared mapping; a backend does the device work: the CUDA one
// (CudaBackend.cpp) on device 0, the fake one (FakeBackend.cpp) on host
// memory, for tests on machines without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_RUNTIME_WORKERBACKEND_H
#define LOOPY_LIB_RUNTIME_WORKERBACKEND_H

#include "loopy/Runtime/GpuWorker.h"
#include "loopy/Runtime/WorkerProtocol.h"

#include <memory>
#include <string>
#include <vector>

namespace loopy::gpu {

class WorkerBackend {
public:
  virtual ~WorkerBackend() = default;
  virtual DeviceInfo device() = 0;
  /// Replaces the device buffers with ones of \p Slots' sizes, filled from
  /// the mapping at \p Host, which stays valid until the next call.
  virtual void setBuffers(const std::vector<protocol::BufferSlot> &Slots,
                          unsigned char *Host) = 0;
  /// Replaces the module; on failure none is left loaded.
  virtual std::vector<FunctionInfo>
  load(const std::string &Image, const std::vector<Launch> &Launches) = 0;
  /// Copies every buffer from the mapping to the device.
  virtual void upload() = 0;
  /// Enqueues \p Launches in order.
  virtual void launchAll(const std::vector<Launch> &Launches) = 0;
  /// Waits for the launches enqueued (\p Launches names them in errors).
  virtual void synchronize(const std::vector<Launch> &Launches) = 0;
  /// Copies the Output buffers from the device to the mapping.
  virtual void downloadOutputs() = 0;
  /// Runs \p Launches once and returns the seconds they took.
  virtual double timedRepeat(const std::vector<Launch> &Launches) = 0;
};

/// Device 0 through the CUDA driver; throws NoGpuError without one.
std::unique_ptr<WorkerBackend> makeCudaBackend();
/// The backend of WorkerOptions::Fake (see WorkerServer.h).
std::unique_ptr<WorkerBackend> makeFakeBackend();

/// The index of the slot named \p Name; throws std::runtime_error naming
/// it where there is none.
size_t findSlot(const std::vector<protocol::BufferSlot> &Slots,
                const std::string &Name);

/// "a, b, c": the functions of \p Launches, for error contexts.
std::string launchNames(const std::vector<Launch> &Launches);

} // namespace loopy::gpu

#endif
