//===- CompileTest.cpp - Unit tests of the compile entry ------------------===//
//
// The steps every user of the compiler shares: checking a source, a kernel
// rebuilt in another isl context (what each lowering thread works on),
// lowering many variants on several threads, the parallel-for, binding
// launch arguments, and the child-process helpers.
//
//===----------------------------------------------------------------------===//
#include "loopy/CodeGen/Printer.h"
#include "loopy/Compile/Compile.h"
#include "loopy/Compile/LaunchArgs.h"
#include "loopy/Support/Parallel.h"
#include "loopy/IR/IRPrinter.h"
#include "loopy/Runtime/Subprocess.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <sstream>

using namespace loopy;

namespace {

const char *Kernels = R"(
kernel matvec(n, m: index; s: f32;
              a: in f32[n, m] strides(m, 1), x: in f32[m], y: out f32[n]) {
  assume n >= 1 and m mod 4 = 0;
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  y[i] = s * sum(j, a[i, j] * x[j] + 1.5);
}
kernel tri(n: index; a: in f32[n, n], y: out f32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j <= i }
  y[i] = max(j, a[i, j]);
}
kernel blur(rows, cols: index; src: in f32[rows, cols],
            dst: out f32[rows - 1, cols]) {
  domain { [r, c, dr, dc] : 1 <= r < rows - 1 and 1 <= c < cols - 1 and
                            -1 <= dr <= 1 and -1 <= dc <= 1 }
  dst[r, c] = sum((dr, dc), src[r + dr, c + dc]) / 9;
}
)";

/// A staged variant whose guards depend on the form of the kernel's sets.
const char *StagedBlur =
    "r:g.y,t.y*8,ilp4 c:g.x,t.x*32,ilp2s dr:seq dc:seq*8 prefetch:src";

/// \p Text checked through the compile entry; diagnostics in \p Err.
std::unique_ptr<CheckedSource> check(const std::string &Text,
                                     std::map<std::string, long> Defines,
                                     std::ostringstream &Err) {
  auto SM = std::make_shared<SourceManager>("t.loop", Text);
  DiagnosticEngine Diags(SM.get(), Err);
  CheckOptions Opts;
  Opts.Defines = std::move(Defines);
  auto C = checkSource(SM, Opts, Diags);
  if (!C)
    return nullptr;
  return std::move(*C);
}

std::string printed(const Kernel &K) {
  std::ostringstream OS;
  printKernel(OS, K);
  return OS.str();
}

TEST(Compile, CheckReportsErrorsAsDiagnostics) {
  std::ostringstream Err;
  EXPECT_FALSE(check("kernel k(n: index; y: out f32[n]) {\n"
                     "  domain { [i] : 0 <= i < n }\n  y[i] = q;\n}\n",
                     {}, Err));
  EXPECT_NE(Err.str().find("t.loop:3:"), std::string::npos) << Err.str();
}

TEST(Compile, RebuildInAnotherContextIsTheSameKernel) {
  for (std::map<std::string, long> Defines :
       {std::map<std::string, long>{}, {{"n", 77}, {"m", 44}}}) {
    std::ostringstream Err;
    auto C = check(Kernels, Defines, Err);
    ASSERT_TRUE(C) << Err.str();
    IslContext Other;
    for (size_t KI = 0; KI < C->kernels().size(); ++KI) {
      const Kernel &K = C->kernels()[KI];
      auto Copy = C->rebuildKernel(KI, Other.get());
      ASSERT_TRUE(Copy) << Copy.failure().Message;
      EXPECT_EQ(Copy->Context.ctx().get(), Other.raw());
      EXPECT_EQ(Copy->Name, K.Name);
      EXPECT_EQ(Copy->Fixed, K.Fixed);
      // The same sets in the same form, which isl's AST generator sees.
      EXPECT_EQ(printed(*Copy), printed(K));
    }
  }
}

TEST(Compile, LoweringOnThreadsMatchesLoweringHere) {
  // Each variant alone, so that what a thread's LoweringCache kept from
  // other variants plays no part: this checks the kernel the thread lowers.
  std::ostringstream Err;
  auto C = check(Kernels, {}, Err);
  ASSERT_TRUE(C) << Err.str();
  for (size_t KI = 0; KI < C->kernels().size(); ++KI) {
    const Kernel &K = C->kernels()[KI];
    auto Vs = planVariants(K, PlannerOptions());
    ASSERT_TRUE(Vs) << Vs.failure().Message;
    std::vector<size_t> Pick = {0, Vs->size() / 2, Vs->size() - 1};
    if (K.Name == "blur") {
      auto Staged = chooseVariant(K, {}, StagedBlur);
      ASSERT_TRUE(Staged) << Staged.failure().Message;
      Vs->push_back(*Staged);
      Pick.push_back(Vs->size() - 1);
    }
    for (size_t P : Pick) {
      auto Lowered = lowerVariants(*C, KI, *Vs, {P}, 2);
      ASSERT_EQ(Lowered.size(), 1u);
      auto Here = lowerVariant(K, (*Vs)[P]);
      ASSERT_TRUE(Here && Lowered[0]) << (*Vs)[P].Name;
      EXPECT_EQ(printProgram(*Lowered[0], Dialect::CUDA),
                printProgram(*Here, Dialect::CUDA))
          << (*Vs)[P].Name;
    }
  }
}

// Planning spreads isl's analyses over threads in partitions that do not
// depend on the threads: the same variants, with the same figures, and the
// same analyses within a plan limit that cuts the space short, on one
// thread or several, run after run.
TEST(Compile, PlanningOnThreadsGivesTheSameVariants) {
  std::ostringstream Err;
  auto C = check(Kernels, {{"rows", 300}, {"cols", 500}}, Err);
  ASSERT_TRUE(C) << Err.str();
  for (size_t KI = 0; KI < C->kernels().size(); ++KI) {
    const Kernel &K = C->kernels()[KI];
    for (long Limit : {100L, 800L}) {
      PlannerOptions Opts;
      Opts.MaxAnalyses = Limit;
      // "" where both list the same variants with the same figures, else
      // the first that differs.
      auto Difference = [](const std::vector<Variant> &A,
                           const std::vector<Variant> &B) -> std::string {
        for (size_t I = 0; I < std::max(A.size(), B.size()); ++I) {
          auto Line = [&](const std::vector<Variant> &Vs) -> std::string {
            if (I >= Vs.size())
              return "(none)";
            std::ostringstream OS;
            OS << Vs[I].Name << " cost " << Vs[I].Cost << " shared "
               << Vs[I].Stats[0].SharedBytes;
            return OS.str();
          };
          if (Line(A) != Line(B))
            return "variant " + std::to_string(I) + ": " + Line(A) + " vs " +
                   Line(B);
        }
        return "";
      };
      SpaceSize HereSize;
      auto Here = planVariants(*C, KI, Opts, 1, &HereSize);
      ASSERT_TRUE(Here) << Here.failure().Message;
      for (unsigned Jobs : {1u, 3u, 3u}) {
        SpaceSize Size;
        auto On = planVariants(*C, KI, Opts, Jobs, &Size);
        ASSERT_TRUE(On) << On.failure().Message;
        EXPECT_EQ(Difference(*On, *Here), "") << K.Name << " -j " << Jobs;
        EXPECT_EQ(Size.Shapes, HereSize.Shapes);
        EXPECT_EQ(Size.Analysed, HereSize.Analysed) << K.Name << " -j " << Jobs;
      }
      if (K.Name == "blur" && Limit > 1000) {
        // The limit cuts the space short, and the analyses fall in
        // several partitions.
        EXPECT_GT(HereSize.Shapes, HereSize.Analysed);
        EXPECT_GT(HereSize.Analysed, 2 * 128u);
      }
    }
  }
}

TEST(Compile, ChooseVariant) {
  std::ostringstream Err;
  auto C = check(Kernels, {}, Err);
  ASSERT_TRUE(C) << Err.str();
  const Kernel &K = C->kernels()[0];
  auto Vs = planVariants(K, PlannerOptions());
  ASSERT_TRUE(Vs);
  EXPECT_FALSE(namesSchedule(""));
  EXPECT_FALSE(namesSchedule("12"));
  EXPECT_TRUE(namesSchedule((*Vs)[1].Name));
  EXPECT_EQ(chooseVariant(K, *Vs, "")->Name, (*Vs)[0].Name);
  EXPECT_EQ(chooseVariant(K, *Vs, "1")->Name, (*Vs)[1].Name);
  EXPECT_EQ(chooseVariant(K, {}, (*Vs)[1].Name)->Name, (*Vs)[1].Name);
  auto Bad = chooseVariant(K, *Vs, "99999");
  ASSERT_FALSE(Bad);
  EXPECT_NE(Bad.failure().Message.find("out of range"), std::string::npos);
}

TEST(Compile, ParallelForVisitsEveryItemOnce) {
  for (unsigned Threads : {0u, 1u, 2u, 5u}) {
    std::vector<std::atomic<int>> Seen(1000);
    parallelFor(Seen.size(), Threads, [&](size_t I) { ++Seen[I]; });
    for (size_t I = 0; I < Seen.size(); ++I)
      ASSERT_EQ(Seen[I], 1) << I << " with " << Threads << " threads";
  }
  EXPECT_EQ(workerCount(4, 2), 2u);
  EXPECT_EQ(workerCount(4, 0), 1u);
  EXPECT_GE(workerCount(0, 100), 1u);
}

TEST(Compile, LaunchArgumentsInParameterOrder) {
  std::ostringstream Err;
  auto C = check(Kernels, {{"n", 77}}, Err);
  ASSERT_TRUE(C) << Err.str();
  const Kernel &K = C->kernels()[0];
  auto V = chooseVariant(K, *planVariants(K, PlannerOptions()), "");
  auto P = lowerVariant(K, *V);
  ASSERT_TRUE(P);
  const device::DeviceKernel &DK = P->Kernels.back();
  std::map<std::string, HostScalar> Scalars{{"s", {DType::F32, 2.5, 2}}};
  auto Args = bindLaunchArgs(DK, {{"m", 12}}, Scalars);
  ASSERT_TRUE(Args) << Args.failure().Message;
  ASSERT_EQ(Args->size(), DK.Params.size());
  for (const LaunchArg &A : *Args) {
    if (A.isArray()) {
      EXPECT_TRUE(A.Bytes.empty());
    } else if (A.Param->Name == "m") {
      int64_t M = 0;
      ASSERT_EQ(A.Bytes.size(), sizeof M);
      std::memcpy(&M, A.Bytes.data(), sizeof M);
      EXPECT_EQ(M, 12);
    } else {
      EXPECT_EQ(A.Param->Name, "s");
      float S = 0;
      ASSERT_EQ(A.Bytes.size(), sizeof S);
      std::memcpy(&S, A.Bytes.data(), sizeof S);
      EXPECT_EQ(S, 2.5f);
    }
  }
  auto Missing = bindLaunchArgs(DK, {{"m", 12}}, {});
  ASSERT_FALSE(Missing);
  EXPECT_NE(Missing.failure().Message.find("no value for scalar 's'"),
            std::string::npos);
}

TEST(Compile, LaunchRefusesGridsPastTheDeviceLimits) {
  // At symbolic sizes the planner cannot know the grid: the launch checks
  // it at the sizes it runs, with isl.
  const char *Axpy = R"(
kernel axpy(n: index; a: f32, x: in f32[n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = a * x[i];
})";
  std::ostringstream Err;
  auto C = check(Axpy, {}, Err);
  ASSERT_TRUE(C) << Err.str();
  const Kernel &K = C->kernels()[0];
  auto V = chooseVariant(K, {}, "i:g.x,t.x*32");
  ASSERT_TRUE(V);
  auto P = lowerVariant(K, *V);
  ASSERT_TRUE(P);
  const device::DeviceKernel &DK = P->Kernels.front();
  auto Fits = launchBlocks(C->ctx(), DK, {{"n", 1000}});
  ASSERT_TRUE(Fits) << Fits.failure().Message;
  EXPECT_EQ((*Fits)[0], 32);
  auto Last = launchBlocks(C->ctx(), DK, {{"n", 32 * 2147483647L}});
  ASSERT_TRUE(Last) << Last.failure().Message;
  EXPECT_EQ((*Last)[0], 2147483647L);
  auto Past = launchBlocks(C->ctx(), DK, {{"n", 1099511627776L}});
  ASSERT_FALSE(Past);
  EXPECT_EQ(Past.failure().Message,
            "launch of 'axpy': the grid needs 34359738368 blocks along x, more "
            "than the device's limit of 2147483647; use smaller sizes or a "
            "variant with more outputs per block");
  auto None = launchBlocks(C->ctx(), DK, {});
  ASSERT_FALSE(None);
}

TEST(Subprocess, CapturesOutputAndExitStatus) {
  auto Run = runCapturing({"/bin/sh", "-c", "echo lifted; exit 3"});
  ASSERT_TRUE(Run) << Run.failure().Message;
  EXPECT_EQ(Run->Output, "lifted\n");
  EXPECT_EQ(Run->End.K, ProcessEnd::Kind::Exited);
  EXPECT_EQ(Run->End.describe(), "exit status 3");
  auto Missing = runCapturing({"/no/such/program"});
  ASSERT_FALSE(Missing);
  EXPECT_NE(Missing.failure().Message.find("No such file"), std::string::npos);
}

TEST(Subprocess, KillsAfterTheGracePeriod) {
  auto Pid = spawnProcess({"/bin/sleep", "30"});
  ASSERT_TRUE(Pid);
  ProcessEnd End = waitProcess(*Pid, std::chrono::milliseconds(50));
  EXPECT_EQ(End.K, ProcessEnd::Kind::Signaled);
  EXPECT_EQ(End.Code, SIGKILL);
  EXPECT_FALSE(End.succeeded());
}

} // namespace
