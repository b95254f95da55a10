//===- WorkerProtocolTest.cpp - Tests of the GPU worker's pieces ----------===//
//
// What needs neither a GPU nor a worker process: the message serializer,
// the framing over a socket (with deadlines and a closed peer), and the
// repeat rule of timing.
//
//===----------------------------------------------------------------------===//
#include "loopy/Runtime/WorkerProtocol.h"
#include "loopy/Runtime/WorkerServer.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <limits>
#include <thread>

using namespace loopy;
using namespace loopy::gpu;
using namespace loopy::gpu::protocol;

namespace {

TEST(WorkerProtocolTest, FieldsRoundTrip) {
  std::string Binary("a\0b\xff", 4);
  Writer W;
  W.u8(0xab).u32(0xdeadbeef).u64(0x0123456789abcdefull).f64(-1.5e-300);
  W.str("").str("matmul_v3").bytes(Binary.data(), Binary.size());
  W.f64(std::numeric_limits<double>::infinity());

  Reader R(W.data());
  EXPECT_EQ(R.u8(), 0xab);
  EXPECT_EQ(R.u32(), 0xdeadbeefu);
  EXPECT_EQ(R.u64(), 0x0123456789abcdefull);
  EXPECT_EQ(R.f64(), -1.5e-300);
  EXPECT_EQ(R.str(), "");
  EXPECT_EQ(R.str(), "matmul_v3");
  EXPECT_EQ(R.bytes(), Binary);
  EXPECT_TRUE(std::isinf(R.f64()));
  EXPECT_TRUE(R.atEnd());
  EXPECT_THROW(R.u8(), ProtocolError);
}

TEST(WorkerProtocolTest, TruncatedFieldThrows) {
  Writer W;
  W.str("kernel");
  std::string Cut = W.data().substr(0, W.data().size() - 1);
  Reader R(Cut);
  EXPECT_THROW(R.str(), ProtocolError);
  // A length larger than the message must not be trusted either.
  Writer Huge;
  Huge.u64(std::numeric_limits<uint64_t>::max());
  Reader H(Huge.data());
  EXPECT_THROW(H.bytes(), ProtocolError);
}

TEST(WorkerProtocolTest, RecordsRoundTrip) {
  Launch L;
  L.Function = "matmul_v3";
  L.Grid[0] = 64, L.Grid[1] = 32, L.Grid[2] = 2;
  L.Block[0] = 16, L.Block[1] = 8;
  L.DynamicShared = 64 * 1024;
  L.Args = {KernelArg::buffer("a"), KernelArg::value<int>(-7),
            KernelArg::value<double>(0.25)};
  DeviceInfo D;
  D.Name = "NVIDIA H100 80GB HBM3";
  D.CcMajor = 9, D.Multiprocessors = 132, D.L2Bytes = 50 << 20;
  D.GlobalBytes = size_t(80) << 30, D.SharedPerBlockOptin = 227 << 10;
  D.DriverVersion = 13000;
  FunctionInfo F{"matmul_v3", 128, 16, 4096, 512, 3};
  BufferSlot S{"c", 8192, 4000, true};

  Writer W;
  encode(W, std::vector<Launch>{L, Launch()});
  encode(W, D);
  encode(W, F);
  encode(W, S);
  Reader R(W.data());
  std::vector<Launch> Ls;
  DeviceInfo D2;
  FunctionInfo F2;
  BufferSlot S2;
  decode(R, Ls);
  decode(R, D2);
  decode(R, F2);
  decode(R, S2);
  EXPECT_TRUE(R.atEnd());

  ASSERT_EQ(Ls.size(), 2u);
  EXPECT_EQ(Ls[0].Function, "matmul_v3");
  EXPECT_EQ(Ls[0].Grid[2], 2u);
  EXPECT_EQ(Ls[0].Block[1], 8u);
  EXPECT_EQ(Ls[0].Block[2], 1u);
  EXPECT_EQ(Ls[0].DynamicShared, 64u * 1024);
  ASSERT_EQ(Ls[0].Args.size(), 3u);
  EXPECT_EQ(Ls[0].Args[0].Buffer, "a");
  EXPECT_TRUE(Ls[0].Args[0].Bytes.empty());
  EXPECT_EQ(Ls[0].Args[1].Bytes, KernelArg::value<int>(-7).Bytes);
  EXPECT_EQ(Ls[0].Args[2].Bytes, KernelArg::value<double>(0.25).Bytes);
  EXPECT_TRUE(Ls[1].Args.empty());
  EXPECT_EQ(D2.Name, D.Name);
  EXPECT_EQ(D2.CcMajor, 9);
  EXPECT_EQ(D2.DriverVersion, 13000);
  EXPECT_EQ(D2.GlobalBytes, D.GlobalBytes);
  EXPECT_EQ(D2.SharedPerBlockOptin, D.SharedPerBlockOptin);
  EXPECT_EQ(F2.Name, "matmul_v3");
  EXPECT_EQ(F2.Registers, 128);
  EXPECT_EQ(F2.BlocksPerMultiprocessor, 3);
  EXPECT_EQ(S2.Name, "c");
  EXPECT_EQ(S2.Offset, 8192u);
  EXPECT_TRUE(S2.Output);
}

/// A connected pair of stream sockets, closed at the end of the test.
struct SocketPair {
  SocketPair() {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fd) != 0)
      throw std::runtime_error("socketpair failed");
  }
  ~SocketPair() {
    for (int F : Fd)
      if (F >= 0)
        ::close(F);
  }
  void close(int I) {
    ::close(Fd[I]);
    Fd[I] = -1;
  }
  int Fd[2];
};

Deadline in(int Milliseconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::milliseconds(Milliseconds);
}

TEST(WorkerProtocolTest, MessagesCrossASocket) {
  SocketPair P;
  // Larger than a socket buffer, so sending waits for the reader.
  std::string Big(3 << 20, 'x');
  Big[12345] = 'y';
  std::string Got;
  std::thread Receiver([&] { receiveMessage(P.Fd[1], Got, in(10000)); });
  EXPECT_EQ(sendMessage(P.Fd[0], Big, in(10000)), IoStatus::Ok);
  Receiver.join();
  EXPECT_EQ(Got, Big);

  EXPECT_EQ(sendMessage(P.Fd[0], "", in(1000)), IoStatus::Ok);
  EXPECT_EQ(receiveMessage(P.Fd[1], Got, in(1000)), IoStatus::Ok);
  EXPECT_EQ(Got, "");
}

TEST(WorkerProtocolTest, ReceiveTimesOutAndSeesClose) {
  SocketPair P;
  std::string Got;
  auto Start = std::chrono::steady_clock::now();
  EXPECT_EQ(receiveMessage(P.Fd[1], Got, in(100)), IoStatus::TimedOut);
  EXPECT_GE(std::chrono::steady_clock::now() - Start,
            std::chrono::milliseconds(100));
  // A length without its payload, then the peer goes away.
  EXPECT_EQ(::write(P.Fd[0], "\x08\0\0\0abc", 7), 7);
  P.close(0);
  EXPECT_EQ(receiveMessage(P.Fd[1], Got, in(1000)), IoStatus::Closed);
}

TEST(WorkerProtocolTest, SendToAClosedPeerDoesNotRaiseSigpipe) {
  // SIGPIPE's default action would end this test program.
  SocketPair P;
  P.close(1);
  EXPECT_EQ(sendMessage(P.Fd[0], "hello", in(1000)), IoStatus::Closed);
}

TEST(WorkerProtocolTest, SendTimesOutWhenNobodyReads) {
  SocketPair P;
  std::string Big(16 << 20, 'x');
  EXPECT_EQ(sendMessage(P.Fd[0], Big, in(100)), IoStatus::TimedOut);
}

TEST(TimeRepeatsTest, StopsAtTimeAndCountThenTakesTheMedian) {
  std::vector<double> Times = {5, 1, 4, 2, 3, 9, 9, 9};
  size_t Next = 0;
  auto Repeat = [&] { return Times[Next++]; };

  // 15 seconds are reached after five repeats: the median is 3.
  Timing T = timeRepeats({15, 2, 100}, Repeat);
  EXPECT_EQ(T.Repeats, 5u);
  EXPECT_EQ(T.MedianSeconds, 3);
  EXPECT_EQ(T.MinSeconds, 1);

  // At least four repeats, though one is enough time: even count.
  Next = 0;
  T = timeRepeats({1, 4, 100}, Repeat);
  EXPECT_EQ(T.Repeats, 4u);
  EXPECT_EQ(T.MedianSeconds, 3); // (2 + 4) / 2

  // The maximum wins over both minimums.
  Next = 0;
  T = timeRepeats({1000, 6, 3}, Repeat);
  EXPECT_EQ(T.Repeats, 3u);
  EXPECT_EQ(T.MedianSeconds, 4);

  // Nothing asked for still times once.
  Next = 0;
  T = timeRepeats({0, 0, 0}, Repeat);
  EXPECT_EQ(T.Repeats, 1u);
  EXPECT_EQ(T.MedianSeconds, 5);
}

} // namespace
