//===- Mma.cpp - Statements the tensor cores compute ----------------------===//
#include "loopy/Schedule/Mma.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Diagnostics.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>

#include <algorithm>
#include <functional>

namespace loopy {

/// The reductions in \p E, outermost first.
static void reductionsIn(const Expr &E, std::vector<const Expr *> &Out) {
  if (E.Kind == ExprKind::Reduce)
    Out.push_back(&E);
  for (const ExprPtr &O : E.Operands)
    reductionsIn(*O, Out);
}

/// The read under f32(...) in \p E, or nothing.
static const Expr *widenedRead(const Expr &E) {
  if (E.Kind != ExprKind::Cast || E.Type != DType::F32)
    return nullptr;
  const Expr &R = *E.Operands[0];
  if (R.Kind != ExprKind::Read || !isHalf(R.Type))
    return nullptr;
  return &R;
}

std::vector<MmaShape> mmaShapes(const Kernel &K, const Statement &S,
                                std::string &Why) {
  (void)K;
  if (!S.MoreOutputs.empty()) {
    Why = "the statement writes more than one array";
    return {};
  }
  if (S.OutputIndices.size() < 2 || S.ReductionIndices.size() != 1) {
    Why = "the statement needs two or more output indices and one reduced "
          "index";
    return {};
  }
  std::vector<const Expr *> Reds;
  reductionsIn(*S.Rhs, Reds);
  if (Reds.size() != 1 || Reds[0]->reduceOp() != ReduceOp::Sum ||
      (Reds[0]->Type != DType::F32 && Reds[0]->Type != DType::F64)) {
    Why = "the statement needs one f32 or f64 sum";
    return {};
  }
  MmaShape Sh;
  Sh.Reduce = Reds[0];
  Sh.Red = S.ReductionIndices[0];
  const Expr &Body = *Reds[0]->Operands[0];
  const Expr *X = nullptr, *Y = nullptr;
  // An f64 sum multiplies f64 reads; an f32 one, widened 16-bit reads or
  // f32 reads (as tf32).
  DType Sum = Reds[0]->Type;
  auto Operand = [&](const Expr &E) -> const Expr * {
    if (E.Kind == ExprKind::Read && E.Type == Sum)
      return &E;
    return Sum == DType::F32 ? widenedRead(E) : nullptr;
  };
  if (Body.Kind == ExprKind::Binary && Body.binaryOp() == BinaryOp::Mul) {
    X = Operand(*Body.Operands[0]);
    Y = Operand(*Body.Operands[1]);
  }
  if (!X || !Y || X->Type != Y->Type) {
    Why = Sum == DType::F64
              ? "the f64 sum's body must be x * y, x and y elements of f64 "
                "arrays"
              : "the sum's body must be f32(x) * f32(y), x and y elements "
                "of f16 arrays or both of bf16 arrays, or x * y, both of "
                "f32 arrays";
    return {};
  }
  Sh.Type = X->Type;
  if (!isHalf(Sh.Type))
    Sh.Instr.PerReg = 1;
  if (Sh.Type == DType::F32)
    Sh.Instr.K = 8;
  // Every output sums over the same range: the domain is the product of
  // its outputs' range and its reduction's.
  isl::set D = S.Domain;
  int RedPos = S.tuplePos(Sh.Red);
  isl::set Outs = isl::manage(
      isl_set_project_out(isl_set_copy(D.get()), isl_dim_set, RedPos, 1));
  unsigned N = isl_set_dim(D.get(), isl_dim_set);
  isl::set Range = isl::manage(isl_set_project_out(
      isl_set_project_out(isl_set_copy(D.get()), isl_dim_set, RedPos + 1,
                          N - RedPos - 1),
      isl_dim_set, 0, RedPos));
  isl_set *P = isl_set_insert_dims(Outs.release(), isl_dim_set, RedPos, 1);
  isl_set *R = isl_set_insert_dims(Range.release(), isl_dim_set, 0, RedPos);
  R = isl_set_add_dims(R, isl_dim_set, N - RedPos - 1);
  P = isl_set_intersect(P, isl_set_reset_space(R, isl_set_get_space(P)));
  isl::set Product = isl::manage(P);
  if (!Product.is_subset(isl::manage(
          isl_set_reset_space(D.copy(), Product.get_space().release())))) {
    Why = "the reduction's range depends on the outputs";
    return {};
  }
  // Each operand follows the reduced index and one output index that the
  // other does not read; the outputs left over are a batch, each block
  // computing one value of them.
  auto Uses = [&](const Expr &E, unsigned Index) {
    const isl::map &Rel = S.Reads[E.AccessId].Relation;
    return accessUses(Rel, -1, S.tuplePos(Index));
  };
  Sh.Read[0] = X->AccessId;
  Sh.Read[1] = Y->AccessId;
  for (const Expr *O : {X, Y})
    if (!Uses(*O, Sh.Red)) {
      Why = "each operand must follow the reduced index; " +
            S.Reads[O->AccessId].Spelling + " does not";
      return {};
    }
  std::vector<MmaShape> Out;
  for (unsigned P0 : S.OutputIndices)
    for (unsigned P1 : S.OutputIndices) {
      if (P0 == P1 || !Uses(*X, P0) || Uses(*X, P1) || !Uses(*Y, P1) ||
          Uses(*Y, P0))
        continue;
      MmaShape One = Sh;
      One.Follows[0] = P0;
      One.Follows[1] = P1;
      for (unsigned O : S.OutputIndices)
        if (O != P0 && O != P1)
          One.Batch.push_back(O);
      Out.push_back(One);
    }
  if (Out.empty())
    Why = "each operand must follow an output index that the other does "
          "not read";
  return Out;
}

std::optional<MmaShape> mmaShape(const Kernel &K, const Statement &S,
                                 std::string &Why, const Schedule *Sch) {
  std::vector<MmaShape> All = mmaShapes(K, S, Why);
  if (All.empty())
    return std::nullopt;
  if (!Sch)
    return All.front();
  unsigned Row = ~0u, Col = ~0u;
  for (const IndexMap &M : Sch->Maps)
    if (M.K == IndexMap::Kind::Grid && M.Ax == Axis::Y)
      Row = M.Index;
    else if (M.K == IndexMap::Kind::Grid && M.Ax == Axis::X)
      Col = M.Index;
  if (Row == ~0u || Col == ~0u)
    return All.front(); // the schedule rule says what the layout lacks
  for (const MmaShape &Sh : All)
    if ((Sh.Follows[0] == Row && Sh.Follows[1] == Col) ||
        (Sh.Follows[0] == Col && Sh.Follows[1] == Row))
      return Sh;
  Why = "the outputs on y and x must be followed one by each operand";
  return std::nullopt;
}

std::string mmaScheduleRule(const Schedule &Sch, const Kernel &K,
                            const Statement &S) {
  std::string Why;
  std::optional<MmaShape> Sh = mmaShape(K, S, Why, &Sch);
  if (!Sh)
    return "mma cannot compute this statement: " + Why;
  if (Sh->Type == DType::F32 && !Sch.Tf32)
    return "mma on f32 operands rounds them to tf32 (10 bits of mantissa): "
           "the schedule must say tf32";
  if (Sh->Type != DType::F32 && Sch.Tf32)
    return "tf32 rounds f32 operands, and this statement's are " +
           std::string(dtypeName(Sh->Type));
  const MmaInstr &In = Sh->Instr;
  const IndexMap *T = Sch.tiledReduction();
  if (!T || T->Index != Sh->Red || T->Tile % In.K != 0)
    return "mma needs the reduction in tiles of a multiple of " +
           std::to_string(In.K) + " (" + K.IndexNames[Sh->Red] + ":seq*" +
           std::to_string(In.K) + ")";
  const IndexMap *Row = nullptr, *Col = nullptr;
  for (const IndexMap &M : Sch.Maps)
    if (M.K == IndexMap::Kind::Grid && M.Ax == Axis::Y)
      Row = &M;
    else if (M.K == IndexMap::Kind::Grid && M.Ax == Axis::X)
      Col = &M;
  for (const IndexMap &M : Sch.Maps)
    if (std::find(Sh->Batch.begin(), Sh->Batch.end(), M.Index) !=
            Sh->Batch.end() &&
        M.K == IndexMap::Kind::Grid &&
        (M.Ax != Axis::Z || M.Threads != 1 || M.Ilp != 1))
      return "mma computes one value of each other output index per block: " +
             K.IndexNames[M.Index] + ":g.z or " + K.IndexNames[M.Index] +
             ":seq";
  if (!Row || !Col || Row->Threads != 8 || Row->Ilp % 2 != 0 ||
      Row->run() != 1 || Col->Threads != 4 || Col->Ilp % 2 != 0 ||
      Col->run() != 2 || Row->Warps != Sch.MmaWarps[0] ||
      Col->Warps != Sch.MmaWarps[1] ||
      Sch.totalThreads() != 32 * Sch.MmaWarps[0] * Sch.MmaWarps[1])
    return "mma needs one output index on y as t.y*8,ilp2Ms and the other "
           "on x as t.x*4,ilp2Ns2 (a warp's accumulator fragments)";
  return "";
}

/// Whether every element of \p Reads (per block and tile) lies in the
/// box of \p St: where the tile is partial, the reads past the extents
/// are then of the zeros the box holds outside the footprint.
static bool inBox(const isl::set &Reads, const Stage &St) {
  isl_set *At = isl_set_from_multi_aff(St.Box.Offset.copy());
  isl_set *R = Reads.copy();
  At = isl_set_align_params(At, isl_set_get_space(R));
  R = isl_set_align_params(R, isl_set_get_space(At));
  At = isl_set_reset_space(At, isl_set_get_space(R));
  // { x - offset : x in Reads }
  isl::set Rel = isl::manage(
      isl_map_deltas(isl_map_from_domain_and_range(At, R)));
  isl::set Box = isl::set::universe(Rel.get_space());
  for (unsigned D = 0; D < St.Box.Size.size(); ++D) {
    Box = addConstraint(Box, {{isl_dim_set, D, 1}}, 0, false);
    Box = addConstraint(Box, {{isl_dim_set, D, -1}}, St.Box.Size[D] - 1,
                        false);
  }
  return Rel.is_subset(Box);
}

/// \p Rel's affine form on its whole domain space (a fragment's reads
/// run past the domain).
static isl::map unbounded(const isl::map &Rel) {
  isl::multi_aff First;
  isl::manage(isl_pw_multi_aff_from_map(Rel.copy()))
      .foreach_piece([&First](isl::set, isl::multi_aff A) {
        if (First.is_null())
          First = A;
      });
  return isl::manage(isl_map_from_multi_aff(First.release()));
}

std::string mmaTileRule(const StatementMapping &M,
                        const std::vector<Stage> &Stages) {
  isl::set D = M.align(
      M.fixSizes(M.S->Domain).intersect_params(M.fixSizes(M.K->Context)));
  isl::set Tiles = M.inBlockTiles(isl::set::universe(D.get_space()));
  Tiles = M.inTile(Tiles, M.Tiled->Index, M.TileParam, M.Tiled->Tile);
  for (unsigned I = 0; I < M.SeqOutputs.size(); ++I) // a batch's loop
    Tiles = addConstraint(
        Tiles,
        {{isl_dim_set, (unsigned)M.tuplePos(M.SeqOutputs[I]->Index), 1},
         {isl_dim_param, paramPos(Tiles, M.SeqParams[I]), -1}},
        0, true);
  isl::set Met = Tiles.intersect(D).params();
  Tiles = Tiles.intersect_params(Met);
  if (Tiles.subtract(D).is_empty())
    return "";
  // Partial tiles: the fragments read them whole, from zero-filled stages.
  std::string Why;
  std::optional<MmaShape> Sh = mmaShape(*M.K, *M.S, Why, M.Sch);
  for (unsigned R : Sh->Read) {
    const Stage *St = nullptr;
    for (const Stage &X : Stages)
      if (X.Read == R)
        St = &X;
    if (!St || !St->ZeroFill)
      return "mma on tiles that do not divide the extents reads both "
             "operands from prefetched buffers (prefetch:" +
             M.K->Args[M.S->Reads[Sh->Read[0]].Arg].Name + "," +
             M.K->Args[M.S->Reads[Sh->Read[1]].Arg].Name +
             "), which hold zeros past the extents";
    if (!inBox(Tiles.apply(unbounded(M.align(M.S->Reads[R].Relation))), *St))
      return "mma reads whole tiles, and the tiles' reads of " +
             quote(M.S->Reads[R].Spelling) +
             " do not fit its prefetched box, which holds what the domain "
             "reads: a tile is larger than an extent, or starts before the "
             "domain does";
  }
  return "";
}

} // namespace loopy
