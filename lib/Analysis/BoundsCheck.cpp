//===- BoundsCheck.cpp - Accesses must stay inside their arrays ----------===//
//
// For every access { S[indices] -> A[subscripts] } the set of iterations
// whose element lies outside A's extents must be empty for every parameter
// value the context allows. isl decides it; a non-empty set yields a
// witness for the message.
//
//===----------------------------------------------------------------------===//
#include "loopy/Analysis/Checks.h"
#include "loopy/IR/IRPrinter.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

namespace loopy {

/// { A[x] : 0 <= x_d < extent_d for every d }, in the space of \p Range
/// (the range space of an access to \p A).
static isl::set arrayExtent(const Argument &A, isl::space Range) {
  isl_ctx *C = Range.ctx().get();
  isl::set Ext = isl::set::universe(Range);
  isl::id Id = take(C, isl_space_get_tuple_id(Range.get(), isl_dim_set));
  for (unsigned D = 0; D < A.rank(); ++D) {
    Ext = take(C, isl_set_lower_bound_si(Ext.release(), isl_dim_set, D, 0));
    isl::aff X = take(C, isl_aff_var_on_domain(
                             isl_local_space_from_space(Range.copy()),
                             isl_dim_set, D));
    isl::aff E = take(C, isl_aff_add_dims(A.Shape[D].copy(), isl_dim_in,
                                          A.rank()));
    E = take(C, isl_aff_set_tuple_id(E.release(), isl_dim_in, Id.copy()));
    Ext = Ext.intersect(X.lt_set(E));
  }
  return Ext;
}

/// The value of the parameter function \p F at the parameters of \p P.
static long evalAtParams(const isl::aff &F, const isl::point &P) {
  isl_ctx *C = P.ctx().get();
  isl::set Params = isl::set(P).params();
  isl::point Q =
      take(C, isl_set_from_params(Params.release())).sample_point();
  return toLong(F.eval(Q));
}

static bool checkAccess(const Kernel &K, const Statement &S, const Access &Acc,
                        bool IsWrite, DiagnosticEngine &Diags) {
  const Argument &A = K.Args[Acc.Arg];
  isl::set Ext = arrayExtent(A, Acc.Relation.get_space().range());
  isl::set Inside = Acc.Relation.intersect_range(Ext).domain();
  isl::set Bad = Acc.Relation.domain().subtract(Inside);
  if (Bad.is_empty())
    return true;
  isl::point P = smallestPoint(Bad);
  isl::set At(P);
  isl::point Elem = Acc.Relation.intersect_domain(At).range().sample_point();
  std::vector<long> Sub = coordinates(Elem, isl_dim_set, 0, A.rank());

  std::vector<std::string> Names;
  for (unsigned Pos : S.Indices)
    Names.push_back(K.IndexNames[Pos]);
  std::string Where =
      describeValues(Names, coordinates(P, isl_dim_set, 0, Names.size()));
  std::string Params = describeParams(Bad, P);
  if (!Params.empty())
    Where += (Where.empty() ? "" : " with ") + Params;

  std::string Why;
  for (unsigned D = 0; D < A.rank() && Why.empty(); ++D) {
    long Extent = evalAtParams(A.Shape[D], P);
    if (Sub[D] < 0)
      Why = "subscript " + std::to_string(D) + " is negative";
    else if (Sub[D] >= Extent) {
      std::string E = islText(A.Shape[D]);
      Why = "dimension " + std::to_string(D) + " of " + quote(A.Name) +
            " has extent " +
            (E == std::to_string(Extent) ? E : E + " = " + std::to_string(Extent));
    }
  }
  Diags.error(Acc.Loc, std::string(IsWrite ? "write to " : "read of ") +
                           quote(Acc.Spelling) +
                           " can be out of bounds: at " + Where + " it " +
                           (IsWrite ? "writes " : "reads ") + A.Name + "[" +
                           joinValues(Sub) + "], but " + Why);
  return false;
}

bool checkAccessesInBounds(const Kernel &K, DiagnosticEngine &Diags) {
  bool Ok = true;
  for (const Statement &S : K.Stmts) {
    Ok &= checkAccess(K, S, S.Write, true, Diags);
    for (const Access &R : S.Reads)
      Ok &= checkAccess(K, S, R, false, Diags);
  }
  return Ok;
}

} // namespace loopy
