//===- Affine.cpp - Syntax to isl quasi-affine functions ------------------===//
#include "SemaInternal.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/val.h>

#include <cerrno>
#include <cstdlib>

namespace loopy::sema {
namespace {

/// "a subscript", "an array extent".
std::string withArticle(const std::string &Noun) {
  bool Vowel =
      !Noun.empty() && std::string("aeiou").find(Noun[0]) != std::string::npos;
  return (Vowel ? "an " : "a ") + Noun;
}

class AffBuilder {
public:
  AffBuilder(const AffScope &Scope, DiagnosticEngine &Diags,
             std::set<unsigned> *Used)
      : Scope(Scope), Diags(Diags), Used(Used) {}

  std::optional<isl::aff> build(const ast::Expr &E);

private:
  isl::aff constant(long V) {
    // isl's *_si setters take an int; the literal may not fit one.
    return isl::aff::zero_on_domain(Scope.Space)
        .add_constant(isl::val(Scope.Space.ctx(), V));
  }
  std::optional<long> constantValue(const isl::aff &A) {
    if (!A.is_cst())
      return std::nullopt;
    isl::val V = A.constant_val();
    if (!V.is_int())
      return std::nullopt;
    return toLong(V);
  }
  std::nullopt_t nonAffine(const ast::Expr &E, const std::string &Why) {
    Diags.error(E.Range, "non-affine " + Scope.What + " " +
                             quote(Diags.sourceManager()->slice(E.Range)) +
                             ": " + Why);
    return std::nullopt;
  }

  const AffScope &Scope;
  DiagnosticEngine &Diags;
  std::set<unsigned> *Used;
};

std::optional<isl::aff> AffBuilder::build(const ast::Expr &E) {
  using K = ast::Expr::Kind;
  switch (E.K) {
  case K::IntLit: {
    errno = 0;
    long long V = std::strtoll(E.Name.c_str(), nullptr, 10);
    if (errno == ERANGE || V > (1LL << 53) || V < -(1LL << 53)) {
      Diags.error(E.Range, "integer literal " + quote(E.Name) +
                               " is too large for " + withArticle(Scope.What));
      return std::nullopt;
    }
    return constant(V);
  }
  case K::FloatLit:
    Diags.error(E.Range, withArticle(Scope.What) +
                             " must be an integer expression, not the "
                             "floating-point literal " +
                             quote(E.Name));
    return std::nullopt;
  case K::Name: {
    auto It = Scope.Names.find(E.Name);
    if (It == Scope.Names.end()) {
      auto F = Scope.Forbidden.find(E.Name);
      if (F != Scope.Forbidden.end()) {
        Diags.error(E.Range, F->second);
        return std::nullopt;
      }
      std::vector<std::string> Candidates;
      for (auto &[N, _] : Scope.Names)
        Candidates.push_back(N);
      std::string Msg = "use of undeclared identifier " + quote(E.Name);
      if (auto C = closestName(E.Name, Candidates))
        Msg += "; did you mean " + quote(*C) + "?";
      Diags.error(E.Range, Msg);
      return std::nullopt;
    }
    auto [Type, Pos] = It->second;
    if (Type == isl_dim_set && Used)
      Used->insert(Pos);
    return take(Scope.Space.ctx(),
                isl_aff_var_on_domain(
                    isl_local_space_from_space(Scope.Space.copy()), Type, Pos));
  }
  case K::Subscript:
    return nonAffine(E, "indirect access through an array element is not "
                        "supported; only indices, index parameters and "
                        "integer constants may appear");
  case K::Call:
    return nonAffine(E, "function calls may not appear; only indices, index "
                        "parameters and integer constants may");
  case K::Tuple:
    Diags.error(E.Range,
                "a parenthesized list is not " + withArticle(Scope.What));
    return std::nullopt;
  case K::Unary: {
    if (E.Op != TokenKind::Minus)
      return nonAffine(E, "logical operators may not appear");
    auto A = build(*E.Args[0]);
    if (!A)
      return std::nullopt;
    return A->neg();
  }
  case K::Binary:
    break;
  }
  auto L = build(*E.Args[0]);
  auto R = build(*E.Args[1]);
  if (!L || !R)
    return std::nullopt;
  switch (E.Op) {
  case TokenKind::Plus:
    return L->add(*R);
  case TokenKind::Minus:
    return L->sub(*R);
  case TokenKind::Star: {
    if (!constantValue(*L) && !constantValue(*R))
      return nonAffine(E, "a product of two non-constant terms; subscripts "
                          "must be affine in the indices and parameters");
    return L->mul(*R);
  }
  case TokenKind::Slash:
  case TokenKind::Percent: {
    auto C = constantValue(*R);
    if (!C || *C <= 0)
      return nonAffine(E, std::string("'") + (E.Op == TokenKind::Slash ? "/" : "%") +
                              "' needs a positive integer constant on its "
                              "right");
    if (E.Op == TokenKind::Slash)
      return L->scale_down(isl::val(L->ctx(), *C)).floor();
    return L->mod(isl::val(L->ctx(), *C));
  }
  default:
    return nonAffine(E, "comparisons and logical operators may not appear");
  }
}

} // namespace

std::optional<isl::aff> buildAff(const ast::Expr &E, const AffScope &Scope,
                                 DiagnosticEngine &Diags,
                                 std::set<unsigned> *UsedDims) {
  return AffBuilder(Scope, Diags, UsedDims).build(E);
}

static unsigned editDistance(const std::string &A, const std::string &B) {
  std::vector<unsigned> Row(B.size() + 1);
  for (unsigned J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (unsigned I = 1; I <= A.size(); ++I) {
    unsigned Prev = Row[0];
    Row[0] = I;
    for (unsigned J = 1; J <= B.size(); ++J) {
      unsigned Cur = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1,
                         Prev + (A[I - 1] == B[J - 1] ? 0u : 1u)});
      Prev = Cur;
    }
  }
  return Row[B.size()];
}

std::optional<std::string>
closestName(const std::string &Name, const std::vector<std::string> &Candidates) {
  std::optional<std::string> Best;
  unsigned BestDist = Name.size() <= 3 ? 1 : 2;
  for (const std::string &C : Candidates) {
    unsigned D = editDistance(Name, C);
    if (D <= BestDist && C != Name) {
      if (!Best || D < BestDist)
        Best = C;
      BestDist = D;
    }
  }
  return Best;
}

} // namespace loopy::sema
