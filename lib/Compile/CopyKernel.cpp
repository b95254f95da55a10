//===- CopyKernel.cpp - A checked kernel in another isl context -----------===//
#include "loopy/Compile/CopyKernel.h"

#include <cassert>
#include <sstream>

namespace loopy {

namespace {

/// Calls \p Visit on every isl object of \p K, always in the same order.
/// The visitor takes each object by reference, so that the same walk both
/// prints a kernel's objects and fills a copy's.
template <class KernelT, class VisitFn> void walkIsl(KernelT &K, VisitFn Visit) {
  for (auto &A : K.Args) {
    for (auto &E : A.Shape)
      Visit(E);
    for (auto &E : A.Strides)
      Visit(E);
  }
  Visit(K.Context);
  Visit(K.Domain);
  for (auto &S : K.Stmts) {
    Visit(S.Domain);
    Visit(S.Write.Relation);
    for (auto &R : S.Reads)
      Visit(R.Relation);
  }
}

/// Reads the texts of a snapshot back in the order walkIsl visits them.
/// The copy is built with each object in place from the start: isl's C++
/// objects have no move constructor, and copying a null one throws.
class Reader {
public:
  Reader(const std::vector<std::string> &Texts, isl::ctx Ctx)
      : Texts(Texts), Ctx(Ctx) {}
  template <class T> T next() {
    assert(Next < Texts.size() && "the copy has the original's shape");
    const std::string &Text = Texts[Next++];
    return Text.empty() ? T() : T(Ctx, Text);
  }
  bool done() const { return Next == Texts.size(); }

private:
  const std::vector<std::string> &Texts;
  isl::ctx Ctx;
  size_t Next = 0;
};

Access copyAccess(const Access &A, isl::map Relation) {
  Access C;
  C.Arg = A.Arg;
  C.Loc = A.Loc;
  C.Spelling = A.Spelling;
  C.Relation = std::move(Relation);
  return C;
}

} // namespace

ExprPtr copyExpr(const Expr &E) {
  auto C = std::make_unique<Expr>(E.Kind, E.Type, E.Loc);
  C->Op = E.Op;
  C->Id = E.Id;
  C->AccessId = E.AccessId;
  C->IntValue = E.IntValue;
  C->FloatValue = E.FloatValue;
  C->Spelling = E.Spelling;
  C->ReduceIndices = E.ReduceIndices;
  for (const ExprPtr &O : E.Operands)
    C->Operands.push_back(O ? copyExpr(*O) : nullptr);
  return C;
}

KernelSnapshot::KernelSnapshot(const Kernel &K) : K(K) {
  walkIsl(K, [&](const auto &Obj) {
    if (Obj.is_null()) {
      Texts.emplace_back();
      return;
    }
    std::ostringstream OS;
    OS << Obj;
    Texts.push_back(OS.str());
  });
}

Kernel KernelSnapshot::instantiate(isl::ctx Ctx) const {
  Reader R(Texts, Ctx);
  Kernel C;
  C.Name = K.Name;
  C.Loc = K.Loc;
  C.Args.reserve(K.Args.size());
  for (const Argument &A : K.Args) {
    Argument CA;
    CA.Kind = A.Kind;
    CA.Name = A.Name;
    CA.Loc = A.Loc;
    CA.Type = A.Type;
    CA.Mode = A.Mode;
    for (size_t I = 0; I < A.Shape.size(); ++I)
      CA.Shape.push_back(R.next<isl::aff>());
    CA.Order = A.Order;
    for (size_t I = 0; I < A.Strides.size(); ++I)
      CA.Strides.push_back(R.next<isl::aff>());
    CA.ParamPos = A.ParamPos;
    C.Args.push_back(std::move(CA));
  }
  C.ParamNames = K.ParamNames;
  C.Fixed = K.Fixed;
  C.Context = R.next<isl::set>();
  C.Domain = R.next<isl::set>();
  C.IndexNames = K.IndexNames;
  C.Stmts.reserve(K.Stmts.size());
  for (const Statement &S : K.Stmts) {
    Statement CS;
    CS.Name = S.Name;
    CS.Loc = S.Loc;
    CS.Indices = S.Indices;
    CS.OutputIndices = S.OutputIndices;
    CS.ReductionIndices = S.ReductionIndices;
    CS.Domain = R.next<isl::set>();
    CS.Write = copyAccess(S.Write, R.next<isl::map>());
    CS.Reads.reserve(S.Reads.size());
    for (const Access &A : S.Reads)
      CS.Reads.push_back(copyAccess(A, R.next<isl::map>()));
    CS.Rhs = S.Rhs ? copyExpr(*S.Rhs) : nullptr;
    C.Stmts.push_back(std::move(CS));
  }
  assert(R.done() && "every object read back");
  return C;
}

Kernel copyKernel(const Kernel &K, isl::ctx Ctx) {
  return KernelSnapshot(K).instantiate(Ctx);
}

} // namespace loopy
