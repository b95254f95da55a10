//===- Mma.cpp - Statements the tensor cores compute ----------------------===//
#include "loopy/Schedule/Mma.h"
#include "loopy/Schedule/IslUtil.h"

#include <isl/map.h>
#include <isl/set.h>

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

std::optional<MmaShape> mmaShape(const Kernel &K, const Statement &S,
                                 std::string &Why) {
  if (!S.MoreOutputs.empty()) {
    Why = "the statement writes more than one array";
    return std::nullopt;
  }
  if (S.OutputIndices.size() != 2 || S.ReductionIndices.size() != 1) {
    Why = "the statement needs two output indices and one reduced index";
    return std::nullopt;
  }
  std::vector<const Expr *> Reds;
  reductionsIn(*S.Rhs, Reds);
  if (Reds.size() != 1 || Reds[0]->reduceOp() != ReduceOp::Sum ||
      (Reds[0]->Type != DType::F32 && Reds[0]->Type != DType::F64)) {
    Why = "the statement needs one f32 or f64 sum";
    return std::nullopt;
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
    return std::nullopt;
  }
  Sh.Type = X->Type;
  if (!isHalf(Sh.Type))
    Sh.Instr.PerReg = 1;
  if (Sh.Type == DType::F32)
    Sh.Instr.K = 8;
  // Each operand follows one output index and the reduced one.
  auto Uses = [&](const Expr &R, unsigned Index) {
    const isl::map &Rel = S.Reads[R.AccessId].Relation;
    return accessUses(Rel, -1, S.tuplePos(Index));
  };
  const Expr *Ops[2] = {X, Y};
  for (unsigned O = 0; O < 2; ++O) {
    Sh.Read[O] = Ops[O]->AccessId;
    bool U0 = Uses(*Ops[O], S.OutputIndices[0]);
    bool U1 = Uses(*Ops[O], S.OutputIndices[1]);
    if (U0 == U1 || !Uses(*Ops[O], Sh.Red)) {
      Why = "each operand must follow one output index and the reduced "
            "index; " +
            S.Reads[Ops[O]->AccessId].Spelling + " does not";
      return std::nullopt;
    }
    Sh.Follows[O] = S.OutputIndices[U0 ? 0 : 1];
  }
  if (Sh.Follows[0] == Sh.Follows[1]) {
    Why = "the operands follow the same output index";
    return std::nullopt;
  }
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
    return std::nullopt;
  }
  (void)K;
  return Sh;
}

std::string mmaScheduleRule(const Schedule &Sch, const Kernel &K,
                            const Statement &S) {
  std::string Why;
  std::optional<MmaShape> Sh = mmaShape(K, S, Why);
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
  if (!Row || !Col || Row->Threads != 8 || Row->Ilp % 2 != 0 ||
      Row->run() != 1 || Col->Threads != 4 || Col->Ilp % 2 != 0 ||
      Col->run() != 2 || Row->Warps != Sch.MmaWarps[0] ||
      Col->Warps != Sch.MmaWarps[1] ||
      Sch.totalThreads() != 32 * Sch.MmaWarps[0] * Sch.MmaWarps[1])
    return "mma needs one output index on y as t.y*8,ilp2Ms and the other "
           "on x as t.x*4,ilp2Ns2 (a warp's accumulator fragments)";
  return "";
}

std::string mmaTileRule(const StatementMapping &M) {
  isl::set D = M.align(
      M.fixSizes(M.S->Domain).intersect_params(M.fixSizes(M.K->Context)));
  isl::set Tiles = M.inBlockTiles(isl::set::universe(D.get_space()));
  Tiles = M.inTile(Tiles, M.Tiled->Index, M.TileParam, M.Tiled->Tile);
  isl::set Met = Tiles.intersect(D).params();
  if (Tiles.intersect_params(Met).subtract(D).is_empty())
    return "";
  return "mma needs tiles that divide the extents: every block's tile and "
         "every reduction tile whole in the domain";
}

} // namespace loopy
