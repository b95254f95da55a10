//===- OpenCL.cpp - Running generated kernels through OpenCL -------------===//
#include "loopy/Runtime/OpenCL.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <dlfcn.h>

#include <mutex>

namespace loopy::cl {

// The entry points loopyc uses, resolved from the loader at run time.
struct Api {
  void *Lib = nullptr;
#define LOOPY_CL_FN(Name) decltype(&::Name) Name = nullptr;
#define LOOPY_CL_FNS                                                           \
  LOOPY_CL_FN(clGetPlatformIDs)                                                \
  LOOPY_CL_FN(clGetPlatformInfo)                                               \
  LOOPY_CL_FN(clGetDeviceIDs)                                                  \
  LOOPY_CL_FN(clGetDeviceInfo)                                                 \
  LOOPY_CL_FN(clCreateContext)                                                 \
  LOOPY_CL_FN(clReleaseContext)                                                \
  LOOPY_CL_FN(clCreateCommandQueue)                                            \
  LOOPY_CL_FN(clReleaseCommandQueue)                                           \
  LOOPY_CL_FN(clCreateProgramWithSource)                                       \
  LOOPY_CL_FN(clBuildProgram)                                                  \
  LOOPY_CL_FN(clGetProgramBuildInfo)                                           \
  LOOPY_CL_FN(clReleaseProgram)                                                \
  LOOPY_CL_FN(clCreateKernel)                                                  \
  LOOPY_CL_FN(clReleaseKernel)                                                 \
  LOOPY_CL_FN(clSetKernelArg)                                                  \
  LOOPY_CL_FN(clCreateBuffer)                                                  \
  LOOPY_CL_FN(clReleaseMemObject)                                              \
  LOOPY_CL_FN(clEnqueueWriteBuffer)                                            \
  LOOPY_CL_FN(clEnqueueReadBuffer)                                             \
  LOOPY_CL_FN(clEnqueueNDRangeKernel)                                          \
  LOOPY_CL_FN(clFinish)
  LOOPY_CL_FNS
#undef LOOPY_CL_FN
  ~Api() {
    if (Lib)
      dlclose(Lib);
  }
};

struct Handles {
  cl_platform_id Platform = nullptr;
  cl_device_id Dev = nullptr;
  cl_context Ctx = nullptr;
  cl_command_queue Queue = nullptr;
  /// Launches and transfers run one at a time; builds run in parallel.
  mutable std::mutex Run;
};

static const char *errorName(cl_int E) {
  switch (E) {
#define CASE(X)                                                                \
  case X:                                                                      \
    return #X;
    CASE(CL_DEVICE_NOT_FOUND)
    CASE(CL_OUT_OF_RESOURCES)
    CASE(CL_OUT_OF_HOST_MEMORY)
    CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CASE(CL_BUILD_PROGRAM_FAILURE)
    CASE(CL_INVALID_VALUE)
    CASE(CL_INVALID_PLATFORM)
    CASE(CL_INVALID_DEVICE)
    CASE(CL_INVALID_CONTEXT)
    CASE(CL_INVALID_COMMAND_QUEUE)
    CASE(CL_INVALID_MEM_OBJECT)
    CASE(CL_INVALID_BUILD_OPTIONS)
    CASE(CL_INVALID_PROGRAM)
    CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    CASE(CL_INVALID_KERNEL_NAME)
    CASE(CL_INVALID_KERNEL)
    CASE(CL_INVALID_ARG_INDEX)
    CASE(CL_INVALID_ARG_VALUE)
    CASE(CL_INVALID_ARG_SIZE)
    CASE(CL_INVALID_KERNEL_ARGS)
    CASE(CL_INVALID_WORK_DIMENSION)
    CASE(CL_INVALID_WORK_GROUP_SIZE)
    CASE(CL_INVALID_WORK_ITEM_SIZE)
    CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    CASE(CL_INVALID_BUFFER_SIZE)
    CASE(CL_PLATFORM_NOT_FOUND_KHR)
#undef CASE
  default:
    return "an unknown OpenCL error";
  }
}

static void check(cl_int E, const char *Call, const std::string &What = "") {
  if (E != CL_SUCCESS)
    throw OpenCLError(std::string(Call) + " failed with " + errorName(E) + " (" +
                      std::to_string(E) + ")" + (What.empty() ? "" : ": " + What));
}

Buffer::Buffer(Buffer &&O) noexcept : A(O.A), Mem(O.Mem), Size(O.Size) {
  O.Mem = nullptr;
}
Buffer &Buffer::operator=(Buffer &&O) noexcept {
  std::swap(A, O.A);
  std::swap(Mem, O.Mem);
  std::swap(Size, O.Size);
  return *this;
}
Buffer::~Buffer() {
  if (Mem)
    A->clReleaseMemObject(static_cast<cl_mem>(Mem));
}

Program::Program(Program &&O) noexcept : A(O.A), P(O.P) { O.P = nullptr; }
Program &Program::operator=(Program &&O) noexcept {
  std::swap(A, O.A);
  std::swap(P, O.P);
  return *this;
}
Program::~Program() {
  if (P)
    A->clReleaseProgram(static_cast<cl_program>(P));
}

Device::Device() : A(std::make_unique<Api>()), H(std::make_unique<Handles>()) {
  A->Lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!A->Lib)
    throw OpenCLError("cannot load the OpenCL loader libOpenCL.so.1 (install "
                      "ocl-icd-libopencl1 and pocl-opencl-icd)");
#define LOOPY_CL_FN(Name)                                                      \
  A->Name = reinterpret_cast<decltype(A->Name)>(dlsym(A->Lib, #Name));       \
  if (!A->Name)                                                                \
    throw OpenCLError("the OpenCL loader lacks " #Name);
  LOOPY_CL_FNS
#undef LOOPY_CL_FN

  cl_uint N = 0;
  cl_int E = A->clGetPlatformIDs(0, nullptr, &N);
  if (E == CL_PLATFORM_NOT_FOUND_KHR || N == 0)
    throw OpenCLError("no OpenCL platform is installed (install "
                      "pocl-opencl-icd for the CPU)");
  check(E, "clGetPlatformIDs");
  std::vector<cl_platform_id> Ps(N);
  check(A->clGetPlatformIDs(N, Ps.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id P : Ps) {
    cl_device_id D;
    if (A->clGetDeviceIDs(P, CL_DEVICE_TYPE_CPU, 1, &D, nullptr) == CL_SUCCESS) {
      H->Platform = P;
      H->Dev = D;
      break;
    }
  }
  if (!H->Dev)
    throw OpenCLError("no OpenCL platform offers a CPU device (install "
                      "pocl-opencl-icd)");
  H->Ctx = A->clCreateContext(nullptr, 1, &H->Dev, nullptr, nullptr, &E);
  check(E, "clCreateContext");
  H->Queue = A->clCreateCommandQueue(H->Ctx, H->Dev, 0, &E);
  check(E, "clCreateCommandQueue");
}

Device::~Device() {
  if (H->Queue)
    A->clReleaseCommandQueue(H->Queue);
  if (H->Ctx)
    A->clReleaseContext(H->Ctx);
}

std::string Device::description() const {
  auto Str = [&](auto Get, auto Obj, unsigned Param) {
    size_t Size = 0;
    Get(Obj, Param, 0, nullptr, &Size);
    std::string S(Size, '\0');
    Get(Obj, Param, Size, S.data(), nullptr);
    while (!S.empty() && S.back() == '\0')
      S.pop_back();
    return S;
  };
  return Str(A->clGetPlatformInfo, H->Platform, CL_PLATFORM_VERSION) + ": " +
         Str(A->clGetDeviceInfo, H->Dev, CL_DEVICE_NAME);
}

Program Device::build(const std::string &Source,
                      const std::string &Options) const {
  const char *Text = Source.c_str();
  size_t Len = Source.size();
  cl_int E;
  cl_program P = A->clCreateProgramWithSource(H->Ctx, 1, &Text, &Len, &E);
  check(E, "clCreateProgramWithSource");
  Program Owner(A.get(), P);
  E = A->clBuildProgram(P, 1, &H->Dev, Options.c_str(), nullptr, nullptr);
  if (E != CL_SUCCESS) {
    size_t Size = 0;
    A->clGetProgramBuildInfo(P, H->Dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    A->clGetProgramBuildInfo(P, H->Dev, CL_PROGRAM_BUILD_LOG, Size, Log.data(),
                             nullptr);
    while (!Log.empty() && (Log.back() == '\0' || Log.back() == '\n'))
      Log.pop_back();
    check(E, "clBuildProgram", Log);
  }
  return Owner;
}

Buffer Device::allocate(size_t Bytes) const {
  cl_int E;
  // OpenCL refuses empty buffers; a zero-sized array still gets one byte.
  cl_mem M = A->clCreateBuffer(H->Ctx, CL_MEM_READ_WRITE, Bytes ? Bytes : 1,
                               nullptr, &E);
  check(E, "clCreateBuffer", std::to_string(Bytes) + " bytes");
  return Buffer(A.get(), M, Bytes);
}

void Device::write(const Buffer &B, const void *Data, size_t Bytes) const {
  if (!Bytes)
    return;
  std::lock_guard<std::mutex> L(H->Run);
  check(A->clEnqueueWriteBuffer(H->Queue, static_cast<cl_mem>(B.handle()),
                                CL_TRUE, 0, Bytes, Data, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Device::read(const Buffer &B, void *Data, size_t Bytes) const {
  if (!Bytes)
    return;
  std::lock_guard<std::mutex> L(H->Run);
  check(A->clEnqueueReadBuffer(H->Queue, static_cast<cl_mem>(B.handle()),
                               CL_TRUE, 0, Bytes, Data, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

void Device::launch(const Program &P, const std::string &Name,
                    const std::vector<Arg> &Args, const size_t Groups[3],
                    const size_t Local[3]) const {
  cl_int E;
  cl_kernel K = A->clCreateKernel(static_cast<cl_program>(P.P), Name.c_str(), &E);
  check(E, "clCreateKernel", Name);
  struct Release {
    const Api *A;
    cl_kernel K;
    ~Release() { A->clReleaseKernel(K); }
  } R{A.get(), K};
  for (size_t I = 0; I < Args.size(); ++I) {
    const Arg &X = Args[I];
    if (X.Buf) {
      cl_mem M = static_cast<cl_mem>(X.Buf->handle());
      check(A->clSetKernelArg(K, I, sizeof M, &M), "clSetKernelArg",
            Name + " argument " + std::to_string(I));
    } else {
      check(A->clSetKernelArg(K, I, X.Bytes.size(), X.Bytes.data()),
            "clSetKernelArg", Name + " argument " + std::to_string(I));
    }
  }
  size_t Global[3];
  for (int D = 0; D < 3; ++D)
    Global[D] = Groups[D] * Local[D];
  std::lock_guard<std::mutex> L(H->Run);
  check(A->clEnqueueNDRangeKernel(H->Queue, K, 3, nullptr, Global, Local, 0,
                                  nullptr, nullptr),
        "clEnqueueNDRangeKernel", Name);
  check(A->clFinish(H->Queue), "clFinish", Name);
}

} // namespace loopy::cl
