//===- EmptyRanges.cpp - Statements written where an inner loop is empty --===//
#include "EmptyRanges.h"
#include "KernelIsl.h"

#include "loopy/Support/Isl.h"

#include <isl/constraint.h>

#include <memory>
#include <set>

namespace loopy::extract {

namespace {

/// \p E where every reduction in it has no term: a sum is 0 and a product
/// 1, and max(B, max(k, e)) (or min) is B, the value its accumulator
/// started from. Null where a reduction stands alone as a max or min,
/// whose accumulator started at an infinity that .loop cannot write.
LExprPtr withoutTerms(const LExprPtr &E) {
  if (E->K == LExpr::Kind::Reduce) {
    if (E->Text == "sum")
      return makeLiteral("0", E->Type);
    if (E->Text == "prod")
      return makeLiteral("1", E->Type);
    return nullptr;
  }
  if (E->K == LExpr::Kind::Call && (E->Text == "max" || E->Text == "min") &&
      E->Ops.size() == 2)
    for (int Side = 0; Side < 2; ++Side)
      if (E->Ops[Side]->K == LExpr::Kind::Reduce &&
          E->Ops[Side]->Text == E->Text)
        return withoutTerms(E->Ops[1 - Side]);
  std::vector<LExprPtr> Ops;
  bool Changed = false;
  for (const LExprPtr &Op : E->Ops) {
    LExprPtr New = withoutTerms(Op);
    if (!New)
      return nullptr;
    Changed |= New != Op;
    Ops.push_back(New);
  }
  if (!Changed)
    return E;
  auto Copy = std::make_shared<LExpr>(*E);
  Copy->Ops = std::move(Ops);
  return Copy;
}

/// One constraint of a basic set over the first loops of \p K, as a bound
/// of the innermost loop it involves.
struct LoopBound {
  unsigned Loop;
  bool Upper;
  Poly E;
};

/// The constraints of \p S, a set over the first \p Loops loops of \p K
/// (in that order) with K's parameters, as loop bounds: each involves an
/// inner loop's index with coefficient 1 or -1. Nullopt where \p S is not
/// one basic set without existential variables, or a constraint has
/// another form.
std::optional<std::vector<LoopBound>>
boundsOf(const isl::set &S, const LiftedKernel &K, unsigned Loops) {
  isl_ctx *Ctx = S.ctx().get();
  isl::set C = S.coalesce();
  if (checkSize(Ctx, isl_set_n_basic_set(C.get())) != 1)
    return std::nullopt;
  isl::basic_set B = take(Ctx, isl_set_simple_hull(C.copy()));
  if (checkSize(Ctx, isl_basic_set_dim(B.get(), isl_dim_div)) != 0)
    return std::nullopt;
  std::vector<unsigned> ParamIds;
  for (unsigned Id = 0; Id < K.Symbols.size(); ++Id)
    if (K.Symbols[Id].K == Symbol::Kind::Param)
      ParamIds.push_back(Id);
  if (checkSize(Ctx, isl_basic_set_dim(B.get(), isl_dim_param)) !=
      ParamIds.size())
    return std::nullopt;
  struct Walk {
    const LiftedKernel &K;
    unsigned Loops;
    const std::vector<unsigned> &ParamIds;
    std::vector<LoopBound> Out;
    bool Ok = true;
  } W{K, Loops, ParamIds, {}};
  auto Visit = [](isl_constraint *Raw, void *User) -> isl_stat {
    // The bindings have no constraint type: own it here.
    std::unique_ptr<isl_constraint, isl_constraint *(*)(isl_constraint *)>
        Con(Raw, isl_constraint_free);
    auto &W = *static_cast<Walk *>(User);
    auto Coef = [&](isl_dim_type T, unsigned I) {
      isl::val V = isl::manage(
          isl_constraint_get_coefficient_val(Con.get(), T, static_cast<int>(I)));
      return V.get_num_si();
    };
    std::optional<unsigned> Inner;
    for (unsigned D = 0; D < W.Loops; ++D)
      if (Coef(isl_dim_set, D) != 0)
        Inner = D;
    long C = Inner ? Coef(isl_dim_set, *Inner) : 0;
    if (!Inner || (C != 1 && C != -1)) {
      W.Ok = false;
      return isl_stat_ok;
    }
    // C * x + Rest >= 0 (or = 0): x >= -Rest for C = 1, x <= Rest for -1.
    isl::val Cst = isl::manage(isl_constraint_get_constant_val(Con.get()));
    Poly Rest = Poly::constant(Cst.get_num_si());
    for (unsigned D = 0; D < *Inner; ++D)
      Rest = Rest + Poly::symbol(W.K.Loops[D].Index).scaled(Coef(isl_dim_set, D));
    for (unsigned P = 0; P < W.ParamIds.size(); ++P)
      Rest = Rest + Poly::symbol(W.ParamIds[P]).scaled(Coef(isl_dim_param, P));
    bool Eq = isl_constraint_is_equality(Con.get()) == isl_bool_true;
    for (bool Upper : {false, true})
      if (Eq || Upper == (C == -1))
        W.Out.push_back({*Inner, Upper, C == 1 ? -Rest : Rest});
    return isl_stat_ok;
  };
  if (isl_basic_set_foreach_constraint(B.get(), Visit, &W) < 0)
    throwLastError(Ctx);
  if (!W.Ok)
    return std::nullopt;
  return W.Out;
}

} // namespace

std::optional<LiftedKernel> emptyRangeKernel(const LiftedKernel &K,
                                             size_t Stmt, isl::ctx Ctx) {
  const Statement &S = K.Stmts[Stmt];
  unsigned W = S.WriteDepth;
  if (W >= K.Loops.size())
    return std::nullopt;
  // The write's indices must be the loops around it, so that its
  // iterations are points of those loops.
  std::set<unsigned> Used;
  for (const Poly &P : S.Subs)
    for (unsigned Id : P.symbols())
      for (unsigned D = 0; D < K.Loops.size(); ++D)
        if (K.Loops[D].Index == Id)
          Used.insert(D);
  if (Used.size() != W || (W > 0 && *Used.rbegin() != W - 1))
    return std::nullopt;
  std::vector<Poly> Outer;
  for (unsigned D = 0; D < W; ++D)
    Outer.push_back(Poly::symbol(K.Loops[D].Index));
  isl::map ToOuter = indexMap(K, Ctx, Outer);
  // Where C writes, and where the lifted statement does.
  isl::set InC = isl::set(Ctx, K.islDomain(W)).apply(ToOuter);
  isl::set Lifted = isl::set(Ctx, K.islDomain()).apply(ToOuter);
  isl::set Missed = InC.subtract(Lifted);
  if (Missed.is_empty())
    return std::nullopt;
  // Where an assumption can keep every write, inferAssumptions adds it.
  if (!InC.params().subtract(Missed.params()).is_empty())
    return std::nullopt;
  LExprPtr Value = withoutTerms(S.Value);
  if (!Value)
    return std::nullopt;
  std::optional<std::vector<LoopBound>> Bounds =
      boundsOf(Missed.gist(InC), K, W);
  if (!Bounds)
    return std::nullopt;

  LiftedKernel Part = K;
  Part.Loops.resize(W);
  for (const LoopBound &B : *Bounds)
    (B.Upper ? Part.Loops[B.Loop].Upper : Part.Loops[B.Loop].Lower)
        .push_back({B.E, false});
  auto Exact = [&](const LiftedKernel &P) {
    return isl::set(Ctx, P.islDomain())
        .apply(indexMap(P, Ctx, Outer))
        .is_equal(Missed);
  };
  if (!Exact(Part))
    return std::nullopt;
  // The bounds that the others imply, left out (the loop's own bounds
  // first).
  for (Loop &L : Part.Loops)
    for (std::vector<Bound> *Bs : {&L.Lower, &L.Upper})
      for (size_t I = 0; I < Bs->size();) {
        Bound Saved = (*Bs)[I];
        Bs->erase(Bs->begin() + I);
        if (!Bs->empty() && Exact(Part))
          continue;
        Bs->insert(Bs->begin() + I, Saved);
        ++I;
      }
  Statement Empty = S;
  Empty.Value = Value;
  Part.Stmts = {Empty};
  for (ArrayArg &A : Part.Arrays)
    A.Read = A.Written = false;
  Part.Arrays[Empty.Array].Written = true;
  walk(Empty.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
    if (N.K == LExpr::Kind::Read)
      Part.Arrays[N.Id].Read = true;
  });
  // The first loop inside the write that runs zero times there.
  std::vector<std::string> Names = K.symbolNames();
  for (unsigned D = W; D < K.Loops.size(); ++D)
    if (!InC.subtract(isl::set(Ctx, K.islDomain(D + 1)).apply(ToOuter))
             .is_empty()) {
      Part.EmptyRange = Names[K.Loops[D].Index];
      break;
    }
  return Part;
}

} // namespace loopy::extract
