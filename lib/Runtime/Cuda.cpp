//===- Cuda.cpp - An owning layer over the CUDA driver API ----------------===//
#include "loopy/Runtime/Cuda.h"
#include "loopy/Runtime/GpuWorker.h"

#include <dlfcn.h>

#include <mutex>
#include <utility>

namespace loopy::cuda {

// <cuda.h> defines many entry points to their versioned symbols
// (cuMemAlloc to cuMemAlloc_v2, cuEventElapsedTime to
// cuEventElapsedTime_v2); the library exports both, with different
// behaviour, and the header's declarations describe the versioned one. A
// macro argument is expanded before it is substituted, except where it is
// stringized: so LOOPY_CU_FN(cuMemAlloc) declares a member named
// cuMemAlloc_v2 of the versioned type, and the name to dlsym is stringized
// a level further down (LOOPY_CU_SYMBOL), after the expansion. A plain
// #Name in LOOPY_CU_FN would name the unversioned symbol.
#define LOOPY_CU_SYMBOL_(Name) #Name
#define LOOPY_CU_SYMBOL(Name) LOOPY_CU_SYMBOL_(Name)
#define LOOPY_CU_FNS                                                           \
  LOOPY_CU_FN(cuGetErrorName)                                                  \
  LOOPY_CU_FN(cuGetErrorString)                                                \
  LOOPY_CU_FN(cuInit)                                                          \
  LOOPY_CU_FN(cuDriverGetVersion)                                              \
  LOOPY_CU_FN(cuDeviceGetCount)                                                \
  LOOPY_CU_FN(cuDeviceGet)                                                     \
  LOOPY_CU_FN(cuDeviceGetName)                                                 \
  LOOPY_CU_FN(cuDeviceGetAttribute)                                            \
  LOOPY_CU_FN(cuDeviceTotalMem)                                                \
  LOOPY_CU_FN(cuDevicePrimaryCtxRetain)                                        \
  LOOPY_CU_FN(cuDevicePrimaryCtxRelease)                                       \
  LOOPY_CU_FN(cuCtxSetCurrent)                                                 \
  LOOPY_CU_FN(cuCtxSynchronize)                                                \
  LOOPY_CU_FN(cuModuleLoadData)                                                \
  LOOPY_CU_FN(cuModuleUnload)                                                  \
  LOOPY_CU_FN(cuModuleGetFunction)                                             \
  LOOPY_CU_FN(cuFuncGetAttribute)                                              \
  LOOPY_CU_FN(cuFuncSetAttribute)                                              \
  LOOPY_CU_FN(cuOccupancyMaxActiveBlocksPerMultiprocessor)                     \
  LOOPY_CU_FN(cuMemAlloc)                                                      \
  LOOPY_CU_FN(cuMemFree)                                                       \
  LOOPY_CU_FN(cuMemAllocAsync)                                                 \
  LOOPY_CU_FN(cuMemFreeAsync)                                                  \
  LOOPY_CU_FN(cuMemAllocHost)                                                  \
  LOOPY_CU_FN(cuMemFreeHost)                                                   \
  LOOPY_CU_FN(cuMemcpyHtoD)                                                    \
  LOOPY_CU_FN(cuMemcpyDtoH)                                                    \
  LOOPY_CU_FN(cuMemcpyDtoD)                                                    \
  LOOPY_CU_FN(cuMemsetD8)                                                      \
  LOOPY_CU_FN(cuStreamCreate)                                                  \
  LOOPY_CU_FN(cuStreamDestroy)                                                 \
  LOOPY_CU_FN(cuStreamSynchronize)                                             \
  LOOPY_CU_FN(cuEventCreate)                                                   \
  LOOPY_CU_FN(cuEventDestroy)                                                  \
  LOOPY_CU_FN(cuEventRecord)                                                   \
  LOOPY_CU_FN(cuEventSynchronize)                                              \
  LOOPY_CU_FN(cuEventElapsedTime)                                              \
  LOOPY_CU_FN(cuLaunchKernel)

namespace {

struct Api {
#define LOOPY_CU_FN(Name) decltype(&::Name) Name = nullptr;
  LOOPY_CU_FNS
#undef LOOPY_CU_FN
};

// Filled once by Driver::get() and never unloaded: the driver library
// stays for the life of the process, as with a linked -lcuda.
Api TheApi;

const Api &api() { return TheApi; }

std::string errorNameOf(CUresult Code) {
  const char *Name = nullptr;
  if (api().cuGetErrorName(Code, &Name) != CUDA_SUCCESS || !Name)
    return "CUDA error " + std::to_string(static_cast<int>(Code));
  return Name;
}

std::string errorStringOf(CUresult Code) {
  const char *Description = nullptr;
  if (api().cuGetErrorString(Code, &Description) != CUDA_SUCCESS ||
      !Description)
    return "unknown error";
  return Description;
}

void check(CUresult Code, const char *Call, const std::string &Context = "") {
  if (Code != CUDA_SUCCESS)
    throw CudaError(Code, Call, errorNameOf(Code), errorStringOf(Code),
                    Context);
}

} // namespace

// Calls entry point Fn (as spelled in the documentation, which is what the
// error names) and throws on failure.
#define LOOPY_CU_CALL(Fn, Context, ...)                                        \
  check(api().Fn(__VA_ARGS__), #Fn, Context)

CudaError::CudaError(CUresult Code, const std::string &Call,
                     const std::string &Name, const std::string &Description,
                     const std::string &Context)
    : std::runtime_error(Call + (Context.empty() ? "" : "(" + Context + ")") +
                         ": " + Name + ": " + Description),
      Code(Code), Call(Call), Name(Name), Context(Context) {}

bool CudaError::sticky() const { return isStickyError(Code); }

bool isStickyError(CUresult Code) {
  switch (Code) {
  // The errors whose documentation says the process must be relaunched,
  // and those that also leave the context unusable in practice.
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_NVLINK_UNCORRECTABLE:
  case CUDA_ERROR_CONTAINED:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_TENSOR_MEMORY_LEAK:
  case CUDA_ERROR_MPS_CLIENT_TERMINATED:
  case CUDA_ERROR_EXTERNAL_DEVICE:
  // Unknown: a fresh process costs little, a poisoned one every variant
  // after it.
  case CUDA_ERROR_UNKNOWN:
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

std::vector<std::string> driverSymbols() {
  return {
#define LOOPY_CU_FN(Name) LOOPY_CU_SYMBOL(Name),
      LOOPY_CU_FNS
#undef LOOPY_CU_FN
  };
}

// Loads the library and every entry point, then initialises the driver.
// Throws NoGpuError with one sentence saying what is missing.
static void loadDriver() {
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    throw gpu::NoGpuError(
        std::string("no CUDA driver: libcuda.so.1 cannot be loaded (") +
        dlerror() + ")");
  Api Loaded;
  const char *Missing = nullptr;
#define LOOPY_CU_FN(Name)                                                      \
  Loaded.Name = reinterpret_cast<decltype(Loaded.Name)>(                       \
      dlsym(Lib, LOOPY_CU_SYMBOL(Name)));                                      \
  if (!Loaded.Name && !Missing)                                                \
    Missing = LOOPY_CU_SYMBOL(Name);
  LOOPY_CU_FNS
#undef LOOPY_CU_FN
  if (Missing) {
    dlclose(Lib);
    throw gpu::NoGpuError(
        std::string("the CUDA driver is too old: libcuda.so.1 has no ") +
        Missing);
  }
  TheApi = Loaded;
  CUresult Init = api().cuInit(0);
  if (Init == CUDA_ERROR_NO_DEVICE)
    throw gpu::NoGpuError(
        "no CUDA GPU is present (cuInit: CUDA_ERROR_NO_DEVICE)");
  if (Init != CUDA_SUCCESS)
    throw gpu::NoGpuError("the CUDA driver cannot be initialised (cuInit: " +
                          errorNameOf(Init) + ": " + errorStringOf(Init) + ")");
}

const Driver &Driver::get() {
  static std::mutex Lock;
  static bool Loaded = false;
  static const Driver TheDriver;
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Loaded) {
    loadDriver();
    Loaded = true;
  }
  return TheDriver;
}

int Driver::version() const {
  int Version = 0;
  LOOPY_CU_CALL(cuDriverGetVersion, "", &Version);
  return Version;
}

int Driver::deviceCount() const {
  int Count = 0;
  LOOPY_CU_CALL(cuDeviceGetCount, "", &Count);
  return Count;
}

//===----------------------------------------------------------------------===//
// Device and Context
//===----------------------------------------------------------------------===//

Device::Device(int Ordinal) {
  Driver::get();
  LOOPY_CU_CALL(cuDeviceGet, "device " + std::to_string(Ordinal), &Dev,
                Ordinal);
}

std::string Device::name() const {
  char Name[256] = {};
  LOOPY_CU_CALL(cuDeviceGetName, "", Name, sizeof(Name) - 1, Dev);
  return Name;
}

int Device::attribute(CUdevice_attribute Attr) const {
  int Value = 0;
  LOOPY_CU_CALL(cuDeviceGetAttribute, "attribute " + std::to_string(Attr),
                &Value, Attr, Dev);
  return Value;
}

int Device::ccMajor() const {
  return attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
}
int Device::ccMinor() const {
  return attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
}
int Device::multiprocessors() const {
  return attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}
size_t Device::l2Bytes() const {
  return attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
}
size_t Device::totalMemory() const {
  size_t Bytes = 0;
  LOOPY_CU_CALL(cuDeviceTotalMem, "", &Bytes, Dev);
  return Bytes;
}
size_t Device::sharedPerBlock() const {
  return attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
}
size_t Device::sharedPerBlockOptin() const {
  return attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
}
size_t Device::sharedPerMultiprocessor() const {
  return attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
}

Context::Context(const Device &D) {
  P.out()->Dev = D.handle();
  LOOPY_CU_CALL(cuDevicePrimaryCtxRetain, "", &P.out()->Ctx, D.handle());
  LOOPY_CU_CALL(cuCtxSetCurrent, "", handle());
}
void Context::synchronize() const { LOOPY_CU_CALL(cuCtxSynchronize, ""); }

//===----------------------------------------------------------------------===//
// Owned handles
//===----------------------------------------------------------------------===//

void detail::release(CUmodule M) noexcept { api().cuModuleUnload(M); }
void detail::release(CUstream S) noexcept { api().cuStreamDestroy(S); }
void detail::release(CUevent E) noexcept { api().cuEventDestroy(E); }
void detail::release(CUdeviceptr Ptr) noexcept { api().cuMemFree(Ptr); }
void detail::release(void *PinnedHost) noexcept {
  api().cuMemFreeHost(PinnedHost);
}
void detail::release(PrimaryContext P) noexcept {
  api().cuDevicePrimaryCtxRelease(P.Dev);
}

//===----------------------------------------------------------------------===//
// Module and Function
//===----------------------------------------------------------------------===//

Module::Module(const std::string &Image) {
  LOOPY_CU_CALL(cuModuleLoadData, "", M.out(), Image.c_str());
}
Function Module::function(const std::string &Name) const {
  CUfunction F = nullptr;
  LOOPY_CU_CALL(cuModuleGetFunction, Name, &F, M.get(), Name.c_str());
  return Function(F, Name);
}

int Function::attribute(CUfunction_attribute Attr) const {
  int Value = 0;
  LOOPY_CU_CALL(cuFuncGetAttribute, Name, &Value, Attr, F);
  return Value;
}
int Function::registers() const {
  return attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
}
int Function::localBytes() const {
  return attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
}
int Function::staticShared() const {
  return attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
}
int Function::maxThreadsPerBlock() const {
  return attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
}
void Function::setMaxDynamicShared(int Bytes) const {
  LOOPY_CU_CALL(cuFuncSetAttribute, Name, F,
                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, Bytes);
}
int Function::occupancy(int BlockSize, size_t DynamicShared) const {
  int Blocks = 0;
  LOOPY_CU_CALL(cuOccupancyMaxActiveBlocksPerMultiprocessor, Name, &Blocks, F,
                BlockSize, DynamicShared);
  return Blocks;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(size_t Bytes) : Bytes(Bytes) {
  if (Bytes)
    LOOPY_CU_CALL(cuMemAlloc, std::to_string(Bytes) + " bytes", Ptr.out(),
                  Bytes);
}
void DeviceBuffer::upload(const void *Host) const {
  if (Bytes)
    LOOPY_CU_CALL(cuMemcpyHtoD, "", Ptr.get(), Host, Bytes);
}
void DeviceBuffer::download(void *Host) const {
  if (Bytes)
    LOOPY_CU_CALL(cuMemcpyDtoH, "", Host, Ptr.get(), Bytes);
}
void copyToHost(void *Host, CUdeviceptr Device, size_t Bytes) {
  if (Bytes)
    LOOPY_CU_CALL(cuMemcpyDtoH, "", Host, Device, Bytes);
}
void copyToDevice(CUdeviceptr Device, const void *Host, size_t Bytes) {
  if (Bytes)
    LOOPY_CU_CALL(cuMemcpyHtoD, "", Device, Host, Bytes);
}

void DeviceBuffer::copyFrom(const DeviceBuffer &Source) const {
  if (Source.Bytes != Bytes)
    throw std::invalid_argument("a device copy between buffers of " +
                                std::to_string(Source.Bytes) + " and " +
                                std::to_string(Bytes) + " bytes");
  if (Bytes) {
    LOOPY_CU_CALL(cuMemcpyDtoD, "", Ptr.get(), Source.Ptr.get(), Bytes);
    LOOPY_CU_CALL(cuCtxSynchronize, "");
  }
}
void DeviceBuffer::memset(unsigned char Value) const {
  if (Bytes)
    LOOPY_CU_CALL(cuMemsetD8, "", Ptr.get(), Value, Bytes);
}

StreamBuffer::StreamBuffer(size_t Bytes, CUstream S) : S(S) {
  if (Bytes)
    LOOPY_CU_CALL(cuMemAllocAsync, std::to_string(Bytes) + " bytes", &Ptr,
                  Bytes, S);
}
StreamBuffer::~StreamBuffer() {
  if (Ptr)
    api().cuMemFreeAsync(Ptr, S);
}

PinnedBuffer::PinnedBuffer(size_t Bytes) : Bytes(Bytes) {
  LOOPY_CU_CALL(cuMemAllocHost, std::to_string(Bytes) + " bytes", Ptr.out(),
                Bytes);
}

//===----------------------------------------------------------------------===//
// Streams, events and launches
//===----------------------------------------------------------------------===//

Stream::Stream() {
  LOOPY_CU_CALL(cuStreamCreate, "", S.out(), CU_STREAM_DEFAULT);
}
void Stream::synchronize(const std::string &Context) const {
  LOOPY_CU_CALL(cuStreamSynchronize, Context, S.get());
}

Event::Event() { LOOPY_CU_CALL(cuEventCreate, "", E.out(), CU_EVENT_DEFAULT); }
void Event::record(const Stream &S) const {
  LOOPY_CU_CALL(cuEventRecord, "", E.get(), S.handle());
}
void Event::synchronize(const std::string &Context) const {
  LOOPY_CU_CALL(cuEventSynchronize, Context, E.get());
}
double Event::elapsedSeconds(const Event &Start, const Event &Stop) {
  float Milliseconds = 0;
  LOOPY_CU_CALL(cuEventElapsedTime, "", &Milliseconds, Start.E.get(),
                Stop.E.get());
  return Milliseconds * 1e-3;
}

void launch(const Function &F, const unsigned Grid[3], const unsigned Block[3],
            unsigned DynamicShared, const Stream &S, void **Params) {
  LOOPY_CU_CALL(cuLaunchKernel, F.name(), F.handle(), Grid[0], Grid[1], Grid[2],
                Block[0], Block[1], Block[2], DynamicShared, S.handle(), Params,
                nullptr);
}

void launch(const Function &F, const unsigned Grid[3], const unsigned Block[3],
            unsigned DynamicShared, CUstream S, void **Params) {
  LOOPY_CU_CALL(cuLaunchKernel, F.name(), F.handle(), Grid[0], Grid[1], Grid[2],
                Block[0], Block[1], Block[2], DynamicShared, S, Params,
                nullptr);
}

} // namespace loopy::cuda
