//===- SplitReductions.cpp - One reduction per statement ------------------===//
#include "SplitReductions.h"
#include "TypeChecker.h"

#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <map>
#include <functional>
#include <set>

namespace loopy::sema {

namespace {

using Positions = std::vector<unsigned>; // domain positions, ascending

Positions unite(const Positions &A, const Positions &B) {
  std::set<unsigned> S(A.begin(), A.end());
  S.insert(B.begin(), B.end());
  return {S.begin(), S.end()};
}

bool has(const Positions &P, unsigned X) {
  return std::binary_search(P.begin(), P.end(), X);
}

/// \p S, a set over the indices \p All, projected onto those of \p Keep.
isl::set projectOnto(isl::set S, const Positions &All, const Positions &Keep) {
  isl_ctx *C = S.ctx().get();
  for (int I = static_cast<int>(All.size()) - 1; I >= 0; --I)
    if (!has(Keep, All[I]))
      S = take(C, isl_set_project_out(S.release(), isl_dim_set, I, 1));
  return S;
}

/// \p M, a map from a tuple over the indices \p All, with its input
/// projected onto those of \p Keep and the tuple named \p Name.
isl::map projectInput(isl::map M, const Positions &All, const Positions &Keep,
                      const std::string &Name) {
  isl_ctx *C = M.ctx().get();
  for (int I = static_cast<int>(All.size()) - 1; I >= 0; --I)
    if (!has(Keep, All[I]))
      M = take(C, isl_map_project_out(M.release(), isl_dim_in, I, 1));
  return take(C, isl_map_set_tuple_name(M.release(), isl_dim_in, Name.c_str()));
}

/// \p S, a set over the indices \p Sub, as a set over \p All (a superset)
/// whose other indices are free.
isl::set widen(isl::set S, const Positions &All, const Positions &Sub) {
  isl_ctx *C = S.ctx().get();
  for (unsigned I = 0; I < All.size(); ++I)
    if (!has(Sub, All[I]))
      S = take(C, isl_set_insert_dims(S.release(), isl_dim_set, I, 1));
  return S;
}

/// One piece of \p PA, a function of the sizes, that bounds all of \p PA
/// from above (\p Upper) or below wherever \p PA is defined (n - 1 for
/// min(n, m) - 1), on the sizes' 0-dimensional set space as the shapes
/// of arrays are; nullopt where no piece does.
std::optional<isl::aff> boundingAff(const isl::pw_aff &PA, bool Upper) {
  isl_ctx *C = PA.ctx().get();
  std::vector<isl::aff> Pieces;
  if (isl_pw_aff_foreach_piece(
          PA.get(),
          [](isl_set *S, isl_aff *A, void *User) {
            isl_set_free(S);
            static_cast<std::vector<isl::aff> *>(User)->push_back(
                isl::manage(A));
            return isl_stat_ok;
          },
          &Pieces) < 0)
    throwLastError(C);
  for (const isl::aff &A : Pieces) {
    isl::pw_aff Bound = isl::pw_aff(A).intersect_domain(PA.domain());
    isl::set Past = Upper ? PA.gt_set(Bound) : PA.lt_set(Bound);
    if (!Past.is_empty())
      continue;
    // From the parameter domain to the 0-dimensional set.
    isl::space Empty = take(C, isl_space_set_from_params(
                                   isl_aff_get_domain_space(A.get())));
    isl_multi_id *None =
        isl_multi_id_from_id_list(Empty.release(), isl_id_list_alloc(C, 0));
    return take(C, isl_aff_unbind_params_insert_domain(A.copy(), None));
  }
  return std::nullopt;
}

class Splitter {
public:
  Splitter(Kernel &K, Statement &S, DiagnosticEngine &Diags)
      : K(K), S(S), Diags(Diags), OrigIndices(S.Indices),
        OrigDomain(S.Domain), Pending(S.Reads) {}

  bool run(std::vector<Statement> &Before);

private:
  /// Extracts the reductions under \p E that must go, innermost first;
  /// \p Around are the indices around \p E, \p InReduction whether it is
  /// in a reduction's body.
  bool visit(ExprPtr &E, const Positions &Around, bool InReduction);
  /// Computes the reduction \p E, whose surrounding indices are \p Around,
  /// into a temporary by a statement of its own, and reads that instead.
  bool extract(ExprPtr &E, const Positions &Around);
  /// The indices \p E depends on, among S's original ones.
  Positions uses(const Expr &E) const;
  /// Fills the indices, domain and reads of \p T, whose right-hand side
  /// reads Pending, over the indices \p Indices.
  void finish(Statement &T, const Positions &Indices);

  Kernel &K;
  Statement &S;
  DiagnosticEngine &Diags;
  const Positions OrigIndices;
  const isl::set OrigDomain;
  /// Every access of the original statement's right-hand side, and the
  /// reads of the temporaries, over S's original tuple: Read nodes index
  /// it until finish() renumbers them.
  std::vector<Access> Pending;
  const Expr *LastTopLevel = nullptr;
  std::vector<Statement> Made;
  /// The temporaries made, by the reduction's text and the indices they
  /// keep: the same reduction twice (the softmax's max) is computed once.
  std::map<std::pair<std::string, Positions>, unsigned> Computed;
};

Positions Splitter::uses(const Expr &E) const {
  std::set<unsigned> U;
  std::function<void(const Expr &)> Walk = [&](const Expr &X) {
    if (X.Kind == ExprKind::Index)
      U.insert(X.Id);
    if (X.Kind == ExprKind::Read) {
      // The subscripts' dependence, without the domain's constraints.
      isl::map R = Pending[X.AccessId].Relation.gist_domain(OrigDomain);
      for (unsigned I = 0; I < OrigIndices.size(); ++I)
        if (isl_map_involves_dims(R.get(), isl_dim_in, I, 1) == isl_bool_true)
          U.insert(OrigIndices[I]);
    }
    for (const ExprPtr &O : X.Operands)
      Walk(*O);
  };
  Walk(E);
  return {U.begin(), U.end()};
}

bool Splitter::visit(ExprPtr &E, const Positions &Around, bool InReduction) {
  if (E->Kind != ExprKind::Reduce) {
    for (ExprPtr &O : E->Operands)
      if (!visit(O, Around, InReduction))
        return false;
    return true;
  }
  Positions Own(E->ReduceIndices.begin(), E->ReduceIndices.end());
  std::sort(Own.begin(), Own.end());
  if (!visit(E->Operands[0], unite(Around, Own), true))
    return false;
  if (InReduction || E.get() != LastTopLevel)
    return extract(E, Around);
  return true;
}

bool Splitter::extract(ExprPtr &E, const Positions &Around) {
  isl_ctx *C = OrigDomain.ctx().get();
  Positions Own(E->ReduceIndices.begin(), E->ReduceIndices.end());
  std::sort(Own.begin(), Own.end());
  Positions Used = uses(*E), Index;
  for (unsigned P : Used)
    if (has(Around, P) && !has(Own, P))
      Index.push_back(P);
  // The reduction's range at a point of the indices around it must follow
  // from the indices the temporary keeps: else keep them all.
  Positions AroundOwn = unite(Around, Own), IndexOwn = unite(Index, Own);
  auto Anonymous = [&](isl::set X) {
    return take(C, isl_set_reset_tuple_id(X.release()));
  };
  isl::set Ranges =
      Anonymous(projectOnto(OrigDomain, OrigIndices, AroundOwn));
  isl::set Implied =
      Anonymous(widen(projectOnto(OrigDomain, OrigIndices, IndexOwn),
                      AroundOwn, IndexOwn))
          .intersect(Anonymous(widen(projectOnto(OrigDomain, OrigIndices,
                                                 Around),
                                     AroundOwn, Around)));
  if (!Implied.is_subset(Ranges)) {
    Index = Around;
    IndexOwn = AroundOwn;
  }
  auto Same = Computed.find({E->Spelling, Index});
  if (Same != Computed.end()) {
    const Access &P = Pending[Same->second];
    auto Read = std::make_unique<Expr>(ExprKind::Read, E->Type, E->Loc);
    Read->Id = P.Arg;
    Read->AccessId = Same->second;
    Read->Spelling = P.Spelling;
    E = std::move(Read);
    return true;
  }

  // The temporary: one element per point of its indices' box.
  std::set<std::string> Taken;
  for (const Argument &A : K.Args)
    Taken.insert(A.Name);
  Taken.insert(K.IndexNames.begin(), K.IndexNames.end());
  std::string Name = "tmp_" + S.Name + "_" + std::to_string(Made.size());
  while (Taken.count(Name))
    Name += "_";
  isl::set Box = projectOnto(OrigDomain, OrigIndices, Index);
  isl::space SizeSpace =
      take(C, isl_space_set_from_params(isl_set_get_space(K.Context.get())));
  Argument T;
  T.Kind = ArgKind::Array;
  T.Name = Name;
  T.Loc = E->Loc;
  T.Type = E->Type;
  T.Mode = ArgMode::Out;
  T.Internal = true;
  std::vector<isl::aff> Origin;
  bool Empty = Box.is_empty();
  for (unsigned D = 0; D < Index.size(); ++D) {
    isl::aff Lo = isl::aff::zero_on_domain(SizeSpace), Extent = Lo;
    if (!Empty) {
      auto L = boundingAff(
          take(C, isl_set_dim_min(Box.copy(), D)).coalesce(), false);
      auto H = boundingAff(
          take(C, isl_set_dim_max(Box.copy(), D)).coalesce(), true);
      if (!L || !H) {
        Diags.error(E->Loc,
                    "the reduction " + quote(E->Spelling) +
                        " is computed per value of " +
                        quote(K.IndexNames[Index[D]]) +
                        " before the statement uses it, in a temporary "
                        "array, but the range of " +
                        quote(K.IndexNames[Index[D]]) +
                        " over the domain has no bound that is one "
                        "quasi-affine function of the sizes; compute it in a "
                        "kernel of its own");
        return false;
      }
      Lo = *L;
      Extent = take(C, isl_aff_add_constant_val(H->sub(*L).release(),
                                                isl_val_one(C)));
    }
    Origin.push_back(Lo);
    T.Shape.push_back(Extent);
  }
  K.Args.push_back(std::move(T));
  unsigned TA = static_cast<unsigned>(K.Args.size() - 1);

  // { S[original indices] -> tmp[index - origin] }.
  isl::space Dom = OrigDomain.space();
  isl::space MapSpace = take(C, isl_space_from_domain(Dom.copy()));
  MapSpace = take(C, isl_space_add_dims(MapSpace.release(), isl_dim_out,
                                        Index.size()));
  MapSpace = take(C, isl_space_set_tuple_name(MapSpace.release(), isl_dim_out,
                                              Name.c_str()));
  isl::aff_list Subs(OrigDomain.ctx(), static_cast<int>(Index.size()));
  std::string Spelling = Name + "[";
  // The origins, functions of the sizes, on the statement's domain.
  isl::multi_aff ToSizes = take(
      C, isl_multi_aff_zero(isl_space_map_from_domain_and_range(
             Dom.copy(), SizeSpace.copy())));
  for (unsigned D = 0; D < Index.size(); ++D) {
    isl::aff A = isl::aff::zero_on_domain(Dom);
    int Pos = static_cast<int>(std::find(OrigIndices.begin(),
                                         OrigIndices.end(), Index[D]) -
                               OrigIndices.begin());
    A = take(C, isl_aff_set_coefficient_si(A.release(), isl_dim_in, Pos, 1));
    isl::aff O = take(C, isl_aff_pullback_multi_aff(Origin[D].copy(),
                                                    ToSizes.copy()));
    Subs = Subs.add(A.sub(O));
    std::string OText = printC(Origin[D]);
    Spelling += (D ? ", " : "") + K.IndexNames[Index[D]];
    if (OText != "0")
      Spelling += OText[0] == '-' ? " + " + OText.substr(1)
                                  : " - " + (Origin[D].is_cst() ? OText
                                                                : "(" + OText + ")");
  }
  Spelling += "]";
  isl::map Rel =
      take(C, isl_multi_aff_from_aff_list(MapSpace.release(), Subs.release()))
          .as_map()
          .intersect_domain(OrigDomain);
  Pending.push_back({TA, E->Loc, Spelling, Rel});
  Computed[{E->Spelling, Index}] = static_cast<unsigned>(Pending.size() - 1);

  Statement St;
  St.Name = S.Name + "_t" + std::to_string(Made.size());
  St.Loc = E->Loc;
  St.OutputIndices = Index;
  St.ReductionIndices = Own;
  St.Rhs = std::move(E);
  finish(St, IndexOwn);
  St.Write = {TA, St.Loc, Spelling,
              projectInput(Rel, OrigIndices, IndexOwn, St.Name)
                  .intersect_domain(St.Domain)
                  .coalesce()};
  Made.push_back(std::move(St));

  auto Read = std::make_unique<Expr>(ExprKind::Read, K.Args[TA].Type,
                                     Made.back().Loc);
  Read->Id = TA;
  Read->AccessId = static_cast<unsigned>(Pending.size() - 1);
  Read->Spelling = Spelling;
  E = std::move(Read);
  return true;
}

void Splitter::finish(Statement &T, const Positions &Indices) {
  isl_ctx *C = OrigDomain.ctx().get();
  T.Indices = Indices;
  T.Domain = take(C, isl_set_set_tuple_name(
                         projectOnto(OrigDomain, OrigIndices, Indices).release(),
                         T.Name.c_str()))
                 .coalesce();
  T.Reads.clear();
  std::function<void(Expr &)> Walk = [&](Expr &X) {
    if (X.Kind == ExprKind::Read) {
      const Access &P = Pending[X.AccessId];
      X.AccessId = static_cast<unsigned>(T.Reads.size());
      T.Reads.push_back({P.Arg, P.Loc, P.Spelling,
                         projectInput(P.Relation, OrigIndices, Indices, T.Name)
                             .intersect_domain(T.Domain)
                             .coalesce()});
    }
    for (ExprPtr &O : X.Operands)
      Walk(*O);
  };
  Walk(*T.Rhs);
}

bool Splitter::run(std::vector<Statement> &Before) {
  // The reductions outside any other, in order: all but the last go.
  std::vector<const Expr *> Top;
  std::function<void(const Expr &)> Walk = [&](const Expr &X) {
    if (X.Kind == ExprKind::Reduce) {
      Top.push_back(&X);
      return;
    }
    for (const ExprPtr &O : X.Operands)
      Walk(*O);
  };
  Walk(*S.Rhs);
  bool Nested = false;
  for (const Expr *R : Top) {
    std::function<void(const Expr &)> Inner = [&](const Expr &X) {
      Nested |= X.Kind == ExprKind::Reduce;
      for (const ExprPtr &O : X.Operands)
        Inner(*O);
    };
    Inner(*R->Operands[0]);
  }
  if (Top.size() < 2 && !Nested)
    return true;
  LastTopLevel = Top.back();
  if (!visit(S.Rhs, S.OutputIndices, false))
    return false;
  // What is left of the statement: its outputs and its one reduction.
  Positions Left = S.OutputIndices, Reduced;
  std::function<void(const Expr &)> Rest = [&](const Expr &X) {
    if (X.Kind == ExprKind::Reduce)
      Reduced = unite(Reduced, Positions(X.ReduceIndices.begin(),
                                         X.ReduceIndices.end()));
    for (const ExprPtr &O : X.Operands)
      Rest(*O);
  };
  Rest(*S.Rhs);
  std::sort(Reduced.begin(), Reduced.end());
  S.ReductionIndices = Reduced;
  Access Write = S.Write;
  finish(S, unite(Left, Reduced));
  S.Write.Relation = projectInput(Write.Relation, OrigIndices, S.Indices, S.Name)
                         .intersect_domain(S.Domain)
                         .coalesce();
  for (Statement &T : Made)
    Before.push_back(std::move(T));
  return true;
}

} // namespace

bool splitReductions(Kernel &K, Statement &St, std::vector<Statement> &Before,
                     DiagnosticEngine &Diags) {
  return Splitter(K, St, Diags).run(Before);
}

} // namespace loopy::sema
