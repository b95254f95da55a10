//===- ArrayChecker.cpp - The verdict on one output array -----------------===//
#include "ArrayChecker.h"
#include "Threads.h"

#include "loopy/Interp/Fill.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <thread>

namespace loopy::interp {

namespace {

/// One array's elements in row-major order of their subscripts. The
/// offset is kept up to date as the subscripts advance: arrays of many
/// millions of elements are walked for every candidate of a tuning.
class ElementWalk {
public:
  explicit ElementWalk(const HostArray &A) : ElementWalk(A, 0, -1) {}
  /// Only the elements whose first subscript is in [Lo, Hi) (Hi < 0: to
  /// the end).
  ElementWalk(const HostArray &A, long Lo, long Hi)
      : Ext(A.extents()), Stride(A.strides()), Sub(Ext.size(), 0) {
    for (long E : Ext)
      Done |= E <= 0;
    if (!Sub.empty()) {
      Last = Hi < 0 ? Ext[0] : Hi;
      Sub[0] = Lo;
      Off = Lo * Stride[0];
      Done |= Lo >= Last;
    }
  }
  bool done() const { return Done; }
  long offset() const { return Off; }
  const std::vector<long> &subscripts() const { return Sub; }
  void next() {
    for (int D = static_cast<int>(Sub.size()) - 1; D >= 0; --D) {
      Off += Stride[D];
      if (++Sub[D] < (D == 0 ? Last : Ext[D]))
        return;
      Off -= Stride[D] * Ext[D];
      Sub[D] = 0;
    }
    Done = true;
  }

private:
  const std::vector<long> &Ext, &Stride;
  std::vector<long> Sub;
  long Off = 0;
  long Last = 0;
  bool Done = false;
};

/// Splits the rows (first subscripts) of \p A into ranges and runs \p F on
/// each, on several threads where the array is large; results in order.
template <class R, class Fn>
std::vector<R> overRows(const HostArray &A, Fn F) {
  long Rows = A.extents().empty() ? 1 : A.extents()[0];
  unsigned Threads = 1;
  if (A.size() >= (1u << 20) && Rows > 1)
    Threads = static_cast<unsigned>(std::min<long>(
        Rows, std::clamp(std::thread::hardware_concurrency(), 1u, 16u)));
  std::vector<R> Out(Threads);
  if (A.extents().empty() || Threads == 1) {
    Out[0] = F(ElementWalk(A));
    return Out;
  }
  onThreads(Threads, [&](unsigned T) {
    Out[T] = F(ElementWalk(A, Rows * T / Threads, Rows * (T + 1) / Threads));
  });
  return Out;
}

std::string elementName(const std::string &Array, const std::vector<long> &S) {
  std::string T = Array + "[";
  for (size_t I = 0; I < S.size(); ++I)
    T += (I ? ", " : "") + std::to_string(S[I]);
  return T + "]";
}

std::string format(const HostArray &A, long Off) {
  if (!isFloat(A.type()))
    return std::to_string(A.getInt(Off));
  char Buf[64];
  std::snprintf(Buf, sizeof Buf,
                A.type() == DType::F64 ? "%.17g"
                : isHalf(A.type())     ? "%.5g"
                                       : "%.9g",
                A.getDouble(Off));
  return Buf;
}

std::string formatG(double X) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.3g", X);
  return Buf;
}

class ArrayChecker {
public:
  ArrayChecker(const Argument &Arg, const HostArray &Ref, const HostArray &Cand,
               const std::vector<bool> &Written, double R,
               const CompareOptions &Opts, const std::vector<std::string> *Names)
      : Arg(Arg), Ref(Ref), Cand(Cand), Written(Written), Names(Names) {
    Result.Array = Arg.Name;
    Result.Tolerance = tolerance(Arg.Type, R, Opts.Tf32) * Opts.ToleranceScale;
  }

  ArrayComparison run();

private:
  /// Whether the element at \p Off may be bad: elementProblem's test
  /// without its message, on elements loaded as \p T directly (the
  /// generic accessors cost several times more per element, and a 4096^2
  /// output is checked for every candidate of a tuning).
  template <class T> bool suspect(long Off) const;
  /// Why the element at \p Off is bad on its own, or empty.
  std::string elementProblem(long Off) const;
  std::string name(long Off, const std::vector<long> &Sub) const {
    return Names ? (*Names)[Off] : elementName(Arg.Name, Sub);
  }
  std::string name(const ElementWalk &W) const {
    return name(W.offset(), W.subscripts());
  }
  void fail(const std::string &Why) {
    Result.Ok = false;
    Result.Message = "array '" + Arg.Name + "': " + Why;
  }

  const Argument &Arg;
  const HostArray &Ref, &Cand;
  const std::vector<bool> &Written;
  const std::vector<std::string> *Names;
  ArrayComparison Result;
  double Rms = 0;
};

template <class T> bool ArrayChecker::suspect(long Off) const {
  T C, R;
  std::memcpy(&C, static_cast<const unsigned char *>(Cand.data()) + Off * sizeof(T), sizeof(T));
  std::memcpy(&R, static_cast<const unsigned char *>(Ref.data()) + Off * sizeof(T), sizeof(T));
  if (!Written[Off])
    return Arg.Mode == ArgMode::InOut &&
           std::memcmp(&C, &R, sizeof(T)) != 0;
  if (std::memcmp(&C, &R, sizeof(T)) == 0)
    return false;
  if (!std::isfinite(C) || !std::isfinite(R))
    return true; // poison is a NaN
  return std::fabs(double(C) - double(R)) >
         4 * Result.Tolerance * (std::fabs(double(R)) + Rms);
}

std::string ArrayChecker::elementProblem(long Off) const {
  auto Vals = [&] {
    return " is " + format(Cand, Off) + " but the reference is " +
           format(Ref, Off);
  };
  if (!Written[Off]) {
    if (Arg.Mode == ArgMode::InOut && Cand.bits(Off) != Ref.bits(Off))
      return " is not written by the kernel but changed: it" + Vals();
    return "";
  }
  if (Cand.bits(Off) == Ref.bits(Off))
    return "";
  if (isPoison(Cand, Off))
    return " was not written (it still holds the poison pattern); the "
           "reference is " + format(Ref, Off);
  if (!isFloat(Arg.Type))
    return Vals() + " (integers must match exactly)";
  double C = Cand.getDouble(Off), R = Ref.getDouble(Off);
  if (!std::isfinite(C) || !std::isfinite(R))
    return (std::isnan(C) && std::isnan(R)) || C == R ? "" : Vals();
  if (std::fabs(C - R) > 4 * Result.Tolerance * (std::fabs(R) + Rms))
    return Vals();
  return "";
}

ArrayComparison ArrayChecker::run() {
  if (Cand.size() != Ref.size() || Cand.type() != Ref.type()) {
    fail("the candidate buffer has " + std::to_string(Cand.size()) + " " +
         dtypeName(Cand.type()) + " elements, the reference " +
         std::to_string(Ref.size()) + " " + dtypeName(Ref.type()));
    return Result;
  }
  // The relative L2 error over written elements with finite values, summed
  // by ranges of rows.
  struct Sums {
    double Diff2 = 0, Ref2 = 0, Worst = -1;
    long WorstOff = -1, Written = 0;
    std::vector<long> WorstSub;
  };
  const bool F32 = Arg.Type == DType::F32;
  const auto *CandF = static_cast<const float *>(Cand.data());
  const auto *RefF = static_cast<const float *>(Ref.data());
  std::vector<Sums> Parts = overRows<Sums>(Ref, [&](ElementWalk W) {
    Sums P;
    for (; !W.done(); W.next()) {
      long Off = W.offset();
      if (!Written[Off])
        continue;
      ++P.Written;
      double C, R;
      if (F32) { // the common case, without the generic accessors
        float CF, RF;
        std::memcpy(&CF, CandF + Off, sizeof CF);
        std::memcpy(&RF, RefF + Off, sizeof RF);
        C = CF;
        R = RF;
      } else {
        C = Cand.getDouble(Off);
        R = Ref.getDouble(Off);
      }
      if (!std::isfinite(C) || !std::isfinite(R) || isPoison(Cand, Off))
        continue;
      P.Diff2 += (C - R) * (C - R);
      P.Ref2 += R * R;
      if (std::fabs(C - R) > P.Worst) {
        P.Worst = std::fabs(C - R);
        P.WorstOff = Off;
        P.WorstSub = W.subscripts();
      }
    }
    return P;
  });
  double Diff2 = 0, Ref2 = 0, Worst = -1;
  long WorstOff = -1;
  std::vector<long> WorstSub;
  for (const Sums &P : Parts) {
    Diff2 += P.Diff2;
    Ref2 += P.Ref2;
    Result.Written += P.Written;
    if (P.Worst > Worst) {
      Worst = P.Worst;
      WorstOff = P.WorstOff;
      WorstSub = P.WorstSub;
    }
  }
  Rms = Result.Written ? std::sqrt(Ref2 / Result.Written) : 0;
  if (isFloat(Arg.Type))
    Result.RelativeL2 = std::sqrt(Diff2) / std::max(std::sqrt(Ref2), DBL_MIN);
  std::string Summary =
      "; relative L2 error " + formatG(Result.RelativeL2) + " over " +
      std::to_string(Result.Written) + " written elements, tolerance " +
      formatG(Result.Tolerance);
  // The first bad element in row-major order: the first of each range's.
  struct Bad {
    long Off = -1;
    std::vector<long> Sub;
  };
  std::vector<Bad> Found = overRows<Bad>(Ref, [&](ElementWalk W) {
    for (; !W.done(); W.next()) {
      if (Arg.Type == DType::F32 && !suspect<float>(W.offset()))
        continue;
      if (Arg.Type == DType::F64 && !suspect<double>(W.offset()))
        continue;
      if (!elementProblem(W.offset()).empty())
        return Bad{W.offset(), W.subscripts()};
    }
    return Bad();
  });
  for (const Bad &B : Found)
    if (B.Off >= 0) {
      fail("element " + name(B.Off, B.Sub) + elementProblem(B.Off) +
           (isFloat(Arg.Type) ? Summary : ""));
      return Result;
    }
  if (Result.RelativeL2 > Result.Tolerance)
    fail("relative L2 error " + formatG(Result.RelativeL2) +
         " exceeds the tolerance " + formatG(Result.Tolerance) + " over " +
         std::to_string(Result.Written) + " written elements; the largest " +
         "difference is at " + name(WorstOff, WorstSub) + ", " +
         format(Cand, WorstOff) + " against " + format(Ref, WorstOff));
  return Result;
}

} // namespace

ArrayComparison checkArray(const Argument &Arg, const HostArray &Ref,
                           const HostArray &Cand,
                           const std::vector<bool> &Written, double R,
                           const CompareOptions &Opts,
                           const std::vector<std::string> *Names) {
  return ArrayChecker(Arg, Ref, Cand, Written, R, Opts, Names).run();
}

} // namespace loopy::interp
