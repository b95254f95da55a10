//===- LiftedKernel.cpp - A loop nest lifted out of C/C++ -----------------===//
#include "LiftedKernel.h"

namespace loopy::extract {

std::vector<Poly> ArrayArg::coordinates(const std::vector<Poly> &Raw) const {
  if (ZeroDim)
    return {};
  if (Strides.empty())
    return Raw;
  std::vector<Poly> Coords;
  Poly Rest = Raw[0];
  for (const Poly &S : Strides) {
    Poly Q = Rest.quotientByMonomial(S).value_or(Poly());
    Coords.push_back(Q);
    Rest = Rest - Q * S;
  }
  Coords.push_back(Rest);
  return Coords;
}

std::vector<std::string> LiftedKernel::symbolNames() const {
  std::vector<std::string> Names;
  for (const Symbol &S : Symbols)
    Names.push_back(S.Name);
  return Names;
}

std::string LiftedKernel::islParams() const {
  std::string S = "[";
  bool First = true;
  for (const Symbol &Sym : Symbols)
    if (Sym.K == Symbol::Kind::Param) {
      S += (First ? "" : ", ") + Sym.Name;
      First = false;
    }
  return S + "] -> ";
}

std::string LiftedKernel::constraints(unsigned NumLoops) const {
  std::vector<std::string> Names = symbolNames();
  std::vector<std::string> Parts;
  for (unsigned D = 0; D < NumLoops && D < Loops.size(); ++D) {
    const Loop &L = Loops[D];
    const std::string &I = Names[L.Index];
    auto Lower = [&](const Bound &B) {
      return B.E.str(Names) + (B.Strict ? " < " : " <= ");
    };
    auto Upper = [&](const Bound &B) {
      return (B.Strict ? " < " : " <= ") + B.E.str(Names);
    };
    if (L.Lower.size() == 1 && L.Upper.size() == 1) {
      Parts.push_back(Lower(L.Lower[0]) + I + Upper(L.Upper[0]));
    } else {
      for (const Bound &B : L.Lower)
        Parts.push_back(Lower(B) + I);
      for (const Bound &B : L.Upper)
        Parts.push_back(I + Upper(B));
    }
    if (L.Step > 1) {
      Poly Offset = Poly::symbol(L.Index) - L.Origin;
      std::string O = L.Origin.isConstant() && L.Origin.constantTerm() == 0
                          ? I
                          : "(" + Offset.str(Names) + ")";
      Parts.push_back(O + " mod " + std::to_string(L.Step) + " = 0");
    }
  }
  if (Parts.empty())
    return "true";
  std::string S;
  for (const std::string &P : Parts)
    S += (S.empty() ? "" : " and ") + P;
  return S;
}

std::string LiftedKernel::islDomain(std::optional<unsigned> NumLoops) const {
  std::vector<std::string> Names = symbolNames();
  std::string Tuple;
  for (const Loop &L : Loops)
    Tuple += (Tuple.empty() ? "" : ", ") + Names[L.Index];
  std::string C = constraints(NumLoops.value_or(Loops.size()));
  if (!Assumption.empty())
    C = "(" + C + ") and (" + Assumption + ")";
  return islParams() + "{ [" + Tuple + "] : " + C + " }";
}

} // namespace loopy::extract
