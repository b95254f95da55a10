//===- GpuWorkerTest.cpp - Tests of the GPU worker process ----------------===//
//
// GpuWorker driving a real loopy-worker process, on machines without a GPU.
// The worker's fake mode (LOOPY_WORKER_FAKE=1, see WorkerServer.h) hangs,
// crashes or loses its context when a launch asks, so the timeout, crash,
// sticky-error and restart paths, and the restoring of buffers in a new
// worker, all run here. Where there is no CUDA driver, the real worker's
// refusal is checked too; where there is one, that test says SKIP.
//
//===----------------------------------------------------------------------===//
#include "loopy/Runtime/GpuWorker.h"
#include "ScopedEnv.h"
#include "Runtime/WorkerBackend.h"
#include "loopy/Runtime/Cuda.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

using namespace loopy;
using namespace loopy::gpu;
namespace fs = std::filesystem;
using std::chrono::milliseconds;

namespace {

using test::ScopedEnv;

/// The running child processes of this process (its workers).
std::vector<pid_t> childProcesses() {
  std::vector<pid_t> Pids;
  for (const fs::directory_entry &Task :
       fs::directory_iterator("/proc/self/task")) {
    std::ifstream In(Task.path() / "children");
    for (pid_t P; In >> P;)
      Pids.push_back(P);
  }
  return Pids;
}

/// The one worker this process runs.
pid_t onlyChild() {
  std::vector<pid_t> Pids = childProcesses();
  EXPECT_EQ(Pids.size(), 1u);
  return Pids.empty() ? -1 : Pids[0];
}

/// Whether \p Pid no longer runs: gone, or a zombie nobody reaped yet.
bool processEnded(pid_t Pid) {
  std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
  std::string Line;
  if (!std::getline(Stat, Line))
    return true;
  size_t Close = Line.rfind(')');
  return Close != std::string::npos && Close + 2 < Line.size() &&
         Line[Close + 2] == 'Z';
}

bool driverInstalled() {
  void *Lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (Lib)
    ::dlclose(Lib);
  return Lib != nullptr;
}

Launch launchOf(const std::string &Function, std::vector<KernelArg> Args = {}) {
  Launch L;
  L.Function = Function;
  L.Grid[0] = 4;
  L.Block[0] = 256;
  L.Args = std::move(Args);
  return L;
}

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

/// Not a multiple of the buffers' alignment, so `out` does not follow `in`
/// directly.
constexpr size_t Bytes = 10000;

/// A fake worker with an input `in` holding a pattern, an Output `out`,
/// and a module whose "copy" copies one to the other.
class FakeWorkerTest : public ::testing::Test {
protected:
  FakeWorkerTest() {
    W.setBuffers({{"in", Bytes, false}, {"out", Bytes, true}});
    fillInput(1);
    EXPECT_EQ(W.load("cubin", {Copy}).Status, Outcome::Ok);
  }

  void fillInput(unsigned char Seed) {
    auto *In = static_cast<unsigned char *>(W.hostBuffer("in"));
    for (size_t I = 0; I < Bytes; ++I)
      In[I] = static_cast<unsigned char>(I * 7 + Seed);
  }

  /// Runs "copy" and checks that `out` came back equal to `in`.
  void expectCopyRuns() {
    std::memset(W.hostBuffer("out"), 0, Bytes);
    RunResult R = W.run({Copy}, milliseconds(10000));
    ASSERT_EQ(R.Status, Outcome::Ok) << R.Error;
    EXPECT_EQ(std::memcmp(W.hostBuffer("in"), W.hostBuffer("out"), Bytes), 0);
  }

  /// After a worker ended: a run fails until a module is loaded again, in
  /// a new worker that has the buffers back.
  void expectRestart() {
    RunResult NoModule = W.run({Copy}, milliseconds(10000));
    EXPECT_EQ(NoModule.Status, Outcome::Failed);
    EXPECT_TRUE(contains(NoModule.Error, "no module loaded")) << NoModule.Error;
    EXPECT_EQ(W.time({Copy}, 0, 0, 1, 1, milliseconds(10000)).Status,
              Outcome::Failed);
    EXPECT_EQ(W.starts(), 1u);
    LoadResult L = W.load("cubin", {Copy});
    ASSERT_EQ(L.Status, Outcome::Ok) << L.Error;
    EXPECT_EQ(W.starts(), 2u);
    fillInput(2);
    expectCopyRuns();
  }

  ScopedEnv Fake{"LOOPY_WORKER_FAKE", "1"};
  ScopedEnv Path{"LOOPY_WORKER", nullptr};
  GpuWorker W;
  Launch Copy =
      launchOf("copy", {KernelArg::buffer("in"), KernelArg::buffer("out"),
                        KernelArg::value<int>(Bytes)});
};

TEST(GpuWorkerTest, DeviceInfoStrings) {
  DeviceInfo D;
  D.CcMajor = 12, D.CcMinor = 1, D.DriverVersion = 12080;
  EXPECT_EQ(D.arch(), "sm_121");
  EXPECT_EQ(D.computeCapability(), "12.1");
  EXPECT_EQ(D.driverVersionString(), "12.8");
}

TEST_F(FakeWorkerTest, ReportsItsDeviceAndLoads) {
  EXPECT_EQ(W.device().Name, "loopy-worker fake GPU");
  EXPECT_EQ(W.device().arch(), "sm_90");
  EXPECT_EQ(W.device().driverVersionString(), "13.0");
  LoadResult L = W.load("cubin", {Copy, launchOf("other")});
  ASSERT_EQ(L.Status, Outcome::Ok);
  ASSERT_EQ(L.Functions.size(), 2u);
  EXPECT_EQ(L.Functions[1].Name, "other");
  EXPECT_EQ(L.Functions[1].BlocksPerMultiprocessor, 8); // 2048 / 256
  EXPECT_EQ(W.starts(), 1u);
}

TEST_F(FakeWorkerTest, BuffersAreSharedAlignedAndZeroFilled) {
  expectCopyRuns();
  EXPECT_THROW(W.hostBuffer("c"), std::invalid_argument);
  EXPECT_THROW(W.setBuffers({{"a", 4, false}, {"a", 4, false}}),
               std::invalid_argument);

  W.setBuffers(
      {{"in", Bytes, false}, {"empty", 0, false}, {"out", Bytes, true}});
  for (const char *Name : {"in", "empty", "out"})
    EXPECT_EQ(reinterpret_cast<uintptr_t>(W.hostBuffer(Name)) % 4096, 0u)
        << Name;
  auto *Out = static_cast<unsigned char *>(W.hostBuffer("out"));
  EXPECT_TRUE(
      std::all_of(Out, Out + Bytes, [](unsigned char C) { return C == 0; }));
  fillInput(3);
  expectCopyRuns();
}

// A run copies the inputs to the device only where they may have changed:
// handed out by hostBuffer() (or refreshInputs()) since, or after a run
// that failed; the outputs every time.
TEST_F(FakeWorkerTest, InputsGoToTheDeviceOnlyWhereTheyMayHaveChanged) {
  auto *In = static_cast<unsigned char *>(W.hostBuffer("in"));
  auto *Out = static_cast<unsigned char *>(W.hostBuffer("out"));
  auto RunCopy = [&] {
    RunResult R = W.run({Copy}, milliseconds(10000));
    ASSERT_EQ(R.Status, Outcome::Ok) << R.Error;
  };
  const unsigned char First = 5 * 7 + 1; // fillInput(1)
  RunCopy();
  EXPECT_EQ(Out[5], First);
  // Written through a pointer handed out before that run: not copied.
  In[5] = 200;
  RunCopy();
  EXPECT_EQ(Out[5], First);
  W.hostBuffer("in");
  RunCopy();
  EXPECT_EQ(Out[5], 200);
  In[5] = 201;
  W.refreshInputs();
  RunCopy();
  EXPECT_EQ(Out[5], 201);
  In[5] = 202;
  RunCopy();
  EXPECT_EQ(Out[5], 201);
  EXPECT_EQ(W.run({launchOf("copy", {KernelArg::buffer("in"),
                                     KernelArg::buffer("c")})},
                  milliseconds(10000))
                .Status,
            Outcome::Failed);
  RunCopy();
  EXPECT_EQ(Out[5], 202);
}

// A run that uploads every buffer keeps the outputs it uploaded on the
// device; a later run asked to restore them starts from that copy, not
// from the host's buffers, however the device's outputs or the host's
// changed since.
TEST_F(FakeWorkerTest, OutputsRestoredOnTheDevice) {
  auto *In = static_cast<unsigned char *>(W.hostBuffer("in"));
  auto *Out = static_cast<unsigned char *>(W.hostBuffer("out"));
  auto Run = [&](const Launch &L, bool Restore) {
    RunResult R = W.run({L}, milliseconds(10000), true, Restore);
    ASSERT_EQ(R.Status, Outcome::Ok) << R.Error;
  };
  Launch Nothing = launchOf("nothing");
  std::memset(Out, 0x11, Bytes);
  W.refreshInputs();
  EXPECT_FALSE(W.restoresOutputs());
  Run(Nothing, true); // every buffer uploaded: 0x11 kept
  EXPECT_TRUE(W.restoresOutputs());
  std::memset(Out, 0x22, Bytes);
  Run(Nothing, true);
  EXPECT_EQ(Out[7], 0x11);
  Run(Copy, true);
  EXPECT_EQ(std::memcmp(In, Out, Bytes), 0);
  Run(Nothing, true); // the copy's outputs are not what was kept
  EXPECT_EQ(Out[7], 0x11);
  std::memset(Out, 0x33, Bytes);
  Run(Nothing, false);
  EXPECT_EQ(Out[7], 0x33);
  W.refreshInputs();
  EXPECT_FALSE(W.restoresOutputs());
}

TEST_F(FakeWorkerTest, FailuresThatKeepTheWorker) {
  RunResult Missing = W.run(
      {launchOf("copy", {KernelArg::buffer("in"), KernelArg::buffer("c")})},
      milliseconds(10000));
  EXPECT_EQ(Missing.Status, Outcome::Failed);
  EXPECT_EQ(Missing.Error, "no buffer named 'c'");

  LoadResult Bad = W.load("invalid", {Copy});
  EXPECT_EQ(Bad.Status, Outcome::Failed);
  EXPECT_EQ(Bad.Error, "cuModuleLoadData: CUDA_ERROR_INVALID_IMAGE: device "
                       "kernel image is invalid");
  RunResult NoModule = W.run({Copy}, milliseconds(10000));
  EXPECT_EQ(NoModule.Error, "no module loaded");

  ASSERT_EQ(W.load("cubin", {Copy}).Status, Outcome::Ok);
  expectCopyRuns();
  EXPECT_EQ(W.starts(), 1u);
}

TEST_F(FakeWorkerTest, ComparesAndGathersOnTheDevice) {
  // out and ref are 2500 floats; the copy fills out from in, and stays on
  // the device; ref is an input that holds what out should be.
  const size_t N = Bytes / 4;
  W.setBuffers({{"in", Bytes, false}, {"out", Bytes, true},
                {"ref", Bytes, false}});
  ASSERT_EQ(W.load("cubin", {Copy}).Status, Outcome::Ok);
  auto *In = static_cast<float *>(W.hostBuffer("in"));
  auto *Ref = static_cast<float *>(W.hostBuffer("ref"));
  for (size_t I = 0; I < N; ++I)
    In[I] = Ref[I] = 1.0f + float(I % 17);
  const uint32_t Poison = 0x7fc0dead;
  std::memcpy(&Ref[7], &Poison, 4); // not written by the reference
  In[9] = 1000.0f;                  // a wrong element
  ASSERT_EQ(W.run({Copy}, milliseconds(10000), false).Status, Outcome::Ok);
  auto *Out = static_cast<float *>(W.hostBuffer("out"));
  EXPECT_EQ(Out[9], 0.0f) << "not downloaded";

  CompareSpec C{"out", "ref", ElementKind::F32, Poison, 1e-6};
  CompareResult R = W.compare({C}, milliseconds(10000));
  ASSERT_EQ(R.Status, Outcome::Ok) << R.Error;
  ASSERT_EQ(R.Stats.size(), 1u);
  EXPECT_EQ(R.Stats[0].Compared, N - 1);
  EXPECT_EQ(R.Stats[0].Bad, 1u);
  EXPECT_EQ(R.Stats[0].FirstBad, 9u);
  double D = 1000.0 - Ref[9];
  EXPECT_DOUBLE_EQ(R.Stats[0].Diff2, D * D);

  GatherResult G = W.gather("out", 4, {9, 0}, milliseconds(10000));
  ASSERT_EQ(G.Status, Outcome::Ok) << G.Error;
  ASSERT_EQ(G.Bytes.size(), 8u);
  float Got[2];
  std::memcpy(Got, G.Bytes.data(), 8);
  EXPECT_EQ(Got[0], 1000.0f);
  EXPECT_EQ(Got[1], In[0]);
  EXPECT_EQ(W.gather("out", 4, {N}, milliseconds(10000)).Status,
            Outcome::Failed);
  EXPECT_EQ(W.compare({{"out", "in", ElementKind::F64, 0, 0},
                       {"out", "nothing", ElementKind::F32, 0, 0}},
                      milliseconds(10000))
                .Error,
            "no buffer named 'nothing'");
}

TEST(CompareOnHost, FollowsTheChecksOfInterpCompare) {
  // f16: a NaN on both sides and a poisoned reference element are fine, an
  // element left poisoned by the candidate and one out of tolerance are not.
  std::vector<uint16_t> Ref = {0x3c00, 0x7e00, 0x7ead, 0x4000, 0x3c00};
  std::vector<uint16_t> Cand = {0x3c01, 0x7e01, 0x1234, 0x7ead, 0x3e00};
  CompareSpec F16{"c", "r", ElementKind::F16, 0x7ead, 0x1p-9};
  CompareStats S = compareOnHost(
      reinterpret_cast<const unsigned char *>(Cand.data()),
      reinterpret_cast<const unsigned char *>(Ref.data()), Ref.size(), F16);
  EXPECT_EQ(S.Compared, 4u);
  EXPECT_EQ(S.Bad, 2u); // element 3 unwritten, element 4 is 1.5 for 1
  EXPECT_EQ(S.FirstBad, 3u);
  // Integers match exactly.
  std::vector<int32_t> RI = {1, 2, 3}, CI = {1, 2, 4};
  CompareStats I = compareOnHost(
      reinterpret_cast<const unsigned char *>(CI.data()),
      reinterpret_cast<const unsigned char *>(RI.data()), 3,
      {"c", "r", ElementKind::I32, 0x7fffdead, 0});
  EXPECT_EQ(I.Bad, 1u);
  EXPECT_EQ(I.FirstBad, 2u);
}

TEST_F(FakeWorkerTest, Times) {
  TimeResult T = W.time({Copy}, 2, 0.0095, 3, 100, milliseconds(10000));
  ASSERT_EQ(T.Status, Outcome::Ok) << T.Error;
  EXPECT_EQ(T.Repeats, 10u); // the fake's repeats take 1 ms
  EXPECT_DOUBLE_EQ(T.MedianSeconds, 1e-3);
  EXPECT_DOUBLE_EQ(T.MinSeconds, 1e-3);
  EXPECT_EQ(W.time({Copy}, 0, 1, 1, 4, milliseconds(10000)).Repeats, 4u);
}

TEST_F(FakeWorkerTest, HangTimesOutAndTheNextCallRestarts) {
  pid_t Old = onlyChild();
  auto Start = std::chrono::steady_clock::now();
  RunResult R = W.run({Copy, launchOf("hang")}, milliseconds(200));
  EXPECT_EQ(R.Status, Outcome::TimedOut);
  EXPECT_EQ(R.Error, "run did not finish within 200 ms; the worker was killed");
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(5));
  EXPECT_TRUE(processEnded(Old));
  EXPECT_TRUE(childProcesses().empty()); // reaped, not left a zombie
  expectRestart();
}

TEST_F(FakeWorkerTest, HangWhileTimingTimesOut) {
  TimeResult T = W.time({launchOf("hang")}, 1, 1, 1, 10, milliseconds(100));
  EXPECT_EQ(T.Status, Outcome::TimedOut);
  expectRestart();
}

TEST_F(FakeWorkerTest, CrashFailsAndTheNextCallRestarts) {
  RunResult R = W.run({launchOf("crash")}, milliseconds(10000));
  EXPECT_EQ(R.Status, Outcome::Failed);
  EXPECT_TRUE(contains(R.Error, "the worker process ended (signal 11"))
      << R.Error;
  expectRestart();
}

TEST_F(FakeWorkerTest, StickyErrorEndsTheWorker) {
  pid_t Old = onlyChild();
  RunResult R = W.run({Copy, launchOf("fault")}, milliseconds(10000));
  EXPECT_EQ(R.Status, Outcome::Failed);
  EXPECT_EQ(R.Error, "cuStreamSynchronize(fault): CUDA_ERROR_ILLEGAL_ADDRESS: "
                     "an illegal memory access was encountered");
  EXPECT_TRUE(processEnded(Old));
  expectRestart();
}

TEST_F(FakeWorkerTest, WorkerKilledFromOutsideIsNoticed) {
  // Sending to the dead worker must not raise SIGPIPE in this process.
  ASSERT_EQ(::kill(onlyChild(), SIGKILL), 0);
  std::this_thread::sleep_for(milliseconds(50));
  RunResult R = W.run({Copy}, milliseconds(10000));
  EXPECT_EQ(R.Status, Outcome::Failed);
  EXPECT_TRUE(contains(R.Error, "the worker process ended (signal 9"))
      << R.Error;
  expectRestart();
}

TEST(GpuWorkerTest, OneWorkerPerDevice) {
  ScopedEnv Fake("LOOPY_WORKER_FAKE", "1");
  ScopedEnv Path("LOOPY_WORKER", nullptr);
  {
    GpuWorker W;
    EXPECT_EQ(W.device().Ordinal, 0);
    EXPECT_EQ(W.device().DeviceCount, 1);
  }
  ScopedEnv Two("LOOPY_WORKER_FAKE_DEVICES", "2");
  GpuWorker Second("", 1);
  EXPECT_EQ(Second.device().Ordinal, 1);
  EXPECT_EQ(Second.device().DeviceCount, 2);
  EXPECT_FALSE(Second.path().empty());
  try {
    GpuWorker Third(Second.path(), 2);
    ADD_FAILURE() << "a worker on device 2 of 2 started";
  } catch (const NoGpuError &E) {
    EXPECT_TRUE(contains(E.what(), "invalid device ordinal")) << E.what();
  }
}

TEST(GpuWorkerTest, DestructorEndsTheWorker) {
  ScopedEnv Fake("LOOPY_WORKER_FAKE", "1");
  pid_t Pid;
  {
    GpuWorker W;
    Pid = onlyChild();
  }
  EXPECT_TRUE(processEnded(Pid));
  EXPECT_TRUE(childProcesses().empty());
}

TEST(GpuWorkerTest, WorkerEndsWithItsParent) {
  // A parent killed while its worker hangs in a kernel must not leave the
  // worker behind, holding the GPU.
  ScopedEnv Fake("LOOPY_WORKER_FAKE", "1");
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  int Pipe[2];
  ASSERT_EQ(::pipe(Pipe), 0);
  pid_t Parent = ::fork();
  ASSERT_GE(Parent, 0);
  if (Parent == 0) {
    GpuWorker W;
    W.load("cubin", {launchOf("hang")});
    pid_t Worker = childProcesses().at(0);
    if (::write(Pipe[1], &Worker, sizeof(Worker)) != sizeof(Worker))
      ::_exit(1);
    W.run({launchOf("hang")}, milliseconds(60000));
    ::_exit(2);
  }
  pid_t Worker = -1;
  ASSERT_EQ(::read(Pipe[0], &Worker, sizeof(Worker)), ssize_t(sizeof(Worker)));
  ::close(Pipe[0]);
  ::close(Pipe[1]);
  std::this_thread::sleep_for(milliseconds(100)); // into the hang
  ::kill(Parent, SIGKILL);
  ::waitpid(Parent, nullptr, 0);
  // The orphaned worker is now this process's child (a subreaper's), so
  // its end can be waited for, and it is reaped here.
  int Status = 0;
  pid_t Ended = 0;
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while ((Ended = ::waitpid(Worker, &Status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < Deadline)
    std::this_thread::sleep_for(milliseconds(10));
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  EXPECT_EQ(Ended, Worker) << "the worker outlived its parent";
  if (Ended != Worker) { // not left hanging, holding this test's output
    ::kill(Worker, SIGKILL);
    ::waitpid(Worker, nullptr, 0);
  }
}

TEST(GpuWorkerTest, NoGpuIsOneSentence) {
  if (driverInstalled())
    GTEST_SKIP() << "SKIP: this machine has a CUDA driver";
  ScopedEnv Fake("LOOPY_WORKER_FAKE", nullptr);
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    // In the worker, and in this process through the same CUDA layer (a
    // failed load is tried again, and fails the same way).
    std::string Message;
    try {
      if (Attempt == 0) {
        GpuWorker W;
      } else {
        cuda::Driver::get();
      }
      ADD_FAILURE() << "no NoGpuError";
    } catch (const NoGpuError &E) {
      Message = E.what();
    }
    EXPECT_EQ(
        Message.rfind("no CUDA driver: libcuda.so.1 cannot be loaded (", 0), 0u)
        << Message;
    EXPECT_EQ(Message.back(), ')') << Message;
    EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  }
  EXPECT_TRUE(childProcesses().empty());
}

TEST(GpuWorkerTest, EveryDriverEntryPointResolves) {
  // The toolkit's stub libcuda exports the driver's symbols, and every
  // call in it fails: loaded in place of the driver, the worker must find
  // every entry point (the versioned ones included) and stop at cuInit.
  if (!fs::exists(LOOPY_CUDA_STUB))
    GTEST_SKIP() << "SKIP: no stub driver at " LOOPY_CUDA_STUB;
  fs::path Dir =
      fs::temp_directory_path() / ("loopy-stub-" + std::to_string(::getpid()));
  fs::create_directories(Dir);
  fs::create_symlink(LOOPY_CUDA_STUB, Dir / "libcuda.so.1");
  ScopedEnv Fake("LOOPY_WORKER_FAKE", nullptr);
  ScopedEnv Library("LD_LIBRARY_PATH", Dir.c_str());
  std::string Message;
  try {
    GpuWorker W;
  } catch (const NoGpuError &E) {
    Message = E.what();
  }
  fs::remove_all(Dir);
  EXPECT_EQ(Message.rfind("the CUDA driver cannot be initialised (cuInit: ", 0),
            0u)
      << Message;
}

TEST(GpuWorkerTest, MissingWorkerNamesThePathsTried) {
  try {
    GpuWorker W("/nonexistent/loopy-worker");
    FAIL() << "no WorkerError";
  } catch (const WorkerError &E) {
    EXPECT_STREQ(E.what(),
                 "cannot find loopy-worker (tried "
                 "/nonexistent/loopy-worker); set LOOPY_WORKER to its path");
  }

  ScopedEnv Path("LOOPY_WORKER", "/nonexistent/bin/loopy-worker");
  std::string Tried;
  EXPECT_EQ(findWorker(Tried), "");
  EXPECT_EQ(Tried, "/nonexistent/bin/loopy-worker");
  try {
    GpuWorker W;
    FAIL() << "no WorkerError";
  } catch (const WorkerError &E) {
    EXPECT_TRUE(contains(E.what(), "/nonexistent/bin/loopy-worker"))
        << E.what();
  }
}

TEST(GpuWorkerTest, FindsTheWorkerNextToThisProgram) {
  ScopedEnv Path("LOOPY_WORKER", nullptr);
  std::string Tried;
  fs::path Here = fs::read_symlink("/proc/self/exe").parent_path();
  EXPECT_EQ(findWorker(Tried), (Here / "loopy-worker").string());
  EXPECT_EQ(Tried, (Here / "loopy-worker").string());
}

TEST(GpuWorkerTest, ProgramThatIsNotAWorker) {
  ScopedEnv Path("LOOPY_WORKER", "/bin/true");
  try {
    GpuWorker W;
    FAIL() << "no WorkerError";
  } catch (const WorkerError &E) {
    EXPECT_TRUE(contains(E.what(),
                         "/bin/true did not start: the worker process "
                         "ended (exit status 0)"))
        << E.what();
  }
  EXPECT_TRUE(childProcesses().empty());
}

} // namespace
