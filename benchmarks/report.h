//===- report.h - loopy-bench's table, JSON and chart -----------*- C++ -*-===//
#ifndef LOOPY_BENCHMARKS_REPORT_H
#define LOOPY_BENCHMARKS_REPORT_H

#include <string>
#include <vector>

namespace bench {

/// One measured case.
struct Row {
  std::string Suite, Name, Size, Reference, Schedule;
  std::vector<std::string> Kernels;
  /// Seconds of one run of loopy's kernels and of the reference (for the
  /// roofline, its bound).
  double Loopy = 0, Ref = 0;
  double Flops = 0, Bytes = 0;
  double TuningSeconds = 0; // what the searches took
  double LookupSeconds = 0; // this run's tune() calls
  /// The tuner's times of the default search's winners, and of the
  /// winners of the wider search of --exhaustive (0: not run), summed
  /// over the case's kernels.
  double SearchBest = 0, ExhaustiveBest = 0;
  double MaxError = 0;
  bool FromDatabase = false, Ok = false;
  std::string Error;

  double ratio() const { return Ok && Loopy > 0 ? Ref / Loopy : 0; }
};

/// What the run measured besides the rows.
struct RunInfo {
  std::string Device, Date, Commit;
  double CopyBandwidth = 0; // bytes per second, read plus written
  double SgemmRate = 0;     // FLOP/s; 0 where not measured
};

/// One line of the table.
std::string tableLine(const Row &R, double CopyBandwidth);

/// The geometric mean of the ratios of the correct rows of \p Suite, and
/// how many rows it covers.
double geometricMean(const std::vector<Row> &Rows, const std::string &Suite,
                     size_t &Count);

/// The lines under the table: per suite, the geometric mean, the rows
/// below 0.8 and the wrong ones.
std::string summary(const std::vector<Row> &Rows);

void writeJson(const std::string &Path, const std::vector<Row> &Rows,
               const RunInfo &Info);
/// The rows and run of a results.json that writeJson wrote; throws
/// std::runtime_error where \p Path cannot be read or is not one.
std::vector<Row> readJson(const std::string &Path, RunInfo &Info);
void writeSvg(const std::string &Path, const std::vector<Row> &Rows,
              const RunInfo &Info);

} // namespace bench

#endif
