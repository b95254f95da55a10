//===- cases.h - What loopy-bench runs: kernels, sizes, references -*- C++ -*-===//
//
// A case is one row of the table: one .loop file at one set of sizes. Its
// kernels run in order on buffers shared by name (an array written by one
// kernel and read by the next passes between them), and its reference is
// either cuBLAS calls on the same buffers or the roofline. Everything a
// case needs to know about its arrays and its work (element counts, the
// counted FLOPs and compulsory bytes, reduction lengths) is read from the
// kernels' IR at the case's sizes, not written down per case.
//
// Two suites: "examples" (examples/*.loop against hand-picked cuBLAS calls)
// and "zoo" (benchmarks/zoo/*.loop, each driven by its "# bench:" header,
// described in benchmarks/README.md).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_BENCHMARKS_CASES_H
#define LOOPY_BENCHMARKS_CASES_H

#include "reference.h"

#include "loopy/Compile/Compile.h"
#include "loopy/Runtime/Cuda.h"

#include <cublas_v2.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace bench {

/// One array of a case, over all its kernels.
struct ArraySpec {
  std::string Name;
  size_t Elements = 0;
  size_t ElementBytes = 4;
  loopy::DType Type = loopy::DType::F32;
  /// The first kernel that uses it reads it: it starts with random values
  /// (otherwise poisoned).
  bool Input = true;
  /// Some kernel writes it: compared with the reference's.
  bool Output = false;
  ArrayShape Shape;
};

/// One set of device buffers of a case, by array name.
using BufferSet = std::map<std::string, loopy::cuda::DeviceBuffer>;

struct Case {
  std::string Suite; // "examples" or "zoo"
  std::string Name;  // "matmul f32", "gemm"
  std::string Size;  // "4096^3"
  std::string File;
  /// The kernels run, in order (filled by analyse: all of the file's).
  std::vector<std::string> Kernels;
  std::map<std::string, long> Params;
  std::map<std::string, double> Scalars;
  /// The reference's name in the table; "roofline" where RunReference is
  /// empty (then the time is compulsory bytes at the copy bandwidth or
  /// FLOPs at cuBLAS SGEMM's rate, whichever is longer).
  std::string Reference = "roofline";
  std::function<void(cublasHandle_t, BufferSet &)> RunReference;
  /// Sets up the buffers before the reference's checked run, where the
  /// reference computes in place what loopy computes out of place.
  std::function<void(BufferSet &)> PrepareReference;
  bool Quick = false; // part of --quick
  /// Variants timed where --budget is not given (0: the tuner's default).
  size_t Budget = 0;
  /// The kernels may round f32 products' operands to tf32, as the
  /// reference does (Kernel::allowTf32); outputs are compared to match.
  bool Tf32 = false;

  // Filled by analyse, from the IR at Params.
  std::vector<ArraySpec> Arrays;
  double Flops = 0, Bytes = 0;
  /// Sum over the kernels of 1 + sqrt(the longest reduction): outputs of
  /// loopy and of the reference may differ by 2·16·eps times this, each
  /// within the project's tolerance of the exact result.
  double ToleranceTerms = 0;
};

/// A .loop file checked with index parameters fixed, and the kernels a
/// case runs, in order.
struct LoadedFile {
  std::unique_ptr<loopy::CheckedSource> Source;
  std::vector<const loopy::Kernel *> Kernels;
};

/// Checks \p Path with \p Defines fixed and picks the kernels \p Names
/// (all of the file's, in order, where empty); throws std::runtime_error
/// with the diagnostics where it does not check or a name is missing.
LoadedFile loadKernels(const std::string &Path,
                       const std::map<std::string, long> &Defines,
                       const std::vector<std::string> &Names);

/// The arrays of \p F's kernels at its fixed sizes, each once, in the
/// order of first use; throws std::runtime_error where two kernels give an
/// array different element types or sizes.
std::vector<ArraySpec> arraysOf(const LoadedFile &F);

/// Fills \p C's Kernels (where empty), Arrays, Flops, Bytes and
/// ToleranceTerms from its file's kernels at its Params; throws
/// std::runtime_error with the diagnostics where the file does not check,
/// an array is used with two shapes or a scalar has no value.
void analyse(Case &C);

/// The examples against the cuBLAS routines picked for each.
std::vector<Case> exampleCases(const std::string &ExamplesDir);

/// One zoo file: its "# bench:" header.
struct ZooFile {
  struct Size {
    std::string Label;
    bool Quick = false;
    std::map<std::string, long> Params;
  };
  std::string Path, Name;
  std::vector<Size> Sizes;
  std::map<std::string, double> Scalars;
  std::vector<RefCall> Reference; // empty: the roofline
  std::map<std::string, long> Check;
  size_t Budget = 0;
};

/// Reads the header of \p Path; throws std::runtime_error naming the line
/// where it is malformed.
ZooFile readZooFile(const std::string &Path);

/// The zoo's files, by name.
std::vector<ZooFile> readZoo(const std::string &ZooDir);

/// One case per size of \p F, analysed, its cuBLAS calls resolved.
std::vector<Case> zooCases(const ZooFile &F);

/// Runs \p F's kernels in the reference interpreter and its cuBLAS calls
/// in a host implementation of the BLAS, on the same random inputs at the
/// sizes of its check line, and compares every array the kernels write.
/// Returns the largest difference relative to the largest magnitude of
/// each array; throws std::runtime_error where it exceeds the tolerance.
double checkReferenceOnHost(const ZooFile &F);

} // namespace bench

#endif
