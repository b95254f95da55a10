//===- WorkerProtocol.cpp - Messages to and from loopy-worker -------------===//
#include "loopy/Runtime/WorkerProtocol.h"

#include <poll.h>
#include <sys/socket.h>

#include <bit>
#include <cerrno>
#include <climits>
#include <cstring>
#include <type_traits>

namespace loopy::gpu::protocol {

//===----------------------------------------------------------------------===//
// Fields
//===----------------------------------------------------------------------===//

Writer &Writer::raw(const void *Data, size_t Size) {
  Buf.append(static_cast<const char *>(Data), Size);
  return *this;
}
Writer &Writer::u8(uint8_t V) { return raw(&V, sizeof(V)); }
Writer &Writer::u32(uint32_t V) { return raw(&V, sizeof(V)); }
Writer &Writer::u64(uint64_t V) { return raw(&V, sizeof(V)); }
Writer &Writer::f64(double V) { return u64(std::bit_cast<uint64_t>(V)); }
Writer &Writer::str(std::string_view V) {
  u32(static_cast<uint32_t>(V.size()));
  return raw(V.data(), V.size());
}
Writer &Writer::bytes(const void *Data, size_t Size) {
  u64(Size);
  return raw(Data, Size);
}

std::string_view Reader::take(size_t Size) {
  if (Size > Data.size() - Pos)
    throw ProtocolError("a message ends inside a field (" +
                        std::to_string(Size) + " bytes wanted, " +
                        std::to_string(Data.size() - Pos) + " left)");
  std::string_view Field = Data.substr(Pos, Size);
  Pos += Size;
  return Field;
}

// Reads a number of type T written by Writer.
template <class T> static T takeNumber(std::string_view Field) {
  T V;
  std::memcpy(&V, Field.data(), sizeof(T));
  return V;
}

uint8_t Reader::u8() { return takeNumber<uint8_t>(take(1)); }
uint32_t Reader::u32() { return takeNumber<uint32_t>(take(4)); }
uint64_t Reader::u64() { return takeNumber<uint64_t>(take(8)); }
double Reader::f64() { return std::bit_cast<double>(u64()); }
std::string Reader::str() { return std::string(take(u32())); }
std::string Reader::bytes() { return std::string(take(u64())); }

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

// Each record's fields are listed once, in message order, by a template
// that either writes them (Put) or reads them back (Get), so the two
// directions cannot disagree.
static_assert(std::is_same_v<size_t, uint64_t>, "sizes travel as u64");

namespace {

struct Put {
  Writer &W;
  void operator()(const std::string &V) { W.str(V); }
  void operator()(int V) { W.u32(static_cast<uint32_t>(V)); }
  void operator()(unsigned V) { W.u32(V); }
  void operator()(uint64_t V) { W.u64(V); }
  void operator()(bool V) { W.u8(V); }
  void operator()(double V) { W.f64(V); }
  void operator()(ElementKind V) { W.u8(static_cast<uint8_t>(V)); }
  void operator()(const std::vector<unsigned char> &V) {
    W.bytes(V.data(), V.size());
  }
  template <class T> void count(const std::vector<T> &V) {
    W.u32(static_cast<uint32_t>(V.size()));
  }
};

struct Get {
  Reader &R;
  void operator()(std::string &V) { V = R.str(); }
  void operator()(int &V) { V = static_cast<int>(R.u32()); }
  void operator()(unsigned &V) { V = R.u32(); }
  void operator()(uint64_t &V) { V = R.u64(); }
  void operator()(bool &V) { V = R.u8() != 0; }
  void operator()(double &V) { V = R.f64(); }
  void operator()(ElementKind &V) {
    uint8_t K = R.u8();
    if (K > static_cast<uint8_t>(ElementKind::I16))
      throw ProtocolError("element kind " + std::to_string(K) +
                          " is out of range");
    V = static_cast<ElementKind>(K);
  }
  void operator()(std::vector<unsigned char> &V) {
    std::string Bytes = R.bytes();
    V.assign(Bytes.begin(), Bytes.end());
  }
  template <class T> void count(std::vector<T> &V) {
    uint32_t N = R.u32();
    // Each element takes at least a byte: a larger count is garbage, not
    // a reason to allocate.
    if (N > R.left())
      throw ProtocolError("a count of " + std::to_string(N) +
                          " elements in a message of " +
                          std::to_string(R.left()) + " bytes left");
    V.resize(N);
  }
};

template <class Io, class T> void deviceInfoFields(Io IO, T &D) {
  IO(D.Name);
  IO(D.CcMajor);
  IO(D.CcMinor);
  IO(D.Multiprocessors);
  IO(D.L2Bytes);
  IO(D.GlobalBytes);
  IO(D.SharedPerBlock);
  IO(D.SharedPerBlockOptin);
  IO(D.SharedPerMultiprocessor);
  IO(D.DriverVersion);
  IO(D.Ordinal);
  IO(D.DeviceCount);
}

template <class Io, class T> void functionInfoFields(Io IO, T &F) {
  IO(F.Name);
  IO(F.Registers);
  IO(F.LocalBytes);
  IO(F.StaticShared);
  IO(F.MaxThreads);
  IO(F.BlocksPerMultiprocessor);
}

template <class Io, class T> void bufferSlotFields(Io IO, T &B) {
  IO(B.Name);
  IO(B.Offset);
  IO(B.Bytes);
  IO(B.Output);
}

template <class Io, class T> void launchFields(Io IO, T &L) {
  IO(L.Function);
  for (unsigned I = 0; I < 3; ++I) {
    IO(L.Grid[I]);
    IO(L.Block[I]);
  }
  IO(L.DynamicShared);
  IO.count(L.Args);
  for (auto &A : L.Args) {
    IO(A.Buffer);
    IO(A.Bytes);
  }
}

template <class Io, class T> void compareSpecFields(Io IO, T &C) {
  IO(C.Candidate);
  IO(C.Reference);
  IO(C.Kind);
  IO(C.PoisonBits);
  IO(C.Tolerance);
}

template <class Io, class T> void compareStatsFields(Io IO, T &C) {
  IO(C.Compared);
  IO(C.Diff2);
  IO(C.Ref2);
  IO(C.Bad);
  IO(C.FirstBad);
}

} // namespace

void encode(Writer &W, const CompareSpec &C) { compareSpecFields(Put{W}, C); }
void decode(Reader &R, CompareSpec &C) { compareSpecFields(Get{R}, C); }
void encode(Writer &W, const CompareStats &C) { compareStatsFields(Put{W}, C); }
void decode(Reader &R, CompareStats &C) { compareStatsFields(Get{R}, C); }
void encode(Writer &W, const DeviceInfo &D) { deviceInfoFields(Put{W}, D); }
void decode(Reader &R, DeviceInfo &D) { deviceInfoFields(Get{R}, D); }
void encode(Writer &W, const FunctionInfo &F) { functionInfoFields(Put{W}, F); }
void decode(Reader &R, FunctionInfo &F) { functionInfoFields(Get{R}, F); }
void encode(Writer &W, const BufferSlot &B) { bufferSlotFields(Put{W}, B); }
void decode(Reader &R, BufferSlot &B) { bufferSlotFields(Get{R}, B); }
void encode(Writer &W, const Launch &L) { launchFields(Put{W}, L); }
void decode(Reader &R, Launch &L) { launchFields(Get{R}, L); }

//===----------------------------------------------------------------------===//
// Framing
//===----------------------------------------------------------------------===//

/// Larger than any CUBIN or launch list; a length beyond it is garbage.
constexpr uint32_t MaxMessageBytes = 1u << 30;

// Waits until \p Fd is ready for \p Events or \p D passes. Readiness
// includes hang-up and errors, which the send or recv that follows reports.
static IoStatus waitFor(int Fd, short Events, Deadline D) {
  for (;;) {
    int Timeout = -1;
    if (D != Never) {
      auto Left = std::chrono::ceil<std::chrono::milliseconds>(
          D - std::chrono::steady_clock::now());
      if (Left.count() <= 0)
        return IoStatus::TimedOut;
      Timeout = static_cast<int>(std::min<int64_t>(Left.count(), INT_MAX));
    }
    pollfd P{Fd, Events, 0};
    int N = ::poll(&P, 1, Timeout);
    if (N > 0)
      return IoStatus::Ok;
    if (N < 0 && errno != EINTR)
      return IoStatus::Error;
  }
}

// The errors by which a socket says that its other end is gone.
static bool isClosedError(int Errno) {
  return Errno == EPIPE || Errno == ECONNRESET;
}

// Sends or receives exactly \p Size bytes.
static IoStatus transferAll(int Fd, char *Data, size_t Size, Deadline D,
                            bool Send) {
  while (Size) {
    ssize_t N = Send ? ::send(Fd, Data, Size, MSG_NOSIGNAL | MSG_DONTWAIT)
                     : ::recv(Fd, Data, Size, MSG_DONTWAIT);
    if (N > 0) {
      Data += N;
      Size -= N;
      continue;
    }
    if (N == 0 && !Send)
      return IoStatus::Closed;
    if (errno == EINTR)
      continue;
    if (isClosedError(errno))
      return IoStatus::Closed;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      return IoStatus::Error;
    if (IoStatus S = waitFor(Fd, Send ? POLLOUT : POLLIN, D); S != IoStatus::Ok)
      return S;
  }
  return IoStatus::Ok;
}

IoStatus sendMessage(int Fd, std::string_view Payload, Deadline D) {
  if (Payload.size() > MaxMessageBytes) {
    errno = EMSGSIZE;
    return IoStatus::Error;
  }
  uint32_t Length = static_cast<uint32_t>(Payload.size());
  IoStatus S = transferAll(Fd, reinterpret_cast<char *>(&Length),
                           sizeof(Length), D, /*Send=*/true);
  if (S != IoStatus::Ok)
    return S;
  return transferAll(Fd, const_cast<char *>(Payload.data()), Payload.size(), D,
                     /*Send=*/true);
}

IoStatus receiveMessage(int Fd, std::string &Payload, Deadline D) {
  uint32_t Length = 0;
  IoStatus S = transferAll(Fd, reinterpret_cast<char *>(&Length),
                           sizeof(Length), D, /*Send=*/false);
  if (S != IoStatus::Ok)
    return S;
  if (Length > MaxMessageBytes) {
    errno = EMSGSIZE;
    return IoStatus::Error;
  }
  Payload.resize(Length);
  return transferAll(Fd, Payload.data(), Length, D, /*Send=*/false);
}

} // namespace loopy::gpu::protocol
