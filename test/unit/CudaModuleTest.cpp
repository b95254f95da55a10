//===- CudaModuleTest.cpp - --emit=cuda-module's choice of variants -------===//
//
// With a tuning database, the module holds the winner stored for the
// kernel at its sizes, whatever device tuned it; without one (or where the
// database has no result for the kernel), the first-ranked variant.
//
//===----------------------------------------------------------------------===//
#include "loopy/Compile/Compile.h"
#include "loopy/Driver/Emit.h"
#include "loopy/Tuner/KernelHash.h"
#include "loopy/Tuner/Tuner.h"
#include "loopy/Tuner/TuningDB.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>

using namespace loopy;
namespace fs = std::filesystem;

namespace {

struct CudaModuleTest : ::testing::Test {
  fs::path Dir;
  std::shared_ptr<SourceManager> SM;
  std::ostringstream Diag;
  std::unique_ptr<DiagnosticEngine> Diags;
  std::unique_ptr<CheckedSource> C;

  void SetUp() override {
    std::string T = (fs::temp_directory_path() / "loopy-module-XXXXXX").string();
    ASSERT_TRUE(::mkdtemp(T.data()));
    Dir = T;
    auto Text = readSource(LOOPY_EXAMPLES_DIR "/dot.loop");
    ASSERT_TRUE(Text);
    SM = std::make_shared<SourceManager>("dot.loop", *Text);
    Diags = std::make_unique<DiagnosticEngine>(SM.get(), Diag);
    CheckOptions CO;
    CO.Defines = {{"n", 1048576}};
    auto Checked = checkSource(SM, CO, *Diags);
    ASSERT_TRUE(Checked);
    C = std::move(*Checked);
  }
  void TearDown() override { fs::remove_all(Dir); }

  /// Stores \p Schedule as the winner for dot at n = 2^20 on \p Device.
  void store(const fs::path &Db, const std::string &Schedule,
             const std::string &Device, const std::string &Fixed) {
    auto Parametric = C->parametricKernel(0);
    ASSERT_TRUE(Parametric);
    TuningKey Key;
    Key.KernelHash = kernelHash(**Parametric);
    Key.FixedParams = Fixed;
    Key.Device = Device;
    Key.ComputeCapability = "9.0";
    Key.DriverVersion = "13.0";
    Key.NvrtcVersion = "13.0";
    Key.PlannerOptions = plannerOptionsText(PlannerOptions());
    TuningRecord R;
    R.Schedule = Schedule;
    R.MedianSeconds = 2e-5;
    R.Timestamp = 1;
    TuningDB(Db).store(Key, R, {});
  }

  CudaModule emit(const std::string &Db) {
    CompileOptions Opts;
    Opts.Db = Db;
    auto M = emitCudaModule(*C, Opts, (Dir / "dot").string(), *Diags);
    EXPECT_TRUE(M) << Diag.str();
    return M ? *M : CudaModule();
  }
};

TEST_F(CudaModuleTest, HoldsTheStoredWinner) {
  auto Vs = planVariants(C->kernels()[0], PlannerOptions());
  ASSERT_TRUE(Vs);
  ASSERT_GT(Vs->size(), 3u);
  const std::string First = (*Vs)[0].Name, Third = (*Vs)[2].Name;

  CudaModule Plain = emit("");
  EXPECT_NE(Plain.Header.find("the planner's first-ranked variant:\n///   " +
                              First + "\n"),
            std::string::npos)
      << Plain.Header;

  fs::path Db = Dir / "tuning.db";
  store(Db, Third, "Some GPU", "n=1048576");
  CudaModule Tuned = emit(Db.string());
  EXPECT_NE(Tuned.Header.find("tuned on Some GPU, 0.02 ms:\n///   " + Third +
                              "\n"),
            std::string::npos)
      << Tuned.Header;
  EXPECT_EQ(Diag.str(), "");
}

TEST_F(CudaModuleTest, OtherSizesAreNoResult) {
  fs::path Db = Dir / "tuning.db";
  store(Db, "i:g.x,t.x*32", "Some GPU", "n=1024");
  CudaModule M = emit(Db.string());
  EXPECT_NE(M.Header.find("the planner's first-ranked variant"),
            std::string::npos);
  EXPECT_NE(Diag.str().find("warning: no tuning result for kernel 'dot' at "
                            "n=1048576 in '" +
                            Db.string() + "'"),
            std::string::npos)
      << Diag.str();
}

} // namespace
