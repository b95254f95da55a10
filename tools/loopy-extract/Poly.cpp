//===- Poly.cpp - Integer polynomials over indices and parameters ---------===//
#include "Poly.h"

#include <algorithm>
#include <climits>

namespace loopy::extract {

Poly Poly::constant(long C) {
  Poly P;
  P.add({}, C);
  return P;
}

Poly Poly::symbol(unsigned Id) {
  Poly P;
  P.add({Id}, 1);
  return P;
}

void Poly::add(const Monomial &M, long C) {
  if (C == 0)
    return;
  long &Slot = Terms[M];
  if (C == LONG_MIN || __builtin_add_overflow(Slot, C, &Slot) ||
      Slot == LONG_MIN)
    Overflow = true;
  if (Slot == 0)
    Terms.erase(M);
}

Poly Poly::operator+(const Poly &O) const {
  Poly R = *this;
  R.Overflow |= O.Overflow;
  for (const auto &[M, C] : O.Terms)
    R.add(M, C);
  return R;
}

Poly Poly::operator-(const Poly &O) const { return *this + O.scaled(-1); }

Poly Poly::operator*(const Poly &O) const {
  Poly R;
  R.Overflow = Overflow || O.Overflow;
  for (const auto &[M1, C1] : Terms)
    for (const auto &[M2, C2] : O.Terms) {
      Monomial M = M1;
      M.insert(M.end(), M2.begin(), M2.end());
      std::sort(M.begin(), M.end());
      long C;
      if (__builtin_mul_overflow(C1, C2, &C))
        R.Overflow = true;
      else
        R.add(M, C);
    }
  return R;
}

Poly Poly::scaled(long C) const {
  Poly R;
  R.Overflow = Overflow;
  for (const auto &[M, V] : Terms) {
    long P;
    if (__builtin_mul_overflow(V, C, &P))
      R.Overflow = true;
    else
      R.add(M, P);
  }
  return R;
}

bool Poly::isConstant() const { return degree() == 0; }

long Poly::constantTerm() const {
  auto It = Terms.find({});
  return It == Terms.end() ? 0 : It->second;
}

unsigned Poly::degree() const {
  size_t D = 0;
  for (const auto &Term : Terms)
    D = std::max(D, Term.first.size());
  return static_cast<unsigned>(D);
}

bool Poly::uses(unsigned Id) const {
  for (const auto &Term : Terms)
    if (std::find(Term.first.begin(), Term.first.end(), Id) != Term.first.end())
      return true;
  return false;
}

std::set<unsigned> Poly::symbols() const {
  std::set<unsigned> S;
  for (const auto &Term : Terms)
    S.insert(Term.first.begin(), Term.first.end());
  return S;
}

std::optional<Poly> Poly::quotientByMonomial(const Poly &Stride) const {
  if (Stride.Terms.size() != 1)
    return std::nullopt;
  const auto &[SM, SC] = *Stride.Terms.begin();
  if (SC <= 0)
    return std::nullopt;
  Poly Q;
  Q.Overflow = Overflow || Stride.Overflow;
  for (const auto &[M, C] : Terms) {
    // A constant offset by a constant stride: whole rows go to the quotient.
    if (M.empty() && SM.empty()) {
      Q.add({}, C >= 0 ? C / SC : -((-C + SC - 1) / SC));
      continue;
    }
    if (C % SC != 0 || !std::includes(M.begin(), M.end(), SM.begin(), SM.end()))
      continue;
    Monomial Rest;
    std::set_difference(M.begin(), M.end(), SM.begin(), SM.end(),
                        std::back_inserter(Rest));
    Q.add(Rest, C / SC);
  }
  return Q;
}

std::string Poly::str(const std::vector<std::string> &Names,
                      const char *Mul) const {
  // Terms with symbols, positive ones first, then the constant.
  std::vector<std::pair<const Monomial *, long>> Order;
  for (int Positive = 1; Positive >= 0; --Positive)
    for (const auto &[M, C] : Terms)
      if (!M.empty() && (C > 0) == (Positive == 1))
        Order.push_back({&M, C});
  long Const = constantTerm();
  std::string S;
  auto Append = [&](long C, const std::string &Body) {
    if (S.empty())
      S = C < 0 ? "-" : "";
    else
      S += C < 0 ? " - " : " + ";
    S += Body;
  };
  for (const auto &[M, C] : Order) {
    std::string Body;
    long A = C < 0 ? -C : C;
    if (A != 1)
      Body = std::to_string(A);
    for (unsigned Id : *M)
      Body += (Body.empty() ? "" : Mul) + Names.at(Id);
    Append(C, Body);
  }
  if (Const != 0 || S.empty())
    Append(Const, std::to_string(Const < 0 ? -Const : Const));
  return S;
}

} // namespace loopy::extract
