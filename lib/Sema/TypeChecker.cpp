//===- TypeChecker.cpp - Checking one statement ---------------------------===//
#include "TypeChecker.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

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

std::string normalizedSpelling(std::string_view S) {
  std::string Out;
  bool Space = false;
  for (char C : S) {
    if (std::isspace(static_cast<unsigned char>(C))) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}
} // namespace

StatementChecker::StatementChecker(const Kernel &K, const SourceManager &SM,
                                   DiagnosticEngine &Diags, isl::ctx Ctx)
    : K(K), SM(SM), Diags(Diags), Ctx(Ctx) {
  Scope.Space = K.Domain.get_space();
  Scope.What = "subscript";
  for (unsigned I = 0; I < K.ParamNames.size(); ++I)
    Scope.Names[K.ParamNames[I]] = {isl_dim_param, I};
  for (unsigned I = 0; I < K.IndexNames.size(); ++I)
    Scope.Names[K.IndexNames[I]] = {isl_dim_set, I};
  for (const Argument &A : K.Args)
    if (A.Kind == ArgKind::Scalar)
      Scope.Forbidden[A.Name] =
          "scalar argument " + quote(A.Name) +
          " cannot appear in a subscript: only indices, index parameters "
          "and integer constants can";
    else if (A.Kind == ArgKind::Array)
      Scope.Forbidden[A.Name] =
          "array " + quote(A.Name) +
          " cannot appear in a subscript: indirect access is not supported";
}

std::optional<unsigned>
StatementChecker::indexPosition(const std::string &Name) const {
  auto It = std::find(K.IndexNames.begin(), K.IndexNames.end(), Name);
  if (It == K.IndexNames.end())
    return std::nullopt;
  return It - K.IndexNames.begin();
}

std::vector<std::string> StatementChecker::arrayNames() const {
  std::vector<std::string> V;
  for (const Argument &A : K.Args)
    if (A.isArray())
      V.push_back(A.Name);
  return V;
}

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

bool StatementChecker::checkIndexUse(unsigned Pos, SourceRange Loc) {
  if (Outputs.count(Pos) ||
      std::find(Bound.begin(), Bound.end(), Pos) != Bound.end())
    return true;
  const std::string &N = K.IndexNames[Pos];
  if (Reduced.count(Pos)) {
    Diags.error(Loc, "index " + quote(N) +
                         " is used outside the reduction over it");
    return false;
  }
  Diags.error(Loc, "index " + quote(N) +
                       " is neither an output index nor a reduction index "
                       "of this statement: use it in the subscript of " +
                       quote(Target ? Target->Name : "the output") +
                       " or reduce over it, such as sum(" + N + ", ...)");
  return false;
}

std::optional<isl::map>
StatementChecker::accessFunction(const ast::Expr &E, const Argument &A,
                                 bool IsWrite) {
  if (E.Args.size() != A.rank()) {
    Diags.error(E.Range, "array " + quote(A.Name) + " has " +
                             std::to_string(A.rank()) + " dimension" +
                             (A.rank() == 1 ? "" : "s") + " but " +
                             std::to_string(E.Args.size()) + " subscript" +
                             (E.Args.size() == 1 ? " was" : "s were") +
                             " given");
    return std::nullopt;
  }
  isl_space *Sp = isl_space_from_domain(Scope.Space.copy());
  Sp = isl_space_add_dims(Sp, isl_dim_out, A.rank());
  Sp = isl_space_set_tuple_name(Sp, isl_dim_out, A.Name.c_str());
  isl_aff_list *List = isl_aff_list_alloc(Ctx.get(), A.rank());
  bool Ok = true;
  for (const ast::ExprPtr &Sub : E.Args) {
    std::set<unsigned> Used;
    auto Aff = buildAff(*Sub, Scope, Diags, &Used);
    if (!Aff) {
      Ok = false;
      continue;
    }
    for (unsigned Pos : Used) {
      if (IsWrite) {
        if (Reduced.count(Pos)) {
          Diags.error(Sub->Range, "index " + quote(K.IndexNames[Pos]) +
                                      " cannot be both an output index and "
                                      "a reduction index");
          Ok = false;
        }
        Outputs.insert(Pos);
      } else if (!checkIndexUse(Pos, Sub->Range)) {
        Ok = false;
      }
    }
    List = isl_aff_list_add(List, Aff->release());
  }
  if (!Ok) {
    isl_aff_list_free(List);
    isl_space_free(Sp);
    return std::nullopt;
  }
  isl_multi_aff *MA = isl_multi_aff_from_aff_list(Sp, List);
  return isl::manage(isl_map_from_multi_aff(MA));
}

bool StatementChecker::retype(Typed &T, DType To, SourceRange Loc) {
  if (!T.Untyped)
    return T.E->Type == To;
  bool Ok = true;
  std::function<void(Expr &)> Walk = [&](Expr &E) {
    if (E.Kind == ExprKind::FloatConst && !isFloat(To)) {
      Diags.error(E.Loc, "floating-point literal " + quote(E.Spelling) +
                             " used where " + dtypeName(To) +
                             " is expected; write an integer or cast with " +
                             dtypeName(To) + "(...)");
      Ok = false;
    }
    if (E.Kind == ExprKind::IntConst && isFloat(To)) {
      E.Kind = ExprKind::FloatConst;
      E.FloatValue = static_cast<double>(E.IntValue);
    }
    if (E.Type != DType::Bool)
      E.Type = To;
    for (ExprPtr &O : E.Operands)
      Walk(*O);
  };
  Walk(*T.E);
  T.Untyped = false;
  return Ok;
}

bool StatementChecker::unify(Typed &L, Typed &R, SourceRange OpLoc,
                             const char *What) {
  if (L.Untyped && R.Untyped) {
    // Both literal: the result is float if either side is.
    DType T = isFloat(L.E->Type) || isFloat(R.E->Type) ? DType::F64 : DType::I64;
    for (Typed *X : {&L, &R})
      if (X->E->Type != T && X->E->Kind == ExprKind::IntConst) {
        X->E->Kind = ExprKind::FloatConst;
        X->E->FloatValue = static_cast<double>(X->E->IntValue);
        X->E->Type = T;
      }
    return true;
  }
  if (L.Untyped)
    return retype(L, R.E->Type, OpLoc);
  if (R.Untyped)
    return retype(R, L.E->Type, OpLoc);
  if (L.E->Type == R.E->Type)
    return true;
  std::string LT = dtypeName(L.E->Type), RT = dtypeName(R.E->Type);
  std::string Msg = std::string("dtype mismatch in ") + What + ": " +
                    quote(SM.slice(L.E->Loc)) + " is " + LT + " but " +
                    quote(SM.slice(R.E->Loc)) + " is " + RT;
  if (L.E->Type != DType::Bool && R.E->Type != DType::Bool)
    Msg += "; convert one side explicitly, such as " + LT + "(" +
           std::string(SM.slice(R.E->Loc)) + ")";
  Diags.error(OpLoc, Msg);
  return false;
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
StatementChecker::value(const ast::Expr &E) {
  using K = ast::Expr::Kind;
  switch (E.K) {
  case K::IntLit: {
    errno = 0;
    long long V = std::strtoll(E.Name.c_str(), nullptr, 10);
    if (errno == ERANGE) {
      Diags.error(E.Range, "integer literal " + quote(E.Name) +
                               " does not fit in 64 bits");
      return std::nullopt;
    }
    auto X = std::make_unique<Expr>(ExprKind::IntConst, DType::I64, E.Range);
    X->IntValue = V;
    X->Spelling = E.Name;
    return Typed{std::move(X), true};
  }
  case K::FloatLit: {
    double V = std::strtod(E.Name.c_str(), nullptr);
    if (!std::isfinite(V)) {
      Diags.error(E.Range, "floating-point literal " + quote(E.Name) +
                               " is out of range");
      return std::nullopt;
    }
    auto X = std::make_unique<Expr>(ExprKind::FloatConst, DType::F64, E.Range);
    X->FloatValue = V;
    X->Spelling = E.Name;
    return Typed{std::move(X), true};
  }
  case K::Name:
    return name(E);
  case K::Subscript:
    return subscript(E);
  case K::Call:
    return call(E);
  case K::Unary:
    return unary(E);
  case K::Binary:
    return binary(E);
  case K::Tuple:
    Diags.error(E.Range, "a parenthesized list is only allowed as the "
                         "indices of a reduction, such as sum((k, l), ...)");
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<StatementChecker::Typed>
StatementChecker::name(const ast::Expr &E) {
  if (auto Pos = indexPosition(E.Name)) {
    if (!checkIndexUse(*Pos, E.Range))
      return std::nullopt;
    auto X = std::make_unique<Expr>(ExprKind::Index, DType::I64, E.Range);
    X->Id = *Pos;
    X->Spelling = E.Name;
    return Typed{std::move(X)};
  }
  for (unsigned I = 0; I < K.Args.size(); ++I) {
    const Argument &A = K.Args[I];
    if (A.Name != E.Name)
      continue;
    if (A.Kind == ArgKind::Array) {
      Diags.error(E.Range, "array " + quote(A.Name) +
                               " must be subscripted, such as " + A.Name +
                               (A.rank() == 0 ? "[]" : "[...]"));
      return std::nullopt;
    }
    auto X = std::make_unique<Expr>(
        A.Kind == ArgKind::Index ? ExprKind::Param : ExprKind::Scalar, A.Type,
        E.Range);
    X->Id = A.Kind == ArgKind::Index ? A.ParamPos : I;
    X->Spelling = A.Name;
    return Typed{std::move(X)};
  }
  std::string Msg = "use of undeclared identifier " + quote(E.Name);
  if (auto C = closestName(E.Name, visibleNames()))
    Msg += "; did you mean " + quote(*C) + "?";
  Diags.error(E.Range, Msg);
  return std::nullopt;
}

std::optional<StatementChecker::Typed>
StatementChecker::subscript(const ast::Expr &E) {
  const Argument *A = K.findArg(E.Name);
  if (!A) {
    std::string Msg = "use of undeclared array " + quote(E.Name);
    if (auto C = closestName(E.Name, arrayNames()))
      Msg += "; did you mean " + quote(*C) + "?";
    Diags.error(E.NameRange, Msg);
    return std::nullopt;
  }
  if (!A->isArray()) {
    Diags.error(E.NameRange, quote(A->Name) +
                                 " is not an array and cannot be "
                                 "subscripted");
    return std::nullopt;
  }
  auto Fn = accessFunction(E, *A, /*IsWrite=*/false);
  if (!Fn)
    return std::nullopt;
  auto X = std::make_unique<Expr>(ExprKind::Read, A->Type, E.Range);
  X->Id = A - K.Args.data();
  X->AccessId = Reads.size();
  X->Spelling = normalizedSpelling(SM.slice(E.Range));
  Reads.push_back({X->Id, E.Range, *Fn});
  return Typed{std::move(X)};
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
    if (Reduced.count(*Pos)) {
      Diags.error(N->Range, "index " + quote(N->Name) +
                                " is reduced over twice in this statement; "
                                "use one reduction per index");
      return std::nullopt;
    }
    Positions.push_back(*Pos);
  }
  for (unsigned P : Positions) {
    Bound.push_back(P);
    Reduced.insert(P);
  }
  auto Body = value(*E.Args[1]);
  Bound.resize(Bound.size() - Positions.size());
  if (!Body)
    return std::nullopt;
  if (Body->E->Type == DType::Bool) {
    Diags.error(E.Args[1]->Range, std::string("cannot ") + OpName +
                                      " a comparison; convert it first, such "
                                      "as f32(...)");
    return std::nullopt;
  }
  auto X = std::make_unique<Expr>(ExprKind::Reduce, Body->E->Type, E.Range);
  X->Op = static_cast<int>(Op);
  X->ReduceIndices = Positions;
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
      retype(*A, *DT, E.Range);
      return A;
    }
    auto X = std::make_unique<Expr>(ExprKind::Cast, *DT, E.Range);
    X->Operands.push_back(std::move(A->E));
    return Typed{std::move(X)};
  }
  if (F == "f16" || F == "bf16") {
    Diags.error(E.NameRange, "element type " + quote(F) +
                                 " is not yet supported; use f32 or f64");
    return std::nullopt;
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

std::optional<StatementChecker::Typed>
StatementChecker::unary(const ast::Expr &E) {
  auto A = value(*E.Args[0]);
  if (!A)
    return std::nullopt;
  bool IsNot = E.Op == TokenKind::Bang;
  if (IsNot != (A->E->Type == DType::Bool)) {
    Diags.error(E.OpRange,
                IsNot ? "'!' needs a comparison, such as !(x[i] > 0)"
                      : "'-' needs a number, not a comparison");
    return std::nullopt;
  }
  auto X = std::make_unique<Expr>(ExprKind::Unary, A->E->Type, E.Range);
  X->Op = static_cast<int>(IsNot ? UnaryOp::Not : UnaryOp::Neg);
  X->Operands.push_back(std::move(A->E));
  return Typed{std::move(X), A->Untyped};
}

std::optional<StatementChecker::Typed>
StatementChecker::binary(const ast::Expr &E) {
  auto L = value(*E.Args[0]);
  auto R = value(*E.Args[1]);
  if (!L || !R)
    return std::nullopt;
  BinaryOp Op;
  switch (E.Op) {
  case TokenKind::Plus: Op = BinaryOp::Add; break;
  case TokenKind::Minus: Op = BinaryOp::Sub; break;
  case TokenKind::Star: Op = BinaryOp::Mul; break;
  case TokenKind::Slash: Op = BinaryOp::Div; break;
  case TokenKind::Percent: Op = BinaryOp::Rem; break;
  case TokenKind::Less: Op = BinaryOp::Lt; break;
  case TokenKind::LessEqual: Op = BinaryOp::Le; break;
  case TokenKind::Greater: Op = BinaryOp::Gt; break;
  case TokenKind::GreaterEqual: Op = BinaryOp::Ge; break;
  case TokenKind::EqualEqual: Op = BinaryOp::Eq; break;
  case TokenKind::BangEqual: Op = BinaryOp::Ne; break;
  case TokenKind::AmpAmp: Op = BinaryOp::And; break;
  case TokenKind::PipePipe: Op = BinaryOp::Or; break;
  default:
    Diags.error(E.OpRange, "unsupported operator");
    return std::nullopt;
  }
  std::string OpText = std::string("'") + binaryOpSpelling(Op) + "'";
  bool Logical = Op == BinaryOp::And || Op == BinaryOp::Or;
  bool Compare = Op >= BinaryOp::Lt && Op <= BinaryOp::Ne;
  bool LBool = L->E->Type == DType::Bool, RBool = R->E->Type == DType::Bool;
  if (Logical && (!LBool || !RBool)) {
    Diags.error(E.OpRange, OpText + " needs comparisons on both sides, such as "
                                    "x[i] > 0 && x[i] < 1");
    return std::nullopt;
  }
  if (!Logical && (LBool || RBool)) {
    Diags.error(E.OpRange, OpText + " needs numbers, not comparisons; convert "
                                    "a comparison with f32(...) or select");
    return std::nullopt;
  }
  if (!Logical && !unify(*L, *R, E.OpRange, OpText.c_str()))
    return std::nullopt;
  if (Op == BinaryOp::Rem && isFloat(L->E->Type) && !L->Untyped) {
    Diags.error(E.OpRange, "'%' needs integer operands, not " +
                               std::string(dtypeName(L->E->Type)));
    return std::nullopt;
  }
  bool Untyped = L->Untyped && R->Untyped;
  DType T = (Compare || Logical) ? DType::Bool : L->E->Type;
  auto X = std::make_unique<Expr>(ExprKind::Binary, T, E.Range);
  X->Op = static_cast<int>(Op);
  X->Operands.push_back(std::move(L->E));
  X->Operands.push_back(std::move(R->E));
  return Typed{std::move(X), Untyped && !Compare};
}

bool StatementChecker::check(const ast::Stmt &S, Statement &St) {
  unsigned Before = Diags.errorCount();
  const ast::Expr &L = *S.Lhs;
  if (L.K != ast::Expr::Kind::Subscript)
    return false; // reported by the parser
  Target = K.findArg(L.Name);
  if (!Target) {
    std::string Msg = "use of undeclared array " + quote(L.Name);
    if (auto C = closestName(L.Name, arrayNames()))
      Msg += "; did you mean " + quote(*C) + "?";
    Diags.error(L.NameRange, Msg);
    return false;
  }
  if (!Target->isArray()) {
    Diags.error(L.NameRange, "cannot assign to " + quote(L.Name) +
                                 ": only 'out' and 'inout' arrays can be "
                                 "written");
    return false;
  }
  if (Target->Mode == ArgMode::In) {
    Diags.error(L.NameRange, "cannot write to " + quote(L.Name) +
                                 ": it is declared 'in'; declare it 'out' "
                                 "or 'inout'");
    Diags.note(Target->Loc, "declared here");
    return false;
  }
  auto WriteFn = accessFunction(L, *Target, /*IsWrite=*/true);
  if (!WriteFn)
    return false;
  auto Rhs = value(*S.Rhs);
  if (!Rhs)
    return false;
  if (Rhs->Untyped) {
    if (!retype(*Rhs, Target->Type, S.Rhs->Range))
      return false;
  } else if (Rhs->E->Type != Target->Type) {
    std::string RT = dtypeName(Rhs->E->Type);
    std::string TT = dtypeName(Target->Type);
    if (Rhs->E->Type == DType::Bool)
      Diags.error(S.Rhs->Range, "cannot store a comparison in " +
                                    quote(Target->Name) + " of type " + TT +
                                    "; use select(cond, 1, 0) or " + TT +
                                    "(...)");
    else
      Diags.error(S.Rhs->Range, "dtype mismatch in assignment: " +
                                    quote(Target->Name) + " is " + TT +
                                    " but the right-hand side is " + RT +
                                    "; convert it with " + TT + "(...)");
    return false;
  }
  if (Diags.errorCount() != Before)
    return false;

  // The statement runs over its output and reduction indices: project the
  // kernel domain onto them.
  std::set<unsigned> Used(Outputs);
  Used.insert(Reduced.begin(), Reduced.end());
  St.Indices.assign(Used.begin(), Used.end());
  St.OutputIndices.assign(Outputs.begin(), Outputs.end());
  St.ReductionIndices.assign(Reduced.begin(), Reduced.end());
  isl_set *Dom = K.Domain.copy();
  isl_map *W = WriteFn->copy();
  std::vector<isl_map *> R;
  for (PendingAccess &P : Reads)
    R.push_back(P.Fn.copy());
  for (int Pos = K.IndexNames.size() - 1; Pos >= 0; --Pos) {
    if (Used.count(Pos))
      continue;
    Dom = isl_set_project_out(Dom, isl_dim_set, Pos, 1);
    W = isl_map_project_out(W, isl_dim_in, Pos, 1);
    for (isl_map *&M : R)
      M = isl_map_project_out(M, isl_dim_in, Pos, 1);
  }
  Dom = isl_set_set_tuple_name(Dom, St.Name.c_str());
  St.Domain = isl::manage(Dom).coalesce();
  auto Finish = [&](isl_map *M) {
    M = isl_map_set_tuple_name(M, isl_dim_in, St.Name.c_str());
    return isl::manage(M).intersect_domain(St.Domain).coalesce();
  };
  St.Write = {static_cast<unsigned>(Target - K.Args.data()), L.Range,
              normalizedSpelling(SM.slice(L.Range)), Finish(W)};
  for (size_t I = 0; I < Reads.size(); ++I)
    St.Reads.push_back({Reads[I].Arg, Reads[I].Loc,
                        normalizedSpelling(SM.slice(Reads[I].Loc)),
                        Finish(R[I])});
  St.Rhs = std::move(Rhs->E);
  return true;
}

} // namespace loopy::sema
