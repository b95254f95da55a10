//===- MatrixCode.cpp - A reduction tile on the tensor cores --------------===//
#include "MatrixCode.h"
#include "AstToDevice.h"
#include "LoopNests.h"
#include "StatementText.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Schedule/Mma.h"

#include <isl/aff.h>
#include <isl/ast_build.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <cassert>

namespace loopy {

using namespace device;

namespace {

/// The fragments of one instruction (MmaInstr; gid = lane / 4,
/// tig = lane % 4): with mma.m16n8k16 on 16-bit operands,
///   the first operand's register R holds rows gid + 8 * (R % 2) and
///     columns 2 * tig + 8 * (R / 2) and one more, of the 16 x 16 tile;
///   the second's register R holds columns 2 * tig + 8 * R and one more of
///     k, of row gid of the 16 x 8 tile;
///   accumulator Q holds row gid + 8 * (Q / 2), column 2 * tig + Q % 2.
/// The lower 16 bits of a register hold the element of the lower k. On
/// f64 and tf32 operands a register holds one element: k tig + 4 * (R / 2)
/// and tig + 4 * R (MmaInstr).
struct Fragments {
  CodeGenState &G;
  const IndexMap &Row, &Col;
  unsigned RowR, ColR; // their register dimensions
  unsigned Red;        // the reduced index
  long Tile;           // its tile
  const MmaInstr &In;

  /// A lane's offset from its warp's tile: coefficients of tx, ty and of
  /// floor(ty / 2) and floor(ty / 4), and a constant.
  struct LaneTerms {
    long Tx = 0, Ty = 0, Half = 0, Quarter = 0, Cst = 0;
  };

  /// { MMA[s] -> Update[indices, registers] }: the point of the update's
  /// tuple whose read of the \p First operand (else the second) is at
  /// \p Out from the warp's tile along the operand's output index and at
  /// K * s + \p In from the reduction tile's start (the other output
  /// index at its tile's start: the operand does not read it).
  isl::pw_multi_aff point(bool First, const LaneTerms &Out,
                          const LaneTerms &Along) const {
    StatementMapping &M = G.M;
    isl::set Ext = M.Ext;
    unsigned NT = isl_set_dim(Ext.get(), isl_dim_set);
    unsigned NIdx = NT - M.GridMaps.size();
    // [s, tuple, floor(ty / 2), floor(ty / 4)]
    unsigned Half = 1 + NT, Quarter = 2 + NT;
    isl::set E = isl::manage(
        isl_set_universe(isl_space_set_alloc(M.Ctx.get(), 0, 3 + NT)));
    E = isl::manage(isl_set_align_params(E.release(), M.Params.copy()));
    unsigned RowPos = 1 + M.tuplePos(Row.Index);
    unsigned ColPos = 1 + M.tuplePos(Col.Index);
    unsigned KPos = 1 + M.tuplePos(Red);
    unsigned BRow = paramPos(E, M.GridBlockIds[RowR]);
    unsigned BCol = paramPos(E, M.GridBlockIds[ColR]);
    unsigned Tx = paramPos(E, M.ThreadId[0]), Ty = paramPos(E, M.ThreadId[1]);
    unsigned Kt = paramPos(E, M.TileParam);
    for (auto [D, Div] : {std::pair{Half, 2L}, std::pair{Quarter, 4L}}) {
      E = addConstraint(E, {{isl_dim_param, Ty, 1}, {isl_dim_set, D, -Div}},
                        0, false);
      E = addConstraint(E, {{isl_dim_param, Ty, -1}, {isl_dim_set, D, Div}},
                        Div - 1, false);
    }
    auto Lane = [&](std::vector<Term> &T, const LaneTerms &L) {
      T.push_back({isl_dim_param, Tx, -L.Tx});
      T.push_back({isl_dim_param, Ty, -L.Ty});
      T.push_back({isl_dim_set, Half, -L.Half});
      T.push_back({isl_dim_set, Quarter, -L.Quarter});
    };
    std::vector<Term> RowT = {{isl_dim_set, RowPos, 1},
                              {isl_dim_param, BRow, -Row.blockTile()}};
    std::vector<Term> ColT = {{isl_dim_set, ColPos, 1},
                              {isl_dim_param, BCol, -Col.blockTile()}};
    Lane(First ? RowT : ColT, Out);
    // The warp's tile within the block's (mma:RxC).
    if (!M.WarpId[0].empty())
      RowT.push_back(
          {isl_dim_param, paramPos(E, M.WarpId[0]), -Row.Threads * Row.Ilp});
    if (!M.WarpId[1].empty())
      ColT.push_back(
          {isl_dim_param, paramPos(E, M.WarpId[1]), -Col.Threads * Col.Ilp});
    E = M.addOriginConstraint(E, Row.Index, -1, RowT, First ? -Out.Cst : 0,
                              true);
    E = M.addOriginConstraint(E, Col.Index, -1, ColT, First ? 0 : -Out.Cst,
                              true);
    std::vector<Term> KT = {{isl_dim_set, KPos, 1},
                            {isl_dim_param, Kt, -Tile},
                            {isl_dim_set, 0, -In.K}};
    Lane(KT, Along);
    E = M.addOriginConstraint(E, Red, -1, KT, -Along.Cst, true);
    for (unsigned R = 0; R < M.GridMaps.size(); ++R)
      E = addConstraint(E, {{isl_dim_set, 1 + NIdx + R, 1}}, 0, true);
    // A batch index: its one value in the block, on z or in the block's
    // loop.
    for (unsigned R = 0; R < M.GridMaps.size(); ++R)
      if (R != RowR && R != ColR)
        E = M.addOriginConstraint(
            E, M.GridMaps[R]->Index, -1,
            {{isl_dim_set, 1 + (unsigned)M.tuplePos(M.GridMaps[R]->Index), 1},
             {isl_dim_param, paramPos(E, M.GridBlockIds[R]), -1}},
            0, true);
    for (unsigned I = 0; I < M.SeqOutputs.size(); ++I)
      E = addConstraint(
          E,
          {{isl_dim_set, 1 + (unsigned)M.tuplePos(M.SeqOutputs[I]->Index), 1},
           {isl_dim_param, paramPos(E, M.SeqParams[I]), -1}},
          0, true);
    isl_set *P = isl_set_project_out(E.release(), isl_dim_set, Half, 2);
    isl_map *X = isl_map_from_range(P);
    X = isl_map_move_dims(X, isl_dim_in, 0, isl_dim_out, 0, 1);
    X = isl_map_set_tuple_name(X, isl_dim_in, "MMA");
    X = isl_map_set_tuple_name(X, isl_dim_out, M.TupleUpdate.c_str());
    return isl::manage(isl_pw_multi_aff_from_map(X));
  }

  /// The point of the element of fragment \p F (along the operand's output
  /// index) of the \p First operand (else the second), register \p Reg,
  /// half \p Half: the lane's row is gid (ty), its k 2 * tig (2 * tx) and
  /// the register's and half's offsets.
  isl::pw_multi_aff element(bool First, long F, long Reg, long Half) const {
    LaneTerms Out, Along;
    Out.Ty = 1;
    Out.Cst = First ? 16 * F + 8 * (Reg % 2) : 8 * F;
    Along.Tx = In.PerReg;
    Along.Cst = Half + 4 * In.PerReg * (First ? Reg / 2 : Reg);
    return point(First, Out, Along);
  }

  /// The row that this lane gives ldmatrix for the \p First operand's
  /// fragment \p F (its four 8 x 8 matrices, lane l giving row l % 8 of
  /// matrix l / 8: rows 0-7 and 8-15 at k 0, then at k 8), else the
  /// second operand's fragments \p F and F + 1 where \p Pair (matrices
  /// of k 0 and 8 of each; else of F alone, lanes 16-31 unused). The rows
  /// run along k, or, \p Transposed, along the operand's output index,
  /// whose values are then the matrices' columns. With lane = tx + 4 * ty:
  /// l % 8 = tx + 4 * ty - 8 * floor(ty / 2), l / 8 = floor(ty / 2),
  /// (l / 8) % 2 = floor(ty / 2) - 2 * floor(ty / 4), l / 16 = floor(ty / 4).
  isl::pw_multi_aff matrixRow(bool First, long F, bool Pair,
                              bool Transposed) const {
    LaneTerms Row8, Out, AlongK; // l % 8; the matrix's offsets
    Row8.Tx = 1;
    Row8.Ty = 4;
    Row8.Half = -8;
    if (First) {
      Out.Half = 8; // 8 * ((l / 8) % 2)
      Out.Quarter = -16;
      AlongK.Quarter = 8; // 8 * (l / 16)
    } else {
      Out.Quarter = Pair ? 8 : 0;
      AlongK.Half = 8;
      AlongK.Quarter = -16;
    }
    Out.Cst = First ? 16 * F : 8 * F;
    LaneTerms &Rows = Transposed ? AlongK : Out;
    Rows.Tx += Row8.Tx;
    Rows.Ty += Row8.Ty;
    Rows.Half += Row8.Half;
    return point(First, Out, AlongK);
  }
};

} // namespace

NodeList mmaCode(CodeGenState &G, const isl::set &Uniform) {
  StatementMapping &M = G.M;
  const Kernel &K = *M.K;
  const Statement &S = *M.S;
  std::string Why;
  std::optional<MmaShape> Sh = mmaShape(K, S, Why, M.Sch);
  assert(Sh && M.Tiled && M.Accs.size() == 1 &&
         "validateSchedule checked the statement and the schedule");
  unsigned RowR = 0, ColR = 0;
  for (unsigned R = 0; R < M.GridMaps.size(); ++R)
    if (M.GridMaps[R]->Ax == Axis::Y)
      RowR = R;
    else if (M.GridMaps[R]->Ax == Axis::X)
      ColR = R;
  const IndexMap &Row = *M.GridMaps[RowR], &Col = *M.GridMaps[ColR];
  const MmaInstr &In = Sh->Instr;
  Fragments Fr{G, Row, Col, RowR, ColR, Sh->Red, M.Tiled->Tile, In};
  unsigned ReadA = Sh->readFollowing(Row.Index);
  unsigned ReadB = Sh->readFollowing(Col.Index);
  long FragRows = Row.Ilp / 2, FragCols = Col.Ilp / 2;

  // One instance per K values of the reduced index in the tile.
  isl::set Steps =
      isl::manage(isl_set_universe(isl_space_set_alloc(M.Ctx.get(), 0, 1)));
  Steps = isl::manage(isl_set_align_params(Steps.release(), M.Params.copy()));
  Steps = addConstraint(Steps, {{isl_dim_set, 0, 1}}, 0, false);
  Steps =
      addConstraint(Steps, {{isl_dim_set, 0, -1}}, Fr.Tile / In.K - 1, false);
  Steps = isl::manage(isl_set_set_tuple_name(Steps.release(), "MMA"));
  isl::map Sched = isl::manage(isl_map_from_domain(Steps.release()));
  Sched = isl::manage(isl_map_add_dims(Sched.release(), isl_dim_out, 1));
  Sched =
      addConstraint(Sched, {{isl_dim_in, 0, 1}, {isl_dim_out, 0, -1}}, 0, true);
  std::string Step = M.Names.fresh(K.IndexNames[Sh->Red] + "_mma");
  G.PragmaUnroll.insert(Step);
  const LoweringCache::Nest &N =
      loopNest(G.Cache, isl::manage(isl_union_map_from_map(Sched.release())),
               M.Context.intersect_params(Uniform), {Step}, {false});

  std::string FragA = M.Names.fresh("frag_a"), FragB = M.Names.fresh("frag_b");
  // An accumulator of the register tile: its flat index, as registerIndex
  // numbers them (the last register dimension fastest).
  auto Acc = [&](long U[2]) {
    long Flat = 0, Stride = 1;
    for (int R = M.GridMaps.size() - 1; R >= 0; --R) {
      long X = R == static_cast<int>(RowR)   ? U[0]
               : R == static_cast<int>(ColR) ? U[1]
                                             : 0; // a batch index: one
      Flat += X * Stride;
      Stride *= M.GridMaps[R]->Ilp;
    }
    return M.Accs[0].Name + "[" + std::to_string(Flat) + "]";
  };
  // ldmatrix reads a fragment's 8 x 8 matrices from a staged buffer whose
  // rows are 16-byte multiples (the layout Footprint.cpp gives a stage
  // under mma: Stage::Vector 8) and run along k, or along the operand's
  // output index (.trans), its subscript there the index itself: the
  // matrices' rows then start at multiples of 8 values, 16-byte aligned.
  enum class ByMatrices { No, Rows, Transposed };
  auto Matrices = [&](unsigned Read, unsigned Out) {
    if (!isHalf(Sh->Type))
      return ByMatrices::No;
    for (const Stage &St : G.Stages) {
      if (St.Read != Read || St.Vector != 8 || St.Order.empty())
        continue;
      isl::aff Inner =
          M.accessFormOnTuple(S.Reads[Read].Relation, Piece::Update)
              .at(St.Order.back());
      auto Coefficient = [&](unsigned Index) {
        return isl::manage(isl_aff_get_coefficient_val(
            Inner.get(), isl_dim_in, M.tuplePos(Index)));
      };
      if (Coefficient(Sh->Red).is_one())
        return ByMatrices::Rows;
      if (Coefficient(Out).is_one())
        return ByMatrices::Transposed;
    }
    return ByMatrices::No;
  };
  ByMatrices MatrixA = Matrices(ReadA, Row.Index);
  ByMatrices MatrixB = Matrices(ReadB, Col.Index);
  std::vector<NodeList> Bodies;
  for (const isl::ast_build &B : N.Builds) {
    isl_map *SM = isl_map_from_union_map(B.get_schedule().release());
    isl::pw_multi_aff At =
        isl::manage(isl_pw_multi_aff_from_map(isl_map_reverse(SM)));
    auto Read = [&](bool First, long F, long Reg, long Half) {
      isl::pw_multi_aff P = isl::manage(isl_pw_multi_aff_pullback_pw_multi_aff(
          Fr.element(First, F, Reg, Half).release(), At.copy()));
      return fragmentReadText(G, First ? ReadA : ReadB, B, P);
    };
    // A register's elements: two 16-bit values packed, one f64, or one
    // f32 rounded to tf32.
    auto PackText = [&](bool First, long F, long Reg) {
      if (Sh->Type == DType::F64)
        return Read(First, F, Reg, 0);
      if (Sh->Type == DType::F32)
        return "loopy_tf32(" + Read(First, F, Reg, 0) + ")";
      return "loopy_pack2(" + Read(First, F, Reg, 0) + ", " +
             Read(First, F, Reg, 1) + ")";
    };
    const std::string RegType =
        Sh->Type == DType::F64 ? "double" : "unsigned";
    auto Line = [](const std::string &Text) {
      auto L = std::make_unique<Node>(Node::Kind::Line);
      L->Text = Text;
      return L;
    };
    NodeList Body;
    auto FragName = [](const std::string &Base, long F, long Reg) {
      return Base + std::to_string(F) + "_" + std::to_string(Reg);
    };
    // The registers of fragments \p F (and F + 1 where \p Pair): with
    // ldmatrix where the operand's buffer allows, else element by element.
    auto Fragment = [&](bool First, long F, bool Pair) {
      const std::string &Base = First ? FragA : FragB;
      std::vector<std::pair<long, long>> Regs; // (fragment, register)
      for (long X = F; X < F + (Pair ? 2 : 1); ++X)
        for (long Reg = 0; Reg < (First ? In.regsA() : In.regsB()); ++Reg)
          Regs.push_back({X, Reg});
      ByMatrices How = First ? MatrixA : MatrixB;
      if (How == ByMatrices::No) {
        for (auto [X, Reg] : Regs)
          Body.push_back(Line("const " + RegType + " " + FragName(Base, X, Reg) +
                              " = " + PackText(First, X, Reg) + ";"));
        return;
      }
      auto L = std::make_unique<Node>(Node::Kind::MatrixLoad);
      std::string Decl;
      for (auto [X, Reg] : Regs) {
        L->Args.push_back(FragName(Base, X, Reg));
        Decl += (Decl.empty() ? "unsigned " : ", ") + L->Args.back();
        L->Body.push_back(Line(L->Args.back() + " = " +
                               PackText(First, X, Reg) + ";"));
      }
      isl::pw_multi_aff P = isl::manage(isl_pw_multi_aff_pullback_pw_multi_aff(
          Fr.matrixRow(First, F, Pair, How == ByMatrices::Transposed)
              .release(),
          At.copy()));
      if (How == ByMatrices::Transposed)
        L->Text = "_trans";
      L->Init = fragmentReadText(G, First ? ReadA : ReadB, B, P);
      L->Count = static_cast<long>(Regs.size());
      Body.push_back(Line(Decl + ";"));
      Body.push_back(std::move(L));
    };
    for (long F = 0; F < FragRows; ++F)
      Fragment(true, F, false);
    for (long F = 0; F < FragCols; F += 2)
      Fragment(false, F, F + 1 < FragCols);
    for (long FR = 0; FR < FragRows; ++FR)
      for (long FC = 0; FC < FragCols; ++FC) {
        auto X = std::make_unique<Node>(Node::Kind::Mma);
        X->Type = Sh->Type;
        X->Text = "m16n8k" + std::to_string(In.K);
        for (long Q = 0; Q < 4; ++Q) {
          long U[2] = {2 * FR + Q / 2, 2 * FC + Q % 2};
          X->Args.push_back(Acc(U));
        }
        for (long Reg = 0; Reg < In.regsA(); ++Reg)
          X->Args.push_back(FragName(FragA, FR, Reg));
        for (long Reg = 0; Reg < In.regsB(); ++Reg)
          X->Args.push_back(FragName(FragB, FC, Reg));
        Body.push_back(std::move(X));
      }
    Bodies.push_back(std::move(Body));
  }
  NodeList Out;
  auto C = std::make_unique<Node>(Node::Kind::Comment);
  C->Text = "the tile on the tensor cores: " + std::to_string(FragRows) +
            " x " + std::to_string(FragCols) + " products of 16 x " +
            std::to_string(In.K) + " by " + std::to_string(In.K) + " x 8";
  Out.push_back(std::move(C));
  if (N.Tree.is_null())
    return Out;
  for (NodePtr &X : convertAst(N.Tree, G.PragmaUnroll, [&](isl_ast_node *U) {
         NodeList &Body = Bodies[instancePos(U)];
         if (Fr.Tile > In.K) // the step loop's body is a scope of its own
           return std::move(Body);
         auto Blk = std::make_unique<Node>(Node::Kind::Block);
         Blk->Body = std::move(Body);
         NodeList L;
         L.push_back(std::move(Blk));
         return L;
       }))
    Out.push_back(std::move(X));
  return Out;
}

} // namespace loopy
