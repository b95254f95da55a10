//===- CompiledStatement.cpp - A statement ready to run on host data ------===//
#include "CompiledStatement.h"
#include "loopy/Support/Isl.h"

#include <optional>

#include "Instantiate.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <cstdlib>

namespace loopy::interp {

CompiledStatement::CompiledStatement(const Kernel &K, unsigned StmtIdx,
                                     const HostData &D)
    : K(K), S(K.Stmts.at(StmtIdx)), D(D) {
  for (const std::string &Name : K.IndexNames)
    Slots.add(Name);
  for (unsigned I : S.Indices)
    Names.push_back(K.IndexNames[I]);
  Domain = instantiate(S.Domain, D.Params);
  OutputSet = sliceSet(Domain, Names, {}, tuplePositions(S, S.OutputIndices));
  Outputs = LoopNest(OutputSet, S.OutputIndices, Slots);
  WriteOffset = offsetOf(S.Write, S.OutputIndices);
  Rhs = compileValue(*S.Rhs, S.OutputIndices);
}

IntExpr CompiledStatement::offsetOf(const Access &A,
                                    const std::vector<unsigned> &Active) {
  const HostArray &H = D.array(K.Args[A.Arg].Name);
  if (H.strides().empty())
    return IntExpr::constant(0);
  std::vector<unsigned> Pos = tuplePositions(S, Active);
  isl::set Context = sliceSet(Domain, Names, Pos, {}).params();
  if (Context.is_empty()) // never evaluated, and isl has no expression
    return IntExpr::constant(0);
  // [active] -> { [] -> A[subscripts] }, then the sum of stride * subscript.
  isl::map M = inputsToParams(instantiate(A.Relation, D.Params), Names, Pos);
  isl::pw_multi_aff Sub = take(M.ctx(), isl_pw_multi_aff_from_map(M.copy()));
  std::optional<isl::pw_aff> Off;
  for (unsigned Dim = 0; Dim < H.strides().size(); ++Dim) {
    isl::pw_aff X =
        Sub.at(Dim).scale(isl::val(M.ctx(), H.strides()[Dim]));
    Off = Off ? Off->add(X) : X;
  }
  return IntExpr::fromPwAff(*Off, Context, Slots);
}

void CompiledStatement::compileLeaf(const Expr &E, ValueNode &N) {
  switch (E.Kind) {
  case ExprKind::IntConst:
    N.Const = isFloat(E.Type)
                  ? castValue(intValue(DType::I64, E.IntValue), DType::I64,
                              E.Type)
                  : intValue(E.Type, E.IntValue);
    return;
  case ExprKind::FloatConst:
    N.Const = floatValue(E.Type, E.FloatValue);
    return;
  case ExprKind::Param:
    N.Const = intValue(DType::I64, D.Params.at(K.ParamNames[E.Id]));
    return;
  case ExprKind::Scalar: {
    const HostScalar &Sc = D.Scalars.at(K.Args[E.Id].Name);
    N.Const = isFloat(E.Type) ? floatValue(E.Type, Sc.Float)
                              : intValue(E.Type, Sc.Int);
    return;
  }
  case ExprKind::Index:
    N.Slot = E.Id;
    return;
  default:
    return;
  }
}

ValueNode CompiledStatement::compileValue(const Expr &E,
                                          const std::vector<unsigned> &Active) {
  ValueNode N;
  N.Kind = E.Kind;
  N.Type = E.Type;
  N.Op = E.Op;
  if (!E.Operands.empty())
    N.OperandType = E.Operands[0]->Type;
  switch (E.Kind) {
  case ExprKind::Read: {
    const Access &A = S.Reads.at(E.AccessId);
    N.Data = static_cast<const unsigned char *>(
        D.array(K.Args[A.Arg].Name).data());
    N.Offset = offsetOf(A, Active);
    return N;
  }
  case ExprKind::Reduce: {
    std::vector<unsigned> Reduced = E.ReduceIndices;
    std::sort(Reduced.begin(), Reduced.end());
    std::vector<unsigned> Inner = Active;
    Inner.insert(Inner.end(), Reduced.begin(), Reduced.end());
    // [active] -> { [reduced] }: the reduction's range at each point.
    isl::set Range = sliceSet(Domain, Names, tuplePositions(S, Active),
                              tuplePositions(S, Reduced));
    N.Nest = std::make_unique<LoopNest>(Range, Reduced, Slots);
    N.Kids.push_back(compileValue(*E.Operands[0], Inner));
    return N;
  }
  default:
    break;
  }
  compileLeaf(E, N);
  for (const ExprPtr &Op : E.Operands)
    N.Kids.push_back(compileValue(*Op, Active));
  return N;
}

} // namespace loopy::interp
