//===- TunerStorageTest.cpp - Tests of the tuning DB and compile cache ----===//
//
// The tuning database: round trips, key distinctness, erase, all-or-nothing
// stores, several processes at once, processes killed mid-write, and files
// that are not a tuning database of this version. The compile cache: keys,
// round trips, damaged entries, several processes at once, processes killed
// mid-write. Both: where they live by default. Every test uses its own
// temporary folder, never the user's cache.
//
//===----------------------------------------------------------------------===//
#include "loopy/Tuner/CompileCache.h"
#include "loopy/Tuner/Tuner.h"
#include "loopy/Tuner/TuningDB.h"
#include "ScopedEnv.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <sqlite3.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace loopy;
namespace fs = std::filesystem;

namespace {

/// A fresh folder, removed with its contents at the end of the test.
class TempDir {
public:
  TempDir() {
    std::string Template =
        (fs::temp_directory_path() / "loopy-tunedb-XXXXXX").string();
    if (!::mkdtemp(Template.data()))
      throw std::runtime_error("mkdtemp failed");
    Path = Template;
  }
  ~TempDir() {
    std::error_code EC;
    fs::remove_all(Path, EC);
  }
  const fs::path &path() const { return Path; }

private:
  fs::path Path;
};

TuningKey keyNumber(int I) {
  return {"hash" + std::to_string(I), "n=" + std::to_string(I),
          "NVIDIA H100 80GB HBM3", "9.0", "13.0", "13.0",
          plannerOptionsText(PlannerOptions())};
}

TuningRecord recordNumber(int I) {
  TuningRecord R;
  R.Schedule = "i:g.x*" + std::to_string(I) + ",t.x*32";
  R.CudaSource = "__global__ void k" + std::to_string(I) + "() {}\n";
  R.MedianSeconds = 1e-3 * (I + 1);
  R.GFlops = 100.5 + I;
  R.GBytesPerSecond = 2000.25 + I;
  R.VariantsTimed = 10 + I;
  R.TuningSeconds = 3.5 + I;
  R.Timestamp = 1790000000 + I;
  R.LoopycVersion = "0.1.0";
  return R;
}

std::vector<VariantResult> variantsNumber(int I, int Count = 4) {
  std::vector<VariantResult> V;
  const VariantStatus Statuses[] = {VariantStatus::Ok, VariantStatus::Wrong,
                                    VariantStatus::Failed,
                                    VariantStatus::Dropped};
  for (int J = 0; J < Count; ++J) {
    VariantResult R;
    R.Schedule = "v" + std::to_string(I) + "." + std::to_string(J);
    R.Status = Statuses[J % 4];
    if (R.Status != VariantStatus::Ok)
      R.Reason = "reason " + std::to_string(J);
    if (R.Status == VariantStatus::Ok || R.Status == VariantStatus::Wrong)
      R.Seconds = 1e-4 * (J + 1);
    if (J % 2 == 0) // the others' were not recorded
      R.Features = "f1:" + std::to_string(I) + "," + std::to_string(J);
    V.push_back(R);
  }
  return V;
}

void expectSameRecord(const TuningRecord &A, const TuningRecord &B) {
  EXPECT_EQ(A.Schedule, B.Schedule);
  EXPECT_EQ(A.CudaSource, B.CudaSource);
  EXPECT_EQ(A.MedianSeconds, B.MedianSeconds);
  EXPECT_EQ(A.GFlops, B.GFlops);
  EXPECT_EQ(A.GBytesPerSecond, B.GBytesPerSecond);
  EXPECT_EQ(A.VariantsTimed, B.VariantsTimed);
  EXPECT_EQ(A.TuningSeconds, B.TuningSeconds);
  EXPECT_EQ(A.Timestamp, B.Timestamp);
  EXPECT_EQ(A.LoopycVersion, B.LoopycVersion);
}

void expectSameVariants(const std::vector<VariantResult> &A,
                        const std::vector<VariantResult> &B) {
  ASSERT_EQ(A.size(), B.size());
  for (size_t I = 0; I < A.size(); ++I) {
    EXPECT_EQ(A[I].Schedule, B[I].Schedule) << I;
    EXPECT_EQ(A[I].Status, B[I].Status) << I;
    EXPECT_EQ(A[I].Reason, B[I].Reason) << I;
    EXPECT_EQ(A[I].Seconds, B[I].Seconds) << I;
    EXPECT_EQ(A[I].Features, B[I].Features) << I;
  }
}

/// Expects the result under \p Key to be result number \p N with its
/// \p Count variants.
void expectStored(TuningDB &Db, const TuningKey &Key, int N, int Count = 4) {
  auto R = Db.lookup(Key);
  ASSERT_TRUE(R) << "no result " << N;
  expectSameRecord(*R, recordNumber(N));
  expectSameVariants(Db.variants(Key), variantsNumber(N, Count));
}

/// Runs \p Body in \p N child processes at once; each child's exit status
/// is 0 if Body returned true. Returns how many children failed.
int runChildren(int N, const std::function<bool(int)> &Body) {
  std::vector<pid_t> Pids;
  for (int I = 0; I < N; ++I) {
    pid_t Pid = ::fork();
    if (Pid == 0) {
      bool Ok = false;
      try {
        Ok = Body(I);
      } catch (std::exception &E) {
        std::fprintf(stderr, "child %d: %s\n", I, E.what());
      }
      ::_exit(Ok ? 0 : 1);
    }
    Pids.push_back(Pid);
  }
  int Failed = 0;
  for (pid_t Pid : Pids) {
    int Status = 0;
    ::waitpid(Pid, &Status, 0);
    Failed += !(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  return Failed;
}

std::string readFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

/// Runs \p Sql on the file at \p P with SQLite itself, outside TuningDB.
std::string rawQuery(const fs::path &P, const std::string &Sql) {
  sqlite3 *Db = nullptr;
  sqlite3_open(P.c_str(), &Db);
  std::string Result;
  char *Error = nullptr;
  sqlite3_exec(
      Db, Sql.c_str(),
      [](void *Out, int Cols, char **Values, char **) {
        for (int I = 0; I < Cols; ++I)
          *static_cast<std::string *>(Out) += Values[I] ? Values[I] : "NULL";
        return 0;
      },
      &Result, &Error);
  if (Error) {
    Result = std::string("error: ") + Error;
    sqlite3_free(Error);
  }
  sqlite3_close(Db);
  return Result;
}

TEST(TuningDB, RoundTrip) {
  TempDir T;
  fs::path P = T.path() / "sub" / "dir" / "tuning.db";
  {
    TuningDB Db(P);
    EXPECT_EQ(Db.path(), P);
    EXPECT_FALSE(Db.lookup(keyNumber(1)));
    EXPECT_TRUE(Db.variants(keyNumber(1)).empty());
    Db.store(keyNumber(1), recordNumber(1), variantsNumber(1));
  }
  // A new connection, as the next run of loopyc would open.
  TuningDB Db(P);
  expectStored(Db, keyNumber(1), 1);
  EXPECT_EQ(rawQuery(P, "PRAGMA user_version"), "4");
  EXPECT_EQ(rawQuery(P, "PRAGMA journal_mode"), "wal");
}

TEST(TuningDB, MeasuredVariantsOfOtherSearches) {
  TempDir T;
  TuningDB Db(T.path() / "tuning.db");
  for (int I = 1; I <= 3; ++I)
    Db.store(keyNumber(I), recordNumber(I), variantsNumber(I, 8));
  TuningKey Elsewhere = keyNumber(4);
  Elsewhere.Device = "NVIDIA H200";
  Db.store(Elsewhere, recordNumber(4), variantsNumber(4, 8));
  // Of the searches on the H100 but key 2's own: the timed variants with
  // features (positions 0 and 4 of each), the newest search first, each
  // time over its winner's.
  auto M = Db.measured(keyNumber(2).Device, keyNumber(2), 100);
  ASSERT_EQ(M.size(), 4u);
  EXPECT_EQ(M[0].Features, "f1:3,0");
  EXPECT_EQ(M[1].Features, "f1:3,4");
  EXPECT_EQ(M[2].Features, "f1:1,0");
  EXPECT_EQ(M[3].Features, "f1:1,4");
  EXPECT_DOUBLE_EQ(M[0].OverBest, 1e-4 / 4e-3);
  EXPECT_DOUBLE_EQ(M[3].OverBest, 5e-4 / 2e-3);
  EXPECT_EQ(Db.measured(keyNumber(2).Device, keyNumber(2), 3).size(), 3u);
  EXPECT_EQ(Db.measured("NVIDIA H200", keyNumber(2), 100).size(), 2u);
}

TEST(TuningDB, PathsThatAreNotFiles) {
  // An empty path is an error, never the default database.
  try {
    TuningDB Db("");
    FAIL() << "an empty path opened";
  } catch (TuningDBError &E) {
    EXPECT_NE(std::string(E.what()).find("path is empty"), std::string::npos)
        << E.what();
  }
  TempDir T;
  try {
    TuningDB Db(T.path());
    FAIL() << "a folder opened";
  } catch (TuningDBError &E) {
    EXPECT_NE(std::string(E.what()).find("is a folder"), std::string::npos)
        << E.what();
  }
  fs::path Fifo = T.path() / "fifo";
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  try {
    TuningDB Db(Fifo);
    FAIL() << "a FIFO opened";
  } catch (TuningDBError &E) {
    EXPECT_NE(std::string(E.what()).find("not a regular file"),
              std::string::npos)
        << E.what();
  }
  // A device that discards writes: a database in memory, no side files.
  {
    TuningDB Db("/dev/null");
    EXPECT_TRUE(Db.inMemory());
    Db.store(keyNumber(1), recordNumber(1), variantsNumber(1));
    expectStored(Db, keyNumber(1), 1);
  }
  for (const char *Side : {"/dev/null-journal", "/dev/null-wal", "/dev/null-shm"})
    EXPECT_FALSE(fs::exists(Side)) << Side;
  EXPECT_FALSE(TuningDB("/dev/null").lookup(keyNumber(1)));
}

TEST(TuningDB, EveryKeyFieldCounts) {
  TempDir T;
  TuningDB Db(T.path() / "tuning.db");
  TuningKey Base = keyNumber(0);
  Db.store(Base, recordNumber(0), variantsNumber(0));
  std::vector<std::string TuningKey::*> Fields = {
      &TuningKey::KernelHash,    &TuningKey::FixedParams,
      &TuningKey::Device,        &TuningKey::ComputeCapability,
      &TuningKey::DriverVersion, &TuningKey::NvrtcVersion,
      &TuningKey::PlannerOptions};
  for (size_t I = 0; I < Fields.size(); ++I) {
    TuningKey K = Base;
    K.*Fields[I] += "x";
    EXPECT_FALSE(Db.lookup(K)) << "field " << I;
    Db.store(K, recordNumber(I + 1), variantsNumber(I + 1, I + 1));
  }
  for (size_t I = 0; I < Fields.size(); ++I) {
    TuningKey K = Base;
    K.*Fields[I] += "x";
    expectStored(Db, K, I + 1, I + 1);
  }
  expectStored(Db, Base, 0);
}

TEST(TuningDB, PlannerOptionsMakeAnotherSearch) {
  // A search under other planner constraints may find another winner: it
  // is stored apart, and the default options' result stays.
  TempDir T;
  TuningDB Db(T.path() / "tuning.db");
  TuningKey Base = keyNumber(0);
  Db.store(Base, recordNumber(0), variantsNumber(0));
  std::vector<PlannerOptions> Others(3);
  Others[0].MaxSharedBytes = 100 * 1024;
  Others[1].MinThreads = 64;
  Others[2].MinBlocks = 132;
  for (size_t I = 0; I < Others.size(); ++I) {
    TuningKey K = Base;
    K.PlannerOptions = plannerOptionsText(Others[I]);
    EXPECT_NE(K.PlannerOptions, Base.PlannerOptions) << I;
    EXPECT_FALSE(Db.lookup(K)) << "options " << K.PlannerOptions;
    Db.store(K, recordNumber(I + 1), variantsNumber(I + 1));
  }
  for (size_t I = 0; I < Others.size(); ++I) {
    TuningKey K = Base;
    K.PlannerOptions = plannerOptionsText(Others[I]);
    expectStored(Db, K, I + 1);
  }
  expectStored(Db, Base, 0);
  EXPECT_EQ(plannerOptionsText(PlannerOptions()),
            "max_register_outputs=64,max_shared=49152,max_threads=1024,"
            "min_blocks=1,min_threads=32,plan_limit=6000");
}

TEST(TuningDB, UpgradesSchemaVersion1) {
  // Version 1 keyed results without the planner options; its rows cannot
  // say under which options they were searched, and are dropped.
  TempDir T;
  fs::path P = T.path() / "tuning.db";
  rawQuery(P, "CREATE TABLE tuning (id INTEGER PRIMARY KEY, kernel_hash TEXT "
              "NOT NULL, fixed_params TEXT NOT NULL, device TEXT NOT NULL, "
              "compute_capability TEXT NOT NULL, driver_version TEXT NOT "
              "NULL, nvrtc_version TEXT NOT NULL, schedule TEXT NOT NULL, "
              "cuda_source TEXT NOT NULL, median_seconds REAL NOT NULL, "
              "gflops REAL NOT NULL, gbytes_per_second REAL NOT NULL, "
              "variants_timed INTEGER NOT NULL, tuning_seconds REAL NOT "
              "NULL, created_at INTEGER NOT NULL, loopyc_version TEXT NOT "
              "NULL)");
  rawQuery(P, "CREATE TABLE variant_result (tuning_id INTEGER NOT NULL, "
              "position INTEGER NOT NULL, schedule TEXT NOT NULL, status "
              "TEXT NOT NULL, reason TEXT NOT NULL, seconds REAL)");
  rawQuery(P, "INSERT INTO tuning VALUES (1, 'hash1', 'n=1', 'NVIDIA H100 "
              "80GB HBM3', '9.0', '13.0', '13.0', 'i:g.x', '', 1, 1, 1, 1, "
              "1, 1, '0.1.0')");
  rawQuery(P, "PRAGMA user_version = 1");
  TuningDB Db(P);
  EXPECT_EQ(rawQuery(P, "PRAGMA user_version"), "4");
  EXPECT_FALSE(Db.lookup(keyNumber(1)));
  Db.store(keyNumber(1), recordNumber(1), variantsNumber(1));
  expectStored(Db, keyNumber(1), 1);
}

TEST(TuningDB, StoreReplaces) {
  TempDir T;
  TuningDB Db(T.path() / "tuning.db");
  Db.store(keyNumber(1), recordNumber(1), variantsNumber(1, 8));
  Db.store(keyNumber(1), recordNumber(2), variantsNumber(2, 3));
  expectStored(Db, keyNumber(1), 2, 3);
  EXPECT_EQ(rawQuery(Db.path(), "SELECT count(*) FROM variant_result"), "3");
}

TEST(TuningDB, Erase) {
  TempDir T;
  TuningDB Db(T.path() / "tuning.db");
  Db.store(keyNumber(1), recordNumber(1), variantsNumber(1));
  Db.store(keyNumber(2), recordNumber(2), variantsNumber(2));
  EXPECT_TRUE(Db.erase(keyNumber(1)));
  EXPECT_FALSE(Db.lookup(keyNumber(1)));
  EXPECT_TRUE(Db.variants(keyNumber(1)).empty());
  EXPECT_FALSE(Db.erase(keyNumber(1)));
  ASSERT_TRUE(Db.lookup(keyNumber(2)));
  expectSameVariants(Db.variants(keyNumber(2)), variantsNumber(2));
  EXPECT_EQ(rawQuery(Db.path(), "SELECT count(*) FROM variant_result"), "4");
}

TEST(TuningDB, FailedStoreChangesNothing) {
  TempDir T;
  TuningDB Db(T.path() / "tuning.db");
  Db.store(keyNumber(1), recordNumber(1), variantsNumber(1));
  // The last variant cannot be written: the store fails after deleting the
  // old result and writing most of the new one.
  auto Bad = variantsNumber(2);
  Bad.back().Status = static_cast<VariantStatus>(42);
  EXPECT_THROW(Db.store(keyNumber(1), recordNumber(2), Bad),
               std::invalid_argument);
  expectStored(Db, keyNumber(1), 1);
  // The connection is usable after the failure.
  Db.store(keyNumber(2), recordNumber(2), variantsNumber(2));
  EXPECT_TRUE(Db.lookup(keyNumber(2)));
}

TEST(TuningDB, ConcurrentProcesses) {
  TempDir T;
  fs::path P = T.path() / "tuning.db";
  constexpr int Processes = 4, PerProcess = 50;
  // The children create the file together: the schema is made once.
  int Failed = runChildren(Processes, [&](int Child) {
    TuningDB Db(P);
    for (int I = 0; I < PerProcess; ++I) {
      int N = Child * PerProcess + I;
      Db.store(keyNumber(N), recordNumber(N), variantsNumber(N));
      auto R = Db.lookup(keyNumber(N));
      if (!R || R->Schedule != recordNumber(N).Schedule)
        return false;
      // Another child's result, present or not yet.
      Db.lookup(keyNumber((N * 7) % (Processes * PerProcess)));
    }
    return true;
  });
  EXPECT_EQ(Failed, 0);
  TuningDB Db(P);
  for (int N = 0; N < Processes * PerProcess; ++N) {
    expectStored(Db, keyNumber(N), N);
  }
  EXPECT_EQ(rawQuery(P, "PRAGMA integrity_check"), "ok");
}

TEST(TuningDB, ProcessKilledInsideATransaction) {
  TempDir T;
  fs::path P = T.path() / "tuning.db";
  TuningDB(P).store(keyNumber(1), recordNumber(1), variantsNumber(1));
  // The child writes without committing and ends without closing.
  int Failed = runChildren(1, [&](int) {
    sqlite3 *Raw = nullptr;
    sqlite3_open(P.c_str(), &Raw);
    sqlite3_exec(Raw,
                 "BEGIN IMMEDIATE; DELETE FROM variant_result; "
                 "UPDATE tuning SET schedule = 'torn';"
                 "INSERT INTO tuning SELECT id + 100, 'h', fixed_params, "
                 "device, compute_capability, driver_version, nvrtc_version, "
                 "schedule, cuda_source, median_seconds, gflops, "
                 "gbytes_per_second, variants_timed, tuning_seconds, "
                 "created_at, loopyc_version FROM tuning;",
                 nullptr, nullptr, nullptr);
    return sqlite3_get_autocommit(Raw) == 0;
  });
  ASSERT_EQ(Failed, 0) << "the child's transaction did not start";
  TuningDB Db(P);
  expectStored(Db, keyNumber(1), 1);
  EXPECT_EQ(rawQuery(P, "SELECT count(*) FROM tuning"), "1");
  EXPECT_EQ(rawQuery(P, "PRAGMA integrity_check"), "ok");
  // The dead process's lock is gone.
  Db.store(keyNumber(2), recordNumber(2), variantsNumber(2));
  EXPECT_TRUE(Db.lookup(keyNumber(2)));
}

TEST(TuningDB, ProcessKilledWhileStoring) {
  TempDir T;
  fs::path P = T.path() / "tuning.db";
  TuningDB{P};
  constexpr int Variants = 3000;
  pid_t Pid = ::fork();
  if (Pid == 0) {
    TuningDB Db(P);
    for (int N = 0;; ++N)
      Db.store(keyNumber(N % 20), recordNumber(N), variantsNumber(N, Variants));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(Pid, SIGKILL);
  int Status = 0;
  ::waitpid(Pid, &Status, 0);
  ASSERT_TRUE(WIFSIGNALED(Status));
  // Every result present is whole: a record with all its variants.
  TuningDB Db(P);
  int Present = 0;
  for (int N = 0; N < 20; ++N) {
    if (!Db.lookup(keyNumber(N)))
      continue;
    ++Present;
    EXPECT_EQ(Db.variants(keyNumber(N)).size(), size_t(Variants)) << N;
  }
  EXPECT_GT(Present, 0) << "the child stored nothing before it was killed";
  EXPECT_EQ(rawQuery(P, "PRAGMA integrity_check"), "ok");
}

/// Expects opening \p P to fail with a message naming the file and
/// containing \p Words, and the file to be left as it was.
void expectRefused(const fs::path &P, const std::string &Words) {
  std::string Before = readFile(P);
  try {
    TuningDB Db(P);
    ADD_FAILURE() << "opened " << P;
  } catch (TuningDBError &E) {
    std::string Msg = E.what();
    EXPECT_NE(Msg.find("'" + P.string() + "'"), std::string::npos) << Msg;
    EXPECT_NE(Msg.find(Words), std::string::npos) << Msg;
    EXPECT_NE(Msg.find("LOOPY_TUNING_DB"), std::string::npos) << Msg;
  }
  // Not EXPECT_EQ: it would print the whole file.
  EXPECT_TRUE(readFile(P) == Before) << "the file was changed";
  EXPECT_FALSE(fs::exists(P.string() + "-wal"));
}

TEST(TuningDB, RefusesAFileThatIsNotADatabase) {
  TempDir T;
  fs::path P = T.path() / "tuning.db";
  {
    std::ofstream Out(P, std::ios::binary);
    for (int I = 0; I < 1000; ++I)
      Out << "not a database " << I << "\n";
  }
  expectRefused(P, "not an SQLite database");
}

TEST(TuningDB, RefusesANewerSchema) {
  TempDir T;
  fs::path P = T.path() / "tuning.db";
  TuningDB(P).store(keyNumber(1), recordNumber(1), variantsNumber(1));
  rawQuery(P, "PRAGMA user_version = 7");
  rawQuery(P, "PRAGMA journal_mode = DELETE");
  expectRefused(P, "schema version 7");
  expectRefused(P, "newer loopyc");
}

TEST(TuningDB, RefusesAnotherProgramsDatabase) {
  TempDir T;
  fs::path P = T.path() / "tuning.db";
  rawQuery(P, "CREATE TABLE photos (id INTEGER, data BLOB)");
  expectRefused(P, "tables of another program");
}

//===----------------------------------------------------------------------===//
// Compile cache
//===----------------------------------------------------------------------===//

/// The entry compileCacheKey gives for compilation \p I, with a CUBIN
/// that has NUL bytes and is large enough to take several writes.
CachedCompile entryNumber(int I, size_t CubinSize = 4096) {
  CachedCompile E;
  E.Cubin.resize(CubinSize);
  for (size_t J = 0; J < CubinSize; ++J)
    E.Cubin[J] = static_cast<char>((J * 31 + I) % 256);
  E.Log = I % 2 ? "warning: number " + std::to_string(I) + "\n" : "";
  return E;
}

std::string cacheKeyNumber(int I) {
  return compileCacheKey("__global__ void k" + std::to_string(I) + "() {}",
                         {"--std=c++17", "-default-device"}, "13.0", "sm_90");
}

void expectSameEntry(const std::optional<CachedCompile> &A,
                     const CachedCompile &B) {
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Cubin, B.Cubin);
  EXPECT_EQ(A->Log, B.Log);
}

/// The names of the files in \p Dir.
std::vector<std::string> filesIn(const fs::path &Dir) {
  std::vector<std::string> Names;
  for (const auto &E : fs::directory_iterator(Dir))
    Names.push_back(E.path().filename().string());
  std::sort(Names.begin(), Names.end());
  return Names;
}

TEST(CompileCache, KeyCoversEveryInput) {
  std::string K = compileCacheKey("src", {"-a", "-b"}, "13.0", "sm_90");
  EXPECT_EQ(K.size(), 64u);
  EXPECT_EQ(K, compileCacheKey("src", {"-a", "-b"}, "13.0", "sm_90"));
  const std::string Others[] = {
      compileCacheKey("src ", {"-a", "-b"}, "13.0", "sm_90"),
      compileCacheKey("src", {"-b", "-a"}, "13.0", "sm_90"),
      compileCacheKey("src", {"-a"}, "13.0", "sm_90"),
      compileCacheKey("src", {"-a -b"}, "13.0", "sm_90"),
      compileCacheKey("src", {"-a", "-b", ""}, "13.0", "sm_90"),
      compileCacheKey("src", {"-a", "-b"}, "13.1", "sm_90"),
      compileCacheKey("src", {"-a", "-b"}, "13.0", "sm_100"),
      // Field boundaries moved: the same bytes in other fields.
      compileCacheKey("src-a", {"-b"}, "13.0", "sm_90"),
      compileCacheKey("src", {"-a", "-b13.0"}, "", "sm_90"),
  };
  for (size_t I = 0; I < std::size(Others); ++I)
    EXPECT_NE(Others[I], K) << I;
}

TEST(CompileCache, RoundTrip) {
  TempDir T;
  fs::path Dir = T.path() / "a" / "cubin";
  CompileCache C(Dir);
  EXPECT_EQ(C.directory(), Dir);
  EXPECT_TRUE(fs::is_directory(Dir));
  EXPECT_FALSE(C.lookup(cacheKeyNumber(1)));
  C.store(cacheKeyNumber(1), entryNumber(1));
  C.store(cacheKeyNumber(2), entryNumber(2, 0));
  expectSameEntry(C.lookup(cacheKeyNumber(1)), entryNumber(1));
  expectSameEntry(CompileCache(Dir).lookup(cacheKeyNumber(2)),
                  entryNumber(2, 0));
  C.store(cacheKeyNumber(1), entryNumber(3));
  expectSameEntry(C.lookup(cacheKeyNumber(1)), entryNumber(3));
  // Only the entries: no temporary files left behind.
  EXPECT_EQ(filesIn(Dir), (std::vector<std::string>{
                              cacheKeyNumber(1) + ".cubin",
                              cacheKeyNumber(2) + ".cubin"}));
}

TEST(CompileCache, RejectsMalformedKeys) {
  TempDir T;
  CompileCache C(T.path());
  for (std::string Bad : {std::string("../etc/passwd"), std::string(64, 'A'),
                          std::string(63, 'a'), std::string()}) {
    EXPECT_THROW(C.lookup(Bad), std::invalid_argument) << Bad;
    EXPECT_THROW(C.store(Bad, entryNumber(1)), std::invalid_argument) << Bad;
  }
}

/// Rewrites the entry under \p Key with \p Edit applied to its bytes.
void damage(const CompileCache &C, const std::string &Key,
            const std::function<void(std::string &)> &Edit) {
  std::string Bytes = readFile(C.entryPath(Key));
  Edit(Bytes);
  std::ofstream(C.entryPath(Key), std::ios::binary | std::ios::trunc) << Bytes;
}

TEST(CompileCache, DamagedEntriesAreMisses) {
  TempDir T;
  CompileCache C(T.path());
  std::string Key = cacheKeyNumber(1);
  using Edit = std::function<void(std::string &)>;
  const std::pair<const char *, Edit> Damages[] = {
      {"truncated in the payload", [](auto &B) { B.resize(B.size() - 1); }},
      {"truncated in the header", [](auto &B) { B.resize(100); }},
      {"empty", [](auto &B) { B.clear(); }},
      {"longer", [](auto &B) { B += "x"; }},
      {"a CUBIN byte flipped", [](auto &B) { B[500] ^= 1; }},
      {"a log byte flipped", [](auto &B) { B.back() ^= 1; }},
      {"the magic changed", [](auto &B) { B[0] = 'X'; }},
      {"a size changed", [](auto &B) { B[72] ^= 1; }},
      {"a digest byte flipped", [](auto &B) { B[90] ^= 1; }},
  };
  for (const auto &[What, Damage] : Damages) {
    C.store(Key, entryNumber(1));
    damage(C, Key, Damage);
    EXPECT_FALSE(C.lookup(Key)) << What;
    // The next store repairs it.
    C.store(Key, entryNumber(1));
    expectSameEntry(C.lookup(Key), entryNumber(1));
  }
}

TEST(CompileCache, EntryUnderAnotherKeysNameIsAMiss) {
  TempDir T;
  CompileCache C(T.path());
  C.store(cacheKeyNumber(1), entryNumber(1));
  fs::copy_file(C.entryPath(cacheKeyNumber(1)), C.entryPath(cacheKeyNumber(2)));
  EXPECT_FALSE(C.lookup(cacheKeyNumber(2)));
}

TEST(CompileCache, StoreFailureIsAnError) {
  TempDir T;
  fs::path Dir = T.path() / "cubin";
  CompileCache C(Dir);
  // The folder is replaced by a file: no entry can be created in it (even
  // by root, whom permissions do not stop).
  fs::remove(Dir);
  std::ofstream(Dir) << "a file";
  try {
    C.store(cacheKeyNumber(1), entryNumber(1));
    ADD_FAILURE() << "stored into a file";
  } catch (CompileCacheError &E) {
    EXPECT_NE(std::string(E.what()).find(Dir.string()), std::string::npos)
        << E.what();
  }
  EXPECT_EQ(readFile(Dir), "a file");
  EXPECT_FALSE(C.lookup(cacheKeyNumber(1)));
}

TEST(CompileCache, ConcurrentProcesses) {
  TempDir T;
  fs::path Dir = T.path() / "cubin";
  constexpr int Processes = 4, Keys = 25, Rounds = 8;
  // Every child stores every key, so writers of one entry race each other.
  int Failed = runChildren(Processes, [&](int Child) {
    CompileCache C(Dir);
    for (int Round = 0; Round < Rounds; ++Round)
      for (int I = 0; I < Keys; ++I) {
        int N = (I + Child * 7) % Keys;
        auto Hit = C.lookup(cacheKeyNumber(N));
        if (Hit && Hit->Cubin != entryNumber(N, 65536).Cubin)
          return false;
        C.store(cacheKeyNumber(N), entryNumber(N, 65536));
      }
    return true;
  });
  EXPECT_EQ(Failed, 0);
  CompileCache C(Dir);
  for (int N = 0; N < Keys; ++N)
    expectSameEntry(C.lookup(cacheKeyNumber(N)), entryNumber(N, 65536));
  EXPECT_EQ(filesIn(Dir).size(), size_t(Keys));
}

TEST(CompileCache, ProcessKilledWhileStoring) {
  TempDir T;
  constexpr int Keys = 10;
  constexpr size_t Size = 1 << 20;
  pid_t Pid = ::fork();
  if (Pid == 0) {
    CompileCache C(T.path());
    for (int N = 0;; ++N)
      C.store(cacheKeyNumber(N % Keys), entryNumber(N % Keys, Size));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ::kill(Pid, SIGKILL);
  int Status = 0;
  ::waitpid(Pid, &Status, 0);
  ASSERT_TRUE(WIFSIGNALED(Status));
  // An entry is whole or absent; a temporary file may be left over.
  CompileCache C(T.path());
  int Present = 0;
  for (int N = 0; N < Keys; ++N) {
    if (!fs::exists(C.entryPath(cacheKeyNumber(N))))
      continue;
    ++Present;
    expectSameEntry(C.lookup(cacheKeyNumber(N)), entryNumber(N, Size));
  }
  EXPECT_GT(Present, 0) << "the child stored nothing before it was killed";
}

//===----------------------------------------------------------------------===//
// Default locations
//===----------------------------------------------------------------------===//

using test::ScopedEnv;

/// Checks where \p Default looks: \p OverrideVar first, then under
/// $XDG_CACHE_HOME/loopy when that is absolute, then under
/// $HOME/.cache/loopy; with none of them set, it throws an \p Error that
/// names the variables.
template <class Error>
void expectCachePathRules(const char *OverrideVar, const std::string &Leaf,
                          const std::function<fs::path()> &Default) {
  ScopedEnv Home("HOME", "/home/u");
  {
    ScopedEnv Override(OverrideVar, "/x/given");
    ScopedEnv Xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(Default(), fs::path("/x/given"));
  }
  ScopedEnv NoOverride(OverrideVar, nullptr);
  {
    ScopedEnv Xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(Default(), fs::path("/xdg/loopy") / Leaf);
  }
  {
    ScopedEnv Xdg("XDG_CACHE_HOME", "relative/dir");
    EXPECT_EQ(Default(), fs::path("/home/u/.cache/loopy") / Leaf);
  }
  ScopedEnv Xdg("XDG_CACHE_HOME", "");
  EXPECT_EQ(Default(), fs::path("/home/u/.cache/loopy") / Leaf);
  ScopedEnv NoHome("HOME", nullptr);
  try {
    Default();
    ADD_FAILURE() << "a path without HOME";
  } catch (Error &E) {
    EXPECT_NE(std::string(E.what()).find(OverrideVar), std::string::npos)
        << E.what();
  }
}

TEST(CachePaths, TuningDB) {
  expectCachePathRules<TuningDBError>("LOOPY_TUNING_DB", "tuning.db",
                                      defaultTuningDbPath);
}

TEST(CachePaths, CompileCache) {
  expectCachePathRules<CompileCacheError>("LOOPY_CACHE_DIR", "cubin",
                                          defaultCompileCacheDir);
}

} // namespace
