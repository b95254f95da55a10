//===- GpuWorker.h - Running variants on the GPU in a child process -*- C++ -*-===//
//
// A variant that faults (illegal address, misaligned access) leaves its CUDA
// context unusable, and one that hangs never returns. So the GPU is driven
// from a child process, `loopy-worker`, started with posix_spawn (never a
// bare fork: the parent may itself use CUDA, as an embedding program does).
// The parent never touches the GPU through this class; it sends commands
// over a socket and shares the host side of every buffer through a memory
// mapping both processes see.
//
// When the worker faults, crashes or misses its deadline, the call that saw
// it reports the failure, the worker is killed, and the next call starts a
// fresh one and restores the buffers from the shared mapping. The caller
// records the variant as failed and goes on.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_RUNTIME_GPUWORKER_H
#define LOOPY_RUNTIME_GPUWORKER_H

#include "loopy/Support/Expected.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopy::gpu {

/// What the worker found about the GPU it drives (device 0).
struct DeviceInfo {
  std::string Name;            // "NVIDIA H100 80GB HBM3"
  int CcMajor = 0, CcMinor = 0;
  int Multiprocessors = 0;
  size_t L2Bytes = 0;
  size_t GlobalBytes = 0;
  size_t SharedPerBlock = 0;      // without the opt-in attribute
  size_t SharedPerBlockOptin = 0; // with it
  size_t SharedPerMultiprocessor = 0;
  int DriverVersion = 0; // cuDriverGetVersion: 13000 for 13.0
  /// This device's ordinal, and the devices the driver sees.
  int Ordinal = 0;
  int DeviceCount = 1;

  /// "sm_90" for compute capability 9.0.
  std::string arch() const;
  /// "9.0".
  std::string computeCapability() const;
  /// "13.0".
  std::string driverVersionString() const;
};

/// Device \p Ordinal as the CUDA driver loaded into this process describes
/// it: what a worker on that device reports. For a caller that runs code
/// on the GPU itself (the embedding API reading a tuning back), which then
/// needs no worker. Throws NoGpuError where there is no driver or device,
/// and cuda::CudaError where the driver fails.
DeviceInfo localDeviceInfo(int Ordinal = 0);

/// No usable GPU: the driver library is missing, or it finds no device.
/// what() is one sentence saying which.
class NoGpuError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The worker could not be started or broke its protocol.
class WorkerError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A buffer of the run: device memory in the worker, host memory shared.
struct BufferSpec {
  std::string Name;
  size_t Bytes = 0;
  /// Copied back to the shared host memory after run().
  bool Output = false;
};

/// One kernel argument: a buffer (by name) or a value passed by its bytes.
struct KernelArg {
  static KernelArg buffer(std::string Name) {
    KernelArg A;
    A.Buffer = std::move(Name);
    return A;
  }
  template <class T> static KernelArg value(T V) {
    KernelArg A;
    A.Bytes.resize(sizeof(T));
    __builtin_memcpy(A.Bytes.data(), &V, sizeof(T));
    return A;
  }
  std::string Buffer;              // empty for a value
  std::vector<unsigned char> Bytes; // the value's bytes
};

/// One kernel launch of the loaded module.
struct Launch {
  std::string Function;
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {1, 1, 1};
  unsigned DynamicShared = 0;
  std::vector<KernelArg> Args;
};

/// A function's resources as the driver reports them after loading.
struct FunctionInfo {
  std::string Name;
  int Registers = 0;   // per thread
  int LocalBytes = 0;  // per thread: register spills and local arrays
  int StaticShared = 0;
  int MaxThreads = 0;  // per block, for this function
  /// Resident blocks per multiprocessor at the launch's block size and
  /// dynamic shared memory (cuOccupancyMaxActiveBlocksPerMultiprocessor).
  int BlocksPerMultiprocessor = 0;
};

/// How a call on the worker went.
enum class Outcome {
  Ok,
  /// The variant failed (a CUDA error on load or launch, or a fault); the
  /// message names the call and the error. The worker was restarted if the
  /// error left its context unusable.
  Failed,
  /// The variant missed its deadline; the worker was killed.
  TimedOut,
};

struct LoadResult {
  Outcome Status = Outcome::Ok;
  std::string Error;
  std::vector<FunctionInfo> Functions; // in the order asked for
};

struct RunResult {
  Outcome Status = Outcome::Ok;
  std::string Error;
};

/// The element type of a buffer, for comparisons on the device. I8 and
/// I16 stand for the 8- and 16-bit integers, signed or not: integers
/// compare by their bits.
enum class ElementKind : uint8_t { F32, F64, F16, BF16, I32, I64, I8, I16 };

/// Bytes of one element of \p K.
unsigned elementBytes(ElementKind K);
/// Whether \p K is a float type (compared within a tolerance).
bool elementIsFloat(ElementKind K);

/// One comparison on the device (GpuWorker::compare): buffer Candidate
/// against buffer Reference, element by element. An element of the
/// reference that holds PoisonBits was not written and is left out; one
/// of the candidate that holds them where the reference does not is
/// unwritten. Floats compare within Tolerance (below), integers exactly.
struct CompareSpec {
  std::string Candidate, Reference;
  ElementKind Kind = ElementKind::F32;
  uint64_t PoisonBits = 0;
  double Tolerance = 0;
};

/// What a comparison found, over the elements the reference wrote.
struct CompareStats {
  uint64_t Compared = 0;
  /// Over the pairs of finite values: the sums of (c - r)^2 and r^2.
  double Diff2 = 0, Ref2 = 0;
  /// Bad elements: unwritten; a NaN or infinity that the other side does
  /// not have (floats); |c - r| > 4 * Tolerance * (|r| + rms(r)) (floats,
  /// as Interp/Compare.h checks each element); any difference (integers).
  uint64_t Bad = 0;
  /// The element offset of the first bad element; UINT64_MAX if none.
  uint64_t FirstBad = UINT64_MAX;
};

struct CompareResult {
  Outcome Status = Outcome::Ok;
  std::string Error;
  std::vector<CompareStats> Stats; // one per spec, in order
};

struct GatherResult {
  Outcome Status = Outcome::Ok;
  std::string Error;
  /// The elements asked for, each elementBytes() long, in order.
  std::string Bytes;
};

/// The CUDA source of the kernels that compare buffers on the device
/// (loopy_check_sums_T and loopy_check_bad_T for each ElementKind T, by
/// its lower-case name): what GpuWorker::compare compiles with NVRTC.
std::string checkerSource();

struct TimeResult {
  Outcome Status = Outcome::Ok;
  std::string Error;
  /// Median over the timed repeats of the whole launch sequence, from CUDA
  /// events around each repeat.
  double MedianSeconds = 0;
  double MinSeconds = 0;
  unsigned Repeats = 0;
};

/// One call at a time: a GpuWorker is not safe to share between threads
/// (separate GpuWorkers are). Every call after the constructor may have to
/// start a new worker first, and throws as the constructor does when it
/// cannot.
class GpuWorker {
public:
  /// Starts `loopy-worker` and asks it about the GPU. \p WorkerPath empty:
  /// $LOOPY_WORKER, else `loopy-worker` next to the running executable,
  /// else the one this library was built with. Throws NoGpuError when
  /// there is no usable GPU, WorkerError when the worker cannot start.
  explicit GpuWorker(std::string WorkerPath = "", int Ordinal = 0);
  ~GpuWorker();
  GpuWorker(const GpuWorker &) = delete;
  GpuWorker &operator=(const GpuWorker &) = delete;

  const DeviceInfo &device() const;
  /// The loopy-worker program it runs.
  const std::string &path() const;

  /// Replaces the buffers: allocates shared host memory (zero-filled) and
  /// device memory of these sizes. Pointers from hostBuffer() before the
  /// call are invalid after it. Throws std::invalid_argument for two
  /// buffers of one name, WorkerError where the worker cannot allocate
  /// them.
  void setBuffers(const std::vector<BufferSpec> &Buffers);
  /// The shared host memory of buffer \p Name; throws if there is none.
  /// Asking for an input buffer (not Output) counts as writing it: the
  /// next run copies the inputs to the device again.
  void *hostBuffer(const std::string &Name);
  /// The next run copies the inputs to the device again, as after a
  /// failed run: for a caller that finds a run wrong, whose kernel may
  /// have written where it should not.
  void refreshInputs();

  /// Loads \p Cubin (replacing the module loaded before) and looks up
  /// \p Functions, with the launch shapes of \p Launches for occupancy
  /// (one launch per function, same order). Functions needing more than
  /// 48 KiB of dynamic shared memory get the opt-in attribute.
  LoadResult load(const std::string &Cubin, const std::vector<Launch> &Launches);

  /// Copies the Output buffers from host to device, and the others where
  /// they changed (hostBuffer, refreshInputs) or a run failed since they
  /// were last copied, runs \p Launches once in
  /// order, waits, and copies the Output buffers back to host memory,
  /// unless not \p Download: then they stay on the device only, for
  /// compare() and gather().
  /// With \p RestoreOutputs, the Output buffers start from what they held
  /// after the last run that copied every buffer, kept on the device,
  /// where restoresOutputs() says so: the host's copies are not read.
  RunResult run(const std::vector<Launch> &Launches,
                std::chrono::milliseconds Timeout, bool Download = true,
                bool RestoreOutputs = false);
  /// Whether the next run(..., RestoreOutputs = true) takes its outputs'
  /// starting values from the device (else from the host buffers).
  bool restoresOutputs() const;

  /// Compares buffers on the device as \p Specs say (see CompareSpec), in
  /// kernels compiled by NVRTC (checkerSource(), once per GpuWorker,
  /// unless setCheckerImage gave them).
  CompareResult compare(const std::vector<CompareSpec> &Specs,
                        std::chrono::milliseconds Timeout);

  /// Makes compare() use \p Image, checkerSource() compiled for this
  /// device by the caller (from a compile cache, say); empty: compare()
  /// compiles it.
  void setCheckerImage(std::string Image);

  /// The elements of buffer \p Buffer at the element offsets \p Offsets,
  /// \p ElementBytes each, from the device.
  GatherResult gather(const std::string &Buffer, unsigned ElementBytes,
                      const std::vector<uint64_t> &Offsets,
                      std::chrono::milliseconds Timeout);

  /// Times \p Launches (on the device data as it is): \p Warmup untimed
  /// repeats, then repeats until \p MinTotalSeconds have passed and at least
  /// \p MinRepeats ran (at most \p MaxRepeats).
  TimeResult time(const std::vector<Launch> &Launches, unsigned Warmup,
                  double MinTotalSeconds, unsigned MinRepeats,
                  unsigned MaxRepeats, std::chrono::milliseconds Timeout);

  /// How many times a worker was started, the first one included.
  unsigned starts() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Where `loopy-worker` would be looked for (the first that exists), for
/// error messages and tests. Where $LOOPY_WORKER is set it is the only
/// candidate. Returns "" where none exists; \p Tried lists the paths
/// looked at, separated by ", ".
std::string findWorker(std::string &Tried);

/// Starts a GpuWorker (see its constructor) for callers outside this
/// library, which take failures as values: a user Failure where there is
/// no usable GPU (NoGpuError), an internal one where the worker cannot
/// start (WorkerError).
Expected<std::unique_ptr<GpuWorker>> startGpuWorker(std::string WorkerPath = "",
                                                    int Ordinal = 0);

} // namespace loopy::gpu

#endif
