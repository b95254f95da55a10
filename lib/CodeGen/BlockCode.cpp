//===- BlockCode.cpp - The body of a block: uniform loops around pieces ---===//
#include "BlockCode.h"
#include "loopy/Schedule/FullTiles.h"
#include "AstToDevice.h"
#include "CooperativeLoads.h"
#include "LoopNests.h"
#include "MatrixCode.h"
#include "ThreadCode.h"
#include "loopy/Schedule/IslUtil.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>

#include <algorithm>
#include <functional>

namespace loopy {

using namespace device;

NodePtr blockReduce(const CodeGenState &G, const Accumulator &A) {
  auto R = std::make_unique<Node>(Node::Kind::BlockReduce);
  R->Buffer = "red_" + A.Name;
  R->Text = A.Name;
  R->Op = A.Reduce->reduceOp();
  R->Ax = G.M.BlockRed->Ax;
  R->ReduceThreads = G.M.BlockRed->Threads;
  R->Count = G.M.RegCount;
  return R;
}

/// How far the loops over a reduction tile unroll in code that runs
/// seldom: the last reduction tile where it is partial, and the blocks
/// whose tile crosses the domain's boundary. Unrolled fully there, with a
/// guard on every instance, they were most of a kernel's code and most of
/// NVRTC's time; by 4, the loop's overhead is still small against its
/// body of a register tile's updates.
constexpr unsigned SeldomUnroll = 4;

/// Unrolls the reduction-tile loops of \p L by SeldomUnroll only.
static void unrollLess(const CodeGenState &G, NodeList &L) {
  for (NodePtr &N : L) {
    if (N->K == Node::Kind::For && N->Unroll &&
        G.ReductionTileLoops.count(N->Iter))
      N->UnrollBy = SeldomUnroll;
    unrollLess(G, N->Body);
    unrollLess(G, N->Else);
  }
}

/// The trip count of loop \p N where the schedule gives it: a loop over a
/// reduction tile runs over its tile, a register loop over its registers;
/// 0 for any other.
static long knownTrips(const CodeGenState &G, const Node &N) {
  for (const std::map<std::string, long> *Loops :
       {&G.ReductionTileLoops, &G.RegisterLoops})
    if (auto It = Loops->find(N.Iter); It != Loops->end())
      return It->second;
  return 0;
}

/// The largest divisor of \p N that is at most \p Most (1 at least).
static long largestDivisorUpTo(long N, long Most) {
  for (long D = std::min(N, Most); D > 1; --D)
    if (N % D == 0)
      return D;
  return 1;
}

/// capUnrolling over \p L, returning the statements \p L unrolls to; \p
/// Reduces is set where \p L holds a loop over a reduction tile.
static long capLoops(const CodeGenState &G, NodeList &L, long Cap,
                     bool &Reduces) {
  long Size = 0;
  for (NodePtr &N : L) {
    bool Inside = false;
    long Inner = capLoops(G, N->Body, Cap, Inside) +
                 capLoops(G, N->Else, Cap, Inside);
    bool Tile = false;
    if (N->K == Node::Kind::For && N->Unroll) {
      Tile = G.ReductionTileLoops.count(N->Iter) > 0;
      long Trips = knownTrips(G, *N);
      if (N->UnrollBy > 0)
        Trips = std::min<long>(Trips ? Trips : N->UnrollBy, N->UnrollBy);
      if (Tile && Inside && Trips > 1 && Inner * Trips > Cap) {
        long By = largestDivisorUpTo(Trips, Cap / std::max(Inner, 1L));
        N->UnrollBy = static_cast<unsigned>(By);
        Trips = By;
      }
      Inner *= std::max(Trips, 1L);
    }
    Reduces |= Inside || Tile;
    Size += std::max(Inner, 1L);
  }
  return Size;
}

void capUnrolling(const CodeGenState &G, NodeList &L, long Cap) {
  bool Reduces = false;
  capLoops(G, L, Cap, Reduces);
}

/// What runs for one instance of the block-uniform loops.
static NodeList uniformBody(CodeGenState &G, const isl::set &Uniform) {
  StatementMapping &M = G.M;
  const Statement &S = *G.M.S;
  const Schedule &Sch = *G.M.Sch;
  NodeList Out;
  auto Append = [&](NodeList L) {
    for (NodePtr &X : L)
      Out.push_back(std::move(X));
  };
  // Pipelined, the loads are placed by the uniform loop's schedule.
  for (const Stage &St : G.Stages) {
    if (Sch.Pipelined)
      break;
    auto C = std::make_unique<Node>(Node::Kind::Comment);
    C->Text = "stage " + S.Reads[St.Read].Spelling + " in " + St.Buf;
    Out.push_back(std::move(C));
    Append(loadCode(G, St, Uniform, LoadPart::Whole));
  }
  if (!G.Stages.empty() && !Sch.Pipelined)
    Out.push_back(std::make_unique<Node>(Node::Kind::Barrier));
  if (Sch.Mma)
    Append(mmaCode(G, Uniform));
  else
    Append(threadCode(G, M.Accs.empty() ? Piece::Compute : Piece::Update,
                      Uniform));
  // The next tile (or iteration) overwrites the buffers; with two of
  // them, it writes the one whose readers all passed the last barrier.
  if (!G.Stages.empty() && (M.Tiled || !M.SeqOutputs.empty()) &&
      !M.doubleBuffered())
    Out.push_back(std::make_unique<Node>(Node::Kind::Barrier));
  return Out;
}

NodeList blockCode(CodeGenState &G) {
  NodeList Out;
  StatementMapping &M = G.M;
  const Kernel &K = *G.M.K;
  const Schedule &Sch = *G.M.Sch;
  // The block-uniform loops: sequential output indices, then reduction
  // tiles, around Init, the body and Write.
  std::vector<std::string> Threads = M.threadIds();
  bool HasUniform = !M.SeqOutputs.empty() || M.Tiled;
  isl::set NoExtra = isl::set::universe(M.Params);
  if (!HasUniform) {
    if (!M.Accs.empty())
      for (NodePtr &X : threadCode(G, Piece::Init, NoExtra))
        Out.push_back(std::move(X));
    for (NodePtr &X : uniformBody(G, NoExtra))
      Out.push_back(std::move(X));
  } else {
    // Uniform placeholders U_init[o], U_body[o, r, kt], U_write[o],
    // scheduled as [o..., stage, r..., kt]: r the reductions outside the
    // tiles (seq,outer).
    unsigned NO = M.SeqOutputs.size(), NR = M.OuterReds.size();
    auto Project = [&](const isl::set &Dom, bool WithTile) {
      // Onto the uniform parameters: they become the tuple.
      isl::set P = eliminateParams(Dom, Threads);
      isl_set *X = isl_set_params(P.release());
      unsigned NP = M.ParamNames.size();
      unsigned Inner = NR + (M.Tiled ? 1 : 0);
      unsigned First = NP - NO - Inner;
      unsigned Count = NO + (WithTile ? Inner : 0);
      X = isl_set_from_params(X);
      X = isl_set_move_dims(X, isl_dim_set, 0, isl_dim_param, First, Count);
      if (!WithTile && Inner)
        X = isl_set_project_out(X, isl_dim_param,
                                isl_set_dim(X, isl_dim_param) - Inner, Inner);
      return isl::manage(X);
    };
    isl::set UOut = Project(M.OutDom, false);
    isl::set UBody = Project(M.Ext, true);
    // Full reduction tiles apart from the partial one: their loops run to
    // a constant and need no guards.
    std::optional<TileSplit> KSplit = fullReductionTiles(M);
    isl_union_map *Sched = isl_union_map_empty(M.Params.copy());
    // Pipelined, each tile's body splits in three, at [stage 1, time, sub]:
    // its registers are stored to shared memory at (kt, 0), the next tile
    // is fetched at (kt, 1) -- so tile kt's fetch runs at (kt - 1, 1), the
    // first one before the loop -- and the tile is computed at (kt, 2).
    bool Pipe = Sch.Pipelined;
    unsigned NS = NO + NR + (Pipe ? 3 : 2);
    auto Add = [&](isl::set Dom, const char *Name, long Stage, bool WithTile,
                   long Shift = 0, long Sub = 0) {
      isl_set *D = isl_set_set_tuple_name(Dom.release(), Name);
      isl::map MM = isl::manage(
          isl_map_add_dims(isl_map_from_domain(D), isl_dim_out, NS));
      for (unsigned I = 0; I < NO; ++I)
        MM = addConstraint(MM, {{isl_dim_in, I, 1}, {isl_dim_out, I, -1}}, 0,
                           true);
      MM = addConstraint(MM, {{isl_dim_out, NO, 1}}, -Stage, true);
      for (unsigned I = 0; I < NR; ++I)
        if (WithTile)
          MM = addConstraint(
              MM, {{isl_dim_in, NO + I, 1}, {isl_dim_out, NO + 1 + I, -1}}, 0,
              true);
        else
          MM = addConstraint(MM, {{isl_dim_out, NO + 1 + I, 1}}, 0, true);
      if (WithTile && M.Tiled)
        MM = addConstraint(
            MM, {{isl_dim_in, NO + NR, 1}, {isl_dim_out, NO + NR + 1, -1}},
            Shift, true);
      else
        MM = addConstraint(MM, {{isl_dim_out, NO + NR + 1, 1}}, 0, true);
      if (Pipe)
        MM = addConstraint(MM, {{isl_dim_out, NO + NR + 2, 1}}, -Sub, true);
      Sched = isl_union_map_add_map(Sched, M.align(MM).release());
    };
    if (!M.Accs.empty())
      Add(UOut, "U_init", 0, false);
    // With the split, the tiles' fetches and bodies come in two kinds:
    // full ones (U_fetch, U_body) and the partial one (U_..._part).
    isl::set UFull = KSplit ? Project(M.Ext.intersect_params(KSplit->Full), true)
                            : UBody;
    isl::set UPart = KSplit
                         ? Project(M.Ext.intersect_params(KSplit->Partial), true)
                         : isl::set();
    // Asynchronous copies run Ahead tiles ahead of the computed tile
    // (the schedule's buffers less one), stages through registers one:
    // with both kinds and Ahead > 1, their fetches are instances apart
    // (U_fetch_reg).
    bool AnyAsync = std::any_of(G.Stages.begin(), G.Stages.end(),
                                [](const Stage &St) { return St.Async; });
    bool AnyReg = std::any_of(G.Stages.begin(), G.Stages.end(),
                              [](const Stage &St) { return !St.Async; });
    long Ahead = Pipe && AnyAsync ? Sch.Buffers - 1 : 1;
    const std::string StoreWaiting = "U_store_w";
    if (Pipe) {
      // The tile's wait lets the copies of the tiles after it stay in
      // flight, as many as were issued: up to Ahead - 1, fewer at the end
      // of the reduction. U_store_wJ waits with J groups pending, on the
      // tiles followed by J more and (below Ahead - 1) no further one.
      auto Followed = [&](long J) {
        // { [..., kt] : [..., kt + J] in UBody }
        isl_space *Sp = isl_space_map_from_set(UBody.get_space().release());
        isl_multi_aff *Shift = isl_multi_aff_identity(Sp);
        unsigned Last = isl_multi_aff_dim(Shift, isl_dim_out) - 1;
        isl_aff *A = isl_multi_aff_get_aff(Shift, Last);
        Shift = isl_multi_aff_set_aff(Shift, Last,
                                      isl_aff_add_constant_si(A, int(J)));
        return UBody.intersect(isl::manage(
            isl_set_preimage_multi_aff(UBody.copy(), Shift)));
      };
      for (long J = 0; J < Ahead; ++J) {
        isl::set W = J ? Followed(J) : UBody;
        if (J + 1 < Ahead)
          W = W.subtract(Followed(J + 1));
        std::string Name = J ? StoreWaiting + std::to_string(J) : "U_store";
        Add(W, Name.c_str(), 1, true, 0, 0);
      }
      Add(UFull, "U_fetch", 1, true, -Ahead, 1);
      if (KSplit)
        Add(UPart, "U_fetch_part", 1, true, -Ahead, 1);
      if (AnyReg && Ahead > 1) {
        Add(UFull, "U_fetch_reg", 1, true, -1, 1);
        if (KSplit)
          Add(UPart, "U_fetch_reg_part", 1, true, -1, 1);
      }
    }
    Add(UFull, "U_body", 1, true, 0, Pipe ? 2 : 0);
    if (KSplit)
      Add(UPart, "U_body_part", 1, true, 0, Pipe ? 2 : 0);
    if (!M.Accs.empty())
      Add(UOut, "U_write", 2, false);
    // Generate the uniform loops; their user nodes are filled in below.
    std::vector<std::string> Iters = M.SeqParams;
    Iters.push_back(M.Names.fresh("stage"));
    for (const std::string &R : M.OuterParams)
      Iters.push_back(R);
    Iters.push_back(M.Tiled ? M.TileParam : M.Names.fresh("c"));
    if (Pipe) {
      Iters.push_back(M.Names.fresh("part"));
      G.NextTile = M.Names.fresh(K.IndexNames[M.Tiled->Index] + "_next");
    }
    // Parameters the uniform loops do not involve only slow isl down. The
    // domains repeat the context's bounds on the block ids (and the sizes
    // fixed with -D): without them, the loops involve neither.
    isl_set *UC = eliminateParams(M.Context, Threads).release();
    Sched = isl_union_map_gist_params(Sched, isl_set_copy(UC));
    for (int P = isl_union_map_dim(Sched, isl_dim_param) - 1; P >= 0; --P) {
      if (isl_union_map_involves_dims(Sched, isl_dim_param, P, 1) !=
          isl_bool_false)
        continue;
      isl::id Name =
          isl::manage(isl_union_map_get_dim_id(Sched, isl_dim_param, P));
      int CP = isl_set_find_dim_by_id(UC, isl_dim_param, Name.get());
      if (CP >= 0)
        UC = isl_set_project_out(UC, isl_dim_param, CP, 1);
      Sched = isl_union_map_project_out(Sched, isl_dim_param, P, 1);
    }
    const LoweringCache::Nest &UN =
        loopNest(G.Cache, isl::manage(Sched), isl::manage(UC), Iters,
                 std::vector<bool>(Iters.size(), false));
    // Which placeholder every uniform instance is; the thread code takes
    // the uniform iterators as parameters, so it needs nothing else.
    std::vector<std::string> UTuples;
    for (const isl::ast_build &B : UN.Builds) {
      isl::map S =
          isl::manage(isl_map_from_union_map(B.get_schedule().release()));
      UTuples.push_back(isl_map_get_tuple_name(S.get(), isl_dim_in));
    }
    // Convert, expanding uniform user nodes into their thread code.
    isl::set UniformCtx = eliminateParams(M.Ext, Threads).params();
    auto Expand = [&](isl_ast_node *N, const std::string &T) -> NodeList {
      if (T == "U_init")
        return threadCode(G, Piece::Init, UniformCtx);
      if (T == "U_write") {
        NodeList L;
        if (M.BlockRed)
          for (const Accumulator &A : M.Accs)
            L.push_back(blockReduce(G, A));
        for (NodePtr &X : threadCode(G, Piece::Write, UniformCtx))
          L.push_back(std::move(X));
        return L;
      }
      // A fetch loads the tile its instance names: the split's context on
      // the tile applies to it (loadCode renames the tile parameter).
      bool Part = T == "U_body_part" || T == "U_fetch_part" ||
                  T == "U_fetch_reg_part";
      isl::set Ctx = !KSplit ? UniformCtx
                     : Part  ? UniformCtx.intersect(KSplit->Partial)
                             : UniformCtx.intersect(KSplit->Full);
      // Which stages a fetch loads: every one where all run one tile
      // ahead, else the asynchronous ones or those through registers.
      Fetched Which = Ahead == 1 ? Fetched::All : Fetched::Async;
      if (T == "U_fetch_reg" || T == "U_fetch_reg_part")
        Which = Fetched::Registers;
      if (T.rfind("U_store", 0) == 0) {
        long Pending =
            T == "U_store" ? 0 : std::stol(T.substr(StoreWaiting.size()));
        return pipelinedLoads(G, N, false, UniformCtx, NO, Fetched::All,
                              Pending);
      }
      if (T.rfind("U_fetch", 0) == 0)
        return pipelinedLoads(G, N, true, Ctx, NO + NR, Which);
      NodeList Body = uniformBody(G, Ctx);
      if (Part)
        unrollLess(G, Body);
      return Body;
    };
    // The thread code names the uniform iterators. Where isl fixed one
    // (a loop of one iteration, such as the only reduction tile of a
    // pipelined schedule, whose fetch runs before it), it made no loop:
    // the instance binds the name to the value isl gives.
    auto BindUniform = [&](isl_ast_node *N, const std::string &T,
                           NodeList Body) {
      isl::ast_expr Call = isl::manage(isl_ast_node_user_get_expr(N));
      std::vector<std::string> Names = M.SeqParams;
      bool Fetch = T.rfind("U_fetch", 0) == 0;
      if (M.Tiled && (Fetch || T == "U_body" || T == "U_body_part" ||
                      T.rfind("U_store", 0) == 0)) {
        for (const std::string &R : M.OuterParams)
          Names.push_back(R);
        if (!Fetch) // the fetch binds its tile to NextTile itself
          Names.push_back(M.TileParam);
      }
      NodeList Bound;
      for (unsigned I = 0; I < Names.size(); ++I) {
        std::string V = printAstExpr(
            isl::manage(isl_ast_expr_get_op_arg(Call.get(), 1 + I)));
        if (V == Names[I])
          continue;
        auto D = std::make_unique<Node>(Node::Kind::Declare);
        D->Iter = Names[I];
        D->Init = V;
        Bound.push_back(std::move(D));
      }
      if (Bound.empty())
        return Body;
      auto B = std::make_unique<Node>(Node::Kind::Block);
      B->Body = std::move(Bound);
      for (NodePtr &X : Body)
        B->Body.push_back(std::move(X));
      NodeList Out;
      Out.push_back(std::move(B));
      return Out;
    };
    std::function<NodeList(isl_ast_node *)> Conv = [&](isl_ast_node *N) {
      if (isl_ast_node_get_type(N) == isl_ast_node_user) {
        const std::string &T = UTuples[instancePos(N)];
        return BindUniform(N, T, Expand(N, T));
      }
      return NodeList();
    };

    // Loops and guards convert as everywhere; uniform instances expand into
    // their thread code.
    if (!UN.Tree.is_null())
      Out = convertAst(UN.Tree, G.PragmaUnroll, Conv);
  }
  // Without uniform loops, the block reduction and Write come last.
  if (!HasUniform && !M.Accs.empty()) {
    if (M.BlockRed)
      for (const Accumulator &A : M.Accs)
        Out.push_back(blockReduce(G, A));
    for (NodePtr &X : threadCode(G, Piece::Write, NoExtra))
      Out.push_back(std::move(X));
  }
  return Out;
}

NodeList blockCodeByTiles(CodeGenState &G) {
  std::optional<TileSplit> Split = fullBlocks(G.M);
  if (!Split)
    return blockCode(G);
  // The code for full blocks, where isl drops the guards of the outputs
  // and the loads, then the code for any block (the partial ones run it).
  // The latter under the whole context rather than the partial blocks'
  // (a union of boxes, often): isl's work stays that of one version, and
  // its loop nests are shared with every other variant's.
  isl::set Context = G.M.Context;
  NameTable Names = G.M.Names;
  G.M.Context = Split->Full;
  NodeList Full = blockCode(G);
  G.M.Names = Names;
  G.M.Context = Context;
  NodeList Partial = blockCode(G);
  unrollLess(G, Partial);
  auto If = std::make_unique<Node>(Node::Kind::If);
  If->Cond =
      printAstExpr(isl::ast_build::from_context(Context).expr_from(Split->Full));
  If->Body = std::move(Full);
  If->Else = std::move(Partial);
  NodeList Out;
  Out.push_back(std::move(If));
  return Out;
}

} // namespace loopy
