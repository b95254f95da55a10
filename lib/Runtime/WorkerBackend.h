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
  /// Copies the buffers from the mapping to the device: every one where
  /// \p All, else the Output ones only.
  virtual void upload(bool All) = 0;
  /// Keeps a copy on the device of each Output buffer's contents; false
  /// where there is no room for them (then none is kept).
  virtual bool keepOutputs() = 0;
  /// Copies the Output buffers back from what keepOutputs() kept.
  virtual void restoreOutputs() = 0;
  /// Enqueues \p Launches in order.
  virtual void launchAll(const std::vector<Launch> &Launches) = 0;
  /// Waits for the launches enqueued (\p Launches names them in errors).
  virtual void synchronize(const std::vector<Launch> &Launches) = 0;
  /// Copies the Output buffers from the device to the mapping.
  virtual void downloadOutputs() = 0;
  /// Runs \p Launches once and returns the seconds they took.
  virtual double timedRepeat(const std::vector<Launch> &Launches) = 0;
  /// Loads the module of checkerSource(), kept while variants' modules
  /// come and go.
  virtual void setChecker(const std::string &Image) = 0;
  /// Compares device buffers as \p Specs say (GpuWorker::compare).
  virtual std::vector<CompareStats>
  compare(const std::vector<CompareSpec> &Specs) = 0;
  /// The elements of buffer \p Buffer at \p Offsets; throws naming one
  /// past the buffer's end.
  virtual std::string gather(const std::string &Buffer, unsigned ElementBytes,
                             const std::vector<uint64_t> &Offsets) = 0;
};

/// What GpuWorker::compare finds for \p Spec, over \p N elements at
/// \p Candidate and \p Reference in host memory: the definition that the
/// device's kernels (checkerSource()) follow, and the fake backend's
/// comparison.
CompareStats compareOnHost(const unsigned char *Candidate,
                           const unsigned char *Reference, uint64_t N,
                           const CompareSpec &Spec);

/// Device \p Ordinal through the CUDA driver; throws NoGpuError without one.
std::unique_ptr<WorkerBackend> makeCudaBackend(int Ordinal);
/// The backend of WorkerOptions::Fake (see WorkerServer.h).
std::unique_ptr<WorkerBackend> makeFakeBackend(int Ordinal);

/// The index of the slot named \p Name; throws std::runtime_error naming
/// it where there is none.
size_t findSlot(const std::vector<protocol::BufferSlot> &Slots,
                const std::string &Name);

/// Throws std::runtime_error where an element at \p Offsets, \p ElementBytes
/// long, lies past the end of \p Slot.
void checkOffsets(const protocol::BufferSlot &Slot, unsigned ElementBytes,
                  const std::vector<uint64_t> &Offsets);

/// The slots that \p Specs compare, checked: both of one size, a whole
/// number of elements of their kind. Pairs of slot indices.
std::vector<std::pair<size_t, size_t>>
compareSlots(const std::vector<protocol::BufferSlot> &Slots,
             const std::vector<CompareSpec> &Specs);

/// "a, b, c": the functions of \p Launches, for error contexts.
std::string launchNames(const std::vector<Launch> &Launches);

} // namespace loopy::gpu

#endif
