//===- run-lifted.cpp - Lifted kernels on values given in files -----------===//
//
// A helper of test/Extract/c-check.test: runs the kernels of a lifted
// .loop file in the reference interpreter, one launch after another, on
// the variables of a C function, and writes the arrays back.
//
//   run-lifted FILE.loop DIR
//
// DIR/env.txt holds one line per variable or launch:
//
//   int NAME VALUE        an integer variable (an index parameter)
//   double NAME VALUE     a floating-point scalar
//   array NAME COUNT      an f64 array of COUNT elements, row-major, whose
//                         values are in DIR/NAME.in (raw doubles)
//   launch KERNEL [NAME=VALUE]...   run KERNEL, with the values of the
//                         indices of the loops around it on the host
//
// A kernel's argument takes the variable of its name, or of its name
// without the trailing '_' that loopy-extract adds to reserved names. An
// array argument covers the first elements of its variable (its outer
// extent may be smaller than the C array's). After the launches, each
// array is written to DIR/NAME.out. Errors go to standard error, with
// exit status 1.
//
//===----------------------------------------------------------------------===//
#include "loopy/Compile/Compile.h"
#include "loopy/Interp/HostData.h"
#include "loopy/Interp/Interpreter.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace loopy;

namespace {

struct Env {
  std::map<std::string, long> Ints;
  std::map<std::string, double> Doubles;
  std::map<std::string, std::vector<double>> Arrays;
  std::vector<std::pair<std::string, std::map<std::string, long>>> Launches;
};

[[noreturn]] void fail(const std::string &Msg) {
  std::cerr << "run-lifted: " << Msg << "\n";
  std::exit(1);
}

/// The variable of \p M that the argument \p Name takes.
template <class M> auto find(M &Map, const std::string &Name) {
  auto It = Map.find(Name);
  if (It == Map.end() && !Name.empty() && Name.back() == '_')
    It = Map.find(Name.substr(0, Name.size() - 1));
  return It;
}

Env readEnv(const std::string &Dir) {
  Env E;
  std::ifstream In(Dir + "/env.txt");
  if (!In)
    fail("cannot read " + Dir + "/env.txt");
  std::string Line;
  while (std::getline(In, Line)) {
    std::istringstream S(Line);
    std::string What, Name;
    S >> What >> Name;
    if (What == "int") {
      S >> E.Ints[Name];
    } else if (What == "double") {
      S >> E.Doubles[Name];
    } else if (What == "array") {
      size_t Count = 0;
      S >> Count;
      std::vector<double> &A = E.Arrays[Name];
      A.resize(Count);
      std::ifstream Bin(Dir + "/" + Name + ".in", std::ios::binary);
      if (!Bin.read(reinterpret_cast<char *>(A.data()),
                    static_cast<std::streamsize>(Count * sizeof(double))))
        fail("cannot read " + std::to_string(Count) + " values from " + Dir +
             "/" + Name + ".in");
    } else if (What == "launch") {
      std::map<std::string, long> Host;
      for (std::string Pair; S >> Pair;) {
        size_t Eq = Pair.find('=');
        if (Eq == std::string::npos)
          fail("expected NAME=VALUE in '" + Line + "'");
        Host[Pair.substr(0, Eq)] = std::stol(Pair.substr(Eq + 1));
      }
      E.Launches.push_back({Name, Host});
    } else if (!What.empty()) {
      fail("unknown line '" + Line + "'");
    }
  }
  return E;
}

void launch(const Kernel &K, const std::map<std::string, long> &Host,
            Env &E) {
  ParamValues Params;
  for (const std::string &P : K.ParamNames) {
    if (auto It = Host.find(P); It != Host.end()) {
      Params[P] = It->second;
      continue;
    }
    auto It = find(E.Ints, P);
    if (It == E.Ints.end())
      fail("kernel '" + K.Name + "': no value for the index parameter '" + P +
           "'");
    Params[P] = It->second;
  }
  std::string Error;
  std::optional<HostData> D = makeHostData(K, Params, Error);
  if (!D)
    fail("kernel '" + K.Name + "': " + Error);
  for (const Argument &A : K.Args) {
    if (A.Kind == ArgKind::Scalar) {
      auto It = find(E.Doubles, A.Name);
      if (It == E.Doubles.end())
        fail("kernel '" + K.Name + "': no value for the scalar '" + A.Name +
             "'");
      D->Scalars[A.Name].Type = A.Type;
      D->Scalars[A.Name].Float = It->second;
      continue;
    }
    // A temporary of a split reduction stays in the run's own data.
    if (A.Kind != ArgKind::Array || A.Internal)
      continue;
    auto It = find(E.Arrays, A.Name);
    if (It == E.Arrays.end())
      fail("kernel '" + K.Name + "': no array for the argument '" + A.Name +
           "'");
    HostArray &H = D->array(A.Name);
    std::vector<long> RowMajor(H.extents().size(), 1);
    for (size_t I = RowMajor.size(); I-- > 1;)
      RowMajor[I - 1] = RowMajor[I] * H.extents()[I];
    if (H.strides() != RowMajor || H.size() > It->second.size())
      fail("kernel '" + K.Name + "': the argument '" + A.Name +
           "' is not a row-major prefix of the C array");
    // Converted to the element type as C converts them (integers wrap).
    for (size_t I = 0; I < H.size(); ++I)
      H.setDouble(I, It->second[I]);
  }
  interpret(K, *D);
  for (const Argument &A : K.Args)
    if (A.Kind == ArgKind::Array && A.Mode != ArgMode::In && !A.Internal) {
      const HostArray &H = D->array(A.Name);
      std::vector<double> &Values = find(E.Arrays, A.Name)->second;
      for (size_t I = 0; I < H.size(); ++I)
        Values[I] = H.getDouble(I);
    }
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 3)
    fail("usage: run-lifted FILE.loop DIR");
  std::ifstream In(Argv[1]);
  if (!In)
    fail(std::string("cannot read ") + Argv[1]);
  std::stringstream Text;
  Text << In.rdbuf();
  auto SM = std::make_shared<SourceManager>(Argv[1], Text.str());
  DiagnosticEngine Diags(SM.get(), std::cerr);
  auto Checked = checkSource(SM, CheckOptions(), Diags);
  if (!Checked)
    fail("the lifted kernels do not check");
  Env E = readEnv(Argv[2]);
  for (const auto &[Name, Host] : E.Launches) {
    std::optional<size_t> KI = (*Checked)->findKernel(Name);
    if (!KI)
      fail("no kernel '" + Name + "' in " + Argv[1]);
    launch((*Checked)->kernels()[*KI], Host, E);
  }
  for (const auto &[Name, Values] : E.Arrays) {
    std::ofstream Out(std::string(Argv[2]) + "/" + Name + ".out",
                      std::ios::binary);
    Out.write(reinterpret_cast<const char *>(Values.data()),
              static_cast<std::streamsize>(Values.size() * sizeof(double)));
  }
  return 0;
}
