//===- WorkerProtocol.h - Messages to and from loopy-worker -----*- C++ -*-===//
//
// GpuWorker (the parent) and loopy-worker (the child) talk over a Unix
// stream socket in messages: a u32 length, then that many bytes. A request
// starts with its Request kind, a reply with its ReplyKind; the fields
// follow in the order the encode functions below write them. Both ends are
// built from the same source, and Hello carries a version, so a
// loopy-worker from another build is refused rather than misread.
//
// Every wait is a poll() with a deadline, so a parent never blocks on a
// worker that hangs; sends use MSG_NOSIGNAL, so a worker that dies cannot
// kill its parent with SIGPIPE.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_RUNTIME_WORKERPROTOCOL_H
#define LOOPY_RUNTIME_WORKERPROTOCOL_H

#include "loopy/Runtime/GpuWorker.h"

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace loopy::gpu::protocol {

/// Bumped whenever a message changes shape.
constexpr uint32_t Version = 6;

/// A message that does not decode: truncated, or a field out of range.
class ProtocolError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Appends fields to a message, numbers in host byte order (both ends run
/// on one machine).
class Writer {
public:
  Writer &u8(uint8_t V);
  Writer &u32(uint32_t V);
  Writer &u64(uint64_t V);
  Writer &f64(double V);
  /// A u32 length, then the characters.
  Writer &str(std::string_view V);
  /// A u64 length, then the bytes (CUBIN images, argument values).
  Writer &bytes(const void *Data, size_t Size);
  const std::string &data() const { return Buf; }

private:
  Writer &raw(const void *Data, size_t Size);
  std::string Buf;
};

/// Reads fields in the order they were written; throws ProtocolError past
/// the end.
class Reader {
public:
  explicit Reader(std::string_view Data) : Data(Data) {}
  uint8_t u8();
  uint32_t u32();
  uint64_t u64();
  double f64();
  std::string str();
  std::string bytes();
  bool atEnd() const { return Pos == Data.size(); }
  /// Bytes not read yet.
  size_t left() const { return Data.size() - Pos; }

private:
  std::string_view take(size_t Size);
  std::string_view Data;
  size_t Pos = 0;
};

enum class Request : uint32_t {
  Hello = 1,  // u32 version, u32 device ordinal -> DeviceInfo
  SetBuffers, // u64 mapping bytes, BufferSlots -> nothing
  Load,       // bytes image, Launches -> FunctionInfos
  Run,        // Launches, u8 download, u8 all, u8 restore -> u8 outputs
              //   kept (outputs are in the mapping where downloaded)
  Time,       // Launches, u32 warmup, f64 min seconds, u32 min, u32 max
              //   -> f64 median, f64 min, u32 repeats
  SetChecker, // bytes image -> nothing
  Compare,    // CompareSpecs -> CompareStats, one per spec
  Gather,     // str buffer, u32 element bytes, u32 count, u64 offsets
              //   -> bytes elements
};

enum class ReplyKind : uint32_t {
  Ok = 0,
  /// str message; the worker goes on.
  Failed,
  /// str message; the error left the CUDA context unusable and the worker
  /// exits after this reply.
  FailedExiting,
  /// str reason (one sentence); the worker exits after this reply.
  NoGpu,
};

/// A buffer's place in the shared mapping.
struct BufferSlot {
  std::string Name;
  uint64_t Offset = 0;
  uint64_t Bytes = 0;
  bool Output = false;
};

void encode(Writer &W, const DeviceInfo &D);
void decode(Reader &R, DeviceInfo &D);
void encode(Writer &W, const FunctionInfo &F);
void decode(Reader &R, FunctionInfo &F);
void encode(Writer &W, const BufferSlot &B);
void decode(Reader &R, BufferSlot &B);
void encode(Writer &W, const Launch &L);
void decode(Reader &R, Launch &L);
void encode(Writer &W, const CompareSpec &C);
void decode(Reader &R, CompareSpec &C);
void encode(Writer &W, const CompareStats &C);
void decode(Reader &R, CompareStats &C);

/// A u32 count, then the elements.
template <class T> void encode(Writer &W, const std::vector<T> &V) {
  W.u32(static_cast<uint32_t>(V.size()));
  for (const T &E : V)
    encode(W, E);
}
template <class T> void decode(Reader &R, std::vector<T> &V) {
  uint32_t N = R.u32();
  V.clear();
  for (uint32_t I = 0; I < N && !R.atEnd(); ++I)
    decode(R, V.emplace_back());
  if (V.size() != N)
    throw ProtocolError("a message ends inside a list");
}

using Deadline = std::chrono::steady_clock::time_point;
/// No deadline: wait as long as it takes.
constexpr Deadline Never = Deadline::max();

enum class IoStatus {
  Ok,
  /// The other end closed the socket (or reset it: it died).
  Closed,
  TimedOut,
  /// Another error; errno says which.
  Error,
};

/// Sends one message on \p Fd (a stream socket).
IoStatus sendMessage(int Fd, std::string_view Payload, Deadline D);
/// Receives one message from \p Fd into \p Payload.
IoStatus receiveMessage(int Fd, std::string &Payload, Deadline D);

} // namespace loopy::gpu::protocol

#endif
