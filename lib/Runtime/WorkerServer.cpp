//===- WorkerServer.cpp - The GPU worker's side of the protocol -----------===//
#include "loopy/Runtime/WorkerServer.h"
#include "WorkerBackend.h"

#include "loopy/Runtime/Cuda.h"

#include <poll.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <system_error>
#include <thread>

namespace loopy::gpu {

using namespace protocol;

size_t findSlot(const std::vector<BufferSlot> &Slots, const std::string &Name) {
  for (size_t I = 0; I < Slots.size(); ++I)
    if (Slots[I].Name == Name)
      return I;
  throw std::runtime_error("no buffer named '" + Name + "'");
}

void checkOffsets(const BufferSlot &Slot, unsigned ElementBytes,
                  const std::vector<uint64_t> &Offsets) {
  for (uint64_t O : Offsets)
    if (O >= Slot.Bytes / ElementBytes)
      throw std::runtime_error("element " + std::to_string(O) + " of '" +
                               Slot.Name + "' is past its end");
}

std::vector<std::pair<size_t, size_t>>
compareSlots(const std::vector<BufferSlot> &Slots,
             const std::vector<CompareSpec> &Specs) {
  std::vector<std::pair<size_t, size_t>> Pairs;
  for (const CompareSpec &C : Specs) {
    size_t A = findSlot(Slots, C.Candidate), B = findSlot(Slots, C.Reference);
    if (Slots[A].Bytes != Slots[B].Bytes ||
        Slots[A].Bytes % elementBytes(C.Kind) != 0)
      throw std::runtime_error("'" + C.Candidate + "' and '" + C.Reference +
                               "' are not buffers of one number of elements");
    Pairs.push_back({A, B});
  }
  return Pairs;
}

std::string launchNames(const std::vector<Launch> &Launches) {
  std::string Names;
  for (const Launch &L : Launches)
    Names += (Names.empty() ? "" : ", ") + L.Function;
  return Names;
}

Timing timeRepeats(const TimingPlan &Plan,
                   const std::function<double()> &Repeat) {
  std::vector<double> Seconds;
  double Total = 0;
  unsigned Max = std::max(Plan.MaxRepeats, 1u);
  while (Seconds.empty() ||
         (Seconds.size() < Max &&
          (Seconds.size() < Plan.MinRepeats || Total < Plan.MinTotalSeconds))) {
    Seconds.push_back(Repeat());
    Total += Seconds.back();
  }
  std::sort(Seconds.begin(), Seconds.end());
  size_t N = Seconds.size();
  Timing T;
  T.Repeats = static_cast<unsigned>(N);
  T.MinSeconds = Seconds.front();
  T.MedianSeconds =
      N % 2 ? Seconds[N / 2] : (Seconds[N / 2 - 1] + Seconds[N / 2]) / 2;
  return T;
}

namespace {

/// A request the worker ends after answering.
struct Reply {
  std::string Message;
  int Exit = -1; // a WorkerExit, or -1 to go on
};

class Server {
public:
  explicit Server(const WorkerOptions &Options) : Options(Options) {}
  ~Server() { unmap(); }
  Reply handle(std::string_view Message);

private:
  void dispatch(Request Kind, Reader &R, Writer &W);
  void hello(Reader &R, Writer &W);
  void setBuffers(Reader &R);
  void load(Reader &R, Writer &W);
  void run(Reader &R, Writer &W);
  void time(Reader &R, Writer &W);
  void compare(Reader &R, Writer &W);
  void gather(Reader &R, Writer &W);
  WorkerBackend &backend();
  void requireModule() const;
  void unmap();

  WorkerOptions Options;
  std::unique_ptr<WorkerBackend> Backend;
  unsigned char *Map = nullptr;
  size_t MapBytes = 0;
  bool HasModule = false;
  /// The backend keeps the outputs' contents of the last whole upload.
  bool OutputsKept = false;
};

} // namespace

Reply Server::handle(std::string_view Message) {
  auto Fail = [](ReplyKind Kind, const char *What, int Exit) {
    Writer W;
    W.u32(static_cast<uint32_t>(Kind)).str(What);
    return Reply{W.data(), Exit};
  };
  try {
    Reader R(Message);
    auto Kind = static_cast<Request>(R.u32());
    Writer W;
    W.u32(static_cast<uint32_t>(ReplyKind::Ok));
    dispatch(Kind, R, W);
    return {W.data()};
  } catch (const NoGpuError &E) {
    return Fail(ReplyKind::NoGpu, E.what(), WorkerExitNoGpu);
  } catch (const cuda::CudaError &E) {
    if (E.sticky())
      return Fail(ReplyKind::FailedExiting, E.what(), WorkerExitSticky);
    return Fail(ReplyKind::Failed, E.what(), -1);
  } catch (const ProtocolError &E) {
    return Fail(ReplyKind::Failed, E.what(), WorkerExitProtocol);
  } catch (const std::exception &E) {
    return Fail(ReplyKind::Failed, E.what(), -1);
  }
}

void Server::dispatch(Request Kind, Reader &R, Writer &W) {
  switch (Kind) {
  case Request::Hello:
    return hello(R, W);
  case Request::SetBuffers:
    return setBuffers(R);
  case Request::Load:
    return load(R, W);
  case Request::Run:
    return run(R, W);
  case Request::Time:
    return time(R, W);
  case Request::SetChecker:
    return backend().setChecker(R.bytes());
  case Request::Compare:
    return compare(R, W);
  case Request::Gather:
    return gather(R, W);
  }
  throw ProtocolError("unknown request " +
                      std::to_string(static_cast<uint32_t>(Kind)));
}

WorkerBackend &Server::backend() {
  if (!Backend)
    throw ProtocolError("a request came before Hello");
  return *Backend;
}

void Server::requireModule() const {
  if (!HasModule)
    throw std::runtime_error("no module loaded");
}

void Server::hello(Reader &R, Writer &W) {
  uint32_t ParentVersion = R.u32();
  if (ParentVersion != Version)
    throw ProtocolError("loopy-worker speaks protocol version " +
                        std::to_string(Version) + ", its parent version " +
                        std::to_string(ParentVersion) +
                        ": use the loopy-worker built with it (LOOPY_WORKER)");
  int Ordinal = static_cast<int>(R.u32());
  try {
    Backend = Options.Fake ? makeFakeBackend(Ordinal) : makeCudaBackend(Ordinal);
    encode(W, Backend->device());
  } catch (const cuda::CudaError &E) {
    // A driver that finds the device but cannot open it (held in an
    // exclusive compute mode, out of memory) leaves no usable GPU either.
    Backend.reset();
    throw NoGpuError(std::string("the GPU cannot be used (") + E.what() + ")");
  }
}

void Server::unmap() {
  if (Map)
    ::munmap(Map, MapBytes);
  Map = nullptr;
  MapBytes = 0;
}

void Server::setBuffers(Reader &R) {
  WorkerBackend &B = backend();
  uint64_t Bytes = R.u64();
  std::vector<BufferSlot> Slots;
  decode(R, Slots);
  for (const BufferSlot &Slot : Slots)
    if (Slot.Offset > Bytes || Slot.Bytes > Bytes - Slot.Offset)
      throw ProtocolError("buffer '" + Slot.Name +
                          "' lies outside the mapping");
  // The parent has resized the memfd; map it again at its new size.
  unmap();
  if (Bytes) {
    void *P = ::mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
                     Options.Memfd, 0);
    if (P == MAP_FAILED)
      throw std::system_error(errno, std::generic_category(),
                              "cannot map the shared buffers");
    Map = static_cast<unsigned char *>(P);
    MapBytes = Bytes;
  }
  OutputsKept = false;
  B.setBuffers(Slots, Map);
}

void Server::load(Reader &R, Writer &W) {
  WorkerBackend &B = backend();
  std::string Image = R.bytes();
  std::vector<Launch> Launches;
  decode(R, Launches);
  HasModule = false;
  encode(W, B.load(Image, Launches));
  HasModule = true;
}

void Server::run(Reader &R, Writer &W) {
  WorkerBackend &B = backend();
  std::vector<Launch> Launches;
  decode(R, Launches);
  bool Download = R.u8() != 0;
  bool All = R.u8() != 0;
  bool Restore = R.u8() != 0;
  requireModule();
  // After a whole upload the outputs' contents are kept on the device, and
  // a later run may start from them instead of the host's.
  if (All) {
    OutputsKept = false;
    B.upload(true);
    OutputsKept = B.keepOutputs();
  } else if (Restore && OutputsKept) {
    B.restoreOutputs();
  } else {
    B.upload(false);
  }
  B.launchAll(Launches);
  B.synchronize(Launches);
  if (Download)
    B.downloadOutputs();
  W.u8(OutputsKept);
}

void Server::compare(Reader &R, Writer &W) {
  std::vector<CompareSpec> Specs;
  decode(R, Specs);
  encode(W, backend().compare(Specs));
}

void Server::gather(Reader &R, Writer &W) {
  WorkerBackend &B = backend();
  std::string Buffer = R.str();
  unsigned ElementBytes = R.u32();
  uint32_t Count = R.u32();
  if (Count > R.left() / 8)
    throw ProtocolError("a gather of " + std::to_string(Count) +
                        " elements in a message of " +
                        std::to_string(R.left()) + " bytes left");
  std::vector<uint64_t> Offsets(Count);
  for (uint64_t &O : Offsets)
    O = R.u64();
  if (ElementBytes == 0 || ElementBytes > 8)
    throw ProtocolError("elements of " + std::to_string(ElementBytes) +
                        " bytes");
  std::string Bytes = B.gather(Buffer, ElementBytes, Offsets);
  W.bytes(Bytes.data(), Bytes.size());
}

void Server::time(Reader &R, Writer &W) {
  WorkerBackend &B = backend();
  std::vector<Launch> Launches;
  decode(R, Launches);
  unsigned Warmup = R.u32();
  TimingPlan Plan;
  Plan.MinTotalSeconds = R.f64();
  Plan.MinRepeats = R.u32();
  Plan.MaxRepeats = R.u32();
  requireModule();
  for (unsigned I = 0; I < Warmup; ++I)
    B.launchAll(Launches);
  B.synchronize(Launches);
  Timing T = timeRepeats(Plan, [&] { return B.timedRepeat(Launches); });
  W.f64(T.MedianSeconds).f64(T.MinSeconds).u32(T.Repeats);
}

// Ends this process when the parent's end of the socket closes, even while
// the main thread is stuck in a kernel that never finishes: a worker must
// not outlive its parent and keep the GPU busy.
// Where the system refuses the thread, the worker runs without the watch.
static void watchParent(int Socket) {
  try {
    std::thread([Socket] {
      pollfd P{Socket, POLLRDHUP, 0};
      while (::poll(&P, 1, -1) < 0 && errno == EINTR) {
      }
      std::_Exit(WorkerExitOk);
    }).detach();
  } catch (const std::system_error &) {
  }
}

int serveWorker(const WorkerOptions &Options) {
  // Sends use MSG_NOSIGNAL; this covers anything else writing to a
  // closed socket.
  std::signal(SIGPIPE, SIG_IGN);
  watchParent(Options.Socket);
  Server S(Options);
  for (;;) {
    std::string Message;
    IoStatus Received = receiveMessage(Options.Socket, Message, Never);
    if (Received == IoStatus::Closed)
      return WorkerExitOk;
    if (Received != IoStatus::Ok)
      return WorkerExitProtocol;
    Reply R = S.handle(Message);
    if (sendMessage(Options.Socket, R.Message, Never) != IoStatus::Ok)
      return WorkerExitProtocol;
    // After a sticky error even releasing the context may fail or block:
    // leave without unwinding and let the kernel driver clean up.
    if (R.Exit == WorkerExitSticky)
      std::_Exit(R.Exit);
    if (R.Exit >= 0)
      return R.Exit;
  }
}

} // namespace loopy::gpu
