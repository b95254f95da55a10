//===- zoo.cpp - The kernel zoo: headers, cases and a host check ----------===//
#include "cases.h"

#include "loopy/Interp/Fill.h"
#include "loopy/Interp/Interpreter.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace bench {

namespace {

/// NAME=VALUE words into \p Out; throws naming \p Where for anything else.
template <class T>
void readAssignments(std::istringstream &Words, std::map<std::string, T> &Out,
                     const std::string &Where) {
  std::string W;
  while (Words >> W) {
    size_t Eq = W.find('=');
    if (Eq == std::string::npos || Eq == 0)
      throw std::runtime_error(Where + ": expected NAME=VALUE, found '" + W + "'");
    try {
      size_t Used = 0;
      std::string V = W.substr(Eq + 1);
      Out[W.substr(0, Eq)] =
          std::is_integral_v<T> ? T(std::stol(V, &Used)) : T(std::stod(V, &Used));
      if (Used != V.size())
        throw std::invalid_argument(V);
    } catch (std::exception &) {
      throw std::runtime_error(Where + ": '" + W + "' has no valid value");
    }
  }
}

} // namespace

ZooFile readZooFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error("cannot read " + Path);
  ZooFile F;
  F.Path = Path;
  F.Name = std::filesystem::path(Path).stem().string();
  const std::string Tag = "# bench:";
  std::string Line;
  for (unsigned No = 1; std::getline(In, Line); ++No) {
    if (Line.rfind(Tag, 0) != 0)
      continue;
    std::string Where = Path + ":" + std::to_string(No);
    std::istringstream Words(Line.substr(Tag.size()));
    std::string Key;
    Words >> Key;
    if (Key == "size") {
      ZooFile::Size S;
      std::string W;
      std::streampos Rest = Words.tellg();
      while (Words >> W && W.find('=') == std::string::npos) {
        if (W == "quick")
          S.Quick = true;
        else if (S.Label.empty())
          S.Label = W;
        else
          throw std::runtime_error(Where + ": a size has one label, found '" +
                                   W + "' after '" + S.Label + "'");
        Rest = Words.tellg();
      }
      Words.clear();
      Words.seekg(Rest);
      readAssignments(Words, S.Params, Where);
      if (S.Params.empty())
        throw std::runtime_error(Where + ": a size gives NAME=VALUE for every "
                                         "index parameter");
      if (S.Label.empty())
        for (const auto &[N, V] : S.Params)
          S.Label += (S.Label.empty() ? "" : ",") + N + "=" + std::to_string(V);
      F.Sizes.push_back(S);
    } else if (Key == "scalars") {
      readAssignments(Words, F.Scalars, Where);
    } else if (Key == "check") {
      readAssignments(Words, F.Check, Where);
    } else if (Key == "budget") {
      if (!(Words >> F.Budget))
        throw std::runtime_error(Where + ": expected a number of variants");
    } else if (Key == "reference") {
      std::string Rest;
      std::getline(Words, Rest);
      try {
        F.Reference = parseReference(Rest);
      } catch (std::exception &E) {
        throw std::runtime_error(Where + ": " + E.what());
      }
    } else {
      throw std::runtime_error(Where + ": unknown key '" + Key +
                               "'; expected size, scalars, reference, check or "
                               "budget");
    }
  }
  if (F.Sizes.empty())
    throw std::runtime_error(Path + ": no '# bench: size' line");
  if (F.Check.empty())
    throw std::runtime_error(Path + ": no '# bench: check' line");
  return F;
}

std::vector<ZooFile> readZoo(const std::string &ZooDir) {
  std::vector<std::string> Paths;
  for (const auto &E : std::filesystem::directory_iterator(ZooDir))
    if (E.path().extension() == ".loop")
      Paths.push_back(E.path().string());
  std::sort(Paths.begin(), Paths.end());
  std::vector<ZooFile> Files;
  for (const std::string &P : Paths)
    Files.push_back(readZooFile(P));
  return Files;
}

namespace {

std::map<std::string, ArrayShape> shapes(const std::vector<ArraySpec> &Arrays) {
  std::map<std::string, ArrayShape> S;
  for (const ArraySpec &A : Arrays)
    S[A.Name] = A.Shape;
  return S;
}

float *devicePointer(BufferSet &B, const std::string &Name) {
  return reinterpret_cast<float *>(static_cast<uintptr_t>(B.at(Name).pointer()));
}

} // namespace

std::vector<Case> zooCases(const ZooFile &F) {
  std::vector<Case> Cases;
  for (const ZooFile::Size &S : F.Sizes) {
    Case C;
    C.Suite = "zoo";
    C.Name = F.Name;
    C.Size = S.Label;
    C.File = F.Path;
    C.Params = S.Params;
    C.Scalars = F.Scalars;
    C.Quick = S.Quick;
    C.Budget = F.Budget;
    try {
      analyse(C);
      if (!F.Reference.empty()) {
        std::vector<BlasOp> Ops =
            resolveReference(F.Reference, shapes(C.Arrays), C.Params, C.Scalars);
        C.Reference = referenceName(Ops);
        C.RunReference = [Ops](cublasHandle_t H, BufferSet &B) {
          for (const BlasOp &Op : Ops)
            runCublas(H, Op, [&](const std::string &N) { return devicePointer(B, N); });
        };
      }
    } catch (std::exception &E) {
      throw std::runtime_error(F.Path + " at " + S.Label + ": " + E.what());
    }
    Cases.push_back(std::move(C));
  }
  return Cases;
}

namespace {

/// The arrays of every kernel of \p F, by name, as they stand after the
/// kernels before it; a new one as makeHostData and fillRandom make it.
using World = std::map<std::string, loopy::HostArray>;

loopy::HostData hostData(const loopy::Kernel &K, const World &W,
                         const std::map<std::string, double> &Scalars) {
  std::string Error;
  auto D = loopy::makeHostData(K, {}, Error);
  if (!D)
    throw std::runtime_error(K.Name + ": " + Error);
  loopy::fillRandom(K, *D, 1);
  for (auto &[Name, S] : D->Scalars) {
    double V = Scalars.at(Name);
    S.Float = V;
    S.Int = static_cast<int64_t>(V);
  }
  for (auto &[Name, A] : D->Arrays)
    if (auto It = W.find(Name); It != W.end())
      A = It->second;
  return std::move(*D);
}

} // namespace

double checkReferenceOnHost(const ZooFile &F) {
  if (F.Reference.empty())
    return 0;
  Case C;
  C.File = F.Path;
  C.Params = F.Check;
  C.Scalars = F.Scalars;
  analyse(C);
  LoadedFile L = loadKernels(F.Path, F.Check, C.Kernels);
  World Start;
  for (const loopy::Kernel *K : L.Kernels)
    for (auto &[Name, A] : hostData(*K, Start, F.Scalars).Arrays)
      Start.emplace(Name, A);
  World Loopy = Start;
  for (const loopy::Kernel *K : L.Kernels) {
    loopy::HostData D = hostData(*K, Loopy, F.Scalars);
    loopy::interpret(*K, D);
    for (auto &[Name, A] : D.Arrays)
      Loopy[Name] = A;
  }
  World Ref = Start;
  for (const BlasOp &Op :
       resolveReference(F.Reference, shapes(C.Arrays), F.Check, F.Scalars))
    runHost(Op, [&](const std::string &N) {
      return static_cast<float *>(Ref.at(N).data());
    });
  double Worst = 0;
  for (const ArraySpec &A : C.Arrays) {
    if (!A.Output)
      continue;
    const loopy::HostArray &Mine = Loopy.at(A.Name), &Theirs = Ref.at(A.Name);
    double Scale = 1e-30, Diff = 0;
    for (size_t I = 0; I < Theirs.size(); ++I) {
      double X = Mine.getDouble(I), Y = Theirs.getDouble(I);
      if (std::isnan(X) && std::isnan(Y))
        continue; // written by neither
      Scale = std::max(Scale, std::fabs(Y));
      Diff = std::isnan(X - Y) ? INFINITY : std::max(Diff, std::fabs(X - Y));
    }
    double Error = Diff / Scale;
    double Tol = 2 * 16 * 1.192093e-7 * C.ToleranceTerms;
    if (!(Error <= Tol))
      throw std::runtime_error(F.Path + ": at the check sizes, array '" + A.Name +
                               "' of the reference differs from the kernels' by " +
                               std::to_string(Error) + " of its largest magnitude");
    Worst = std::max(Worst, Error);
  }
  return Worst;
}

} // namespace bench
