//===- Distribute.cpp - The parts of a distributed loop nest --------------===//
#include "Distribute.h"
#include "KernelIsl.h"

#include "loopy/Support/Isl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <optional>
#include <set>

namespace loopy::extract {

namespace {

/// One access of a part to an array element, in .loop coordinates.
struct Access {
  const ArrayArg *Array;
  std::vector<Poly> Coords;
  bool Write;
  clang::SourceRange Range;
  /// The C text of the element written; empty for a read.
  std::string Written;
};

std::vector<Access> accesses(const LiftedKernel &K) {
  std::vector<Access> All;
  for (const Statement &S : K.Stmts) {
    const ArrayArg &A = K.Arrays[S.Array];
    All.push_back({&A, A.coordinates(S.Subs), true, S.Range, S.What});
    walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
      if (N.K == LExpr::Kind::Read)
        All.push_back({&K.Arrays[N.Id], K.Arrays[N.Id].coordinates(N.Subs),
                       false, N.Range, ""});
    });
  }
  return All;
}

bool affine(const std::vector<Poly> &Ps) {
  return std::all_of(Ps.begin(), Ps.end(),
                     [](const Poly &P) { return P.isAffine(); });
}

std::string text(clang::ASTContext &Ctx, clang::SourceRange R) {
  return clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(R),
                                     Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

std::string accessText(clang::ASTContext &Ctx, const Access &A) {
  return A.Write ? A.Written : text(Ctx, A.Range);
}

std::string quotedList(const std::vector<std::string> &Names) {
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "'" : ", '") + N + "'";
  return S;
}

/// Two parts \p A and \p B in one isl space: B's indices renamed apart,
/// the parameters shared by name, both domains and assumptions.
struct PairSpace {
  LiftedKernel B2;
  std::vector<std::string> NamesA, NamesB;
  std::string Params, Tuple, Domains;

  PairSpace(const LiftedKernel &A, const LiftedKernel &B) : B2(B) {
    for (const Loop &L : B2.Loops)
      B2.Symbols[L.Index].Name = "__p_" + B2.Symbols[L.Index].Name;
    NamesA = A.symbolNames();
    NamesB = B2.symbolNames();
    std::set<std::string> ParamSet;
    for (const LiftedKernel *K : {&A, &B})
      for (const Symbol &S : K->Symbols)
        if (S.K == Symbol::Kind::Param && ParamSet.insert(S.Name).second)
          Params += (Params.empty() ? "" : ", ") + S.Name;
    for (const Loop &L : A.Loops)
      Tuple += (Tuple.empty() ? "" : ", ") + NamesA[L.Index];
    for (const Loop &L : B2.Loops)
      Tuple += (Tuple.empty() ? "" : ", ") + NamesB[L.Index];
    Domains = "(" + A.constraints(A.Loops.size()) + ") and (" +
              B2.constraints(B2.Loops.size()) + ")";
    for (const LiftedKernel *K : {&A, &B})
      if (!K->Assumption.empty())
        Domains += " and (" + K->Assumption + ")";
  }

  /// Stops the lift with an error where the subscripts of \p X and \p Y
  /// cannot be compared.
  static void requireComparable(const Access &X, const Access &Y,
                                const std::vector<std::string> &SharedNames,
                                clang::ASTContext &Ctx, Reporter &R) {
    if (X.Coords.size() != Y.Coords.size() || !affine(X.Coords) ||
        !affine(Y.Coords)) {
      R.error(X.Range, msg::DistributedUnknown)
          << X.Array->CName << accessText(Ctx, X) << accessText(Ctx, Y)
          << quotedList(SharedNames);
      throw LiftFailed();
    }
  }

  /// The pairs of iterations, A's then B's, where \p X of A and \p Y of B
  /// touch one element and \p Before holds.
  isl::set meetings(const Access &X, const Access &Y, const std::string &Before,
                    isl::ctx IslCtx) const {
    std::string C = Domains + " and (" + Before + ")";
    for (size_t D = 0; D < X.Coords.size(); ++D)
      C += " and " + X.Coords[D].str(NamesA, "*") + " = " +
           Y.Coords[D].str(NamesB, "*");
    return isl::set(IslCtx, "[" + Params + "] -> { [" + Tuple + "] : " + C + " }");
  }
};

/// Checks the parts \p A (earlier) and \p B, which share their first
/// \p Shared loops.
void checkPair(const LiftedKernel &A, const LiftedKernel &B, unsigned Shared,
               const std::vector<std::string> &SharedNames,
               clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R) {
  PairSpace Pair(A, B);
  const LiftedKernel &B2 = Pair.B2;
  const std::vector<std::string> &NamesA = Pair.NamesA, &NamesB = Pair.NamesB;
  // B's iteration comes first in the C code: it is earlier in the shared
  // loops (later, for a loop that counts down).
  std::string Before;
  for (unsigned L = 0; L < Shared; ++L) {
    std::string Term;
    for (unsigned M = 0; M < L; ++M)
      Term += NamesB[B2.Loops[M].Index] + " = " + NamesA[A.Loops[M].Index] +
              " and ";
    Term += NamesB[B2.Loops[L].Index] + (A.Loops[L].Down ? " > " : " < ") +
            NamesA[A.Loops[L].Index];
    Before += (Before.empty() ? "(" : " or (") + Term + ")";
  }
  std::vector<Access> InA = accesses(A), InB = accesses(B);
  for (const Access &X : InA)
    for (const Access &Y : InB) {
      if (X.Array->Decl != Y.Array->Decl || !(X.Write || Y.Write))
        continue;
      PairSpace::requireComparable(X, Y, SharedNames, Ctx, R);
      isl::set S = Pair.meetings(X, Y, Before, IslCtx);
      if (S.is_empty())
        continue;
      isl::point P = smallestPoint(S);
      unsigned NA = static_cast<unsigned>(A.Loops.size());
      std::vector<long> Vs = coordinates(
          P, isl_dim_set, 0, NA + static_cast<unsigned>(B.Loops.size()));
      std::vector<std::string> IndicesA, IndicesB;
      for (const Loop &L : A.Loops)
        IndicesA.push_back(A.Symbols[L.Index].Name);
      for (const Loop &L : B.Loops)
        IndicesB.push_back(B.Symbols[L.Index].Name);
      std::string ParamsAt = describeParams(S, P);
      R.error(X.Range, msg::DistributedDependence)
          << accessText(Ctx, X) << (X.Write ? 1 : 0) << X.Array->CName
          << accessText(Ctx, Y) << (Y.Write ? 1 : 0) << quotedList(SharedNames)
          << describeValues(IndicesA,
                            std::vector<long>(Vs.begin(), Vs.begin() + NA))
          << describeValues(IndicesB,
                            std::vector<long>(Vs.begin() + NA, Vs.end()))
          << (ParamsAt.empty() ? "" : " when " + ParamsAt);
      R.note(Y.Range, msg::DistributedAccess) << accessText(Ctx, Y);
      throw LiftFailed();
    }
}

/// The statement of part \p A rewritten into part \p B, whose arguments
/// and parameters it takes on, adding those B lacks.
class Transplant {
public:
  Transplant(const LiftedKernel &A, LiftedKernel &B) : A(A), B(B) {}

  /// False if a symbol of A has no counterpart in B.
  bool mapSymbols() {
    for (const Symbol &S : A.Symbols) {
      std::optional<unsigned> To;
      for (unsigned I = 0; I < B.Symbols.size(); ++I)
        if (B.Symbols[I].Decl == S.Decl && B.Symbols[I].K == S.K)
          To = I;
      if (!To) {
        if (S.K != Symbol::Kind::Param || nameTaken(S.Name))
          return false;
        B.Symbols.push_back(S);
        To = static_cast<unsigned>(B.Symbols.size() - 1);
      }
      if (B.Symbols[*To].Name != S.Name)
        return false;
      Symbols.push_back(*To);
    }
    return true;
  }

  Poly poly(const Poly &P) const {
    Poly Out;
    for (const auto &[M, C] : P.terms()) {
      Poly T = Poly::constant(C);
      for (unsigned Id : M)
        T = T * Poly::symbol(Symbols[Id]);
      Out = Out + T;
    }
    return Out;
  }

  std::vector<Poly> polys(const std::vector<Poly> &Ps) const {
    std::vector<Poly> Out;
    for (const Poly &P : Ps)
      Out.push_back(poly(P));
    return Out;
  }

  /// Null if a scalar's or an array's name is taken in B by another one.
  LExprPtr expr(const LExprPtr &E) {
    auto N = std::make_shared<LExpr>(*E);
    N->P = poly(E->P);
    N->Subs = polys(E->Subs);
    if (E->K == LExpr::Kind::Scalar) {
      std::optional<unsigned> Id = scalar(E->Id);
      if (!Id)
        return nullptr;
      N->Id = *Id;
    }
    if (E->K == LExpr::Kind::Read) {
      std::optional<unsigned> Id = array(E->Id);
      if (!Id)
        return nullptr;
      N->Id = *Id;
      B.Arrays[*Id].Read = true;
    }
    for (LExprPtr &Op : N->Ops)
      if (!(Op = expr(Op)))
        return nullptr;
    return N;
  }

private:
  bool nameTaken(const std::string &Name) const {
    for (const Symbol &S : B.Symbols)
      if (S.Name == Name)
        return true;
    for (const ScalarArg &S : B.Scalars)
      if (S.Name == Name)
        return true;
    for (const ArrayArg &X : B.Arrays)
      if (X.Name == Name)
        return true;
    return false;
  }

  std::optional<unsigned> scalar(unsigned Id) {
    const ScalarArg &S = A.Scalars[Id];
    for (unsigned I = 0; I < B.Scalars.size(); ++I)
      if (B.Scalars[I].Decl == S.Decl)
        return I;
    if (nameTaken(S.Name))
      return std::nullopt;
    B.Scalars.push_back(S);
    return static_cast<unsigned>(B.Scalars.size() - 1);
  }

  std::optional<unsigned> array(unsigned Id) {
    const ArrayArg &X = A.Arrays[Id];
    for (unsigned I = 0; I < B.Arrays.size(); ++I)
      if (B.Arrays[I].Decl == X.Decl)
        return I;
    if (nameTaken(X.Name))
      return std::nullopt;
    ArrayArg Copy = X;
    Copy.Written = false;
    for (std::optional<Poly> &E : Copy.TypeExtents)
      if (E)
        E = poly(*E);
    if (Copy.PragmaShape)
      Copy.PragmaShape = polys(*Copy.PragmaShape);
    B.Arrays.push_back(std::move(Copy));
    return static_cast<unsigned>(B.Arrays.size() - 1);
  }

  const LiftedKernel &A;
  LiftedKernel &B;
  std::vector<unsigned> Symbols;
};

/// { [indices] -> [subscripts] } of the statement of \p K, on its domain.
isl::map writes(const LiftedKernel &K, isl::ctx Ctx) {
  return indexMap(K, Ctx, K.Stmts[0].Subs)
      .intersect_domain(isl::set(Ctx, K.islDomain()));
}

/// Fuses \p A into \p B (see fuseParts); false, leaving \p B as it was,
/// where they do not have that form.
bool tryFuse(const LiftedKernel &A, LiftedKernel &B, isl::ctx Ctx) {
  if (A.Stmts.size() != 1 || B.Stmts.size() != 1 ||
      A.HostLoops != B.HostLoops ||
      (!A.Assumption.empty() && A.Assumption != B.Assumption))
    return false;
  const Statement &SA = A.Stmts[0];
  const Statement &SB = B.Stmts[0];
  if (A.Arrays[SA.Array].Decl != B.Arrays[SB.Array].Decl || !affine(SA.Subs) ||
      !affine(SB.Subs))
    return false;
  // A sets its elements from values before the nest: no reduction, and no
  // value a loop carries.
  bool Plain = true;
  walk(SA.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
    Plain &= N.K != LExpr::Kind::Reduce && N.K != LExpr::Kind::Old &&
             N.K != LExpr::Kind::Inf;
  });
  // B reads its array at its own element only, outside its reductions.
  walk(SB.Value, [&](const LExpr &N, const std::vector<unsigned> &Red) {
    if (N.K == LExpr::Kind::Read && N.Id == SB.Array)
      Plain &= N.Subs == SB.Subs && Red.empty();
  });
  if (!Plain)
    return false;
  // Each element that B writes, once; where B's reduction is empty, it
  // writes nothing, so the fused kernel assumes the parameters for which
  // B writes every element that A does.
  isl::map WA = writes(A, Ctx), WB = writes(B, Ctx);
  if (WA.is_null() || WB.is_null() || !WA.is_injective() ||
      !WB.range().is_subset(WA.range()))
    return false;
  isl::set Good = WA.range().subtract(WB.range()).params().complement();
  isl::set Params = isl::set::universe(Good.get_space());
  if (Good.intersect(WA.range().params()).is_empty())
    return false;
  std::string Assume;
  if (!Good.is_equal(Params))
    Assume = constraintText(Good.gist(WA.range().params()).coalesce());
  LiftedKernel Fused = B;
  Transplant T(A, Fused);
  if (!T.mapSymbols() || T.polys(SA.Subs) != SB.Subs)
    return false;
  LExprPtr Value = T.expr(SA.Value);
  if (!Value)
    return false;
  // The old element that B reads is A's value.
  std::function<LExprPtr(const LExprPtr &)> Put =
      [&](const LExprPtr &E) -> LExprPtr {
    if (E->K == LExpr::Kind::Read && E->Id == SB.Array && E->Subs == SB.Subs)
      return Value;
    auto N = std::make_shared<LExpr>(*E);
    for (LExprPtr &Op : N->Ops)
      Op = Put(Op);
    return N;
  };
  Fused.Stmts[0].Value = Put(SB.Value);
  if (!Assume.empty())
    Fused.Assumption = Fused.Assumption.empty()
                           ? Assume
                           : Fused.Assumption + " and (" + Assume + ")";
  B = std::move(Fused);
  return true;
}

} // namespace

std::vector<size_t> fuseParts(std::vector<LiftedKernel> &Kernels,
                              isl::ctx IslCtx) {
  std::vector<size_t> First;
  std::vector<LiftedKernel> Left;
  for (size_t I = 0; I < Kernels.size(); ++I) {
    if (!Left.empty() && tryFuse(Left.back(), Kernels[I], IslCtx)) {
      Left.back() = std::move(Kernels[I]);
      continue;
    }
    Left.push_back(std::move(Kernels[I]));
    First.push_back(I);
  }
  Kernels = std::move(Left);
  return First;
}

namespace {

/// { [host indices] -> [element] } of the access \p Coords that the part
/// \p K makes, over its domain and assumptions, with the parameters that
/// are the host loops' indices \p Host (C names) moved in front of its
/// own indices, which are projected out.
isl::map hostAccess(const LiftedKernel &K, const std::vector<Poly> &Coords,
                    const std::vector<std::string> &Host, isl::ctx Ctx) {
  std::vector<std::string> Names = K.symbolNames();
  std::string Tuple, Elems, C = K.constraints(K.Loops.size());
  for (const Loop &L : K.Loops)
    Tuple += (Tuple.empty() ? "" : ", ") + Names[L.Index];
  if (!K.Assumption.empty())
    C += " and (" + K.Assumption + ")";
  for (size_t D = 0; D < Coords.size(); ++D) {
    std::string E = "__e" + std::to_string(D);
    Elems += (D ? ", " : "") + E;
    C += " and " + E + " = " + Coords[D].str(Names, "*");
  }
  isl::map M(Ctx, K.islParams() + "{ [" + Tuple + "] -> [" + Elems +
                      "] : " + C + " }");
  isl_map *Raw = M.release();
  unsigned Own = static_cast<unsigned>(K.Loops.size());
  for (unsigned H = 0; H < Host.size(); ++H) {
    int Pos = -1;
    for (const Symbol &S : K.Symbols)
      if (S.K == Symbol::Kind::Param && S.Decl && S.Decl->getName() == Host[H])
        Pos = isl_map_find_dim_by_name(Raw, isl_dim_param, S.Name.c_str());
    if (Pos >= 0)
      Raw = isl_map_move_dims(Raw, isl_dim_in, H, isl_dim_param,
                              static_cast<unsigned>(Pos), 1);
    else
      Raw = isl_map_insert_dims(Raw, isl_dim_in, H, 1);
  }
  Raw = isl_map_project_out(Raw, isl_dim_in, static_cast<unsigned>(Host.size()),
                            Own);
  return isl::manage(Raw);
}

} // namespace

void checkHostParts(const std::vector<DistributedPart> &Parts,
                    clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R) {
  const std::vector<std::string> &Host = Parts.front().SharedNames;
  const std::vector<bool> &Down = Parts.front().SharedDown;
  // [a] -> [b]: the iteration a of the host loops comes before b.
  std::string A, B, Before;
  for (size_t H = 0; H < Host.size(); ++H) {
    A += (H ? ", " : "") + ("__a" + std::to_string(H));
    B += (H ? ", " : "") + ("__b" + std::to_string(H));
    std::string Term;
    for (size_t M = 0; M < H; ++M)
      Term +=
          "__a" + std::to_string(M) + " = __b" + std::to_string(M) + " and ";
    Term += "__a" + std::to_string(H) + (Down[H] ? " > " : " < ") + "__b" +
            std::to_string(H);
    Before += (Before.empty() ? "(" : " or (") + Term + ")";
  }
  isl::map Order(IslCtx, "{ [" + A + "] -> [" + B + "] : " + Before + " }");
  for (size_t Y = 0; Y < Parts.size(); ++Y) {
    const LiftedKernel &KY = *Parts[Y].K;
    for (const Access &Read : accesses(KY)) {
      if (Read.Write)
        continue;
      std::vector<std::pair<const DistributedPart *, Access>> Writes;
      for (const DistributedPart &P : Parts)
        for (const Access &W : accesses(*P.K))
          if (W.Write && W.Array->Decl == Read.Array->Decl)
            Writes.push_back({&P, W});
      if (Writes.empty())
        continue;
      for (const auto &[P, W] : Writes)
        if (W.Coords.size() != Read.Coords.size() || !affine(W.Coords) ||
            !affine(Read.Coords)) {
          R.error(Read.Range, msg::DistributedUnknown)
              << Read.Array->CName << accessText(Ctx, Read)
              << accessText(Ctx, W) << quotedList(Host);
          throw LiftFailed();
        }
      // The elements that the iteration reads before a part of its own
      // writes them.
      isl::map Exposed = hostAccess(KY, Read.Coords, Host, IslCtx);
      for (const auto &[P, W] : Writes)
        if (P < &Parts[Y])
          Exposed = Exposed.subtract(hostAccess(*P->K, W.Coords, Host, IslCtx));
      for (const auto &[P, W] : Writes) {
        isl::map Flow = hostAccess(*P->K, W.Coords, Host, IslCtx)
                            .apply_range(Exposed.reverse())
                            .intersect(Order);
        if (Flow.is_empty())
          continue;
        isl::set Pairs = isl::manage(isl_set_flatten(Flow.wrap().release()));
        isl::point Pt = smallestPoint(Pairs);
        unsigned N = static_cast<unsigned>(Host.size());
        std::vector<long> Vs = coordinates(Pt, isl_dim_set, 0, 2 * N);
        std::string ParamsAt = describeParams(Pairs, Pt);
        R.error(Read.Range, msg::HostCarried)
            << accessText(Ctx, Read) << Read.Array->CName << accessText(Ctx, W)
            << quotedList(Host)
            << describeValues(Host, std::vector<long>(Vs.begin() + N, Vs.end()))
            << describeValues(Host,
                              std::vector<long>(Vs.begin(), Vs.begin() + N))
            << (ParamsAt.empty() ? "" : " when " + ParamsAt);
        R.note(W.Range, msg::DistributedAccess) << accessText(Ctx, W);
        throw LiftFailed();
      }
    }
  }
}

namespace {

/// A dependence from the access First of one part to the access Second
/// of another: First comes before Second in the C code, at the
/// iterations FirstAt and SecondAt.
struct Dependence {
  Access First, Second;
  std::string FirstAt, SecondAt, Params;
};

/// The file offset where \p L is expanded.
unsigned offset(clang::SourceManager &SM, clang::SourceLocation L) {
  return SM.getFileOffset(SM.getExpansionLoc(L));
}

/// The number of loops of \p Loops (outermost first) whose body holds
/// \p A.
unsigned depthOf(clang::SourceManager &SM,
                 const std::vector<const clang::ForStmt *> &Loops,
                 const Access &A) {
  unsigned At = offset(SM, A.Range.getBegin()), D = 0;
  for (const clang::ForStmt *F : Loops) {
    const clang::Stmt *Body = F->getBody();
    if (offset(SM, Body->getBeginLoc()) > At ||
        offset(SM, Body->getEndLoc()) < At)
      break;
    ++D;
  }
  return D;
}

/// The first dependence from an access of \p A to one of \p B (see
/// orderStatementParts), if any.
std::optional<Dependence>
dependence(const LiftedKernel &A, const LiftedKernel &B,
           const std::vector<const clang::ForStmt *> &Loops,
           const std::vector<std::string> &SharedNames, clang::ASTContext &Ctx,
           isl::ctx IslCtx, Reporter &R) {
  clang::SourceManager &SM = Ctx.getSourceManager();
  PairSpace Pair(A, B);
  const LiftedKernel &B2 = Pair.B2;
  const std::vector<std::string> &NamesA = Pair.NamesA, &NamesB = Pair.NamesB;
  unsigned NA = static_cast<unsigned>(A.Loops.size());
  for (const Access &X : accesses(A))
    for (const Access &Y : accesses(B)) {
      if (X.Array->Decl != Y.Array->Decl || !(X.Write || Y.Write))
        continue;
      PairSpace::requireComparable(X, Y, SharedNames, Ctx, R);
      // X comes first: earlier in the loops around both, or in the same
      // iteration of them and earlier in the source.
      unsigned DX = std::min(depthOf(SM, Loops, X), NA);
      unsigned DY = std::min(depthOf(SM, Loops, Y),
                             static_cast<unsigned>(B.Loops.size()));
      unsigned Depth = std::min(DX, DY);
      std::string Before;
      for (unsigned L = 0; L <= Depth; ++L) {
        std::string Term;
        for (unsigned M = 0; M < L; ++M)
          Term += NamesA[A.Loops[M].Index] + " = " +
                  NamesB[B2.Loops[M].Index] + " and ";
        if (L < Depth)
          Term += NamesA[A.Loops[L].Index] + (A.Loops[L].Down ? " > " : " < ") +
                  NamesB[B2.Loops[L].Index];
        else if (offset(SM, X.Range.getBegin()) <
                 offset(SM, Y.Range.getBegin()))
          Term += "1 = 1";
        else
          continue;
        Before += (Before.empty() ? "(" : " or (") + Term + ")";
      }
      if (Before.empty())
        continue;
      isl::set S = Pair.meetings(X, Y, Before, IslCtx);
      if (S.is_empty())
        continue;
      isl::point P = smallestPoint(S);
      std::vector<long> Vs = coordinates(
          P, isl_dim_set, 0, NA + static_cast<unsigned>(B.Loops.size()));
      // Each iteration in the loops around its access.
      std::vector<std::string> IndicesA, IndicesB;
      for (unsigned L = 0; L < DX; ++L)
        IndicesA.push_back(A.Symbols[A.Loops[L].Index].Name);
      for (unsigned L = 0; L < DY; ++L)
        IndicesB.push_back(B.Symbols[B.Loops[L].Index].Name);
      std::string ParamsAt = describeParams(S, P);
      return Dependence{
          X, Y,
          describeValues(IndicesA, std::vector<long>(Vs.begin(), Vs.begin() + DX)),
          describeValues(IndicesB, std::vector<long>(Vs.begin() + NA,
                                                     Vs.begin() + NA + DY)),
          ParamsAt.empty() ? "" : " when " + ParamsAt};
    }
  return std::nullopt;
}

/// Reports the dependence \p D as an error (\p Error) or a note.
void reportDependence(const Dependence &D, bool Error, clang::ASTContext &Ctx,
                      const std::vector<std::string> &SharedNames,
                      Reporter &R) {
  const Access &F = D.First, &S = D.Second;
  if (Error)
    R.error(S.Range, msg::StatementCycle)
        << accessText(Ctx, S) << (S.Write ? 1 : 0) << S.Array->CName
        << D.SecondAt << accessText(Ctx, F) << (F.Write ? 1 : 0) << D.FirstAt
        << D.Params << quotedList(SharedNames);
  else
    R.note(S.Range, msg::StatementCycleOther)
        << accessText(Ctx, S) << (S.Write ? 1 : 0) << S.Array->CName
        << D.SecondAt << accessText(Ctx, F) << (F.Write ? 1 : 0) << D.FirstAt
        << D.Params;
}

} // namespace

std::vector<size_t>
orderStatementParts(const std::vector<const LiftedKernel *> &Parts,
                    const std::vector<const clang::ForStmt *> &Loops,
                    const std::vector<std::string> &SharedNames,
                    clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R) {
  size_t N = Parts.size();
  for ([[maybe_unused]] const LiftedKernel *P : Parts)
    assert((P->Loops.size() == Loops.size() ||
            (!P->EmptyRange.empty() && P->Loops.size() < Loops.size())) &&
           "a part split by statement keeps every loop of its nest, a "
           "kernel split off where a loop is empty the loops around it");
  std::vector<std::vector<std::optional<Dependence>>> Edge(
      N, std::vector<std::optional<Dependence>>(N));
  std::vector<std::vector<bool>> Reach(N, std::vector<bool>(N, false));
  for (size_t P = 0; P < N; ++P)
    for (size_t Q = 0; Q < N; ++Q)
      if (P != Q) {
        Edge[P][Q] = dependence(*Parts[P], *Parts[Q], Loops, SharedNames, Ctx,
                                IslCtx, R);
        Reach[P][Q] = Edge[P][Q].has_value();
      }
  for (size_t M = 0; M < N; ++M)
    for (size_t P = 0; P < N; ++P)
      for (size_t Q = 0; Q < N; ++Q)
        if (Reach[P][M] && Reach[M][Q])
          Reach[P][Q] = true;
  // A cycle: an edge P -> Q with a path back from Q to P.
  for (size_t P = 0; P < N; ++P)
    for (size_t Q = 0; Q < N; ++Q)
      if (Edge[P][Q] && Reach[Q][P]) {
        for (size_t S = 0; S < N; ++S)
          if (Edge[Q][S] && (S == P || Reach[S][P])) {
            reportDependence(*Edge[Q][S], true, Ctx, SharedNames, R);
            reportDependence(*Edge[P][Q], false, Ctx, SharedNames, R);
            throw LiftFailed();
          }
      }
  // Topologically, the first part in source order among those ready.
  std::vector<size_t> Order;
  std::vector<bool> Done(N, false);
  while (Order.size() < N)
    for (size_t P = 0; P < N; ++P) {
      if (Done[P])
        continue;
      bool Ready = true;
      for (size_t Q = 0; Q < N; ++Q)
        Ready &= Done[Q] || !Edge[Q][P];
      if (Ready) {
        Order.push_back(P);
        Done[P] = true;
        break;
      }
    }
  return Order;
}

void checkDistribution(const std::vector<DistributedPart> &Parts,
                       clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R) {
  if (!Parts.empty() && Parts.front().HostShared) {
    checkHostParts(Parts, Ctx, IslCtx, R);
    return;
  }
  for (size_t A = 0; A < Parts.size(); ++A) {
    unsigned Shared = UINT_MAX;
    const std::vector<std::string> *Names = nullptr;
    for (size_t B = A + 1; B < Parts.size(); ++B) {
      // A kernel that the lifter split off the part before it came from
      // the same nest, which was checked whole.
      if (!Parts[B].SplitOff && Parts[B].Shared < Shared) {
        Shared = Parts[B].Shared;
        Names = &Parts[B].SharedNames;
      }
      if (Shared > 0 && Shared != UINT_MAX)
        checkPair(*Parts[A].K, *Parts[B].K, Shared, *Names, Ctx, IslCtx, R);
    }
  }
}

} // namespace loopy::extract
