//===- Cuda.h - An owning layer over the CUDA driver API --------*- C++ -*-===//
//
// The driver library is loaded at run time (dlopen of libcuda.so.1), so a
// program using this layer starts, and its other paths work, on machines
// without the NVIDIA driver; only the types and enums come from <cuda.h>.
// Every failed call throws a CudaError naming the call, the error and what
// it was working on. Every object is released by its owner, which can be
// moved but not copied, and whose destructor never throws (a context
// broken by a fault makes release calls fail, and those failures are
// ignored).
//
// Only loopy-worker uses it: the compiler itself never touches the GPU
// (see GpuWorker.h for why).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_RUNTIME_CUDA_H
#define LOOPY_RUNTIME_CUDA_H

#include <cuda.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace loopy::cuda {

/// A failed driver call. what() is `CALL(CONTEXT): NAME: DESCRIPTION`, e.g.
/// `cuLaunchKernel(matmul_v3): CUDA_ERROR_ILLEGAL_ADDRESS: an illegal
/// memory access was encountered`, without `(CONTEXT)` where there is none.
class CudaError : public std::runtime_error {
public:
  CudaError(CUresult Code, const std::string &Call, const std::string &Name,
            const std::string &Description, const std::string &Context = "");
  CUresult code() const { return Code; }
  const std::string &call() const { return Call; }
  const std::string &errorName() const { return Name; }
  const std::string &context() const { return Context; }
  /// Whether the error left the context unusable (see isStickyError).
  bool sticky() const;

private:
  CUresult Code;
  std::string Call, Name, Context;
};

/// Whether \p Code is a sticky error: one after which every call in the
/// context fails, so only a new process can use the GPU again (faults in
/// a kernel, uncorrectable memory errors, a destroyed context).
bool isStickyError(CUresult Code);

namespace detail {
/// A retained primary context, released through its device.
struct PrimaryContext {
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  explicit operator bool() const { return Ctx != nullptr; }
};

// Release a handle, ignoring errors: destructors never throw, and after a
// sticky error every release fails.
void release(CUmodule M) noexcept;
void release(CUstream S) noexcept;
void release(CUevent E) noexcept;
void release(CUdeviceptr Ptr) noexcept;
void release(void *PinnedHost) noexcept;
void release(PrimaryContext P) noexcept;

/// Owns one driver handle: movable, not copyable, released on destruction.
template <class H> class Owned {
public:
  Owned() = default;
  Owned(Owned &&O) noexcept : Handle(std::exchange(O.Handle, H{})) {}
  Owned &operator=(Owned &&O) noexcept {
    std::swap(Handle, O.Handle);
    return *this;
  }
  ~Owned() {
    if (Handle)
      release(Handle);
  }
  H get() const { return Handle; }
  /// Where a create call writes the new handle.
  H *out() { return &Handle; }

private:
  H Handle{};
};
} // namespace detail

/// The symbols resolved in libcuda.so.1: the names <cuda.h> maps the entry
/// points to (cuMemAlloc_v2 for cuMemAlloc), whose behaviour the header's
/// declarations describe.
std::vector<std::string> driverSymbols();

/// The loaded driver library. Loaded and initialised (cuInit) once, on the
/// first get(); throws gpu::NoGpuError when libcuda.so.1 cannot be loaded,
/// lacks an entry point, or finds no device (a later get() tries again).
class Driver {
public:
  static const Driver &get();
  /// cuDriverGetVersion: 13000 for CUDA 13.0.
  int version() const;
  int deviceCount() const;

private:
  Driver() = default;
};

/// A device (not owned: devices live as long as the driver).
class Device {
public:
  explicit Device(int Ordinal);
  CUdevice handle() const { return Dev; }
  std::string name() const;
  int attribute(CUdevice_attribute Attr) const;
  int ccMajor() const;
  int ccMinor() const;
  int multiprocessors() const;
  size_t l2Bytes() const;
  size_t totalMemory() const;
  size_t sharedPerBlock() const;
  size_t sharedPerBlockOptin() const;
  size_t sharedPerMultiprocessor() const;

private:
  CUdevice Dev = 0;
};

/// The device's primary context, retained and made current on this thread.
/// The primary context is the one the CUDA runtime shares, so a library in
/// the same process that uses the runtime API sees the same allocations.
class Context {
public:
  explicit Context(const Device &D);
  CUcontext handle() const { return P.get().Ctx; }
  void synchronize() const;

private:
  detail::Owned<detail::PrimaryContext> P;
};

/// A kernel of a loaded module: a handle the module owns.
class Function {
public:
  Function(CUfunction F, std::string Name) : F(F), Name(std::move(Name)) {}
  CUfunction handle() const { return F; }
  const std::string &name() const { return Name; }
  int attribute(CUfunction_attribute Attr) const;
  int registers() const;
  int localBytes() const;
  int staticShared() const;
  int maxThreadsPerBlock() const;
  /// Allows launches with up to \p Bytes of dynamic shared memory (needed
  /// above 48 KiB).
  void setMaxDynamicShared(int Bytes) const;
  /// Resident blocks per multiprocessor for blocks of \p BlockSize threads
  /// using \p DynamicShared bytes of dynamic shared memory.
  int occupancy(int BlockSize, size_t DynamicShared) const;

private:
  CUfunction F;
  std::string Name;
};

/// A module loaded from a CUBIN (or NUL-terminated PTX) image.
class Module {
public:
  explicit Module(const std::string &Image);
  Function function(const std::string &Name) const;

private:
  detail::Owned<CUmodule> M;
};

/// Device memory. A buffer of no bytes holds no allocation (its pointer is
/// 0), since the driver refuses empty allocations.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t Bytes);
  CUdeviceptr pointer() const { return Ptr.get(); }
  size_t size() const { return Bytes; }
  /// Copies size() bytes from \p Host (synchronously).
  void upload(const void *Host) const;
  /// Copies size() bytes to \p Host (synchronously).
  void download(void *Host) const;
  /// Copies \p Source, of the same size, on the device (synchronously).
  void copyFrom(const DeviceBuffer &Source) const;
  void memset(unsigned char Value) const;

private:
  detail::Owned<CUdeviceptr> Ptr;
  size_t Bytes = 0;
};

/// Device memory allocated and freed in the order of a stream
/// (cuMemAllocAsync, cuMemFreeAsync): a temporary of the kernels launched
/// on that stream between the two, which need not wait for them.
class StreamBuffer {
public:
  StreamBuffer(size_t Bytes, CUstream S);
  ~StreamBuffer();
  StreamBuffer(const StreamBuffer &) = delete;
  StreamBuffer &operator=(const StreamBuffer &) = delete;
  CUdeviceptr pointer() const { return Ptr; }

private:
  CUdeviceptr Ptr = 0;
  CUstream S;
};

/// Page-locked host memory (cuMemAllocHost), for transfers at full speed.
class PinnedBuffer {
public:
  explicit PinnedBuffer(size_t Bytes);
  void *data() const { return Ptr.get(); }
  size_t size() const { return Bytes; }

private:
  detail::Owned<void *> Ptr;
  size_t Bytes = 0;
};

class Stream {
public:
  Stream();
  CUstream handle() const { return S.get(); }
  /// Waits for the stream's work; \p Context names it in an error (the
  /// kernels launched, since a fault surfaces here, not at the launch).
  void synchronize(const std::string &Context = "") const;

private:
  detail::Owned<CUstream> S;
};

class Event {
public:
  Event();
  void record(const Stream &S) const;
  void synchronize(const std::string &Context = "") const;
  /// Seconds between two recorded, completed events.
  static double elapsedSeconds(const Event &Start, const Event &Stop);

private:
  detail::Owned<CUevent> E;
};

/// Copies \p Bytes between host memory and device memory (synchronously).
void copyToHost(void *Host, CUdeviceptr Device, size_t Bytes);
void copyToDevice(CUdeviceptr Device, const void *Host, size_t Bytes);

/// Launches \p F on \p S. \p Params points at one pointer per kernel
/// parameter, each to the parameter's bytes (cuLaunchKernel's convention).
void launch(const Function &F, const unsigned Grid[3], const unsigned Block[3],
            unsigned DynamicShared, const Stream &S, void **Params);
/// The same on a stream the caller owns (0: the default stream).
void launch(const Function &F, const unsigned Grid[3], const unsigned Block[3],
            unsigned DynamicShared, CUstream S, void **Params);

} // namespace loopy::cuda

#endif
