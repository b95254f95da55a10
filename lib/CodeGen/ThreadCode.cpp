//===- ThreadCode.cpp - One piece's per-thread loop nest ------------------===//
#include "ThreadCode.h"
#include "AstToDevice.h"
#include "LoopNests.h"
#include "StatementText.h"
#include "loopy/Schedule/IslUtil.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

namespace loopy {

using namespace device;

static Instance instanceAt(CodeGenState &G, const isl::ast_build &Build,
                           const std::string &Tuple) {
  // The nest runs over a tuple of a neutral name; the instance is one of
  // piece Tuple.
  isl_map *M = isl_map_from_union_map(Build.schedule().release());
  M = isl_map_set_tuple_name(M, isl_dim_in, Tuple.c_str());
  isl::pw_multi_aff Iter =
      isl::manage(isl_pw_multi_aff_from_map(isl_map_reverse(M)));
  Instance I = instanceText(G, Build, Tuple, Iter);
  // Register tiles are unrolled over whole boxes; each instance is guarded
  // by membership of the statement's real domain.
  auto Real = G.Guards.find(Tuple);
  if (Real != G.Guards.end()) {
    isl::set OnSchedule = Real->second.preimage(Iter);
    isl::ast_expr E = Build.expr_from(OnSchedule);
    bool True =
        E.isa<isl::ast_expr_int>() && E.as<isl::ast_expr_int>().val().is_one();
    if (!True)
      I.Guard = printAstExpr(E);
  }
  return I;
}

static NodeList instanceNodes(CodeGenState &G, isl_ast_node *N, size_t First) {
  NodeList Out;
  size_t Idx = First + instancePos(N);
  NodeList Lines;
  for (const std::string &L : G.Instances[Idx].Lines) {
    auto X = std::make_unique<Node>(Node::Kind::Line);
    X->Text = L;
    Lines.push_back(std::move(X));
  }
  if (G.Instances[Idx].Guard.empty()) {
    for (NodePtr &X : Lines)
      Out.push_back(std::move(X));
  } else {
    auto If = std::make_unique<Node>(Node::Kind::If);
    If->Cond = G.Instances[Idx].Guard;
    If->Body = std::move(Lines);
    Out.push_back(std::move(If));
  }
  return Out;
}

static NodeList generate(CodeGenState &G, isl::map Schedule,
                         const std::string &Tuple,
                         const std::vector<std::string> &Iterators,
                         const std::vector<bool> &Unroll,
                         isl::set ExtraContext) {
  StatementMapping &M = G.M;
  // Pieces over the same domain differ only in their tuple's name, which
  // isl's loops do not depend on: one name lets them share a nest.
  Schedule = isl::manage(
      isl_map_set_tuple_name(Schedule.release(), isl_dim_in, "thread"));
  // The iterators of uniform loops the piece does not run in (Init and
  // Write are outside the reduction tiles) tell isl nothing about its
  // loops; without them, variants that differ only there share the nest.
  isl::set C = M.Context.intersect_params(ExtraContext);
  std::vector<std::string> Uniform = M.SeqParams;
  for (const std::string &R : M.OuterParams)
    Uniform.push_back(R);
  if (M.Tiled)
    Uniform.push_back(M.TileParam);
  for (const std::string &P : Uniform) {
    int Pos =
        isl_map_find_dim_by_name(Schedule.get(), isl_dim_param, P.c_str());
    if (Pos >= 0 && isl_map_involves_dims(Schedule.get(), isl_dim_param, Pos,
                                          1) != isl_bool_false)
      continue;
    int CP = isl_set_find_dim_by_name(C.get(), isl_dim_param, P.c_str());
    if (CP >= 0)
      C = isl::manage(isl_set_project_out(C.release(), isl_dim_param, CP, 1));
  }
  const LoweringCache::Nest &N =
      loopNest(G.Cache, isl::manage(isl_union_map_from_map(Schedule.release())),
               C, Iterators, Unroll);
  size_t First = G.Instances.size();
  for (const isl::ast_build &B : N.Builds)
    G.Instances.push_back(instanceAt(G, B, Tuple));
  NodeList L;
  if (!N.Tree.is_null())
    L = convertAst(N.Tree, G.PragmaUnroll, [&G, First](isl_ast_node *U) {
      return instanceNodes(G, U, First);
    });
  return L;
}

/// The per-thread schedule of a piece: sequential reduction loops in the
/// schedule's order, then the register coordinates (unrolled).
static isl::map threadSchedule(CodeGenState &G, const isl::set &Domain, Piece P,
                               std::vector<std::string> &Iters,
                               std::vector<bool> &Unroll) {
  StatementMapping &Map = G.M;
  const Kernel &K = *G.M.K;
  const Schedule &Sch = *G.M.Sch;
  unsigned NIn = isl_set_dim(Domain.get(), isl_dim_set);
  unsigned NIdx = NIn - Map.GridMaps.size();
  std::vector<std::pair<std::vector<Term>, long>> Dims; // out = terms + cst
  if (P == Piece::Update || P == Piece::Compute) {
    for (const IndexMap &M : Sch.Maps) {
      if (Map.isOutput(M.Index))
        continue;
      unsigned Pos = Map.tuplePos(M.Index);
      const std::string &N = K.IndexNames[M.Index];
      if (M.K == IndexMap::Kind::Tiled) {
        Dims.push_back(
            {{{isl_dim_in, Pos, 1},
              {isl_dim_param, paramPos(Domain, Map.TileParam), -M.Tile}},
             0});
        // A short loop of constant trip count (at most Tile): nvcc unrolls
        // it fully where the sizes make it exact. isl unrolling it too
        // would multiply the guards of the register tile.
        Iters.push_back(Map.Names.fresh(N + "_in"));
        Unroll.push_back(false);
        G.PragmaUnroll.insert(Iters.back());
        G.ReductionTileLoops[Iters.back()] = M.Tile;
      } else {
        // The loop runs over the index itself and carries its name. Over
        // a tile of an outer reduction it is short, like the tiled one's.
        Dims.push_back({{{isl_dim_in, Pos, 1}}, 0});
        Iters.push_back(N);
        Unroll.push_back(false);
        if (M.Outer && M.Tile > 1) {
          G.PragmaUnroll.insert(N);
          G.ReductionTileLoops[N] = M.Tile;
        }
      }
    }
  }
  // Register loops have constant bounds (the domain is relaxed to whole
  // tiles); printed with #pragma unroll, nvcc turns them into straight-line
  // code on registers. Generating them once keeps isl's work small.
  for (unsigned R = 0; R < Map.GridMaps.size(); ++R) {
    Dims.push_back({{{isl_dim_in, NIdx + R, 1}}, 0});
    Iters.push_back(Map.RegNames[R]);
    Unroll.push_back(false);
    G.PragmaUnroll.insert(Map.RegNames[R]);
    G.RegisterLoops[Map.RegNames[R]] = Map.GridMaps[R]->Ilp;
  }
  isl_map *M = isl_map_from_domain(Domain.copy());
  M = isl_map_add_dims(M, isl_dim_out, Dims.size());
  isl::map MM = isl::manage(M);
  for (unsigned D = 0; D < Dims.size(); ++D) {
    std::vector<Term> T = Dims[D].first;
    T.push_back({isl_dim_out, D, -1});
    MM = addConstraint(MM, T, Dims[D].second, true);
  }
  return MM;
}

/// The piece's domain with the uniform loop iterators fixed, then its
/// per-thread code.
NodeList threadCode(CodeGenState &G, Piece P, const isl::set &Uniform) {
  StatementMapping &Map = G.M;
  const Statement &S = *G.M.S;
  isl::set Dom = (P == Piece::Init || P == Piece::Write) ? Map.OutDom : Map.Ext;
  const std::string &T = P == Piece::Init    ? Map.TupleInit
                         : P == Piece::Write ? Map.TupleWrite
                                             : Map.TupleUpdate;
  Dom = isl::manage(isl_set_set_tuple_name(Dom.release(), T.c_str()));
  if (P == Piece::Write && Map.BlockRed) {
    int A = static_cast<int>(Map.BlockRed->Ax);
    Dom = addConstraint(
        Dom, {{isl_dim_param, paramPos(Dom, Map.ThreadId[A]), 1}}, 0, true);
  }
  // Relax the domain to whole register tiles: forget the output indices'
  // bounds (the registers' own bounds and the tiling equalities remain), so
  // that isl unrolls a box and each instance gets one flat guard.
  isl::set Real = Dom;
  if (!Map.GridMaps.empty()) {
    unsigned NIdx = isl_set_dim(Dom.get(), isl_dim_set) - Map.GridMaps.size();
    isl_set *X = Dom.copy();
    std::vector<unsigned> OutPos;
    for (unsigned I = 0; I < NIdx; ++I) {
      unsigned Index = (P == Piece::Init || P == Piece::Write)
                           ? S.OutputIndices[I]
                           : S.Indices[I];
      if (Map.isOutput(Index))
        X = isl_set_eliminate(X, isl_dim_set, I, 1);
    }
    X = isl_set_eliminate(X, isl_dim_set, NIdx, Map.GridMaps.size());
    // A union (a domain with holes) becomes one polyhedron containing it:
    // the loops run over it and each instance's guard keeps the holes.
    // Pieces that differed only in the forgotten bounds merge exactly.
    if (isl_set_n_basic_set(X) > 1)
      X = isl_set_coalesce(X);
    if (isl_set_n_basic_set(X) > 1)
      X = isl_set_from_basic_set(isl_set_simple_hull(X));
    Dom = isl::manage(X).intersect(Map.frame(Dom.get_space(), P));
  }
  // The update may run over a relaxed domain (outputs that are never
  // written computed too, FullTiles.h): its guards are those of the
  // relaxed domain, on the loops' box, and the accumulators it uses start
  // at the identity too (Init over the relaxed domain's outputs).
  if ((P == Piece::Update || P == Piece::Init) && G.Overcompute &&
      !Map.GridMaps.empty()) {
    isl::set Relaxed = Map.align(*G.Overcompute);
    if (P == Piece::Init)
      Relaxed = Map.onOutputs(Relaxed);
    isl_set *X = isl_set_add_dims(Relaxed.release(), isl_dim_set,
                                  Map.GridMaps.size());
    X = isl_set_reset_space(X, Dom.get_space().release());
    Real = Dom.intersect(isl::manage(X));
  }
  std::vector<std::string> Iters;
  std::vector<bool> Unroll;
  isl::map M = threadSchedule(G, Dom, P, Iters, Unroll);
  if (!Map.GridMaps.empty())
    G.Guards[T] = Real;
  if (Iters.empty()) {
    // A single instance: give the schedule one constant dimension.
    isl_map *X = isl_map_add_dims(M.release(), isl_dim_out, 1);
    X = isl_map_fix_si(X, isl_dim_out, 0, 0);
    M = isl::manage(X);
    Iters.push_back(Map.Names.fresh("c"));
    Unroll.push_back(false);
  }
  return generate(G, M, T, Iters, Unroll, Uniform);
}

} // namespace loopy
