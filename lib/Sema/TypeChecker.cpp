//===- TypeChecker.cpp - Checking one statement: names, operators, types -===//
#include "TypeChecker.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>

namespace loopy::sema {

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

/// Calls \p F on each node of the untyped value \p E that takes the type
/// it is given (retype), with whether it is negated (the operand of a
/// '-', so that -128 fits in i8): not a comparison's operands (a select's
/// condition among them), a cast's operand or a read's subscripts, which
/// have types of their own.
template <class E, class Fn> static void forEachTyped(E &X, Fn F, bool Negated) {
  F(X, Negated);
  if (X.Type == DType::Bool || X.Kind == ExprKind::Cast ||
      X.Kind == ExprKind::Read)
    return;
  bool Neg = X.Kind == ExprKind::Unary && X.unaryOp() == UnaryOp::Neg;
  for (size_t I = X.Kind == ExprKind::Select ? 1 : 0; I < X.Operands.size();
       ++I)
    forEachTyped(*X.Operands[I], F, Neg && !Negated);
}

const Expr *literalOutside(const Expr &E, DType To, bool *Negated) {
  const Expr *Found = nullptr;
  forEachTyped(
      E,
      [&](const Expr &X, bool Neg) {
        if (Found || X.Kind != ExprKind::IntConst || !isInteger(To))
          return;
        // As a double: -(-2^63) does not fit in int64.
        double V = Neg ? -static_cast<double>(X.IntValue)
                       : static_cast<double>(X.IntValue);
        if (V < static_cast<double>(intMin(To)) ||
            V > static_cast<double>(intMax(To))) {
          Found = &X;
          *Negated = Neg;
        }
      },
      false);
  return Found;
}

bool StatementChecker::retype(Typed &T, DType To, SourceRange Loc) {
  if (!T.Untyped)
    return T.E->Type == To;
  bool Ok = true;
  bool Negated = false;
  if (const Expr *Big = literalOutside(*T.E, To, &Negated)) {
    Diags.error(Big->Loc, "integer literal " + quote(Big->Spelling) +
                              (Negated ? " negated" : "") +
                              " does not fit in " + dtypeName(To) + " (" +
                              std::to_string(intMin(To)) + " to " +
                              std::to_string(intMax(To)) + ")");
    Ok = false;
  }
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
    // Only the untyped value itself takes the type: a comparison's operands
    // (a select's condition among them), a cast's operand and a read's
    // subscripts have types of their own.
    if (E.Type == DType::Bool || E.Kind == ExprKind::Cast ||
        E.Kind == ExprKind::Read)
      return;
    E.Type = To;
    for (size_t I = E.Kind == ExprKind::Select ? 1 : 0; I < E.Operands.size();
         ++I)
      Walk(*E.Operands[I]);
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

  finishStatement(L, *WriteFn, St);
  St.Rhs = std::move(Rhs->E);
  return true;
}

} // namespace loopy::sema
