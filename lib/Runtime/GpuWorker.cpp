//===- GpuWorker.cpp - Running variants on the GPU in a child process -----===//
//
// The parent's side: it starts loopy-worker, keeps the buffers' host memory
// in a memfd both processes map, and turns every way a worker can fail
// (a CUDA error, a fault that ends its context, a crash, a hang) into an
// Outcome, starting a fresh worker on the next call where the old one is
// gone.
//
//===----------------------------------------------------------------------===//
#include "loopy/Runtime/GpuWorker.h"
#include "loopy/Runtime/Nvrtc.h"
#include "loopy/Runtime/Subprocess.h"
#include "loopy/Runtime/WorkerProtocol.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>
#include <utility>


#ifndef LOOPY_WORKER_BUILD_PATH
#define LOOPY_WORKER_BUILD_PATH ""
#endif

namespace loopy::gpu {

using namespace protocol;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

/// How long a worker may take to answer Hello: creating the first CUDA
/// context on a large machine takes seconds, more while other processes
/// start theirs.
constexpr milliseconds StartTimeout{120'000};
/// How long setting up buffers and loading a module may take; neither runs
/// variant code, so only a broken driver comes near this.
constexpr milliseconds SetupTimeout{120'000};
/// How long a worker that closed its socket gets to exit before it is
/// killed (it may still be tearing its context down).
constexpr milliseconds ExitGrace{5'000};
/// Buffers start at page boundaries in the mapping, so each is aligned
/// for any element type and vector access.
constexpr size_t BufferAlignment = 4096;

std::string errnoText(int Errno) { return std::strerror(Errno); }

Writer startRequest(Request Kind) {
  Writer W;
  W.u32(static_cast<uint32_t>(Kind));
  return W;
}

/// A reply as the caller sees it.
struct Answer {
  Outcome Status = Outcome::Ok;
  ReplyKind Kind = ReplyKind::Ok;
  std::string Error;
};

} // namespace

//===----------------------------------------------------------------------===//
// DeviceInfo
//===----------------------------------------------------------------------===//

std::string DeviceInfo::arch() const {
  return "sm_" + std::to_string(CcMajor * 10 + CcMinor);
}
std::string DeviceInfo::computeCapability() const {
  return std::to_string(CcMajor) + "." + std::to_string(CcMinor);
}
std::string DeviceInfo::driverVersionString() const {
  return std::to_string(DriverVersion / 1000) + "." +
         std::to_string(DriverVersion % 1000 / 10);
}

//===----------------------------------------------------------------------===//
// Finding the worker
//===----------------------------------------------------------------------===//

std::string findWorker(std::string &Tried) {
  std::vector<std::string> Candidates;
  if (const char *Env = std::getenv("LOOPY_WORKER"); Env && *Env) {
    Candidates.push_back(Env);
  } else {
    std::error_code EC;
    std::filesystem::path Exe =
        std::filesystem::read_symlink("/proc/self/exe", EC);
    // Next to the program (the build tree), then where an installed
    // package puts it: PREFIX/libexec/loopy beside PREFIX/bin.
    if (!EC) {
      Candidates.push_back((Exe.parent_path() / "loopy-worker").string());
      Candidates.push_back((Exe.parent_path().parent_path() / "libexec" /
                            "loopy" / "loopy-worker")
                               .string());
    }
    std::string Built = LOOPY_WORKER_BUILD_PATH;
    if (!Built.empty() && (Candidates.empty() || Candidates[0] != Built))
      Candidates.push_back(Built);
  }
  Tried.clear();
  for (const std::string &C : Candidates) {
    Tried += (Tried.empty() ? "" : ", ") + C;
    if (::access(C.c_str(), X_OK) == 0)
      return C;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// The worker process
//===----------------------------------------------------------------------===//

struct GpuWorker::Impl {
  std::string Path;
  int Ordinal = 0;
  DeviceInfo Device;
  unsigned Starts = 0;

  pid_t Pid = -1;
  int Socket = -1; // the parent's end
  int Memfd = -1;

  unsigned char *Map = nullptr;
  size_t MapBytes = 0;
  std::vector<BufferSlot> Slots;

  /// Whether the running worker has the current buffers.
  bool BuffersSent = false;
  /// Whether the device holds the mapping's inputs (the buffers that are
  /// not Output): uploaded and not handed out by hostBuffer() since. A run
  /// uploads them only where not; the outputs, every time.
  bool InputsOnDevice = false;
  /// The worker keeps on the device the outputs' contents of the last run
  /// that uploaded every buffer.
  bool OutputsKept = false;
  /// Whether the running worker has a module loaded.
  bool ModuleLoaded = false;
  /// Whether a module was loaded into a worker that has since ended.
  bool ModuleLost = false;
  /// The compiled checkerSource() (empty until compare() first needs it),
  /// and whether the running worker has it.
  std::string CheckerImage;
  bool CheckerSent = false;

  Impl();
  ~Impl();
  void start();
  void ensureReady();
  void sendBuffers();
  void mapBuffers(const std::vector<BufferSpec> &Buffers);
  /// Closes the socket, waits up to \p Grace for the worker to exit, kills
  /// it if it has not, and describes how it ended.
  std::string reap(milliseconds Grace);
  /// Sends \p Request and waits for the reply until \p Limit has passed.
  /// \p Decode reads the fields of an Ok reply. \p What names the request
  /// in a timeout.
  Answer exchange(const Writer &Request, milliseconds Limit,
                  const std::string &What,
                  const std::function<void(Reader &)> &Decode = {});
  /// exchange() for a request that runs launches, which needs a module.
  Answer launchRequest(const Writer &Request, milliseconds Limit,
                       const std::string &What,
                       const std::function<void(Reader &)> &Decode = {});
};

GpuWorker::Impl::Impl() {
  Memfd = ::memfd_create("loopy-buffers", MFD_CLOEXEC);
  if (Memfd < 0)
    throw WorkerError("cannot create the shared buffer memory (memfd_create: " +
                      errnoText(errno) + ")");
}

GpuWorker::Impl::~Impl() {
  if (Pid > 0)
    reap(ExitGrace); // the worker exits on end of file
  if (Map)
    ::munmap(Map, MapBytes);
  ::close(Memfd);
}

std::string GpuWorker::Impl::reap(milliseconds Grace) {
  ::close(Socket);
  Socket = -1;
  if (ModuleLoaded)
    ModuleLost = true;
  ModuleLoaded = false;
  BuffersSent = false;
  InputsOnDevice = false;
  OutputsKept = false;
  CheckerSent = false;
  pid_t Child = std::exchange(Pid, -1);
  return waitProcess(Child, Grace).describe();
}

void GpuWorker::Impl::start() {
  int Fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds) != 0)
    throw WorkerError("cannot create a socket for loopy-worker: " +
                      errnoText(errno));
  std::string ChildSocket = std::to_string(Fds[1]);
  std::string ChildMemfd = std::to_string(Memfd);

  // Exactly these two descriptors cross the exec; the worker reads nothing
  // from stdin, which is kept off a terminal.
  SpawnOptions Spawn;
  Spawn.KeepFds = {Fds[1], Memfd};
  Spawn.NullStdin = true;
  auto Started = spawnProcess(
      {Path, "--socket", ChildSocket, "--memfd", ChildMemfd}, Spawn);
  ::close(Fds[1]);
  if (!Started) {
    ::close(Fds[0]);
    throw WorkerError("cannot start " + Path + ": " +
                      Started.failure().Message);
  }
  pid_t Child = *Started;
  Pid = Child;
  Socket = Fds[0];
  ++Starts;

  Writer Hello = startRequest(Request::Hello);
  Hello.u32(Version);
  Hello.u32(static_cast<uint32_t>(Ordinal));
  Answer A = exchange(Hello, StartTimeout, "starting loopy-worker",
                      [&](Reader &R) { decode(R, Device); });
  if (A.Status == Outcome::Ok)
    return;
  if (Pid > 0) // refused Hello (another build's worker) and exits
    reap(ExitGrace);
  if (A.Kind == ReplyKind::NoGpu)
    throw NoGpuError(A.Error);
  throw WorkerError(Path + " did not start: " + A.Error);
}

void GpuWorker::Impl::sendBuffers() {
  Writer W = startRequest(Request::SetBuffers);
  W.u64(MapBytes);
  encode(W, Slots);
  Answer A = exchange(W, SetupTimeout, "setting up the buffers");
  if (A.Status != Outcome::Ok)
    throw WorkerError("loopy-worker cannot set up the buffers: " + A.Error);
  BuffersSent = true;
  InputsOnDevice = true;
  OutputsKept = false;
}

void GpuWorker::Impl::ensureReady() {
  if (Pid < 0)
    start();
  if (!BuffersSent)
    sendBuffers();
}

void GpuWorker::Impl::mapBuffers(const std::vector<BufferSpec> &Buffers) {
  std::vector<BufferSlot> NewSlots;
  size_t Bytes = 0;
  for (const BufferSpec &B : Buffers) {
    for (const BufferSlot &S : NewSlots)
      if (S.Name == B.Name)
        throw std::invalid_argument("two buffers named '" + B.Name + "'");
    Bytes = (Bytes + BufferAlignment - 1) / BufferAlignment * BufferAlignment;
    NewSlots.push_back({B.Name, Bytes, B.Bytes, B.Output});
    Bytes += B.Bytes;
  }
  if (Map)
    ::munmap(Map, MapBytes);
  Map = nullptr;
  MapBytes = 0;
  Slots.clear();
  BuffersSent = false;
  // Truncating to nothing first drops the old contents, so the buffers
  // start zero-filled.
  if (::ftruncate(Memfd, 0) != 0 ||
      ::ftruncate(Memfd, static_cast<off_t>(Bytes)) != 0)
    throw WorkerError("cannot size the shared buffer memory to " +
                      std::to_string(Bytes) + " bytes: " + errnoText(errno));
  if (Bytes) {
    void *P =
        ::mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED, Memfd, 0);
    if (P == MAP_FAILED)
      throw WorkerError("cannot map the shared buffer memory: " +
                        errnoText(errno));
    Map = static_cast<unsigned char *>(P);
    MapBytes = Bytes;
  }
  Slots = std::move(NewSlots);
}

Answer GpuWorker::Impl::exchange(const Writer &Request, milliseconds Limit,
                                 const std::string &What,
                                 const std::function<void(Reader &)> &Decode) {
  Answer A;
  // A limit beyond any real wait (milliseconds::max() included, which
  // would overflow the clock) means none.
  Deadline D =
      Limit >= std::chrono::hours(24 * 365) ? Never : Clock::now() + Limit;
  std::string Reply;
  IoStatus S = sendMessage(Socket, Request.data(), D);
  if (S == IoStatus::Ok)
    S = receiveMessage(Socket, Reply, D);
  if (S == IoStatus::TimedOut) {
    reap(milliseconds(0));
    A.Status = Outcome::TimedOut;
    A.Error = What + " did not finish within " + std::to_string(Limit.count()) +
              " ms; the worker was killed";
    return A;
  }
  if (S != IoStatus::Ok) {
    std::string Lost =
        S == IoStatus::Error ? " (" + errnoText(errno) + " on its socket)" : "";
    A.Status = Outcome::Failed;
    A.Error = "the worker process ended (" + reap(ExitGrace) + ")" + Lost;
    return A;
  }
  try {
    Reader R(Reply);
    A.Kind = static_cast<ReplyKind>(R.u32());
    if (A.Kind == ReplyKind::Ok) {
      if (Decode)
        Decode(R);
      return A;
    }
    A.Status = Outcome::Failed;
    A.Error = R.str();
  } catch (const ProtocolError &E) {
    reap(milliseconds(0));
    throw WorkerError("loopy-worker sent a reply that does not decode: " +
                      std::string(E.what()));
  }
  // The worker exits after these replies; a new one starts on the next
  // call.
  if (A.Kind == ReplyKind::FailedExiting || A.Kind == ReplyKind::NoGpu)
    reap(ExitGrace);
  return A;
}

Answer
GpuWorker::Impl::launchRequest(const Writer &Request, milliseconds Limit,
                               const std::string &What,
                               const std::function<void(Reader &)> &Decode) {
  if (!ModuleLoaded) {
    Answer A;
    A.Status = Outcome::Failed;
    A.Error = ModuleLost ? "no module loaded (it was lost with the worker "
                           "process that loaded it; load it again)"
                         : "no module loaded";
    return A;
  }
  ensureReady();
  return exchange(Request, Limit, What, Decode);
}

//===----------------------------------------------------------------------===//
// GpuWorker
//===----------------------------------------------------------------------===//

GpuWorker::GpuWorker(std::string WorkerPath, int Ordinal)
    : P(std::make_unique<Impl>()) {
  std::string Tried = WorkerPath;
  if (WorkerPath.empty())
    WorkerPath = findWorker(Tried);
  else if (::access(WorkerPath.c_str(), X_OK) != 0)
    WorkerPath.clear();
  if (WorkerPath.empty())
    throw WorkerError("cannot find loopy-worker (tried " + Tried +
                      "); set LOOPY_WORKER to its path");
  P->Path = WorkerPath;
  P->Ordinal = Ordinal;
  P->start();
}

GpuWorker::~GpuWorker() = default;

const DeviceInfo &GpuWorker::device() const { return P->Device; }

const std::string &GpuWorker::path() const { return P->Path; }

unsigned GpuWorker::starts() const { return P->Starts; }

void GpuWorker::refreshInputs() { P->InputsOnDevice = false; }

void GpuWorker::setBuffers(const std::vector<BufferSpec> &Buffers) {
  P->mapBuffers(Buffers);
  P->ensureReady();
}

void *GpuWorker::hostBuffer(const std::string &Name) {
  for (const BufferSlot &S : P->Slots)
    if (S.Name == Name) {
      // The caller may write it: an input goes to the device again.
      if (!S.Output)
        P->InputsOnDevice = false;
      return P->Map ? P->Map + S.Offset : nullptr;
    }
  throw std::invalid_argument("no buffer named '" + Name + "'");
}

LoadResult GpuWorker::load(const std::string &Cubin,
                           const std::vector<Launch> &Launches) {
  P->ensureReady();
  LoadResult R;
  Writer W = startRequest(Request::Load);
  W.bytes(Cubin.data(), Cubin.size());
  encode(W, Launches);
  // The worker unloads the old module first, so after a failure it has none.
  P->ModuleLoaded = false;
  P->ModuleLost = false;
  Answer A = P->exchange(W, SetupTimeout, "load",
                         [&](Reader &Rd) { decode(Rd, R.Functions); });
  R.Status = A.Status;
  R.Error = A.Error;
  P->ModuleLoaded = A.Status == Outcome::Ok;
  return R;
}

RunResult GpuWorker::run(const std::vector<Launch> &Launches,
                         milliseconds Timeout, bool Download,
                         bool RestoreOutputs) {
  Writer W = startRequest(Request::Run);
  encode(W, Launches);
  W.u8(Download);
  W.u8(!P->InputsOnDevice);
  W.u8(RestoreOutputs);
  bool Kept = false;
  Answer A = P->launchRequest(W, Timeout, "run",
                              [&](Reader &R) { Kept = R.u8() != 0; });
  // A run that failed may have written anywhere, an input too.
  P->InputsOnDevice = A.Status == Outcome::Ok;
  P->OutputsKept = A.Status == Outcome::Ok && Kept;
  return {A.Status, A.Error};
}

bool GpuWorker::restoresOutputs() const {
  return P->OutputsKept && P->InputsOnDevice;
}

TimeResult GpuWorker::time(const std::vector<Launch> &Launches, unsigned Warmup,
                           double MinTotalSeconds, unsigned MinRepeats,
                           unsigned MaxRepeats, milliseconds Timeout) {
  Writer W = startRequest(Request::Time);
  encode(W, Launches);
  W.u32(Warmup).f64(MinTotalSeconds).u32(MinRepeats).u32(MaxRepeats);
  TimeResult R;
  Answer A = P->launchRequest(W, Timeout, "time", [&](Reader &Rd) {
    R.MedianSeconds = Rd.f64();
    R.MinSeconds = Rd.f64();
    R.Repeats = Rd.u32();
  });
  R.Status = A.Status;
  R.Error = A.Error;
  return R;
}

std::string checkerSource() {
  // Each kernel takes the candidate and the reference as the bits of
  // their elements, which decide "unwritten" (the poison pattern), and
  // reads floats through VALUE. Grid-stride loops, sums over each warp by
  // shuffles, one atomic per warp. The definition is compareOnHost's.
  std::string S = R"(typedef unsigned long long u64;
static __device__ __forceinline__ double loopy_f32(unsigned b) { return __uint_as_float(b); }
static __device__ __forceinline__ double loopy_f64(u64 b) { return __longlong_as_double((long long)b); }
static __device__ __forceinline__ double loopy_f16(unsigned short b) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(b));
  return f;
}
static __device__ __forceinline__ double loopy_bf16(unsigned short b) { return __uint_as_float((unsigned)b << 16); }
static __device__ __forceinline__ double loopy_warp_sum(double x) {
  for (int s = 16; s > 0; s /= 2)
    x += __shfl_down_sync(0xffffffffu, x, s);
  return x;
}
static __device__ __forceinline__ u64 loopy_warp_sum(u64 x) {
  for (int s = 16; s > 0; s /= 2)
    x += __shfl_down_sync(0xffffffffu, x, s);
  return x;
}
static __device__ __forceinline__ u64 loopy_warp_min(u64 x) {
  for (int s = 16; s > 0; s /= 2) {
    u64 y = __shfl_down_sync(0xffffffffu, x, s);
    x = y < x ? y : x;
  }
  return x;
}
#define LOOPY_CHECKS(NAME, BITS, FLOAT, VALUE)                                 \
extern "C" __global__ void loopy_check_sums_##NAME(                            \
    const BITS *c, const BITS *r, u64 n, u64 poison, double *sums,            \
    u64 *compared) {                                                           \
  double d2 = 0, r2 = 0;                                                       \
  u64 k = 0;                                                                   \
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n;             \
       i += (u64)gridDim.x * blockDim.x) {                                     \
    u64 rb = r[i], cb = c[i];                                                  \
    if (rb == poison)                                                          \
      continue;                                                                \
    ++k;                                                                       \
    if (!FLOAT || cb == poison)                                                \
      continue;                                                                \
    double cv = VALUE((BITS)cb), rv = VALUE((BITS)rb);                         \
    if (isfinite(cv) && isfinite(rv)) {                                        \
      d2 += (cv - rv) * (cv - rv);                                             \
      r2 += rv * rv;                                                           \
    }                                                                          \
  }                                                                            \
  d2 = loopy_warp_sum(d2);                                                     \
  r2 = loopy_warp_sum(r2);                                                     \
  k = loopy_warp_sum(k);                                                       \
  if (threadIdx.x % 32 == 0) {                                                 \
    atomicAdd(&sums[0], d2);                                                   \
    atomicAdd(&sums[1], r2);                                                   \
    atomicAdd(compared, k);                                                    \
  }                                                                            \
}                                                                              \
extern "C" __global__ void loopy_check_bad_##NAME(                             \
    const BITS *c, const BITS *r, u64 n, u64 poison, double tol, double rms,  \
    u64 *bad, u64 *first) {                                                    \
  u64 b = 0, f = ~0ull;                                                        \
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n;             \
       i += (u64)gridDim.x * blockDim.x) {                                     \
    u64 rb = r[i], cb = c[i];                                                  \
    if (rb == poison)                                                          \
      continue;                                                                \
    bool is_bad;                                                               \
    if (cb == poison) {                                                        \
      is_bad = true;                                                           \
    } else if (!FLOAT) {                                                       \
      is_bad = cb != rb;                                                       \
    } else {                                                                   \
      double cv = VALUE((BITS)cb), rv = VALUE((BITS)rb);                       \
      if (!isfinite(cv) || !isfinite(rv))                                      \
        is_bad = !((isnan(cv) && isnan(rv)) || cv == rv);                      \
      else                                                                     \
        is_bad = fabs(cv - rv) > 4 * tol * (fabs(rv) + rms);                   \
    }                                                                          \
    if (is_bad) {                                                              \
      ++b;                                                                     \
      f = i < f ? i : f;                                                       \
    }                                                                          \
  }                                                                            \
  b = loopy_warp_sum(b);                                                       \
  f = loopy_warp_min(f);                                                       \
  if (threadIdx.x % 32 == 0) {                                                 \
    atomicAdd(bad, b);                                                         \
    atomicMin(first, f);                                                       \
  }                                                                            \
}
static __device__ __forceinline__ double loopy_int(u64 b) { return 0; }
LOOPY_CHECKS(f32, unsigned, true, loopy_f32)
LOOPY_CHECKS(f64, u64, true, loopy_f64)
LOOPY_CHECKS(f16, unsigned short, true, loopy_f16)
LOOPY_CHECKS(bf16, unsigned short, true, loopy_bf16)
LOOPY_CHECKS(i32, unsigned, false, loopy_int)
LOOPY_CHECKS(i64, u64, false, loopy_int)
LOOPY_CHECKS(i8, unsigned char, false, loopy_int)
LOOPY_CHECKS(i16, unsigned short, false, loopy_int)
)";
  return S;
}

void GpuWorker::setCheckerImage(std::string Image) {
  P->CheckerImage = std::move(Image);
  P->CheckerSent = false;
}

CompareResult GpuWorker::compare(const std::vector<CompareSpec> &Specs,
                                 milliseconds Timeout) {
  CompareResult R;
  if (P->CheckerImage.empty()) {
    NvrtcResult NR =
        compileCuda(checkerSource(), "loopy-check.cu", P->Device.arch(), true);
    if (!NR.Ok) {
      R.Status = Outcome::Failed;
      R.Error = "NVRTC cannot compile the comparison kernels: " + NR.Log;
      return R;
    }
    P->CheckerImage = std::move(NR.Output);
  }
  P->ensureReady();
  if (!P->CheckerSent) {
    Writer W = startRequest(Request::SetChecker);
    W.bytes(P->CheckerImage.data(), P->CheckerImage.size());
    Answer A = P->exchange(W, SetupTimeout, "loading the comparison kernels");
    if (A.Status != Outcome::Ok) {
      R.Status = A.Status;
      R.Error = A.Error;
      return R;
    }
    P->CheckerSent = true;
  }
  Writer W = startRequest(Request::Compare);
  encode(W, Specs);
  Answer A = P->exchange(W, Timeout, "compare",
                         [&](Reader &Rd) { decode(Rd, R.Stats); });
  R.Status = A.Status;
  R.Error = A.Error;
  return R;
}

GatherResult GpuWorker::gather(const std::string &Buffer, unsigned ElementBytes,
                               const std::vector<uint64_t> &Offsets,
                               milliseconds Timeout) {
  P->ensureReady();
  Writer W = startRequest(Request::Gather);
  W.str(Buffer).u32(ElementBytes).u32(static_cast<uint32_t>(Offsets.size()));
  for (uint64_t O : Offsets)
    W.u64(O);
  GatherResult R;
  Answer A = P->exchange(W, Timeout, "gather",
                         [&](Reader &Rd) { R.Bytes = Rd.bytes(); });
  R.Status = A.Status;
  R.Error = A.Error;
  return R;
}

Expected<std::unique_ptr<GpuWorker>> startGpuWorker(std::string WorkerPath,
                                                    int Ordinal) {
  try {
    return std::make_unique<GpuWorker>(std::move(WorkerPath), Ordinal);
  } catch (NoGpuError &E) {
    return Failure::user(E.what());
  } catch (WorkerError &E) {
    return Failure::internal(E.what());
  }
}

} // namespace loopy::gpu
