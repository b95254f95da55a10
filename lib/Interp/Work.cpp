//===- Work.cpp - Counted operations and compulsory traffic ---------------===//
#include "loopy/Interp/Work.h"

#include "Instantiate.h"
#include "LoopNest.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace loopy {

using namespace interp;

namespace {

/// Whether \p E is computed from indices, parameters and integer constants
/// alone: address arithmetic, which a compiler folds into subscripts and
/// loop bounds, not work on the data.
bool isIndexExpr(const Expr &E) {
  switch (E.Kind) {
  case ExprKind::IntConst:
  case ExprKind::Index:
  case ExprKind::Param:
    return true;
  case ExprKind::Unary:
  case ExprKind::Binary:
  case ExprKind::Call:
  case ExprKind::Cast:
  case ExprKind::Select:
    return std::all_of(E.Operands.begin(), E.Operands.end(),
                       [](const ExprPtr &Op) { return isIndexExpr(*Op); });
  default:
    return false;
  }
}

/// The operations node \p E performs itself, its operands left out.
unsigned ownOperations(const Expr &E) {
  switch (E.Kind) {
  case ExprKind::Unary:
    return E.unaryOp() == UnaryOp::Neg;
  case ExprKind::Binary:
    switch (E.binaryOp()) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Rem:
      return 1;
    default:
      return 0;
    }
  case ExprKind::Call:
    return E.mathFn() == MathFn::Fma ? 2 : 1;
  default:
    return 0;
  }
}

/// The operations of one statement at fixed parameter values.
class StatementWork {
public:
  /// \param Domain { S[indices] }: \p S's domain at the parameter values.
  StatementWork(const Kernel &K, const Statement &S, const isl::set &Domain)
      : S(S), Domain(Domain) {
    for (unsigned I : S.Indices)
      Names.push_back(K.IndexNames[I]);
  }

  /// The operations of \p E, evaluated once per point of the domain
  /// projected onto the kernel indices \p Active.
  double operations(const Expr &E, const std::vector<unsigned> &Active) {
    std::vector<const Expr *> Reductions;
    double Own = operationsOutside(E, Reductions);
    double Total = Own ? Own * points(Active) : 0;
    for (const Expr *R : Reductions) {
      std::vector<unsigned> Inner = Active;
      Inner.insert(Inner.end(), R->ReduceIndices.begin(),
                   R->ReduceIndices.end());
      // One combine per term, and each term's own operations.
      Total += points(Inner) + operations(*R->Operands[0], Inner);
    }
    return Total;
  }

private:
  /// The operations of \p E outside its reductions, which are appended to
  /// \p Reductions.
  double operationsOutside(const Expr &E,
                           std::vector<const Expr *> &Reductions) {
    if (E.Kind == ExprKind::Reduce) {
      Reductions.push_back(&E);
      return 0;
    }
    // A read's operands are its subscripts.
    if (E.Kind == ExprKind::Read || isIndexExpr(E))
      return 0;
    double N = ownOperations(E);
    for (const ExprPtr &Op : E.Operands)
      N += operationsOutside(*Op, Reductions);
    return N;
  }

  /// The points of the domain projected onto the kernel indices \p Active.
  double points(const std::vector<unsigned> &Active) {
    return countPoints(sliceSet(Domain, Names, {}, tuplePositions(S, Active)));
  }

  const Statement &S;
  isl::set Domain;
  std::vector<std::string> Names;
};

/// Per array argument: the elements accessed, { A[subscripts] }.
using Footprints = std::map<unsigned, isl::set>;

/// Adds to \p F the elements \p A accesses over \p Domain { S[indices] }
/// (at the parameter values \p Params).
void addFootprint(Footprints &F, const Access &A, const isl::set &Domain,
                  const ParamValues &Params) {
  isl::set Image = Domain.apply(instantiate(A.Relation, Params));
  auto [It, New] = F.emplace(A.Arg, Image);
  if (!New)
    It->second = It->second.unite(Image).coalesce();
}

double bytesOf(const Kernel &K, const Footprints &F) {
  double Bytes = 0;
  for (const auto &[Arg, Elements] : F)
    Bytes += static_cast<double>(countPoints(Elements)) *
             dtypeSize(K.Args[Arg].Type);
  return Bytes;
}

} // namespace

KernelWork countWork(const Kernel &K, const ParamValues &Given) {
  ParamValues Params;
  std::string Error;
  if (!collectParams(K, Given, Params, Error))
    throw std::invalid_argument(Error);
  KernelWork W;
  Footprints Read, Written;
  for (const Statement &S : K.Stmts) {
    isl::set Domain = instantiate(S.Domain, Params);
    W.Flops += StatementWork(K, S, Domain).operations(*S.Rhs, S.OutputIndices);
    for (const Access &A : S.Reads)
      addFootprint(Read, A, Domain, Params);
    addFootprint(Written, S.Write, Domain, Params);
  }
  W.BytesRead = bytesOf(K, Read);
  W.BytesWritten = bytesOf(K, Written);
  return W;
}

} // namespace loopy
