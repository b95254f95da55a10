//===- TypeCheckCalls.cpp - Reductions, casts, select and math calls -----===//
#include "TypeChecker.h"

#include <algorithm>

namespace loopy::sema {

namespace {
struct MathInfo {
  const char *Name;
  MathFn Fn;
  unsigned Arity;
  bool FloatOnly;
};
const MathInfo MathFns[] = {
    {"sqrt", MathFn::Sqrt, 1, true}, {"exp", MathFn::Exp, 1, true},
    {"log", MathFn::Log, 1, true},   {"sin", MathFn::Sin, 1, true},
    {"cos", MathFn::Cos, 1, true},   {"tanh", MathFn::Tanh, 1, true},
    {"abs", MathFn::Abs, 1, false},  {"pow", MathFn::Pow, 2, true},
    {"fma", MathFn::Fma, 3, true},   {"min", MathFn::Min, 2, false},
    {"max", MathFn::Max, 2, false},
};
const char *const Builtins[] = {"sum", "prod", "max", "min", "select",
                                "f32", "f64",  "i32", "i64"};

} // namespace

std::vector<std::string> StatementChecker::visibleNames() const {
  std::vector<std::string> V(K.IndexNames);
  for (const Argument &A : K.Args)
    V.push_back(A.Name);
  for (const MathInfo &M : MathFns)
    V.push_back(M.Name);
  for (const char *B : Builtins)
    V.push_back(B);
  return V;
}

bool StatementChecker::isReductionIndexList(const ast::Expr &E) const {
  auto IsFreeIndex = [&](const ast::Expr &N) {
    if (N.K != ast::Expr::Kind::Name)
      return false;
    // An index an enclosing reduction binds is a value here, so
    // max(j, 0) inside sum(j, ...) is the elementwise maximum.
    auto Pos = indexPosition(N.Name);
    return Pos && !Outputs.count(*Pos) &&
           std::find(Bound.begin(), Bound.end(), *Pos) == Bound.end();
  };
  if (E.K == ast::Expr::Kind::Tuple)
    return std::all_of(E.Args.begin(), E.Args.end(),
                       [&](const ast::ExprPtr &A) { return IsFreeIndex(*A); });
  return IsFreeIndex(E);
}

std::optional<StatementChecker::Typed>
StatementChecker::reduction(const ast::Expr &E, ReduceOp Op) {
  const char *OpName = reduceOpName(Op);
  if (E.Args.size() != 2) {
    Diags.error(E.Range, std::string("reduction ") + OpName +
                             " takes an index or a list of indices and an "
                             "expression, such as " +
                             OpName + "(k, a[i, k])");
    return std::nullopt;
  }
  std::vector<const ast::Expr *> Names;
  const ast::Expr &First = *E.Args[0];
  if (First.K == ast::Expr::Kind::Tuple)
    for (const ast::ExprPtr &A : First.Args)
      Names.push_back(A.get());
  else
    Names.push_back(&First);
  std::vector<unsigned> Positions;
  for (const ast::Expr *N : Names) {
    if (N->K != ast::Expr::Kind::Name) {
      Diags.error(N->Range, std::string("the first argument of ") + OpName +
                                " must be a domain index or a parenthesized "
                                "list of them");
      return std::nullopt;
    }
    auto Pos = indexPosition(N->Name);
    if (!Pos) {
      std::string Msg = quote(N->Name) +
                        " is not an index of the domain; a reduction runs "
                        "over domain indices";
      if (auto C = closestName(N->Name, K.IndexNames))
        Msg += "; did you mean " + quote(*C) + "?";
      Diags.error(N->Range, Msg);
      return std::nullopt;
    }
    if (Outputs.count(*Pos)) {
      Diags.error(N->Range, "index " + quote(N->Name) +
                                " is an output index of this statement (it "
                                "subscripts " +
                                quote(Target->Name) +
                                ") and cannot also be a reduction index");
      return std::nullopt;
    }
    if (std::find(Bound.begin(), Bound.end(), *Pos) != Bound.end() ||
        std::find(Positions.begin(), Positions.end(), *Pos) != Positions.end()) {
      Diags.error(N->Range, "index " + quote(N->Name) +
                                " is already reduced over by an enclosing "
                                "reduction");
      return std::nullopt;
    }
    Positions.push_back(*Pos);
  }
  // Reductions inside others' bodies, and side by side, become statements
  // of their own (splitReductions, after the statement is checked).
  for (unsigned P : Positions) {
    Bound.push_back(P);
    Reduced.insert(P);
  }
  Enclosing.push_back({&E, Op, Names});
  auto Body = value(*E.Args[1]);
  Enclosing.pop_back();
  Bound.resize(Bound.size() - Positions.size());
  if (!Body)
    return std::nullopt;
  if (Body->E->Type == DType::Bool) {
    Diags.error(E.Args[1]->Range, std::string("cannot ") + OpName +
                                      " a comparison; convert it first, such "
                                      "as f32(...)");
    return std::nullopt;
  }
  // sum(i, sum(j, e)) is sum((i, j), e): one reduction over both, where
  // the inner one is the whole body and combines as the outer one does.
  if (Body->E->Kind == ExprKind::Reduce && Body->E->reduceOp() == Op) {
    ExprPtr Inner = std::move(Body->E);
    Positions.insert(Positions.end(), Inner->ReduceIndices.begin(),
                     Inner->ReduceIndices.end());
    Body->E = std::move(Inner->Operands[0]);
  }
  auto X = std::make_unique<Expr>(ExprKind::Reduce, Body->E->Type, E.Range);
  X->Op = static_cast<int>(Op);
  X->ReduceIndices = Positions;
  X->Spelling = normalizedSpelling(SM.slice(E.Range));
  X->Operands.push_back(std::move(Body->E));
  return Typed{std::move(X), Body->Untyped};
}

std::optional<StatementChecker::Typed>
StatementChecker::call(const ast::Expr &E) {
  const std::string &F = E.Name;
  if (F == "sum")
    return reduction(E, ReduceOp::Sum);
  if (F == "prod")
    return reduction(E, ReduceOp::Prod);
  if ((F == "max" || F == "min") && E.Args.size() == 2 &&
      isReductionIndexList(*E.Args[0]))
    return reduction(E, F == "max" ? ReduceOp::Max : ReduceOp::Min);

  if (auto DT = parseStorableDType(F)) {
    if (E.Args.size() != 1) {
      Diags.error(E.Range, "cast " + quote(F) + " takes one argument");
      return std::nullopt;
    }
    auto A = value(*E.Args[0]);
    if (!A)
      return std::nullopt;
    if (A->Untyped) {
      // Literals the integer type cannot hold convert as a value would,
      // wrapped: computed in i64, then cast (u8(-1) is 255).
      bool Negated = false;
      if (isInteger(*DT) && isInteger(A->E->Type) &&
          literalOutside(*A->E, *DT, &Negated)) {
        retype(*A, DType::I64, E.Range);
        auto X = std::make_unique<Expr>(ExprKind::Cast, *DT, E.Range);
        X->Operands.push_back(std::move(A->E));
        return Typed{std::move(X)};
      }
      retype(*A, *DT, E.Range);
      return A;
    }
    auto X = std::make_unique<Expr>(ExprKind::Cast, *DT, E.Range);
    X->Operands.push_back(std::move(A->E));
    return Typed{std::move(X)};
  }
  if (F == "select") {
    if (E.Args.size() != 3) {
      Diags.error(E.Range, "select takes three arguments: select(condition, "
                           "value if true, value if false)");
      return std::nullopt;
    }
    auto C = value(*E.Args[0]);
    auto T = value(*E.Args[1]);
    auto Fv = value(*E.Args[2]);
    if (!C || !T || !Fv)
      return std::nullopt;
    if (C->E->Type != DType::Bool) {
      Diags.error(E.Args[0]->Range,
                  "the condition of select must be a comparison, such as "
                  "x[i] > 0, not a value of type " +
                      std::string(dtypeName(C->E->Type)));
      return std::nullopt;
    }
    if (!unify(*T, *Fv, E.NameRange, "select"))
      return std::nullopt;
    bool Untyped = T->Untyped && Fv->Untyped;
    auto X = std::make_unique<Expr>(ExprKind::Select, T->E->Type, E.Range);
    X->Operands.push_back(std::move(C->E));
    X->Operands.push_back(std::move(T->E));
    X->Operands.push_back(std::move(Fv->E));
    return Typed{std::move(X), Untyped};
  }
  const MathInfo *M = nullptr;
  for (const MathInfo &I : MathFns)
    if (F == I.Name)
      M = &I;
  if (!M) {
    std::string Msg = "unknown function " + quote(F);
    std::vector<std::string> Fns;
    for (const MathInfo &I : MathFns)
      Fns.push_back(I.Name);
    for (const char *B : Builtins)
      Fns.push_back(B);
    if (auto C = closestName(F, Fns))
      Msg += "; did you mean " + quote(*C) + "?";
    Diags.error(E.NameRange, Msg);
    return std::nullopt;
  }
  if (E.Args.size() != M->Arity) {
    Diags.error(E.Range, quote(F) + " takes " + std::to_string(M->Arity) +
                             " argument" + (M->Arity == 1 ? "" : "s") +
                             ", not " + std::to_string(E.Args.size()));
    return std::nullopt;
  }
  std::vector<Typed> Args;
  for (const ast::ExprPtr &A : E.Args) {
    auto T = value(*A);
    if (!T)
      return std::nullopt;
    if (T->E->Type == DType::Bool) {
      Diags.error(A->Range, quote(F) + " takes numbers, not a comparison");
      return std::nullopt;
    }
    Args.push_back(std::move(*T));
  }
  for (size_t I = 1; I < Args.size(); ++I)
    if (!unify(Args[0], Args[I], E.NameRange, M->Name))
      return std::nullopt;
  // Unify the rest with a typed later argument.
  for (size_t I = 1; I < Args.size(); ++I)
    if (!unify(Args[I], Args[0], E.NameRange, M->Name))
      return std::nullopt;
  bool Untyped = std::all_of(Args.begin(), Args.end(),
                             [](const Typed &T) { return T.Untyped; });
  DType T = Args[0].E->Type;
  if (M->FloatOnly && !isFloat(T)) {
    if (Untyped) {
      for (Typed &A : Args)
        retype(A, DType::F64, E.Range), A.Untyped = true;
      T = DType::F64;
    } else {
      Diags.error(E.NameRange, quote(F) + " needs f32 or f64 arguments, not " +
                                   std::string(dtypeName(T)) +
                                   "; convert with f32(...) or f64(...)");
      return std::nullopt;
    }
  }
  auto X = std::make_unique<Expr>(ExprKind::Call, T, E.Range);
  X->Op = static_cast<int>(M->Fn);
  for (Typed &A : Args)
    X->Operands.push_back(std::move(A.E));
  return Typed{std::move(X), Untyped};
}

} // namespace loopy::sema
