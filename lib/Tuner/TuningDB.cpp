//===- TuningDB.cpp - The tuning database ---------------------------------===//
//
// One SQLite file with two tables: `tuning`, one row per key with the
// winner, and `variant_result`, the variants of each row. The schema version
// is PRAGMA user_version. Reads run in SQLite's implicit transactions (a
// consistent snapshot under WAL); writes take the write lock up front with
// BEGIN IMMEDIATE, so two writers never deadlock upgrading read locks.
//
//===----------------------------------------------------------------------===//
#include "loopy/Tuner/TuningDB.h"

#include "CachePaths.h"
#include "loopy/Support/Diagnostics.h"
#include "loopy/Support/Hash.h"

#include <sqlite3.h>

#include <system_error>
#include <thread>

namespace loopy {

namespace {

const char *const SchemaSql = R"sql(
CREATE TABLE tuning (
  id INTEGER PRIMARY KEY,
  kernel_hash TEXT NOT NULL,
  fixed_params TEXT NOT NULL,
  device TEXT NOT NULL,
  compute_capability TEXT NOT NULL,
  driver_version TEXT NOT NULL,
  nvrtc_version TEXT NOT NULL,
  planner_options TEXT NOT NULL,
  schedule TEXT NOT NULL,
  cuda_source TEXT NOT NULL,
  median_seconds REAL NOT NULL,
  gflops REAL NOT NULL,
  gbytes_per_second REAL NOT NULL,
  variants_timed INTEGER NOT NULL,
  tuning_seconds REAL NOT NULL,
  created_at INTEGER NOT NULL,
  loopyc_version TEXT NOT NULL,
  cubin BLOB,
  launches TEXT,
  code_sha256 TEXT,
  UNIQUE (kernel_hash, fixed_params, device, compute_capability,
          driver_version, nvrtc_version, planner_options)
);
CREATE TABLE variant_result (
  tuning_id INTEGER NOT NULL REFERENCES tuning (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  schedule TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'wrong', 'failed', 'dropped')),
  reason TEXT NOT NULL,
  seconds REAL,
  features TEXT,
  PRIMARY KEY (tuning_id, position)
);
)sql";

/// Version 1's tables, which an upgrade replaces: their rows do not say
/// under which planner options they were searched.
const char *const DropVersion1Sql = R"sql(
DROP TABLE variant_result;
DROP TABLE tuning;
)sql";

/// Version 2's rows keep their results; their compiled code is absent.
const char *const UpgradeVersion2Sql = R"sql(
ALTER TABLE tuning ADD COLUMN cubin BLOB;
ALTER TABLE tuning ADD COLUMN launches TEXT;
ALTER TABLE tuning ADD COLUMN code_sha256 TEXT;
)sql";

/// Version 3's rows keep their results; their variants' features are
/// absent.
const char *const UpgradeVersion3Sql = R"sql(
ALTER TABLE variant_result ADD COLUMN features TEXT;
)sql";

/// The SHA-256 stored with a row's compiled code: both parts, each
/// length-prefixed, so that no byte moves from one to the other unseen.
std::string codeHash(const std::string &Cubin, const std::string &Launches) {
  std::string Text;
  for (const std::string *Part : {&Cubin, &Launches})
    Text += std::to_string(Part->size()) + ":" + *Part;
  return sha256Hex(Text);
}

/// The WHERE clause that selects one key; its parameters are ?1 to ?7 in
/// the order bindKey binds them.
#define LOOPY_KEY_MATCH                                                        \
  "kernel_hash = ?1 AND fixed_params = ?2 AND device = ?3 AND "               \
  "compute_capability = ?4 AND driver_version = ?5 AND nvrtc_version = ?6 "   \
  "AND planner_options = ?7"

const char *const WhatToDo =
    "move the file away, or point loopyc at another database with --db=PATH "
    "or LOOPY_TUNING_DB";

struct DbCloser {
  void operator()(sqlite3 *D) const { sqlite3_close_v2(D); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt *S) const { sqlite3_finalize(S); }
};

std::string describe(const std::filesystem::path &Path) {
  return "tuning database " + quote(Path.string());
}

/// Throws the error of the last failed call on \p Db, which tried \p What.
[[noreturn]] void fail(const std::filesystem::path &Path, sqlite3 *Db,
                       const std::string &What) {
  std::string Reason = sqlite3_errmsg(Db);
  switch (sqlite3_errcode(Db) & 0xff) {
  case SQLITE_NOTADB:
    throw TuningDBError(describe(Path) + " is not an SQLite database (" +
                        Reason + "); " + WhatToDo);
  case SQLITE_CORRUPT:
    throw TuningDBError(describe(Path) + " is damaged (" + Reason + "); " +
                        WhatToDo);
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    throw TuningDBError(describe(Path) + ": " + What + ": " + Reason +
                        ": another process held it for longer than the busy "
                        "timeout; try again");
  default:
    throw TuningDBError(describe(Path) + ": " + What + ": " + Reason);
  }
}

/// A prepared statement, finalized on destruction.
class Statement {
public:
  Statement(const std::filesystem::path &Path, sqlite3 *Db, const char *Sql)
      : Path(Path), Db(Db) {
    sqlite3_stmt *S = nullptr;
    if (sqlite3_prepare_v2(Db, Sql, -1, &S, nullptr) != SQLITE_OK)
      fail(Path, Db, "cannot prepare a query");
    Stmt.reset(S);
  }

  Statement &bind(int Pos, const std::string &V) {
    return check(sqlite3_bind_text(Stmt.get(), Pos, V.data(), V.size(),
                                   SQLITE_TRANSIENT));
  }
  Statement &bind(int Pos, double V) {
    return check(sqlite3_bind_double(Stmt.get(), Pos, V));
  }
  Statement &bind(int Pos, int64_t V) {
    return check(sqlite3_bind_int64(Stmt.get(), Pos, V));
  }
  /// A BLOB, or NULL where \p V is empty.
  Statement &bindBlob(int Pos, const std::string &V) {
    if (V.empty())
      return check(sqlite3_bind_null(Stmt.get(), Pos));
    return check(sqlite3_bind_blob64(Stmt.get(), Pos, V.data(), V.size(),
                                     SQLITE_TRANSIENT));
  }
  /// Text, or NULL where \p V is empty.
  Statement &bindTextOrNull(int Pos, const std::string &V) {
    return V.empty() ? check(sqlite3_bind_null(Stmt.get(), Pos)) : bind(Pos, V);
  }
  Statement &bind(int Pos, std::optional<double> V) {
    return V ? bind(Pos, *V) : check(sqlite3_bind_null(Stmt.get(), Pos));
  }
  Statement &bindKey(const TuningKey &K) {
    return bind(1, K.KernelHash)
        .bind(2, K.FixedParams)
        .bind(3, K.Device)
        .bind(4, K.ComputeCapability)
        .bind(5, K.DriverVersion)
        .bind(6, K.NvrtcVersion)
        .bind(7, K.PlannerOptions);
  }

  /// Makes the statement ready to run again with new bindings.
  void reset() { sqlite3_reset(Stmt.get()); }

  /// Runs to the next row; false when there is none.
  bool step() {
    int R = sqlite3_step(Stmt.get());
    if (R == SQLITE_ROW)
      return true;
    if (R == SQLITE_DONE)
      return false;
    fail(Path, Db, "query failed");
  }

  std::string text(int Col) const {
    const auto *P = sqlite3_column_text(Stmt.get(), Col);
    return P ? std::string(reinterpret_cast<const char *>(P),
                           sqlite3_column_bytes(Stmt.get(), Col))
             : std::string();
  }
  std::string blob(int Col) const {
    const void *P = sqlite3_column_blob(Stmt.get(), Col);
    return P ? std::string(static_cast<const char *>(P),
                           sqlite3_column_bytes(Stmt.get(), Col))
             : std::string();
  }
  double real(int Col) const { return sqlite3_column_double(Stmt.get(), Col); }
  int64_t integer(int Col) const {
    return sqlite3_column_int64(Stmt.get(), Col);
  }
  bool isNull(int Col) const {
    return sqlite3_column_type(Stmt.get(), Col) == SQLITE_NULL;
  }

private:
  Statement &check(int R) {
    if (R != SQLITE_OK)
      fail(Path, Db, "cannot bind a query parameter");
    return *this;
  }

  const std::filesystem::path &Path;
  sqlite3 *Db;
  std::unique_ptr<sqlite3_stmt, StmtFinalizer> Stmt;
};

VariantStatus parseVariantStatus(const std::filesystem::path &Path,
                                 const std::string &S) {
  for (VariantStatus V : {VariantStatus::Ok, VariantStatus::Wrong,
                          VariantStatus::Failed, VariantStatus::Dropped})
    if (S == variantStatusName(V))
      return V;
  throw TuningDBError(describe(Path) + ": unknown variant status " + quote(S) +
                      "; " + WhatToDo);
}

/// An open SQLite file and what every operation on it needs.
class SqliteFile {
public:
  SqliteFile(const std::filesystem::path &Path,
             std::chrono::milliseconds BusyTimeout);

  const std::filesystem::path &path() const { return Path; }
  bool inMemory() const { return InMemory; }
  sqlite3 *db() const { return Handle.get(); }
  Statement prepare(const char *Sql) { return Statement(Path, db(), Sql); }
  void exec(const char *Sql, const char *What) {
    if (sqlite3_exec(db(), Sql, nullptr, nullptr, nullptr) != SQLITE_OK)
      fail(Path, db(), What);
  }
  /// Runs \p Sql like exec(), retrying while another connection holds a
  /// lock, up to the busy timeout. For statements on which SQLite returns
  /// SQLITE_BUSY at once instead of waiting: switching the journal mode,
  /// which needs every other connection gone for an instant.
  void execWaiting(const char *Sql, const char *What) {
    auto Deadline = std::chrono::steady_clock::now() + BusyTimeout;
    for (;;) {
      int R = sqlite3_exec(db(), Sql, nullptr, nullptr, nullptr);
      if (R == SQLITE_OK)
        return;
      if ((R & 0xff) != SQLITE_BUSY ||
          std::chrono::steady_clock::now() >= Deadline)
        fail(Path, db(), What);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

private:
  std::filesystem::path Path;
  std::chrono::milliseconds BusyTimeout;
  bool InMemory = false;
  std::unique_ptr<sqlite3, DbCloser> Handle;
};

/// Whether \p Path names a file that a database cannot live in but whose
/// writes are meant to vanish (a character device such as /dev/null);
/// throws for an empty path, a folder, or another kind of file that is
/// not a regular one. SQLite would otherwise create its journal beside the
/// device (/dev/null-journal) or fail with a vague message.
bool isDiscardingDevice(const std::filesystem::path &Path) {
  if (Path.empty())
    throw TuningDBError("the tuning database's path is empty; give a file "
                        "with --db=PATH or LOOPY_TUNING_DB, or leave both "
                        "out for the default");
  std::error_code EC;
  std::filesystem::file_status St = std::filesystem::status(Path, EC);
  if (EC || !std::filesystem::exists(St) ||
      std::filesystem::is_regular_file(St))
    return false; // created, or opened as it is, or a clear error of SQLite
  if (std::filesystem::is_character_file(St))
    return true;
  throw TuningDBError(describe(Path) + " is " +
                      (std::filesystem::is_directory(St)
                           ? "a folder"
                           : "not a regular file") +
                      "; give a file path with --db=PATH or LOOPY_TUNING_DB");
}

SqliteFile::SqliteFile(const std::filesystem::path &P,
                       std::chrono::milliseconds BusyTimeout)
    : Path(P), BusyTimeout(BusyTimeout), InMemory(isDiscardingDevice(P)) {
  std::error_code EC;
  if (!InMemory && Path.has_parent_path())
    std::filesystem::create_directories(Path.parent_path(), EC);
  if (EC)
    throw TuningDBError(describe(Path) + ": cannot create its folder: " +
                        EC.message());
  sqlite3 *Raw = nullptr;
  int R = sqlite3_open_v2(InMemory ? ":memory:" : Path.c_str(), &Raw,
                          SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  Handle.reset(Raw);
  if (R != SQLITE_OK) {
    if (!Raw)
      throw TuningDBError(describe(Path) + ": out of memory");
    fail(Path, Raw, "cannot open");
  }
  sqlite3_extended_result_codes(Raw, 1);
  sqlite3_busy_timeout(Raw, static_cast<int>(BusyTimeout.count()));
}

/// A write transaction holding the write lock from its start; rolled back
/// unless committed.
class WriteTransaction {
public:
  explicit WriteTransaction(SqliteFile &F) : F(F) {
    F.exec("BEGIN IMMEDIATE", "cannot start a write");
  }
  ~WriteTransaction() {
    if (!Done)
      sqlite3_exec(F.db(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  WriteTransaction(const WriteTransaction &) = delete;
  WriteTransaction &operator=(const WriteTransaction &) = delete;

  void commit() {
    F.exec("COMMIT", "cannot commit a write");
    Done = true;
  }

private:
  SqliteFile &F;
  bool Done = false;
};

/// What a file holds, as far as the schema goes.
enum class Contents { Current, Empty, Version1, Version2, Version3 };

/// Throws unless \p F is empty or a tuning database of this version or of
/// version 1, 2 or 3, which are upgraded.
Contents checkIsOurs(SqliteFile &F) {
  // One statement reads one snapshot: two would race with another process
  // creating the schema between them.
  Statement S = F.prepare("SELECT (SELECT user_version FROM pragma_user_version),"
                          " (SELECT count(*) FROM sqlite_schema)");
  if (!S.step())
    throw TuningDBError(describe(F.path()) + ": cannot read its schema");
  int64_t Version = S.integer(0), Tables = S.integer(1);
  if (Version == TuningDB::SchemaVersion)
    return Contents::Current;
  if (Version == 1)
    return Contents::Version1;
  if (Version == 2)
    return Contents::Version2;
  if (Version == 3)
    return Contents::Version3;
  if (Version != 0) {
    std::string Msg = describe(F.path()) + " has schema version " +
                      std::to_string(Version) +
                      ", but this loopyc reads only version " +
                      std::to_string(TuningDB::SchemaVersion) + "; ";
    if (Version > TuningDB::SchemaVersion)
      Msg += "it was written by a newer loopyc: use that one, or ";
    throw TuningDBError(Msg + WhatToDo);
  }
  if (Tables != 0)
    throw TuningDBError(describe(F.path()) +
                        " is an SQLite database with tables of another "
                        "program; " + WhatToDo);
  return Contents::Empty;
}

void createSchemaIfNew(SqliteFile &F) {
  WriteTransaction T(F);
  // Another process may have created the schema since the first check.
  Contents C = checkIsOurs(F);
  if (C == Contents::Current)
    return;
  if (C == Contents::Version2 || C == Contents::Version3) {
    if (C == Contents::Version2)
      F.exec(UpgradeVersion2Sql, "cannot add the columns of compiled code");
    F.exec(UpgradeVersion3Sql, "cannot add the column of variants' features");
  } else {
    if (C == Contents::Version1)
      F.exec(DropVersion1Sql, "cannot drop the tables of schema version 1");
    F.exec(SchemaSql, "cannot create the tables");
  }
  F.exec(("PRAGMA user_version = " + std::to_string(TuningDB::SchemaVersion))
             .c_str(),
         "cannot set the schema version");
  T.commit();
}

} // namespace

const char *variantStatusName(VariantStatus S) {
  switch (S) {
  case VariantStatus::Ok:
    return "ok";
  case VariantStatus::Wrong:
    return "wrong";
  case VariantStatus::Failed:
    return "failed";
  case VariantStatus::Dropped:
    return "dropped";
  }
  throw std::invalid_argument("invalid VariantStatus " +
                              std::to_string(static_cast<int>(S)));
}

struct TuningDB::Connection : SqliteFile {
  using SqliteFile::SqliteFile;
};

TuningDB::TuningDB(const std::filesystem::path &Path,
                   std::chrono::milliseconds BusyTimeout)
    : Db(std::make_unique<Connection>(Path, BusyTimeout)) {
  // Read before anything writes: a file that is not ours stays untouched.
  bool IsNew = checkIsOurs(*Db) != Contents::Current;
  Db->execWaiting("PRAGMA journal_mode = WAL", "cannot switch to WAL mode");
  Db->exec("PRAGMA synchronous = NORMAL", "cannot set the sync mode");
  Db->exec("PRAGMA foreign_keys = ON", "cannot enable foreign keys");
  if (IsNew)
    createSchemaIfNew(*Db);
}

TuningDB::~TuningDB() = default;
TuningDB::TuningDB(TuningDB &&) noexcept = default;
TuningDB &TuningDB::operator=(TuningDB &&) noexcept = default;

const std::filesystem::path &TuningDB::path() const { return Db->path(); }

bool TuningDB::inMemory() const { return Db->inMemory(); }

std::optional<TuningRecord> TuningDB::lookup(const TuningKey &Key) {
  Statement S = Db->prepare(
      "SELECT schedule, cuda_source, median_seconds, gflops, "
      "gbytes_per_second, variants_timed, tuning_seconds, created_at, "
      "loopyc_version, cubin, launches, code_sha256 FROM tuning WHERE "
      LOOPY_KEY_MATCH);
  S.bindKey(Key);
  if (!S.step())
    return std::nullopt;
  TuningRecord R;
  R.Schedule = S.text(0);
  R.CudaSource = S.text(1);
  R.MedianSeconds = S.real(2);
  R.GFlops = S.real(3);
  R.GBytesPerSecond = S.real(4);
  R.VariantsTimed = S.integer(5);
  R.TuningSeconds = S.real(6);
  R.Timestamp = S.integer(7);
  R.LoopycVersion = S.text(8);
  std::string Cubin = S.blob(9), Launches = S.text(10);
  if (Cubin.empty() && Launches.empty())
    return R;
  if (codeHash(Cubin, Launches) != S.text(11)) {
    R.CodeDamaged = true;
    return R;
  }
  R.Cubin = std::move(Cubin);
  R.Launches = std::move(Launches);
  return R;
}

std::vector<VariantResult> TuningDB::variants(const TuningKey &Key) {
  Statement S = Db->prepare(
      "SELECT v.schedule, v.status, v.reason, v.seconds, v.features "
      "FROM variant_result v JOIN tuning t ON v.tuning_id = t.id "
      "WHERE " LOOPY_KEY_MATCH " ORDER BY v.position");
  S.bindKey(Key);
  std::vector<VariantResult> Result;
  while (S.step()) {
    VariantResult V;
    V.Schedule = S.text(0);
    V.Status = parseVariantStatus(Db->path(), S.text(1));
    V.Reason = S.text(2);
    if (!S.isNull(3))
      V.Seconds = S.real(3);
    if (!S.isNull(4))
      V.Features = S.text(4);
    Result.push_back(std::move(V));
  }
  return Result;
}

std::vector<TuningDB::Measured>
TuningDB::measured(const std::string &Device, const TuningKey &Except,
                   size_t Limit) {
  // The newest results first; a key's own rows are the search's own.
  Statement S = Db->prepare(
      "SELECT v.features, v.seconds / t.median_seconds "
      "FROM variant_result v JOIN tuning t ON v.tuning_id = t.id "
      "WHERE t.device = ?8 AND v.status = 'ok' AND v.features IS NOT NULL "
      "AND v.seconds > 0 AND t.median_seconds > 0 AND NOT (" LOOPY_KEY_MATCH
      ") ORDER BY t.created_at DESC, t.id DESC, v.position LIMIT ?9");
  S.bindKey(Except).bind(8, Device).bind(9, static_cast<int64_t>(Limit));
  std::vector<Measured> Out;
  while (S.step())
    Out.push_back({S.text(0), S.real(1)});
  return Out;
}

/// Replaces the row under \p Key, inside the caller's write transaction.
static void storeRow(SqliteFile &F, const TuningKey &Key,
                     const TuningRecord &Record,
                     const std::vector<VariantResult> &Variants) {
  SqliteFile *Db = &F;
  Db->prepare("DELETE FROM tuning WHERE " LOOPY_KEY_MATCH).bindKey(Key).step();
  Statement Insert = Db->prepare(
      "INSERT INTO tuning (kernel_hash, fixed_params, device, "
      "compute_capability, driver_version, nvrtc_version, planner_options, "
      "schedule, cuda_source, median_seconds, gflops, gbytes_per_second, "
      "variants_timed, tuning_seconds, created_at, loopyc_version, cubin, "
      "launches, code_sha256) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
      "?15, ?16, ?17, ?18, ?19)");
  bool Code = Record.hasCode();
  Insert.bindKey(Key)
      .bind(8, Record.Schedule)
      .bind(9, Record.CudaSource)
      .bind(10, Record.MedianSeconds)
      .bind(11, Record.GFlops)
      .bind(12, Record.GBytesPerSecond)
      .bind(13, Record.VariantsTimed)
      .bind(14, Record.TuningSeconds)
      .bind(15, Record.Timestamp)
      .bind(16, Record.LoopycVersion)
      .bindBlob(17, Code ? Record.Cubin : std::string())
      .bindTextOrNull(18, Code ? Record.Launches : std::string())
      .bindTextOrNull(19, Code ? codeHash(Record.Cubin, Record.Launches)
                               : std::string())
      .step();
  int64_t Id = sqlite3_last_insert_rowid(Db->db());
  Statement InsertVariant = Db->prepare(
      "INSERT INTO variant_result (tuning_id, position, schedule, status, "
      "reason, seconds, features) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  for (size_t I = 0; I < Variants.size(); ++I) {
    const VariantResult &V = Variants[I];
    InsertVariant.bind(1, Id)
        .bind(2, static_cast<int64_t>(I))
        .bind(3, V.Schedule)
        .bind(4, std::string(variantStatusName(V.Status)))
        .bind(5, V.Reason)
        .bind(6, V.Seconds)
        .bindTextOrNull(7, V.Features)
        .step();
    InsertVariant.reset();
  }
}

void TuningDB::store(const TuningKey &Key, const TuningRecord &Record,
                     const std::vector<VariantResult> &Variants) {
  WriteTransaction T(*Db);
  storeRow(*Db, Key, Record, Variants);
  T.commit();
}

bool TuningDB::erase(const TuningKey &Key) {
  WriteTransaction T(*Db);
  Db->prepare("DELETE FROM tuning WHERE " LOOPY_KEY_MATCH).bindKey(Key).step();
  bool Erased = sqlite3_changes(Db->db()) > 0;
  T.commit();
  return Erased;
}

std::vector<TuningDB::Row> TuningDB::rows() {
  Statement S = Db->prepare(
      "SELECT id, kernel_hash, fixed_params, device, compute_capability, "
      "driver_version, nvrtc_version, planner_options FROM tuning ORDER BY id");
  std::vector<Row> Out;
  while (S.step()) {
    Row R;
    R.Key = {S.text(1), S.text(2), S.text(3), S.text(4),
             S.text(5), S.text(6), S.text(7)};
    // lookup() checks the code's hash: a damaged row is exported without
    // its code.
    R.Record = *lookup(R.Key);
    R.Variants = variants(R.Key);
    Out.push_back(std::move(R));
  }
  return Out;
}

TuningDB::MergeCounts TuningDB::merge(const std::vector<Row> &Rows) {
  MergeCounts Counts;
  WriteTransaction T(*Db);
  for (const Row &R : Rows) {
    std::optional<TuningRecord> Old = lookup(R.Key);
    if (Old && Old->MedianSeconds <= R.Record.MedianSeconds) {
      ++Counts.Kept;
      continue;
    }
    ++(Old ? Counts.Replaced : Counts.Added);
    storeRow(*Db, R.Key, R.Record, R.Variants);
  }
  T.commit();
  return Counts;
}

std::filesystem::path defaultTuningDbPath() {
  return cachePathOrThrow<TuningDBError>("LOOPY_TUNING_DB", "tuning.db",
                                         "tuning database");
}

} // namespace loopy
