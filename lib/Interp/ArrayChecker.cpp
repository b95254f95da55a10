//===- ArrayChecker.cpp - The verdict on one output array -----------------===//
#include "ArrayChecker.h"

#include "loopy/Interp/Fill.h"

#include <cfloat>
#include <cmath>
#include <cstdio>

namespace loopy::interp {

namespace {

/// One array's elements in row-major order of their subscripts.
class ElementWalk {
public:
  explicit ElementWalk(const HostArray &A) : A(A), Sub(A.extents().size(), 0) {
    for (long E : A.extents())
      Done |= E <= 0;
  }
  bool done() const { return Done; }
  long offset() const { return A.offset(Sub); }
  const std::vector<long> &subscripts() const { return Sub; }
  void next() {
    for (int D = static_cast<int>(Sub.size()) - 1; D >= 0; --D) {
      if (++Sub[D] < A.extents()[D])
        return;
      Sub[D] = 0;
    }
    Done = true;
  }

private:
  const HostArray &A;
  std::vector<long> Sub;
  bool Done = false;
};

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
  std::snprintf(Buf, sizeof Buf, A.type() == DType::F32 ? "%.9g" : "%.17g",
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
    Result.Tolerance = tolerance(Arg.Type, R) * Opts.ToleranceScale;
  }

  ArrayComparison run();

private:
  /// Why the element at \p Off is bad on its own, or empty.
  std::string elementProblem(long Off) const;
  std::string name(const ElementWalk &W) const {
    return Names ? (*Names)[W.offset()] : elementName(Arg.Name, W.subscripts());
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
  // The relative L2 error over written elements with finite values.
  double Diff2 = 0, Ref2 = 0, Worst = -1;
  long WorstOff = -1;
  std::string WorstName;
  for (ElementWalk W(Ref); !W.done(); W.next()) {
    long Off = W.offset();
    if (!Written[Off])
      continue;
    ++Result.Written;
    double C = Cand.getDouble(Off), R = Ref.getDouble(Off);
    if (isPoison(Cand, Off) || !std::isfinite(C) || !std::isfinite(R))
      continue;
    Diff2 += (C - R) * (C - R);
    Ref2 += R * R;
    if (std::fabs(C - R) > Worst) {
      Worst = std::fabs(C - R);
      WorstOff = Off;
      WorstName = name(W);
    }
  }
  Rms = Result.Written ? std::sqrt(Ref2 / Result.Written) : 0;
  if (isFloat(Arg.Type))
    Result.RelativeL2 = std::sqrt(Diff2) / std::max(std::sqrt(Ref2), DBL_MIN);
  std::string Summary =
      "; relative L2 error " + formatG(Result.RelativeL2) + " over " +
      std::to_string(Result.Written) + " written elements, tolerance " +
      formatG(Result.Tolerance);
  for (ElementWalk W(Ref); !W.done(); W.next()) {
    std::string Why = elementProblem(W.offset());
    if (!Why.empty()) {
      fail("element " + name(W) + Why +
           (isFloat(Arg.Type) ? Summary : ""));
      return Result;
    }
  }
  if (Result.RelativeL2 > Result.Tolerance)
    fail("relative L2 error " + formatG(Result.RelativeL2) +
         " exceeds the tolerance " + formatG(Result.Tolerance) + " over " +
         std::to_string(Result.Written) + " written elements; the largest " +
         "difference is at " + WorstName + ", " +
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
