//===- TuningDB.h - The tuning database -------------------------*- C++ -*-===//
//
// Remembers the winner of each tuning run in an SQLite file, so that the next
// run of the same kernel on the same machine does not tune again. A result is
// keyed by the kernel's content hash, its fixed parameter values, the
// planner's options that bounded the search and the device, driver and NVRTC
// that produced it; it holds the winning schedule,
// its CUDA source and timings, and the outcome of every variant timed.
//
// Several processes may use one file at once: the database runs in WAL mode,
// waits for locks (10 s by default) and writes in one transaction per
// store/erase, so a crash or a kill leaves either the old or the new result.
// A file that is not a tuning database, or one of a newer schema, is refused
// with a TuningDBError and left untouched.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TUNER_TUNINGDB_H
#define LOOPY_TUNER_TUNINGDB_H

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopy {

/// A failure to open, read or write the tuning database. The message names
/// the file and says what to do.
class TuningDBError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// What a tuning result depends on. Two keys are the same entry only when
/// every field is equal.
struct TuningKey {
  /// kernelHash() of the kernel built without -D values.
  std::string KernelHash;
  /// fixedParamsText() of the -D values: "m=4096,n=4096", or "".
  std::string FixedParams;
  /// The device name, e.g. "NVIDIA H100 80GB HBM3".
  std::string Device;
  /// "major.minor", e.g. "9.0".
  std::string ComputeCapability;
  /// The CUDA driver version, e.g. "13.0".
  std::string DriverVersion;
  /// nvrtcVersionString(), e.g. "13.0".
  std::string NvrtcVersion;
  /// plannerOptionsText() of the planner's options: a search under other
  /// constraints (--max-shared, --min-threads, --min-blocks) is another
  /// search.
  std::string PlannerOptions;
};

/// The winner of one tuning run.
struct TuningRecord {
  std::string Schedule;
  /// The winner's CUDA source, as compiled.
  std::string CudaSource;
  /// Median run time of the winner, in seconds.
  double MedianSeconds = 0;
  double GFlops = 0;
  double GBytesPerSecond = 0;
  /// How many variants were timed.
  int64_t VariantsTimed = 0;
  /// Wall time of the whole tuning run, in seconds.
  double TuningSeconds = 0;
  /// When the run finished, in seconds since the Unix epoch.
  int64_t Timestamp = 0;
  /// The loopyc version that tuned.
  std::string LoopycVersion;
  /// The winner's compiled code, so that reading it back neither lowers
  /// nor compiles: the CUBIN NVRTC made for the key's architecture, and
  /// every launch of its program (encodeLaunches, Tuner/TunedCode.h). Both
  /// empty where the row has none (one stored by schema version 2).
  std::string Cubin;
  std::string Launches;
  /// lookup() found compiled code whose SHA-256 does not match the one
  /// stored with it: Cubin and Launches are left empty, as for a row
  /// without code, and the reader warns.
  bool CodeDamaged = false;
  bool hasCode() const { return !Cubin.empty() && !Launches.empty(); }
};

enum class VariantStatus {
  Ok,      // ran and matched the reference
  Wrong,   // ran and did not match the reference
  Failed,  // did not compile, load or launch
  Dropped, // not timed (pruned, over a resource limit, out of time)
};

/// "ok", "wrong", "failed" or "dropped".
const char *variantStatusName(VariantStatus S);

/// The outcome of one variant of a tuning run, for --report.
struct VariantResult {
  std::string Schedule;
  VariantStatus Status = VariantStatus::Ok;
  /// Why the variant is wrong, failed or was dropped; "" when ok.
  std::string Reason;
  /// Median run time in seconds, where it was timed.
  std::optional<double> Seconds;
  /// What the learned search knows of the variant (encodeFeatures,
  /// Tuner/Learner.h); empty where not recorded.
  std::string Features;
};

/// An open tuning database. Not shared between threads: open one per thread
/// (or process); SQLite coordinates them through the file.
class TuningDB {
public:
  /// Opens the database at \p Path, creating the file and its parent folders
  /// if missing, and upgrading one of schema version 1. Throws TuningDBError
  /// if the file cannot be opened, is not an SQLite database, holds other
  /// tables than a tuning database's, or has a newer schema version than
  /// this loopyc's, and if \p Path is empty, a folder or another kind of
  /// file that is not a regular one. A character device (such as
  /// /dev/null) gives a database in memory, which keeps nothing past this
  /// object and leaves no file beside the device (inMemory()).
  /// \p BusyTimeout bounds how long one operation waits for another
  /// process's lock.
  explicit TuningDB(const std::filesystem::path &Path,
                    std::chrono::milliseconds BusyTimeout =
                        std::chrono::seconds(10));
  ~TuningDB();
  TuningDB(TuningDB &&) noexcept;
  TuningDB &operator=(TuningDB &&) noexcept;

  const std::filesystem::path &path() const;
  /// True where \p Path was a character device: nothing is stored.
  bool inMemory() const;

  /// The result stored under \p Key, if any.
  std::optional<TuningRecord> lookup(const TuningKey &Key);
  /// The variants stored with the result under \p Key, in the order they
  /// were stored; empty if there is no result.
  std::vector<VariantResult> variants(const TuningKey &Key);
  /// Stores \p Record and \p Variants under \p Key, replacing what was
  /// there, in one transaction: on an exception nothing has changed.
  void store(const TuningKey &Key, const TuningRecord &Record,
             const std::vector<VariantResult> &Variants);
  /// Removes the result under \p Key and its variants; false if there was
  /// none.
  bool erase(const TuningKey &Key);

  /// One stored result, as exported and merged.
  struct Row {
    TuningKey Key;
    TuningRecord Record;
    std::vector<VariantResult> Variants;
  };
  /// Every result with its variants, in the order stored.
  std::vector<Row> rows();
  /// How a merge went: rows added under new keys, rows that replaced a
  /// slower winner, rows whose key held a winner at least as fast.
  struct MergeCounts {
    size_t Added = 0, Replaced = 0, Kept = 0;
  };
  /// Merges \p Rows in, in one transaction: for each key the faster
  /// winner stays (times of one key compare: same device, versions and
  /// options), with its variants and code. On an exception nothing has
  /// changed.
  MergeCounts merge(const std::vector<Row> &Rows);

  /// The schema version this loopyc writes (PRAGMA user_version). Version
  /// 1 had no planner options in the key; a file of version 1 is upgraded
  /// when opened, and its results, which do not say under which options
  /// they were searched, are dropped. Version 2 kept no compiled code; a
  /// file of version 2 is upgraded in place, keeping its rows, whose code
  /// stays absent.
  /// A timed variant of another search: its features and its time over
  /// the time of that search's winner.
  struct Measured {
    std::string Features;
    double OverBest = 0;
  };
  /// Up to \p Limit timed variants with features, of searches on \p
  /// Device other than the one of \p Except, the newest first.
  std::vector<Measured> measured(const std::string &Device,
                                 const TuningKey &Except, size_t Limit);

  static constexpr int SchemaVersion = 4;

private:
  struct Connection;
  std::unique_ptr<Connection> Db;
};

/// The rows of \p Db as a JSON document (another machine's loopyc merges
/// it with mergeTuningRows): {"format": "loopy-tuning-db", "version": 1,
/// "rows": [...]}, one object per result with its key, record, variants
/// and compiled code (the CUBIN in base64).
std::string exportTuningRows(TuningDB &Db);

/// The rows of the document \p Text (exportTuningRows), read from a file
/// named \p Name. Throws TuningDBError with a located message
/// (NAME:LINE:COL for malformed JSON, NAME: rows[I].FIELD for a field that
/// is missing, of the wrong type or out of range, or compiled code that
/// does not match its hash).
std::vector<TuningDB::Row> parseTuningRows(const std::string &Text,
                                           const std::string &Name);

/// Where the tuning database lives unless the command line names one: the
/// environment variable LOOPY_TUNING_DB if set, else
/// $XDG_CACHE_HOME/loopy/tuning.db, else $HOME/.cache/loopy/tuning.db.
/// Throws TuningDBError if none of these variables is set.
std::filesystem::path defaultTuningDbPath();

} // namespace loopy

#endif
