//===- LoopPrinter.cpp - A lifted kernel as .loop text --------------------===//
#include "LoopPrinter.h"

#include <algorithm>

namespace loopy::extract {

namespace {

/// Binding strength in .loop: 1 for ||, up to 6 for * / %, 7 for unary
/// operators, 8 for operands that never need parentheses.
int binaryLevel(const std::string &Op) {
  if (Op == "||")
    return 1;
  if (Op == "&&")
    return 2;
  if (Op == "==" || Op == "!=")
    return 3;
  if (Op == "<" || Op == "<=" || Op == ">" || Op == ">=")
    return 4;
  if (Op == "+" || Op == "-")
    return 5;
  return 6;
}

int polyLevel(const Poly &P) {
  if (P.terms().size() > 1)
    return 5;
  const auto &[M, C] = *P.terms().begin();
  if (M.size() == 1 && (C == 1 || C == -1))
    return C == 1 ? 8 : 7;
  return M.empty() ? (C < 0 ? 7 : 8) : 6;
}

class ExprPrinter {
public:
  explicit ExprPrinter(const LiftedKernel &K) : K(K), Names(K.symbolNames()) {}

  std::string print(const LExprPtr &E) { return printAt(E).first; }

  std::string subscripts(unsigned Array, const std::vector<Poly> &Raw) {
    std::string S;
    for (const Poly &P : K.Arrays[Array].coordinates(Raw))
      S += (S.empty() ? "" : ", ") + P.str(Names);
    return K.Arrays[Array].Name + "[" + S + "]";
  }

private:
  std::pair<std::string, int> printAt(const LExprPtr &E) {
    switch (E->K) {
    case LExpr::Kind::Literal:
      return {E->Text, E->Text[0] == '-' ? 7 : 8};
    case LExpr::Kind::Poly:
      return {E->P.str(Names), polyLevel(E->P)};
    case LExpr::Kind::Scalar:
      return {K.Scalars[E->Id].Name, 8};
    case LExpr::Kind::Read:
      return {subscripts(E->Id, E->Subs), 8};
    case LExpr::Kind::Unary: {
      auto [S, L] = printAt(E->Ops[0]);
      return {E->Text + (L <= 7 ? "(" + S + ")" : S), 7};
    }
    case LExpr::Kind::Binary: {
      int Level = binaryLevel(E->Text);
      auto [A, LA] = printAt(E->Ops[0]);
      auto [B, LB] = printAt(E->Ops[1]);
      if (LA < Level)
        A = "(" + A + ")";
      if (LB <= Level)
        B = "(" + B + ")";
      return {A + " " + E->Text + " " + B, Level};
    }
    case LExpr::Kind::Call:
    case LExpr::Kind::Select: {
      std::string S = E->K == LExpr::Kind::Call ? E->Text : "select";
      S += "(";
      for (size_t I = 0; I < E->Ops.size(); ++I)
        S += (I ? ", " : "") + print(E->Ops[I]);
      return {S + ")", 8};
    }
    case LExpr::Kind::Cast:
      return {std::string(dtypeName(E->Type)) + "(" + print(E->Ops[0]) + ")", 8};
    case LExpr::Kind::Reduce: {
      // sum(k, sum(l, e)) reads better as sum((k, l), e).
      std::vector<unsigned> Indices = E->RedIndices;
      LExprPtr Body = E->Ops[0];
      while (Body->K == LExpr::Kind::Reduce && Body->Text == E->Text) {
        Indices.insert(Indices.end(), Body->RedIndices.begin(),
                       Body->RedIndices.end());
        Body = Body->Ops[0];
      }
      std::string Over;
      for (unsigned I : Indices)
        Over += (Over.empty() ? "" : ", ") + Names[I];
      if (Indices.size() > 1)
        Over = "(" + Over + ")";
      return {E->Text + "(" + Over + ", " + print(Body) + ")", 8};
    }
    case LExpr::Kind::Old:
    case LExpr::Kind::Inf:
      break;
    }
    assert(false && "placeholder left in a lifted value");
    return {"?", 8};
  }

  const LiftedKernel &K;
  std::vector<std::string> Names;
};

std::string arrayType(const LiftedKernel &K, const ArrayArg &A) {
  std::vector<std::string> Names = K.symbolNames();
  std::string S = A.Read && A.Written ? "inout " : A.Written ? "out " : "in ";
  S += dtypeName(A.Elem);
  S += "[";
  for (size_t D = 0; D < A.Shape.size(); ++D)
    S += (D ? ", " : "") + A.Shape[D].str(Names);
  return S + "]";
}

/// `kernel name(n, m: index; a: in f32[n, m], ...) {`, wrapped before 80
/// columns with the continuation lines under the first parameter.
std::string signature(const LiftedKernel &K) {
  std::vector<std::pair<unsigned, std::string>> Args;
  std::vector<std::pair<unsigned, std::string>> Indices;
  for (const Symbol &S : K.Symbols)
    if (S.K == Symbol::Kind::Param)
      Indices.push_back({S.Order, S.Name});
  for (const ScalarArg &S : K.Scalars)
    Args.push_back({S.Order, S.Name + ": " + dtypeName(S.Type)});
  for (const ArrayArg &A : K.Arrays)
    if (A.Read || A.Written)
      Args.push_back({A.Order, A.Name + ": " + arrayType(K, A)});
  std::stable_sort(Indices.begin(), Indices.end());
  std::stable_sort(Args.begin(), Args.end());

  std::vector<std::string> Items;
  if (!Indices.empty()) {
    std::string Group;
    for (const auto &I : Indices)
      Group += (Group.empty() ? "" : ", ") + I.second;
    Items.push_back(Group + ": index" + (Args.empty() ? "" : ";"));
  }
  for (size_t I = 0; I < Args.size(); ++I)
    Items.push_back(Args[I].second + (I + 1 < Args.size() ? "," : ""));
  if (Items.empty())
    Items.push_back("");
  Items.back() += ") {";

  std::string Head = "kernel " + K.Name + "(";
  std::string Out = Head, Line = Head;
  for (size_t I = 0; I < Items.size(); ++I) {
    bool Fits = Line.size() + (I ? 1 : 0) + Items[I].size() <= 80;
    if (I && !Fits) {
      Out += "\n" + std::string(Head.size(), ' ');
      Line = std::string(Head.size(), ' ');
    } else if (I) {
      Out += " ";
      Line += " ";
    }
    Out += Items[I];
    Line += Items[I];
  }
  return Out + "\n";
}

} // namespace

std::string printKernel(const LiftedKernel &K) {
  std::vector<clang::SourceRange> LineOrigins;
  return printKernel(K, LineOrigins);
}

std::string printKernel(const LiftedKernel &K,
                        std::vector<clang::SourceRange> &LineOrigins) {
  LineOrigins.clear();
  std::string Out;
  auto Emit = [&](const std::string &Text, clang::SourceRange From) {
    Out += Text;
    LineOrigins.resize(std::count(Out.begin(), Out.end(), '\n'), From);
  };
  Emit("# " + K.Origin + "\n", K.Loc);
  if (!K.HostLoops.empty()) {
    std::string Loops;
    for (const std::string &L : K.HostLoops)
      Loops += (Loops.empty() ? "'" : ", '") + L + "'";
    Emit("# inside the loops over " + Loops +
             ", which stay on the host: it runs once per iteration of them\n",
         K.Loc);
  }
  if (!K.HostNote.empty())
    Emit("# " + K.HostNote + "\n", K.Loc);
  if (!K.PartNote.empty())
    Emit("# " + K.PartNote + "\n", K.Loc);
  Emit(signature(K), K.Loc);
  if (!K.Assumption.empty())
    Emit("  assume " + K.Assumption + ";\n", K.Loc);
  std::string Tuple;
  for (const Loop &L : K.Loops)
    Tuple += (Tuple.empty() ? "" : ", ") + K.Symbols[L.Index].Name;
  clang::SourceRange Loops =
      K.Loops.empty() ? clang::SourceRange(K.Loc) : K.Loops[0].Header;
  Emit("  domain { [" + Tuple + "] : " +
           K.constraints(static_cast<unsigned>(K.Loops.size())) + " }\n",
       Loops);
  ExprPrinter P(K);
  for (const Statement &S : K.Stmts)
    Emit("  " + P.subscripts(S.Array, S.Subs) + " = " + P.print(S.Value) +
             ";\n",
         S.Range);
  Emit("}\n", K.Loc);
  return Out;
}

} // namespace loopy::extract
