//===- MergeIndices.cpp - Indices that always travel together, as one -----===//
#include "loopy/Schedule/MergeIndices.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>
#include <map>

namespace loopy {

ExprPtr cloneExpr(const Expr &E) {
  auto C = std::make_unique<Expr>(E.Kind, E.Type, E.Loc);
  C->Op = E.Op;
  C->Id = E.Id;
  C->AccessId = E.AccessId;
  C->IntValue = E.IntValue;
  C->FloatValue = E.FloatValue;
  C->Spelling = E.Spelling;
  C->ReduceIndices = E.ReduceIndices;
  for (const ExprPtr &O : E.Operands)
    C->Operands.push_back(cloneExpr(*O));
  return C;
}

namespace {

/// Does \p E use domain index \p Pos as a value?
bool usesIndexValue(const Expr &E, unsigned Pos) {
  if (E.Kind == ExprKind::Index && E.Id == Pos)
    return true;
  return std::any_of(E.Operands.begin(), E.Operands.end(),
                     [&](const ExprPtr &O) { return usesIndexValue(*O, Pos); });
}

bool contains(const std::vector<unsigned> &V, unsigned X) {
  return std::find(V.begin(), V.end(), X) != V.end();
}

bool involves(const isl::aff &A, unsigned Pos) {
  return checkBool(A.ctx().get(),
                   isl_aff_involves_dims(A.get(), isl_dim_in, Pos, 1));
}

/// Does \p A use dimensions \p P and \p Q only as c * (NQ * P + Q)?
bool linearIn(const isl::aff &A, unsigned P, unsigned Q, long NQ) {
  isl_ctx *Ctx = A.ctx().get();
  unsigned Divs = checkSize(Ctx, isl_aff_dim(A.get(), isl_dim_div));
  for (unsigned D = 0; D < Divs; ++D) {
    isl::aff Div = take(Ctx, isl_aff_get_div(A.get(), D));
    if (involves(Div, P) || involves(Div, Q))
      return false;
  }
  isl::val CP = take(Ctx, isl_aff_get_coefficient_val(A.get(), isl_dim_in, P));
  isl::val CQ = take(Ctx, isl_aff_get_coefficient_val(A.get(), isl_dim_in, Q));
  return CP.eq(CQ.mul(isl::val(A.ctx(), NQ)));
}

/// The folding of an array: its dimensions Slow and Fast (adjacent, Fast
/// the faster) become one at the lower of the two positions.
struct Fold {
  unsigned Slow, Fast;
  unsigned at() const { return std::min(Slow, Fast); }
};

/// { A[subscripts] -> A[folded subscripts] } for array \p A folded by \p F,
/// whose faster dimension has the fixed extent \p W.
isl::multi_aff foldMap(isl::ctx Ctx, const Argument &A, const Fold &F, long W) {
  isl_ctx *C = Ctx.get();
  unsigned N = A.rank();
  isl::space In = take(C, isl_space_set_alloc(C, 0, N));
  In = take(C, isl_space_set_tuple_name(In.release(), isl_dim_set,
                                        A.Name.c_str()));
  isl::multi_aff Id = isl::multi_aff::identity_on_domain(In);
  auto Var = [&](unsigned D) { return Id.at(D); };
  isl::aff_list List(Ctx, N - 1);
  for (unsigned D = 0; D < N; ++D) {
    if (D == std::max(F.Slow, F.Fast))
      continue;
    List = List.add(D == F.at() ? Var(F.Slow).scale(isl::val(Ctx, W)).add(Var(F.Fast))
                                : Var(D));
  }
  isl::space Out = take(C, isl_space_set_alloc(C, 0, N - 1));
  Out = take(C, isl_space_set_tuple_name(Out.release(), isl_dim_set,
                                         A.Name.c_str()));
  isl::space Sp = take(C, isl_space_map_from_domain_and_range(In.release(),
                                                              Out.release()));
  return take(C, isl_multi_aff_from_aff_list(Sp.release(), List.release()));
}

/// \p D, a box in dimensions \p P and \p Q of extents \p NP and \p NQ, with
/// the two replaced by one of NP * NQ values where P was (Q removed), named
/// \p Name.
isl::set mergeDims(const isl::set &D, unsigned P, unsigned Q, long NP, long NQ,
                   const std::string &Name) {
  isl_ctx *C = D.ctx().get();
  isl::set S = take(C, isl_set_eliminate(D.copy(), isl_dim_set, P, 1));
  S = take(C, isl_set_project_out(S.release(), isl_dim_set, Q, 1));
  unsigned T = P < Q ? P : P - 1;
  S = addConstraint(S, {{isl_dim_set, T, 1}}, 0, false);
  S = addConstraint(S, {{isl_dim_set, T, -1}}, NP * NQ - 1, false);
  S = take(C, isl_set_set_dim_name(S.release(), isl_dim_set, T, Name.c_str()));
  // Projecting drops the tuple's name.
  if (checkBool(C, isl_set_has_tuple_name(D.get())))
    S = take(C, isl_set_set_tuple_name(S.release(),
                                       isl_set_get_tuple_name(D.get())));
  return S;
}

/// { S'[..., t, ...] -> S[..., t / NQ, ..., t % NQ, ...] }: the statement's
/// old indices as functions of the merged ones, P and Q being positions in
/// the old tuple \p Old and the merged domain being \p NewDomain.
isl::multi_aff unmerge(const isl::space &Old, const isl::set &NewDomain,
                       unsigned P, unsigned Q, long NQ) {
  isl_ctx *C = Old.ctx().get();
  isl::space NewSp = NewDomain.space();
  isl::multi_aff Id = isl::multi_aff::identity_on_domain(NewSp);
  unsigned N = checkSize(C, isl_space_dim(Old.get(), isl_dim_set));
  unsigned T = P < Q ? P : P - 1;
  isl::val V(Old.ctx(), NQ);
  isl::aff Tv = Id.at(T);
  isl::aff_list List(Old.ctx(), N);
  for (unsigned D = 0; D < N; ++D) {
    if (D == P)
      List = List.add(Tv.scale_down(V).floor());
    else if (D == Q)
      List = List.add(Tv.mod(V));
    else
      List = List.add(Id.at(D > Q ? D - 1 : D));
  }
  isl::space Sp = take(C, isl_space_map_from_domain_and_range(NewSp.release(),
                                                              Old.copy()));
  return take(C, isl_multi_aff_from_aff_list(Sp.release(), List.release()));
}

/// \p K with indices \p P (slower) and \p Q merged, or nothing where they
/// do not travel together.
std::optional<Kernel> mergePair(const Kernel &K, unsigned P, unsigned Q,
                                std::string &MergedName) {
  std::optional<long> NP = fixedExtent(K.Domain, P), NQ = fixedExtent(K.Domain, Q);
  if (!NP || !NQ || *NP < 2 || *NQ < 2)
    return std::nullopt;
  // A box in (P, Q) whatever the other indices.
  isl_ctx *C = K.Domain.ctx().get();
  {
    isl::set Rest = take(C, isl_set_eliminate(K.Domain.copy(), isl_dim_set, P, 1));
    Rest = take(C, isl_set_eliminate(Rest.release(), isl_dim_set, Q, 1));
    isl::set Box = isl::set::universe(K.Domain.space());
    Box = addConstraint(Box, {{isl_dim_set, P, 1}}, 0, false);
    Box = addConstraint(Box, {{isl_dim_set, P, -1}}, *NP - 1, false);
    Box = addConstraint(Box, {{isl_dim_set, Q, 1}}, 0, false);
    Box = addConstraint(Box, {{isl_dim_set, Q, -1}}, *NQ - 1, false);
    if (!Rest.intersect(Box).is_equal(K.Domain))
      return std::nullopt;
  }
  bool Any = false;
  for (const Statement &S : K.Stmts) {
    bool HasP = contains(S.Indices, P), HasQ = contains(S.Indices, Q);
    if (HasP != HasQ)
      return std::nullopt;
    if (!HasP)
      continue;
    Any = true;
    if (contains(S.OutputIndices, P) != contains(S.OutputIndices, Q) ||
        usesIndexValue(*S.Rhs, P) || usesIndexValue(*S.Rhs, Q))
      return std::nullopt;
  }
  if (!Any)
    return std::nullopt;

  // The folds the accesses ask for: an access that subscripts one
  // dimension with P and another with Q folds those two.
  std::map<unsigned, Fold> Folds;
  std::map<unsigned, std::vector<isl::multi_aff>> Functions; // by statement
  for (unsigned SI = 0; SI < K.Stmts.size(); ++SI) {
    const Statement &S = K.Stmts[SI];
    std::vector<const Access *> All = {&S.Write};
    for (const Access &R : S.Reads)
      All.push_back(&R);
    for (const Access *A : All) {
      std::optional<isl::multi_aff> MA = accessFunction(A->Relation);
      if (!MA)
        return std::nullopt;
      Functions[SI].push_back(*MA);
      if (!contains(S.Indices, P))
        continue;
      unsigned LP = S.tuplePos(P), LQ = S.tuplePos(Q);
      std::vector<unsigned> WithP, WithQ;
      for (unsigned D = 0; D < MA->size(); ++D) {
        if (involves(MA->at(D), LP))
          WithP.push_back(D);
        if (involves(MA->at(D), LQ))
          WithQ.push_back(D);
      }
      if (WithP.size() > 1 || WithQ.size() > 1 || WithP.size() != WithQ.size())
        return std::nullopt;
      if (WithP.empty() || WithP[0] == WithQ[0])
        continue;
      const Argument &Arg = K.Args[A->Arg];
      Fold F{WithP[0], WithQ[0]};
      bool Adjacent = Arg.Order == Layout::RowMajor   ? F.Fast == F.Slow + 1
                      : Arg.Order == Layout::ColMajor ? F.Slow == F.Fast + 1
                                                      : false;
      if (!Adjacent)
        return std::nullopt;
      auto [It, New] = Folds.try_emplace(A->Arg, F);
      if (!New && (It->second.Slow != F.Slow || It->second.Fast != F.Fast))
        return std::nullopt;
    }
  }
  // A folded array's faster dimension has a fixed extent.
  std::map<unsigned, long> Widths;
  for (const auto &[Arg, F] : Folds) {
    isl::aff W = K.Args[Arg].Shape[F.Fast].gist_params(K.Context);
    if (!W.is_cst())
      return std::nullopt;
    Widths[Arg] = toLong(W.constant_val());
  }
  auto Folded = [&](const Access &A, isl::multi_aff MA) {
    auto It = Folds.find(A.Arg);
    if (It == Folds.end())
      return MA;
    return foldMap(K.Domain.ctx(), K.Args[A.Arg], It->second, Widths[A.Arg])
        .pullback(MA);
  };

  // Every folded subscript uses P and Q as c * (NQ * P + Q) only.
  for (unsigned SI = 0; SI < K.Stmts.size(); ++SI) {
    const Statement &S = K.Stmts[SI];
    if (!contains(S.Indices, P))
      continue;
    unsigned LP = S.tuplePos(P), LQ = S.tuplePos(Q);
    for (unsigned AI = 0; AI < Functions[SI].size(); ++AI) {
      const Access &A = AI == 0 ? S.Write : S.Reads[AI - 1];
      isl::multi_aff MA = Folded(A, Functions[SI][AI]);
      for (unsigned D = 0; D < MA.size(); ++D)
        if (!linearIn(MA.at(D), LP, LQ, *NQ))
          return std::nullopt;
    }
  }

  // Build the merged kernel.
  MergedName = K.IndexNames[P] + "_" + K.IndexNames[Q];
  while (std::find(K.IndexNames.begin(), K.IndexNames.end(), MergedName) !=
         K.IndexNames.end())
    MergedName += "_";
  unsigned T = P < Q ? P : P - 1;
  auto NewPos = [&](unsigned I) {
    if (I == P || I == Q)
      return T;
    return I > Q ? I - 1 : I;
  };
  Kernel M = cloneKernel(K);
  for (const auto &[Arg, F] : Folds) {
    Argument &A = M.Args[Arg];
    isl::aff Ext = A.Shape[F.Slow].scale(isl::val(K.Domain.ctx(), Widths[Arg]));
    A.Shape.erase(A.Shape.begin() + std::max(F.Slow, F.Fast));
    A.Shape[F.at()] = Ext;
  }
  M.Domain = mergeDims(K.Domain, P, Q, *NP, *NQ, MergedName);
  M.IndexNames[P] = MergedName;
  M.IndexNames.erase(M.IndexNames.begin() + Q);

  std::function<void(Expr &)> Renumber = [&](Expr &E) {
    if (E.Kind == ExprKind::Index)
      E.Id = NewPos(E.Id);
    if (E.Kind == ExprKind::Reduce) {
      std::vector<unsigned> R;
      for (unsigned I : E.ReduceIndices)
        if (I != Q)
          R.push_back(NewPos(I));
      E.ReduceIndices = R;
    }
    for (ExprPtr &O : E.Operands)
      Renumber(*O);
  };
  auto Positions = [&](std::vector<unsigned> &V) {
    std::vector<unsigned> Out;
    for (unsigned I : V)
      if (I != Q)
        Out.push_back(NewPos(I));
    V = Out;
  };
  for (unsigned SI = 0; SI < K.Stmts.size(); ++SI) {
    const Statement &S = K.Stmts[SI];
    Statement &N = M.Stmts[SI];
    Positions(N.Indices);
    Positions(N.OutputIndices);
    Positions(N.ReductionIndices);
    Renumber(*N.Rhs);
    std::optional<isl::multi_aff> Back;
    if (contains(S.Indices, P)) {
      unsigned LP = S.tuplePos(P), LQ = S.tuplePos(Q);
      N.Domain = mergeDims(S.Domain, LP, LQ, *NP, *NQ, MergedName);
      Back = unmerge(S.Domain.space(), N.Domain, LP, LQ, *NQ);
    }
    auto Rewrite = [&](Access &A, const isl::multi_aff &F) {
      isl::multi_aff MA = Folded(A, F);
      if (Back)
        MA = MA.pullback(*Back);
      A.Relation = MA.as_map().intersect_domain(N.Domain).coalesce();
    };
    Rewrite(N.Write, Functions[SI][0]);
    for (unsigned R = 0; R < N.Reads.size(); ++R)
      Rewrite(N.Reads[R], Functions[SI][R + 1]);
  }
  return M;
}

} // namespace

Kernel cloneKernel(const Kernel &K) {
  Kernel M;
  M.Name = K.Name;
  M.Loc = K.Loc;
  M.Args = K.Args;
  M.ParamNames = K.ParamNames;
  M.Fixed = K.Fixed;
  M.Context = K.Context;
  M.Domain = K.Domain;
  M.IndexNames = K.IndexNames;
  for (const Statement &S : K.Stmts) {
    Statement N;
    N.Name = S.Name;
    N.Loc = S.Loc;
    N.Indices = S.Indices;
    N.OutputIndices = S.OutputIndices;
    N.ReductionIndices = S.ReductionIndices;
    N.Domain = S.Domain;
    N.Write = S.Write;
    N.Reads = S.Reads;
    N.Rhs = cloneExpr(*S.Rhs);
    for (const Statement::Output &O : S.MoreOutputs)
      N.MoreOutputs.push_back({O.Write, cloneExpr(*O.Rhs)});
    M.Stmts.push_back(std::move(N));
  }
  return M;
}

std::optional<MergedKernel> mergeIndices(const Kernel &K) {
  if (K.Stmts.empty())
    return std::nullopt;
  MergedKernel Out{cloneKernel(K), {}, ""};
  std::vector<std::vector<std::string>> Groups;
  for (const std::string &N : K.IndexNames)
    Groups.push_back({N});
  // Merge pairs until none is left; each merge removes an index.
  for (bool Changed = true; Changed;) {
    Changed = false;
    unsigned N = Out.K.IndexNames.size();
    for (unsigned P = 0; P < N && !Changed; ++P)
      for (unsigned Q = 0; Q < N && !Changed; ++Q) {
        if (P == Q)
          continue;
        std::string Name;
        std::optional<Kernel> M = mergePair(Out.K, P, Q, Name);
        if (!M)
          continue;
        Out.K = std::move(*M);
        Groups[P].insert(Groups[P].end(), Groups[Q].begin(), Groups[Q].end());
        Groups.erase(Groups.begin() + Q);
        Changed = true;
      }
  }
  for (const std::vector<std::string> &G : Groups)
    if (G.size() > 1) {
      Out.Groups.push_back(G);
      std::string T = "merge(";
      for (size_t I = 0; I < G.size(); ++I)
        T += (I ? "," : "") + G[I];
      Out.Tag += (Out.Tag.empty() ? "" : " ") + T + ")";
    }
  if (Out.Groups.empty())
    return std::nullopt;
  return Out;
}

} // namespace loopy
