//===- Mapping.cpp - A statement's indices on blocks, threads, registers
//---===//
//
// The thread-mapping step of lowering (mapStatement), the bounds of the
// block ids (boundBlocks) and the grid they give (blockGrid).
//
//===----------------------------------------------------------------------===//
#include "loopy/Schedule/Mapping.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Isl.h"
#include "loopy/Support/Diagnostics.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>
#include <functional>
#include <sstream>

namespace loopy {

std::string NameTable::fresh(const std::string &Base) {
  std::string N = Base;
  while (Taken.count(N))
    N += "_";
  Taken.insert(N);
  return N;
}

/// \p X with each parameter named in \p Fixed set to its value (which
/// need not fit an int) and projected out.
template <typename T, typename Find, typename Fix, typename Project>
static T *substitute(T *X, isl_ctx *C, const std::map<std::string, long> &Fixed,
                     Find FindDim, Fix FixDim, Project ProjectOut) {
  for (const auto &[Name, Value] : Fixed) {
    int P = FindDim(X, isl_dim_param, Name.c_str());
    if (P >= 0)
      X = ProjectOut(FixDim(X, isl_dim_param, P, isl_val_int_from_si(C, Value)),
                     isl_dim_param, P, 1);
  }
  return X;
}

isl::set StatementMapping::fixSizes(isl::set X) const {
  isl_ctx *C = isl_set_get_ctx(X.get());
  return isl::manage(substitute(X.release(), C, K->Fixed,
                                isl_set_find_dim_by_name, isl_set_fix_val,
                                isl_set_project_out));
}

isl::map StatementMapping::fixSizes(isl::map X) const {
  isl_ctx *C = isl_map_get_ctx(X.get());
  return isl::manage(substitute(X.release(), C, K->Fixed,
                                isl_map_find_dim_by_name, isl_map_fix_val,
                                isl_map_project_out));
}

isl::pw_aff StatementMapping::fixSizes(isl::pw_aff X) const {
  if (K->Fixed.empty())
    return X;
  // The gist substitutes the context's equalities (the kernel's context
  // holds each fixed size's value); the fixed sizes are then unused.
  isl_pw_aff *R = isl_pw_aff_gist_params(X.release(), K->Context.copy());
  return isl::manage(isl_pw_aff_drop_unused_params(R));
}

int StatementMapping::tuplePos(unsigned Index) const {
  return S->tuplePos(Index);
}

bool StatementMapping::isOutput(unsigned Index) const {
  return std::find(S->OutputIndices.begin(), S->OutputIndices.end(), Index) !=
         S->OutputIndices.end();
}

std::string StatementMapping::blockKey() const {
  return loopy::blockKey(*S, *Sch);
}

std::string blockKey(const Statement &S, const Schedule &Sch) {
  // The block's iterations, and so its footprints and the range of block
  // ids, follow from the statement, each output's tile on its grid axis,
  // the reduction tile, the uniform loops and a split reduction's chunks --
  // not from how threads and registers divide the block.
  std::string Key = S.Name;
  for (const IndexMap &M : Sch.Maps) {
    Key += " " + std::to_string(M.Index) + ":" + std::to_string(int(M.K));
    switch (M.K) {
    case IndexMap::Kind::Grid:
      Key += axisLetter(M.Ax) + std::to_string(M.blockTile());
      break;
    case IndexMap::Kind::Block:
      Key += axisLetter(M.Ax) + std::to_string(M.Threads) + "/" +
             std::to_string(M.Chunk);
      break;
    case IndexMap::Kind::Tiled:
      Key += "*" + std::to_string(M.Tile);
      break;
    case IndexMap::Kind::Seq:
      if (M.Outer) // a block-uniform loop: the footprints are per value
        Key += "o" + std::to_string(M.Tile);
      break;
    }
  }
  return Key;
}

std::vector<std::string> StatementMapping::threadIds() const {
  std::vector<std::string> Threads;
  for (int A = 0; A < 3; ++A)
    if (!ThreadId[A].empty())
      Threads.push_back(ThreadId[A]);
  for (const std::string &W : WarpId)
    if (!W.empty())
      Threads.push_back(W);
  return Threads;
}

isl::set StatementMapping::align(isl::set X) const {
  return isl::manage(
      isl_set_align_params(fixSizes(std::move(X)).release(), Params.copy()));
}

isl::map StatementMapping::align(isl::map X) const {
  return isl::manage(
      isl_map_align_params(fixSizes(std::move(X)).release(), Params.copy()));
}

isl::set StatementMapping::blockIterations(const isl::set *Domain) const {
  // The facts kept per block shape (footprints, their boxes, the range of
  // block ids) are computed from this set, never from one split of the
  // block among threads and registers: the sets would be equal, but isl's
  // answers (a footprint's box among them) follow how a set is written, so
  // the facts would depend on which variant asked first.
  isl::set E =
      (Domain ? *Domain : align(S->Domain)).intersect_params(BlockContext);
  for (unsigned R = 0; R < GridMaps.size(); ++R)
    E = inTile(E, GridMaps[R]->Index, GridBlockIds[R],
               GridMaps[R]->blockTile());
  for (unsigned I = 0; I < SeqOutputs.size(); ++I)
    E = addConstraint(
        E,
        {{isl_dim_set, (unsigned)tuplePos(SeqOutputs[I]->Index), 1},
         {isl_dim_param, paramPos(E, SeqParams[I]), -1}},
        0, true);
  E = inOuterTiles(E);
  if (Tiled)
    E = inTile(E, Tiled->Index, TileParam, Tiled->Tile);
  if (splitAcrossBlocks())
    E = inTile(E, BlockRed->Index, BlockId[static_cast<int>(BlockRed->Ax)],
               BlockRed->Chunk);
  return E.coalesce();
}

isl::set StatementMapping::inOuterTiles(isl::set E) const {
  for (unsigned I = 0; I < OuterReds.size(); ++I) {
    const IndexMap &M = *OuterReds[I];
    if (M.Tile > 1)
      E = inTile(E, M.Index, OuterParams[I], M.Tile);
    else
      E = addConstraint(E,
                        {{isl_dim_set, (unsigned)tuplePos(M.Index), 1},
                         {isl_dim_param, paramPos(E, OuterParams[I]), -1}},
                        0, true);
  }
  return E;
}

isl::set StatementMapping::inBlockTiles(isl::set E) const {
  for (unsigned R = 0; R < GridMaps.size(); ++R)
    E = inTile(E, GridMaps[R]->Index, GridBlockIds[R],
               GridMaps[R]->blockTile());
  return E;
}

isl::set StatementMapping::onOutputs(isl::set E) const {
  isl_set *X = E.release();
  for (int I = S->Indices.size() - 1; I >= 0; --I)
    if (!isOutput(S->Indices[I]))
      X = isl_set_project_out(X, isl_dim_set, I, 1);
  return isl::manage(X);
}

isl::set StatementMapping::addOriginConstraint(isl::set E, unsigned Index,
                                              long Sign, std::vector<Term> T,
                                              long Cst, bool Eq) const {
  auto O = Origins.find(Index);
  if (O == Origins.end())
    return addConstraint(E, T, Cst, Eq);
  const IndexOrigin &Or = O->second;
  if (!Or.Exact) {
    for (const auto &[Name, C] : Or.Coefficients)
      T.push_back({isl_dim_param, paramPos(E, Name), Sign * C});
    return addConstraint(E, T, Cst + Sign * Or.Constant, Eq);
  }
  // An origin with floor divisions: a parameter stands for it in the
  // constraint, is tied to the origin's value, and is projected out, so
  // that isl writes the divisions into the set itself. The parameter's id
  // carries a pointer of its own, so a size named "origin" stays apart.
  isl_ctx *C = Ctx.get();
  void *Tag = const_cast<IndexOrigin *>(&Or);
  unsigned P = checkSize(C, isl_set_dim(E.get(), isl_dim_param));
  isl::set X = take(C, isl_set_add_dims(E.copy(), isl_dim_param, 1));
  X = take(C, isl_set_set_dim_id(X.release(), isl_dim_param, P,
                                 isl_id_alloc(C, "origin", Tag)));
  T.push_back({isl_dim_param, P, Sign});
  X = addConstraint(X, T, Cst, Eq);
  isl::set Params = isl::set::universe(X.params().space());
  isl::pw_aff Value =
      take(C, isl_pw_aff_param_on_domain_id(
                  Params.release(), isl_id_alloc(C, "origin", Tag)));
  isl::pw_aff Origin = take(
      C, isl_pw_aff_align_params(Or.Exact->copy(), isl_set_get_space(X.get())));
  X = X.intersect_params(Value.eq_set(Origin));
  return take(C, isl_set_project_out(X.release(), isl_dim_param, P, 1));
}

isl::set StatementMapping::inTile(isl::set E, unsigned Index,
                                  const std::string &Param, long B) const {
  // B*p <= o - origin < B*(p + 1), on the statement's tuple.
  unsigned Pos = tuplePos(Index), P = paramPos(E, Param);
  E = addOriginConstraint(E, Index, -1,
                          {{isl_dim_set, Pos, 1}, {isl_dim_param, P, -B}}, 0,
                          false);
  return addOriginConstraint(
      E, Index, 1, {{isl_dim_set, Pos, -1}, {isl_dim_param, P, B}}, B - 1,
      false);
}

/// The tiling relations on the tuple space \p Sp of piece \p P: output
/// indices as functions of block, thread and register coordinates, the
/// registers' ranges, and sequential outputs fixed to their loop iterators.
isl::set StatementMapping::frame(isl::space Sp, Piece P) const {
  isl::set E = isl::set::universe(Sp);
  unsigned NIdx = isl_set_dim(E.get(), isl_dim_set) - GridMaps.size();
  auto Pos = [&](unsigned Index) -> unsigned {
    if (P == Piece::Init || P == Piece::Write)
      return std::find(S->OutputIndices.begin(), S->OutputIndices.end(),
                       Index) -
             S->OutputIndices.begin();
    return tuplePos(Index);
  };
  for (unsigned R = 0; R < GridMaps.size(); ++R) {
    const IndexMap &M = *GridMaps[R];
    unsigned O = Pos(M.Index), U = NIdx + R;
    int A = static_cast<int>(M.Ax);
    unsigned B = paramPos(E, GridBlockIds[R]), T = paramPos(E, ThreadId[A]);
    long Run = M.run();
    // Several warps along the index (mma:RxC): each its own tile of
    // Threads * Ilp outputs within the block's.
    std::vector<Term> Warp;
    const std::string &W = M.Ax == Axis::Y   ? WarpId[0]
                           : M.Ax == Axis::X ? WarpId[1]
                                             : std::string();
    if (M.Warps > 1 && !W.empty())
      Warp.push_back({isl_dim_param, paramPos(E, W), -M.Threads * M.Ilp});
    if (Run == M.Ilp || Run == 1) {
      // One run, or runs of one: affine, no division needed.
      // On the tensor cores thread axis z numbers the warps: a batch index
      // there has one thread, and its value is the block's.
      long TC = Sch->Mma && M.Ax == Axis::Z ? 0 : Run;
      long UC = Run < M.Ilp ? M.Threads : 1;
      std::vector<Term> Eq = {{isl_dim_set, O, 1},
                              {isl_dim_param, B, -M.blockTile()},
                              {isl_dim_param, T, -TC},
                              {isl_dim_set, U, -UC}};
      Eq.insert(Eq.end(), Warp.begin(), Warp.end());
      E = addOriginConstraint(E, M.Index, -1, Eq, 0, true);
    } else {
      // Register u = Run * g + w holds o = B*b + Run*t + Threads*Run*g + w,
      // that is o = B*b + Run*t + u + (Threads - 1)*Run*g, with g (a new
      // dimension, projected out) = floor(u / Run).
      isl_ctx *C = Ctx.get();
      // isl_set_add_dims keeps no tuple id: it goes back on at the end.
      isl_id *Tuple = isl_set_has_tuple_id(E.get()) == isl_bool_true
                          ? isl_set_get_tuple_id(E.get())
                          : nullptr;
      unsigned G = checkSize(C, isl_set_dim(E.get(), isl_dim_set));
      isl::set X = take(C, isl_set_add_dims(E.release(), isl_dim_set, 1));
      std::vector<Term> Eq = {{isl_dim_set, O, 1},
                              {isl_dim_param, B, -M.blockTile()},
                              {isl_dim_param, T, -Run},
                              {isl_dim_set, U, -1},
                              {isl_dim_set, G, -(M.Threads - 1) * Run}};
      Eq.insert(Eq.end(), Warp.begin(), Warp.end());
      X = addOriginConstraint(X, M.Index, -1, Eq, 0, true);
      X = addConstraint(X, {{isl_dim_set, U, 1}, {isl_dim_set, G, -Run}}, 0,
                        false);
      X = addConstraint(X, {{isl_dim_set, U, -1}, {isl_dim_set, G, Run}},
                        Run - 1, false);
      isl_set *P = isl_set_project_out(X.release(), isl_dim_set, G, 1);
      E = take(C, Tuple ? isl_set_set_tuple_id(P, Tuple) : P);
    }
    E = addConstraint(E, {{isl_dim_set, U, 1}}, 0, false);
    E = addConstraint(E, {{isl_dim_set, U, -1}}, M.Ilp - 1, false);
  }
  for (unsigned I = 0; I < SeqOutputs.size(); ++I)
    E = addConstraint(E,
                      {{isl_dim_set, Pos(SeqOutputs[I]->Index), 1},
                       {isl_dim_param, paramPos(E, SeqParams[I]), -1}},
                      0, true);
  // An outer reduction of one value per iteration is fixed here; one
  // over tiles is a loop of each thread, its tile bounded in the domain.
  if (P != Piece::Init && P != Piece::Write)
    for (unsigned I = 0; I < OuterReds.size(); ++I)
      if (OuterReds[I]->Tile == 1)
        E = addConstraint(E,
                        {{isl_dim_set, Pos(OuterReds[I]->Index), 1},
                         {isl_dim_param, paramPos(E, OuterParams[I]), -1}},
                        0, true);
  return E;
}

isl::pw_multi_aff StatementMapping::accessOnTuple(const isl::map &Rel,
                                                  Piece P) const {
  // { S[indices] -> A[...] } as a function, then on the piece's tuple: Init
  // and Write, whose accesses do not depend on the reduction indices, have
  // them projected out.
  isl_map *R = align(Rel).release();
  unsigned NIdx = S->Indices.size();
  if (P == Piece::Init || P == Piece::Write) {
    for (int I = NIdx - 1; I >= 0; --I)
      if (!isOutput(S->Indices[I]))
        R = isl_map_project_out(R, isl_dim_in, I, 1);
  }
  R = isl_map_add_dims(R, isl_dim_in, GridMaps.size());
  const std::string &T = P == Piece::Init    ? TupleInit
                         : P == Piece::Write ? TupleWrite
                                             : TupleUpdate;
  R = isl_map_set_tuple_name(R, isl_dim_in, T.c_str());
  return take(Ctx, isl_pw_multi_aff_coalesce(isl_pw_multi_aff_from_map(R)));
}

isl::multi_aff StatementMapping::accessFormOnTuple(const isl::map &Rel,
                                                   Piece P) const {
  isl::multi_aff First;
  accessOnTuple(Rel, P).foreach_piece([&First](isl::set, isl::multi_aff M) {
    if (First.is_null())
      First = M;
  });
  return First;
}

/// Where the blocks of index \p Index start (see IndexOrigin): its lowest
/// value on the statement's domain where that can be negative. isl gives
/// the lowest value as a function of the sizes; the blocks start there if
/// it is one affine piece with integer coefficients, else at its least
/// value over all sizes if that is finite, else at the lowest value itself
/// (IndexOrigin::Exact).
static Expected<IndexOrigin> indexOrigin(const StatementMapping &Map,
                                         unsigned Index) {
  const Kernel &K = *Map.K;
  isl_ctx *Ctx = Map.Ctx.get();
  // The statement's domain under the sizes' context alone: the same set,
  // written the same way, whatever the schedule.
  isl::set D = Map.fixSizes(Map.S->Domain)
                   .intersect_params(Map.fixSizes(K.Context));
  unsigned Pos = Map.tuplePos(Index);
  isl::set Neg = addConstraint(D, {{isl_dim_set, Pos, -1}}, -1, false);
  if (Neg.is_empty())
    return IndexOrigin{};
  isl::pw_aff Low = take(Ctx, isl_set_dim_min(D.release(), Pos)).coalesce();
  IndexOrigin O;
  isl::aff A;
  if (Low.n_piece() == 1)
    Low.foreach_piece([&A](isl::set, isl::multi_aff P) { A = P.at(0); });
  if (!A.is_null()) {
    bool Integral =
        checkSize(Ctx, isl_aff_dim(A.get(), isl_dim_div)) == 0 &&
        take(Ctx, isl_aff_get_denominator_val(A.get())).is_one();
    if (Integral) {
      unsigned NP = checkSize(Ctx, isl_aff_dim(A.get(), isl_dim_param));
      for (unsigned P = 0; P < NP; ++P) {
        long C = toLong(
            take(Ctx, isl_aff_get_coefficient_val(A.get(), isl_dim_param, P)));
        if (C != 0)
          O.Coefficients.push_back(
              {isl_aff_get_dim_name(A.get(), isl_dim_param, P), C});
      }
      O.Constant = toLong(A.constant_val());
      return O;
    }
  }
  isl::val Least = take(Ctx, isl_pw_aff_min_val(Low.copy()));
  if (Least.is_int()) {
    O.Constant = toLong(Least);
    return O;
  }
  // Unbounded below, and not of integer coefficients: the lowest value
  // itself, floor divisions and pieces as isl gives them.
  O.Exact = Low;
  return O;
}

Expected<StatementMapping> mapStatement(const Kernel &K, const Statement &S,
                                        const Schedule &Sch,
                                        LoweringCache &Cache) {
  StatementMapping Map;
  Map.K = &K;
  Map.S = &S;
  Map.Sch = &Sch;
  Map.Ctx = K.Domain.ctx();
  std::string Error = validateSchedule(Sch, K, S);
  if (!Error.empty())
    return Failure::user(Error);
  for (const std::string &N : K.ParamNames)
    Map.Names.take(N);
  for (const std::string &N : K.IndexNames)
    Map.Names.take(N);
  for (const Argument &A : K.Args)
    Map.Names.take(A.Name);
  for (const char *R :
       {"idx", "acc", "red", "loopy_min", "loopy_max", "loopy_floord"})
    Map.Names.take(R);

  for (const IndexMap &M : Sch.Maps) {
    int A = static_cast<int>(M.Ax);
    switch (M.K) {
    case IndexMap::Kind::Grid:
      if (!Map.BlockId[A].empty()) {
        // A further output index on z: blocks of its own within z's.
        if (!fixedExtent(Map.fixSizes(S.Domain)
                             .intersect_params(Map.fixSizes(K.Context)),
                         S.tuplePos(M.Index)))
          return Failure::user(
              "output index " + quote(K.IndexNames[M.Index]) +
              " shares grid axis z with another; it needs a fixed extent "
              "from 0 (give its sizes with -D)");
        Map.ZParts.push_back(Map.Names.fresh("bz"));
        Map.GridBlockIds.push_back(Map.ZParts.back());
        Map.GridMaps.push_back(&M);
        break;
      }
      Map.BlockId[A] = Map.Names.fresh(std::string("b") + axisLetter(M.Ax));
      Map.ThreadId[A] = Map.Names.fresh(std::string("t") + axisLetter(M.Ax));
      Map.GridBlockIds.push_back(Map.BlockId[A]);
      Map.GridMaps.push_back(&M);
      break;
    case IndexMap::Kind::Block:
      if (M.Chunk)
        Map.BlockId[A] = Map.Names.fresh(std::string("b") + axisLetter(M.Ax));
      Map.ThreadId[A] = Map.Names.fresh(std::string("t") + axisLetter(M.Ax));
      Map.BlockRed = &M;
      break;
    case IndexMap::Kind::Tiled:
      Map.Tiled = &M;
      break;
    case IndexMap::Kind::Seq:
      if (Map.isOutput(M.Index))
        Map.SeqOutputs.push_back(&M);
      else if (M.Outer)
        Map.OuterReds.push_back(&M);
      break;
    }
  }
  for (const std::string &N : K.ParamNames)
    if (!K.Fixed.count(N))
      Map.ParamNames.push_back(N);
  Map.NumSizes = Map.ParamNames.size();
  for (int A = 0; A < 3; ++A)
    if (!Map.BlockId[A].empty())
      Map.ParamNames.push_back(Map.BlockId[A]);
  for (const std::string &Z : Map.ZParts)
    Map.ParamNames.push_back(Z);
  // Warps on the tensor cores: numbered by thread axis z, with a
  // coordinate along the rows and one along the columns.
  if (Sch.Mma && Sch.MmaWarps[0] * Sch.MmaWarps[1] > 1) {
    Map.ThreadId[2] = Map.Names.fresh("tz");
    if (Sch.MmaWarps[0] > 1)
      Map.WarpId[0] = Map.Names.fresh("wy");
    if (Sch.MmaWarps[1] > 1)
      Map.WarpId[1] = Map.Names.fresh("wx");
  }
  for (int A = 0; A < 3; ++A)
    if (!Map.ThreadId[A].empty())
      Map.ParamNames.push_back(Map.ThreadId[A]);
  for (const std::string &W : Map.WarpId)
    if (!W.empty())
      Map.ParamNames.push_back(W);
  // Uniform loop iterators are parameters of the per-thread code.
  for (const IndexMap *M : Map.SeqOutputs) {
    // The loop variable carries the index's own name.
    Map.SeqParams.push_back(K.IndexNames[M->Index]);
    Map.ParamNames.push_back(Map.SeqParams.back());
  }
  for (const IndexMap *M : Map.OuterReds) {
    // One value per iteration: the loop carries the index's name; over
    // tiles, the index's own loop runs inside each of them.
    Map.OuterParams.push_back(
        M->Tile > 1 ? Map.Names.fresh(K.IndexNames[M->Index] + "_tile")
                    : K.IndexNames[M->Index]);
    Map.ParamNames.push_back(Map.OuterParams.back());
  }
  if (Map.Tiled) {
    Map.TileParam = Map.Names.fresh(K.IndexNames[Map.Tiled->Index] + "_tile");
    Map.ParamNames.push_back(Map.TileParam);
  }
  Map.Params = paramSpace(Map.Ctx, Map.ParamNames);
  for (unsigned I : S.Indices)
    Map.IndexParamNames.push_back(K.IndexNames[I]);
  for (const IndexMap *M : Map.GridMaps) {
    Map.RegNames.push_back(Map.Names.fresh("u_" + K.IndexNames[M->Index]));
    Map.RegCount *= M->Ilp;
  }
  Map.TupleUpdate = S.Name;
  Map.TupleInit = S.Name + "_init";
  Map.TupleWrite = S.Name + "_write";

  // Reductions become register accumulators. Each must run over all the
  // statement's reduction indices, and none may nest in another.
  unsigned Output = 0;
  std::function<bool(const Expr &, bool)> Collect = [&](const Expr &E,
                                                        bool Inside) {
    if (E.Kind == ExprKind::Reduce) {
      std::vector<unsigned> R = E.ReduceIndices;
      std::sort(R.begin(), R.end());
      if (Inside || R != S.ReductionIndices) {
        Error = "the lowering supports reductions that each run over all of "
                "the statement's reduction indices, not nested ones";
        return false;
      }
      Map.Accs.push_back({&E, "", Output});
      return Collect(*E.Operands[0], true);
    }
    for (const ExprPtr &O : E.Operands)
      if (!Collect(*O, Inside))
        return false;
    return true;
  };
  if (!Collect(*S.Rhs, false))
    return Failure::user(Error);
  for (const Statement::Output &O : S.MoreOutputs) {
    ++Output;
    if (!Collect(*O.Rhs, false))
      return Failure::user(Error);
  }
  for (size_t I = 0; I < Map.Accs.size(); ++I)
    Map.Accs[I].Name = Map.Accs.size() == 1 ? "acc" : "acc" + std::to_string(I);
  if (Map.splitAcrossBlocks()) {
    // Blocks add their partial results into the output, which a kernel
    // launched first sets to zero: that is only the statement's value
    // when the statement is the sum itself (each of a fused statement's).
    for (unsigned O = 0; O < outputCount(S); ++O) {
      const Expr &Rhs = outputRhs(S, O);
      if (Rhs.Kind != ExprKind::Reduce || Rhs.reduceOp() != ReduceOp::Sum ||
          Rhs.Type == DType::Bool) {
        Error = "a reduction split across blocks adds the blocks' results "
                "atomically; it needs a statement of the form out = sum(...)";
        return Failure::user(Error);
      }
      if (computeType(Rhs.Type) != Rhs.Type) {
        Error = "a reduction split across blocks adds the blocks' results "
                "atomically in the output, which would sum in " +
                std::string(dtypeName(Rhs.Type)) + ", not in the " +
                dtypeName(computeType(Rhs.Type)) +
                " that its accumulators use; split it among the threads of "
                "one block";
        return Failure::user(Error);
      }
    }
  }

  Map.Context = Map.align(isl::manage(isl_set_from_params(K.Context.copy())));
  Map.Context = isl::manage(isl_set_params(Map.Context.release()));
  Map.BlockContext = Map.Context;
  std::vector<std::string> Blocks = Map.ZParts;
  for (int A = 0; A < 3; ++A)
    if (!Map.BlockId[A].empty())
      Blocks.push_back(Map.BlockId[A]);
  for (const std::string &B : Blocks) {
    Map.BlockContext = addConstraint(
        Map.BlockContext, {{isl_dim_param, paramPos(Map.BlockContext, B), 1}},
        0, false);
    Map.Context = addConstraint(
        Map.Context, {{isl_dim_param, paramPos(Map.Context, B), 1}}, 0, false);
  }
  for (int A = 0; A < 3; ++A) {
    if (!Map.ThreadId[A].empty()) {
      unsigned P = paramPos(Map.Context, Map.ThreadId[A]);
      Map.Context =
          addConstraint(Map.Context, {{isl_dim_param, P, 1}}, 0, false);
      Map.Context = addConstraint(Map.Context, {{isl_dim_param, P, -1}},
                                  Sch.threads(static_cast<Axis>(A)) - 1, false);
    }
  }
  if (!Map.WarpId[0].empty() || !Map.WarpId[1].empty()) {
    // z = C * row + column, each in its range.
    std::vector<Term> Z = {
        {isl_dim_param, paramPos(Map.Context, Map.ThreadId[2]), 1}};
    for (int W = 0; W < 2; ++W) {
      if (Map.WarpId[W].empty())
        continue;
      unsigned P = paramPos(Map.Context, Map.WarpId[W]);
      Map.Context =
          addConstraint(Map.Context, {{isl_dim_param, P, 1}}, 0, false);
      Map.Context = addConstraint(Map.Context, {{isl_dim_param, P, -1}},
                                  Sch.MmaWarps[W] - 1, false);
      Z.push_back({isl_dim_param, P, W == 0 ? -Sch.MmaWarps[1] : -1});
    }
    Map.Context = addConstraint(Map.Context, Z, 0, true);
  }

  // The per-thread domains.
  unsigned NIdx = S.Indices.size();
  isl_set *D = Map.align(S.Domain).release();
  D = isl_set_add_dims(D, isl_dim_set, Map.GridMaps.size());
  for (unsigned I = 0; I < NIdx; ++I)
    D = isl_set_set_dim_name(D, isl_dim_set, I, Map.IndexParamNames[I].c_str());
  for (unsigned R = 0; R < Map.GridMaps.size(); ++R)
    D = isl_set_set_dim_name(D, isl_dim_set, NIdx + R, Map.RegNames[R].c_str());
  isl::set E = isl::manage(D).intersect_params(Map.Context);

  // Every point of an index split among blocks must lie in some block:
  // the blocks (and a block's threads) start at the index's lowest value
  // where it can be negative.
  std::vector<unsigned> Split;
  for (const IndexMap *M : Map.GridMaps)
    Split.push_back(M->Index);
  if (Map.BlockRed)
    Split.push_back(Map.BlockRed->Index);
  auto &Origins = Cache.statement(S.Name).Origins;
  for (unsigned I : Split) {
    auto Known = Origins.find(I);
    if (Known == Origins.end())
      Known = Origins.emplace(I, indexOrigin(Map, I)).first;
    if (!Known->second)
      return Known->second.failure();
    if (!Known->second->isZero())
      Map.Origins.emplace(I, *Known->second);
  }
  // contiguous: o = B*b + Ilp*t + u;  strided: o = B*b + T*u + t
  E = E.intersect(Map.frame(E.get_space(), Piece::Update));
  // Init and Write: the output indices and registers. A block-parallel
  // reduction's threads each hold partial results, so every one of them
  // initialises; only thread 0 of the reduction axis writes.
  // Init and Write run outside the loops over outer reductions.
  Map.OutDom = eliminateParams(Map.onOutputs(E), Map.OuterParams);

  // Update runs inside the block-uniform loop over reduction tiles (and
  // the loops over tiles of outer reductions).
  for (unsigned I = 0; I < Map.OuterReds.size(); ++I)
    if (Map.OuterReds[I]->Tile > 1)
      E = Map.inTile(E, Map.OuterReds[I]->Index, Map.OuterParams[I],
                     Map.OuterReds[I]->Tile);
  if (Map.Tiled)
    E = Map.inTile(E, Map.Tiled->Index, Map.TileParam, Map.Tiled->Tile);

  if (Map.BlockRed) {
    // k - origin = Threads * q + t for some q: each thread strides over k.
    unsigned Kp = Map.tuplePos(Map.BlockRed->Index);
    int A = static_cast<int>(Map.BlockRed->Ax);
    // Split across blocks: block b takes C*b <= k - origin < C*(b + 1).
    if (long C = Map.BlockRed->Chunk)
      E = Map.inTile(E, Map.BlockRed->Index, Map.BlockId[A], C);
    isl_set *X = isl_set_add_dims(E.copy(), isl_dim_set, 1);
    unsigned Q = isl_set_dim(X, isl_dim_set) - 1;
    std::vector<Term> Eq = {{isl_dim_set, Kp, 1},
                            {isl_dim_set, Q, -Map.BlockRed->Threads},
                            {isl_dim_param, paramPos(E, Map.ThreadId[A]), -1}};
    isl::set XS = Map.addOriginConstraint(isl::manage(X), Map.BlockRed->Index,
                                          -1, Eq, 0, true);
    E = isl::manage(isl_set_project_out(XS.release(), isl_dim_set, Q, 1));
  }
  Map.Ext = E.coalesce();
  Map.OutDom = Map.OutDom.coalesce();
  return Map;
}

void boundBlocks(StatementMapping &Map, LoweringCache::Block &Facts) {
  // Blocks along each grid axis: 1 + the largest block id used. Every
  // launched block has an id within that range, which the code may assume.
  auto Bound = [&](const std::string &Block, isl::pw_aff &Known) {
    if (!Facts.Bounded) {
      isl_set *P = isl_set_params(Map.blockIterations().release());
      P = isl_set_from_params(P);
      unsigned Pos = paramPos(isl::manage_copy(P), Block);
      P = isl_set_move_dims(P, isl_dim_set, 0, isl_dim_param, Pos, 1);
      for (int Q = isl_set_dim(P, isl_dim_param) - 1; Q >= (int)Map.NumSizes;
           --Q)
        P = isl_set_project_out(P, isl_dim_param, Q, 1);
      Known = isl::manage(isl_set_dim_max(P, 0)).coalesce();
    }
    isl_pw_aff *Id = isl_pw_aff_param_on_domain_id(
        isl_set_universe(isl_space_params(Map.Params.copy())),
        isl_id_alloc(Map.Ctx.get(), Block.c_str(), nullptr));
    isl_set *Le = isl_pw_aff_le_set(
        Id, isl_pw_aff_align_params(Known.copy(), Map.Params.copy()));
    Map.Context = Map.align(Map.Context.intersect(isl::manage(Le)));
    return Known;
  };
  for (int A = 0; A < 3; ++A)
    if (!Map.BlockId[A].empty())
      Map.BlockMax[A] = Bound(Map.BlockId[A], Facts.Max[A]);
  // The further indices on z have fixed extents: their blocks are a
  // constant number (at least one, so that blockIdx.z divides by it).
  Facts.PartMax.resize(Map.ZParts.size());
  Map.ZPartBlocks.clear();
  for (size_t I = 0; I < Map.ZParts.size(); ++I) {
    isl::pw_aff Max = Bound(Map.ZParts[I], Facts.PartMax[I]);
    isl::val V = take(Map.Ctx.get(), isl_pw_aff_max_val(Max.copy()));
    Map.ZPartBlocks.push_back(V.is_int() ? std::max(toLong(V) + 1, 1L) : 1);
  }
  Facts.Bounded = true;
}

BlockGrid blockGrid(const StatementMapping &Map, bool WithLaunchIf) {
  const Kernel &K = *Map.K;
  BlockGrid G;
  std::string *GridIsl = G.Isl, *GridC = G.C;
  isl::set KCtx = isl::manage(isl_set_from_params(K.Context.copy())).params();
  isl::ast_build CB = isl::ast_build::from_context(KCtx);
  isl::set Nonempty = KCtx;
  for (int A = 0; A < 3; ++A) {
    if (Map.BlockId[A].empty()) {
      GridIsl[A] = "1";
      GridC[A] = "1";
      continue;
    }
    isl::pw_aff Max = *Map.BlockMax[A];
    isl::set Where = Max.domain();
    Max = Max.add(take(Map.Ctx, isl_pw_aff_val_on_domain(
                                    Where.release(),
                                    isl::val::one(Map.Ctx).release())))
              .coalesce();
    // z's blocks also number those of the further indices on it.
    long Parts = 1;
    if (A == static_cast<int>(Axis::Z))
      for (long N : Map.ZPartBlocks)
        Parts *= N;
    if (Parts > 1)
      Max = take(Map.Ctx, isl_pw_aff_scale_val(
                              Max.release(), isl_val_int_from_si(
                                                 Map.Ctx.get(), Parts)));
    Nonempty = Nonempty.intersect(Max.domain());
    GridC[A] = exprText(CB, Max);
    // No block at all where the domain is empty: the launcher skips the
    // kernel, and the code may assume every block lies within the range.
    isl::set Empty = KCtx.subtract(Max.domain());
    if (!Empty.is_empty())
      Max = take(Map.Ctx,
                 isl_pw_aff_union_max(
                     Max.release(),
                     isl_pw_aff_val_on_domain(
                         Empty.release(), isl::val::zero(Map.Ctx).release())));
    std::ostringstream Text;
    Text << Max.coalesce();
    GridIsl[A] = Text.str();
  }
  if (WithLaunchIf && !Nonempty.is_equal(KCtx))
    G.LaunchIf = printAstExpr(CB.expr_from(Nonempty));
  return G;
}

} // namespace loopy
