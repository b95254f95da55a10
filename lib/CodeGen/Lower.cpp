//===- Lower.cpp - Kernel IR + Schedule to the device AST -----------------===//
//
// The lowering of one statement under one schedule, in four steps:
//
//  1. extend the statement's domain { S[indices] } with one register
//     coordinate per grid-mapped index and relate indices to the block and
//     thread coordinates, which become isl parameters (bx, tx, ...);
//  2. derive the per-thread pieces: Init and Write over the output indices,
//     Update (or Compute, without reduction) over all of them, and the
//     block-uniform loops (sequential output indices and reduction tiles)
//     around them, in which barriers are legal;
//  3. compute each prefetched read's footprint per block and tile as the
//     image of the block's iterations, and its fixed box for the buffer;
//  4. let isl's AST generator produce every loop nest, unrolling register
//     tiles and short constant loops, and translate its trees into the
//     device AST, printing statement bodies at each instance.
//
//===----------------------------------------------------------------------===//
#include "loopy/CodeGen/Lower.h"
#include "loopy/CodeGen/IslUtil.h"
#include "loopy/IR/IRPrinter.h"
#include "loopy/Support/Diagnostics.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/fixed_box.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>


namespace loopy {

using namespace device;

long Buffer::bytes() const {
  long N = dtypeSize(Type);
  for (long D : Dims)
    N *= D;
  return N;
}

std::vector<long> DeviceKernel::sharedOffsets() const {
  std::vector<long> Out;
  long Off = 0;
  for (const Buffer &B : Shared) {
    Out.push_back(Off);
    Off += dynamicSharedSlot(B.bytes());
  }
  return Out;
}

long DeviceKernel::sharedBytes() const {
  long N = 0;
  for (const Buffer &B : Shared)
    N += B.bytes();
  return N;
}

/// The header line that gives a kernel's launch configuration.
static std::string launchLine(const DeviceKernel &DK) {
  return "launch: grid (" + DK.GridC[0] + ", " + DK.GridC[1] + ", " +
         DK.GridC[2] + "), block (" + std::to_string(DK.BlockDim[0]) + ", " +
         std::to_string(DK.BlockDim[1]) + ", " + std::to_string(DK.BlockDim[2]) +
         ")" + (DK.LaunchIf.empty() ? "" : " if " + DK.LaunchIf);
}

std::optional<FootprintBox> fixedBox(const isl::set &Footprint) {
  isl_fixed_box *B = isl_set_get_simple_fixed_box_hull(Footprint.get());
  if (!B)
    return std::nullopt;
  std::optional<FootprintBox> R;
  if (isl_fixed_box_is_valid(B) == isl_bool_true) {
    FootprintBox FB{isl::manage(isl_fixed_box_get_offset(B)), {}};
    isl_multi_val *Size = isl_fixed_box_get_size(B);
    for (int I = 0; I < isl_multi_val_size(Size); ++I) {
      isl_val *V = isl_multi_val_get_at(Size, I);
      FB.Size.push_back(isl_val_get_num_si(V));
      isl_val_free(V);
    }
    isl_multi_val_free(Size);
    R = std::move(FB);
  }
  isl_fixed_box_free(B);
  return R;
}

namespace {

/// \p Off, a function of the parameters only, as a function on the
/// (unnamed) domain of \p X.
isl_aff *liftToDomainOf(isl_aff *Off, isl_pw_aff *X) {
  isl_space *Dom = isl_pw_aff_get_domain_space(X);
  unsigned N = isl_space_dim(Dom, isl_dim_set);
  isl_space_free(Dom);
  return isl_aff_add_dims(Off, isl_dim_in, N);
}

enum class Piece { Init, Update, Write, Compute };

/// One read staged in shared memory.
struct Stage {
  unsigned Read = 0;
  std::string Buf;
  FootprintBox Box;
  isl::set Footprint; // { A[x] } per block and tile
  /// The buffer's dimensions hold the box's dimensions Order[0], ...
  /// (slowest first), with extents Padded.
  std::vector<unsigned> Order;
  std::vector<long> Padded;
  unsigned ContiguousDim = 0;
  /// Elements a thread reads side by side from the innermost dimension
  /// (its register tile there), 1 if none; the rows are aligned to that.
  long Vector = 1;
  /// Pipelined: the registers holding a thread's part of the next tile.
  std::string Next;
  long Rounds = 1; // cooperative load rounds: vectors per thread
  /// Elements the cooperative load reads as one vector along the
  /// contiguous dimension (1: one at a time); see Lowering::loadVector.
  long LoadVector = 1;
  /// Double-buffered: the leading subscript, the reduction tile's parity.
  std::string Parity;

  /// The buffer's element at box coordinates \p Box.
  std::string element(const std::vector<std::string> &Box) const {
    std::string T = Buf;
    if (!Parity.empty())
      T += "[" + Parity + "]";
    for (unsigned D : Order)
      T += "[" + Box[D] + "]";
    return Box.empty() ? T + "[0]" : T;
  }
};

/// One reduction of the right-hand side and its register accumulator.
struct Accumulator {
  const Expr *Reduce;
  std::string Name;
};

/// Text produced for one instance of a user statement of an isl AST.
struct Instance {
  std::string Guard; // empty if the instance always runs
  std::vector<std::string> Lines;
};

class Lowering {
public:
  Lowering(const Kernel &K, const Statement &S, const Schedule &Sch,
           LoweringCache *Cache = nullptr)
      : K(K), S(S), Sch(Sch), Ctx(K.Domain.ctx()),
        Cache(Cache ? Cache : &Own) {}

  std::optional<DeviceKernel> run(std::string &Error);
  std::optional<LoweringFigures> figures(std::string &Error);
  /// Whether the blocks add their results into the outputs atomically.
  bool splitAcrossBlocks() const { return BlockRed && BlockRed->Chunk; }
  /// The kernel that sets the outputs to zero before \p Main (of a
  /// reduction split across blocks) runs.
  DeviceKernel initKernel(const DeviceKernel &Main);

private:
  std::string fresh(const std::string &Base);
  int tuplePos(unsigned Index) const;
  bool isOutput(unsigned Index) const;
  /// \p X on the lowering's parameters, the sizes fixed at compile time
  /// substituted.
  isl::set align(isl::set X) const {
    return isl::manage(
        isl_set_align_params(fixSizes(std::move(X)).release(), Params.copy()));
  }
  isl::map align(isl::map X) const {
    return isl::manage(
        isl_map_align_params(fixSizes(std::move(X)).release(), Params.copy()));
  }
  isl::set fixSizes(isl::set X) const;
  isl::map fixSizes(isl::map X) const;
  isl::pw_aff fixSizes(isl::pw_aff X) const;
  bool setUp(std::string &Error);
  /// The block's shape, which the facts in LoweringCache::Block follow.
  std::string blockKey() const;
  bool buildDomains(std::string &Error);
  /// The block's iterations { S[indices] } for fixed block ids, tile and
  /// sequential outputs, built from the block's shape alone.
  isl::set blockIterations() const;
  bool buildStages(std::string &Error);
  void layOut(Stage &St, const Access &Acc, long ElemBytes) const;
  long loadVector(const Stage &St, const Argument &A) const;
  /// How each stage's cooperative load runs: its vector width and rounds.
  /// Only the code needs them (the planner's figures do not), and the
  /// vector proof is the costly part of a stage.
  void planLoads();
  /// Pipelined over reduction tiles with no uniform loop around them:
  /// two buffers per stage, the tile's parity choosing one, so that a
  /// tile's store cannot overwrite what the previous tile still reads and
  /// one barrier per tile is enough.
  bool doubleBuffered() const {
    return Sch.Pipelined && Tiled && SeqOutputs.empty();
  }
  void buildStrides();
  bool fitsIn32Bits() const;
  void boundBlocks();
  void computeGrid(std::string *Isl, std::string *C, std::string *LaunchIf);

  // AST generation.
  /// The per-thread loop nest of piece tuple \p Tuple under \p Schedule
  /// { Tuple[...] -> [...] }, with its statements' text.
  NodeList generate(isl::map Schedule, const std::string &Tuple,
                    const std::vector<std::string> &Iterators,
                    const std::vector<bool> &Unroll, isl::set ExtraContext);
  /// isl's nest for \p Schedule in \p Context, from the cache or generated
  /// into it.
  const LoweringCache::Nest &nest(isl::union_map Schedule, isl::set Context,
                                  const std::vector<std::string> &Iterators,
                                  const std::vector<bool> &Unroll);
  /// isl's AST as device nodes; \p User expands user nodes.
  NodeList convert(isl_ast_node *N,
                   const std::function<NodeList(isl_ast_node *)> &User);
  NodeList instanceNodes(isl_ast_node *N, size_t First);
  static isl_ast_node *atEachDomain(isl_ast_node *Node, isl_ast_build *Build,
                                    void *User);
  /// Text and guard of the instance of piece \p Tuple at \p Build.
  Instance instanceAt(isl_ast_build *Build, const std::string &Tuple);
  Instance instanceText(isl_ast_build *Build, const std::string &Tuple,
                        isl::pw_multi_aff Iter);

  // Pieces.
  isl::map threadSchedule(const isl::set &Domain, Piece P,
                          std::vector<std::string> &Iters,
                          std::vector<bool> &Unroll);
  NodeList threadCode(Piece P, const isl::set &Uniform);
  /// How a cooperative load runs: straight from global to shared memory,
  /// or in two halves through registers (pipelined): Fetch loads the tile
  /// NextTile names into registers, Store moves them to shared memory.
  enum class LoadPart { Whole, Fetch, Store };
  NodeList loadCode(const Stage &St, const isl::set &Uniform, LoadPart Part);
  NodeList uniformBody(const isl::set &Uniform);
  NodeList pipelinedLoads(isl_ast_node *User, bool Fetch,
                          const isl::set &Uniform, unsigned NO);
  NodePtr blockReduce(const Accumulator &A) const {
    auto R = std::make_unique<Node>(Node::Kind::BlockReduce);
    R->Buffer = "red_" + A.Name;
    R->Text = A.Name;
    R->Op = A.Reduce->reduceOp();
    R->Ax = BlockRed->Ax;
    R->ReduceThreads = BlockRed->Threads;
    R->Count = RegCount;
    return R;
  }

  // Statement bodies.
  std::string valueText(const Expr &E, isl_ast_build *Build,
                        const isl::pw_multi_aff &Iter, Piece P);
  std::string readText(unsigned Read, isl_ast_build *Build,
                       const isl::pw_multi_aff &Iter, Piece P);
  std::string globalElement(unsigned Arg, const std::vector<std::string> &Sub);
  isl::multi_aff accessOnTuple(const isl::map &Rel, Piece P) const;
  /// The write's subscripts at an instance of piece \p P.
  std::string writtenElement(isl_ast_build *Build,
                             const isl::pw_multi_aff &Iter, Piece P);
  isl::set frame(isl::space Sp, Piece P) const;
  std::string registerIndex(isl_ast_build *Build,
                            const isl::pw_multi_aff &Iter, Piece P);
  std::string tupleDimText(isl_ast_build *Build, const isl::pw_multi_aff &Iter,
                           unsigned Pos);

  const Kernel &K;
  const Statement &S;
  const Schedule &Sch;
  isl::ctx Ctx;
  LoweringCache Own; // where the caller keeps none
  LoweringCache *Cache;
  LoweringCache::Block *Facts = nullptr; // of this block's shape
  std::set<std::string> Taken;

  std::string BlockId[3], ThreadId[3];
  /// The largest block id along each grid axis, on the kernel's parameters.
  isl::pw_aff BlockMax[3];
  /// The parameters of the code: the kernel's sizes that are not fixed at
  /// compile time (the first NumSizes), then block and thread ids, uniform
  /// loop iterators and the reduction tile. A fixed size is substituted
  /// into every set, and isl works on fewer dimensions.
  std::vector<std::string> ParamNames;
  unsigned NumSizes = 0;
  isl::space Params;
  std::vector<const IndexMap *> GridMaps;   // register dimensions, in order
  std::vector<const IndexMap *> SeqOutputs; // block-uniform loops
  const IndexMap *Tiled = nullptr;
  const IndexMap *BlockRed = nullptr;
  std::string TileParam;
  std::vector<std::string> SeqParams; // uniform loop iterators, per SeqOutputs
  std::vector<std::string> IndexParamNames; // tuple dim names
  std::vector<std::string> RegNames;

  isl::set Context;
  /// The kernel's context with the block ids' lower bounds: what the
  /// block-shape facts may assume (no thread ids, no block id bounds).
  isl::set BlockContext;
  isl::set Ext;      // { S[indices, regs] } of Update / Compute
  isl::set OutDom;   // { S_out[outputs, regs] } of Init / Write
  std::string TupleUpdate, TupleInit, TupleWrite;
  std::vector<Stage> Stages;
  std::vector<Accumulator> Accs;
  long RegCount = 1;
  std::vector<std::vector<std::string>> Strides;
  bool Index32 = false;
  /// Write sets the outputs to the reduction's identity (the kernel run
  /// before one whose blocks add their partial results).
  bool InitOutputs = false;

  std::vector<Instance> Instances;
  /// Names in the cooperative loads: position, round, box coordinates.
  std::string LoadPos, LoadStep, LoadVec;
  std::vector<std::string> LoadCoord;
  /// Pipelined: the tile a fetch loads (the reduction tile's parameter
  /// renamed, bound to the uniform loop's tile + 1).
  std::string NextTile;
  std::set<std::string> PragmaUnroll; // loops printed with #pragma unroll
  /// Per tuple: the real domain, where the AST runs over a relaxed box.
  std::map<std::string, isl::set> Guards;
};

std::string Lowering::fresh(const std::string &Base) {
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
      X = ProjectOut(FixDim(X, isl_dim_param, P,
                            isl_val_int_from_si(C, Value)),
                     isl_dim_param, P, 1);
  }
  return X;
}

isl::set Lowering::fixSizes(isl::set X) const {
  isl_ctx *C = isl_set_get_ctx(X.get());
  return isl::manage(substitute(X.release(), C, K.Fixed,
                                isl_set_find_dim_by_name, isl_set_fix_val,
                                isl_set_project_out));
}

isl::map Lowering::fixSizes(isl::map X) const {
  isl_ctx *C = isl_map_get_ctx(X.get());
  return isl::manage(substitute(X.release(), C, K.Fixed,
                                isl_map_find_dim_by_name, isl_map_fix_val,
                                isl_map_project_out));
}

isl::pw_aff Lowering::fixSizes(isl::pw_aff X) const {
  if (K.Fixed.empty())
    return X;
  // The gist substitutes the context's equalities (the kernel's context
  // holds each fixed size's value); the fixed sizes are then unused.
  isl_pw_aff *R = isl_pw_aff_gist_params(X.release(), K.Context.copy());
  return isl::manage(isl_pw_aff_drop_unused_params(R));
}

int Lowering::tuplePos(unsigned Index) const {
  auto It = std::find(S.Indices.begin(), S.Indices.end(), Index);
  return It == S.Indices.end() ? -1 : It - S.Indices.begin();
}

bool Lowering::isOutput(unsigned Index) const {
  return std::find(S.OutputIndices.begin(), S.OutputIndices.end(), Index) !=
         S.OutputIndices.end();
}

std::string Lowering::blockKey() const {
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
      break;
    }
  }
  return Key;
}

bool Lowering::setUp(std::string &Error) {
  Error = validateSchedule(Sch, K, S);
  if (!Error.empty())
    return false;
  for (const std::string &N : K.ParamNames)
    Taken.insert(N);
  for (const std::string &N : K.IndexNames)
    Taken.insert(N);
  for (const Argument &A : K.Args)
    Taken.insert(A.Name);
  for (const char *R : {"idx", "acc", "red", "loopy_min", "loopy_max",
                        "loopy_floord"})
    Taken.insert(R);

  for (const IndexMap &M : Sch.Maps) {
    int A = static_cast<int>(M.Ax);
    switch (M.K) {
    case IndexMap::Kind::Grid:
      BlockId[A] = fresh(std::string("b") + axisLetter(M.Ax));
      ThreadId[A] = fresh(std::string("t") + axisLetter(M.Ax));
      GridMaps.push_back(&M);
      break;
    case IndexMap::Kind::Block:
      if (M.Chunk)
        BlockId[A] = fresh(std::string("b") + axisLetter(M.Ax));
      ThreadId[A] = fresh(std::string("t") + axisLetter(M.Ax));
      BlockRed = &M;
      break;
    case IndexMap::Kind::Tiled:
      Tiled = &M;
      break;
    case IndexMap::Kind::Seq:
      if (isOutput(M.Index))
        SeqOutputs.push_back(&M);
      break;
    }
  }
  for (const std::string &N : K.ParamNames)
    if (!K.Fixed.count(N))
      ParamNames.push_back(N);
  NumSizes = ParamNames.size();
  for (int A = 0; A < 3; ++A)
    if (!BlockId[A].empty())
      ParamNames.push_back(BlockId[A]);
  for (int A = 0; A < 3; ++A)
    if (!ThreadId[A].empty())
      ParamNames.push_back(ThreadId[A]);
  // Uniform loop iterators are parameters of the per-thread code.
  for (const IndexMap *M : SeqOutputs) {
    // The loop variable carries the index's own name.
    SeqParams.push_back(K.IndexNames[M->Index]);
    ParamNames.push_back(SeqParams.back());
  }
  if (Tiled) {
    TileParam = fresh(K.IndexNames[Tiled->Index] + "_tile");
    ParamNames.push_back(TileParam);
  }
  Params = paramSpace(Ctx, ParamNames);
  for (unsigned I : S.Indices)
    IndexParamNames.push_back(K.IndexNames[I]);
  for (const IndexMap *M : GridMaps) {
    RegNames.push_back(fresh("u_" + K.IndexNames[M->Index]));
    RegCount *= M->Ilp;
  }
  TupleUpdate = S.Name;
  TupleInit = S.Name + "_init";
  TupleWrite = S.Name + "_write";

  // Reductions become register accumulators. Each must run over all the
  // statement's reduction indices, and none may nest in another.
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
      Accs.push_back({&E, ""});
      return Collect(*E.Operands[0], true);
    }
    for (const ExprPtr &O : E.Operands)
      if (!Collect(*O, Inside))
        return false;
    return true;
  };
  if (!Collect(*S.Rhs, false))
    return false;
  for (size_t I = 0; I < Accs.size(); ++I)
    Accs[I].Name = Accs.size() == 1 ? "acc" : "acc" + std::to_string(I);
  if (splitAcrossBlocks()) {
    // Blocks add their partial results into the output, which a kernel
    // launched first sets to zero: that is only the statement's value
    // when the statement is the sum itself.
    if (S.Rhs->Kind != ExprKind::Reduce ||
        S.Rhs->reduceOp() != ReduceOp::Sum || S.Rhs->Type == DType::Bool) {
      Error = "a reduction split across blocks adds the blocks' results "
              "atomically; it needs a statement of the form out = sum(...)";
      return false;
    }
  }

  Context = align(isl::manage(isl_set_from_params(K.Context.copy())));
  Context = isl::manage(isl_set_params(Context.release()));
  BlockContext = Context;
  for (int A = 0; A < 3; ++A)
    if (!BlockId[A].empty())
      BlockContext = addConstraint(
          BlockContext,
          {{isl_dim_param, paramPos(BlockContext, BlockId[A]), 1}}, 0, false);
  for (int A = 0; A < 3; ++A) {
    if (!ThreadId[A].empty()) {
      unsigned P = paramPos(Context, ThreadId[A]);
      Context = addConstraint(Context, {{isl_dim_param, P, 1}}, 0, false);
      Context = addConstraint(Context, {{isl_dim_param, P, -1}},
                              Sch.threads(static_cast<Axis>(A)) - 1, false);
    }
    if (!BlockId[A].empty())
      Context = addConstraint(
          Context, {{isl_dim_param, paramPos(Context, BlockId[A]), 1}}, 0,
          false);
  }
  Facts = &Cache->block(blockKey());
  return true;
}

bool Lowering::buildDomains(std::string &Error) {
  unsigned NIdx = S.Indices.size();
  isl_set *D = align(S.Domain).release();
  D = isl_set_add_dims(D, isl_dim_set, GridMaps.size());
  for (unsigned I = 0; I < NIdx; ++I)
    D = isl_set_set_dim_name(D, isl_dim_set, I, IndexParamNames[I].c_str());
  for (unsigned R = 0; R < GridMaps.size(); ++R)
    D = isl_set_set_dim_name(D, isl_dim_set, NIdx + R, RegNames[R].c_str());
  isl::set E = isl::manage(D).intersect_params(Context);

  std::map<unsigned, bool> &Negative = Cache->statement(S.Name).Negative;
  for (const IndexMap *M : GridMaps) {
    // Every point of the index must lie in some block: o >= 0.
    auto Known = Negative.find(M->Index);
    if (Known == Negative.end()) {
      isl::set Neg = addConstraint(
          E, {{isl_dim_set, (unsigned)tuplePos(M->Index), -1}}, -1, false);
      Known = Negative.emplace(M->Index, !Neg.is_empty()).first;
    }
    if (Known->second) {
      Error = "index " + quote(K.IndexNames[M->Index]) +
              " takes negative values, which no block covers";
      return false;
    }
  }
  // contiguous: o = B*b + Ilp*t + u;  strided: o = B*b + T*u + t
  E = E.intersect(frame(E.get_space(), Piece::Update));
  // Init and Write: the output indices and registers. A block-parallel
  // reduction's threads each hold partial results, so every one of them
  // initialises; only thread 0 of the reduction axis writes.
  isl_set *O = E.copy();
  for (int I = NIdx - 1; I >= 0; --I)
    if (!isOutput(S.Indices[I]))
      O = isl_set_project_out(O, isl_dim_set, I, 1);
  OutDom = isl::manage(O);

  // Update runs inside the block-uniform loop over reduction tiles.
  if (Tiled) {
    unsigned Kp = tuplePos(Tiled->Index), P = paramPos(E, TileParam);
    E = addConstraint(E, {{isl_dim_set, Kp, 1}, {isl_dim_param, P, -Tiled->Tile}},
                      0, false);
    E = addConstraint(E, {{isl_dim_set, Kp, -1}, {isl_dim_param, P, Tiled->Tile}},
                      Tiled->Tile - 1, false);
  }


  if (BlockRed) {
    // k = Threads * q + t for some q: each thread strides over k.
    unsigned Kp = tuplePos(BlockRed->Index);
    int A = static_cast<int>(BlockRed->Ax);
    if (long C = BlockRed->Chunk) {
      // Split across blocks: block b takes C*b <= k < C*(b + 1).
      unsigned Bp = paramPos(E, BlockId[A]);
      E = addConstraint(E, {{isl_dim_set, Kp, 1}, {isl_dim_param, Bp, -C}}, 0,
                        false);
      E = addConstraint(E, {{isl_dim_set, Kp, -1}, {isl_dim_param, Bp, C}},
                        C - 1, false);
    }
    isl_set *X = isl_set_add_dims(E.copy(), isl_dim_set, 1);
    unsigned Q = isl_set_dim(X, isl_dim_set) - 1;
    isl::set XS = addConstraint(
        isl::manage(X),
        {{isl_dim_set, Kp, 1},
         {isl_dim_set, Q, -BlockRed->Threads},
         {isl_dim_param, paramPos(E, ThreadId[A]), -1}},
        0, true);
    E = isl::manage(isl_set_project_out(XS.release(), isl_dim_set, Q, 1));
  }
  Ext = E.coalesce();
  OutDom = OutDom.coalesce();
  return true;
}

isl::set Lowering::blockIterations() const {
  // The facts kept per block shape (footprints, their boxes, the range of
  // block ids) are computed from this set, never from one split of the
  // block among threads and registers: the sets would be equal, but isl's
  // answers (a footprint's box among them) follow how a set is written, so
  // the facts would depend on which variant asked first.
  isl::set E = align(S.Domain).intersect_params(BlockContext);
  auto Param = [&](const std::string &N) { return paramPos(E, N); };
  // B*b <= o < B*(b + 1) for a tile of B per block.
  auto InTile = [&](unsigned Pos, unsigned P, long B) {
    E = addConstraint(E, {{isl_dim_set, Pos, 1}, {isl_dim_param, P, -B}}, 0,
                      false);
    E = addConstraint(E, {{isl_dim_set, Pos, -1}, {isl_dim_param, P, B}},
                      B - 1, false);
  };
  for (const IndexMap *M : GridMaps)
    InTile(tuplePos(M->Index), Param(BlockId[static_cast<int>(M->Ax)]),
           M->blockTile());
  for (unsigned I = 0; I < SeqOutputs.size(); ++I)
    E = addConstraint(E,
                      {{isl_dim_set, (unsigned)tuplePos(SeqOutputs[I]->Index), 1},
                       {isl_dim_param, Param(SeqParams[I]), -1}},
                      0, true);
  if (Tiled)
    InTile(tuplePos(Tiled->Index), Param(TileParam), Tiled->Tile);
  if (BlockRed && BlockRed->Chunk)
    InTile(tuplePos(BlockRed->Index),
           Param(BlockId[static_cast<int>(BlockRed->Ax)]), BlockRed->Chunk);
  return E.coalesce();
}

/// The tiling relations on the tuple space \p Sp of piece \p P: output
/// indices as functions of block, thread and register coordinates, the
/// registers' ranges, and sequential outputs fixed to their loop iterators.
isl::set Lowering::frame(isl::space Sp, Piece P) const {
  isl::set E = isl::set::universe(Sp);
  unsigned NIdx = isl_set_dim(E.get(), isl_dim_set) - GridMaps.size();
  auto Pos = [&](unsigned Index) -> unsigned {
    if (P == Piece::Init || P == Piece::Write)
      return std::find(S.OutputIndices.begin(), S.OutputIndices.end(), Index) -
             S.OutputIndices.begin();
    return tuplePos(Index);
  };
  for (unsigned R = 0; R < GridMaps.size(); ++R) {
    const IndexMap &M = *GridMaps[R];
    unsigned O = Pos(M.Index), U = NIdx + R;
    int A = static_cast<int>(M.Ax);
    unsigned B = paramPos(E, BlockId[A]), T = paramPos(E, ThreadId[A]);
    long TC = M.Strided ? 1 : M.Ilp, UC = M.Strided ? M.Threads : 1;
    E = addConstraint(E,
                      {{isl_dim_set, O, 1},
                       {isl_dim_param, B, -M.blockTile()},
                       {isl_dim_param, T, -TC},
                       {isl_dim_set, U, -UC}},
                      0, true);
    E = addConstraint(E, {{isl_dim_set, U, 1}}, 0, false);
    E = addConstraint(E, {{isl_dim_set, U, -1}}, M.Ilp - 1, false);
  }
  for (unsigned I = 0; I < SeqOutputs.size(); ++I)
    E = addConstraint(E,
                      {{isl_dim_set, Pos(SeqOutputs[I]->Index), 1},
                       {isl_dim_param, paramPos(E, SeqParams[I]), -1}},
                      0, true);
  return E;
}

isl::multi_aff Lowering::accessOnTuple(const isl::map &Rel, Piece P) const {
  // { S[indices] -> A[...] } as a function, then on the piece's tuple.
  isl_pw_multi_aff *PMA = isl_pw_multi_aff_from_map(align(Rel).release());
  isl_multi_aff *MA = nullptr;
  isl_pw_multi_aff_foreach_piece(
      PMA,
      [](isl_set *Dom, isl_multi_aff *M, void *User) -> isl_stat {
        isl_set_free(Dom);
        auto **Out = static_cast<isl_multi_aff **>(User);
        if (*Out)
          isl_multi_aff_free(M);
        else
          *Out = M;
        return isl_stat_ok;
      },
      &MA);
  isl_pw_multi_aff_free(PMA);
  unsigned NIdx = S.Indices.size();
  if (P == Piece::Init || P == Piece::Write) {
    for (int I = NIdx - 1; I >= 0; --I)
      if (!isOutput(S.Indices[I]))
        MA = isl_multi_aff_drop_dims(MA, isl_dim_in, I, 1);
  }
  MA = isl_multi_aff_add_dims(MA, isl_dim_in, GridMaps.size());
  const std::string &T = P == Piece::Init    ? TupleInit
                         : P == Piece::Write ? TupleWrite
                                             : TupleUpdate;
  MA = isl_multi_aff_set_tuple_name(MA, isl_dim_in, T.c_str());
  return isl::manage(MA);
}

/// The shared buffer's layout. A dimension of the footprint that follows a
/// register tile (the subscript is an output index whose thread holds
/// Ilp adjacent outputs) goes innermost, so that a thread's reads of
/// its tile are adjacent and nvcc can load them as one vector; the row is
/// aligned to the vector. Otherwise
/// the array's order is kept and rows get an odd length, so that threads
/// reading down a column hit distinct banks.
void Lowering::layOut(Stage &St, const Access &Acc, long ElemBytes) const {
  unsigned N = St.Box.Size.size();
  isl::multi_aff MA = accessOnTuple(Acc.Relation, Piece::Update);
  int Best = -1;
  long BestVector = 1;
  for (unsigned D = 0; D < N; ++D) {
    isl_aff *X = isl_multi_aff_get_at(MA.get(), D);
    // The subscript must be one output index (coefficient 1) plus a
    // constant: other indices would break the vector's alignment.
    const IndexMap *Follows = nullptr;
    bool Clean = true;
    for (unsigned I = 0; I < S.Indices.size(); ++I) {
      isl_val *C = isl_aff_get_coefficient_val(X, isl_dim_in, I);
      bool Zero = isl_val_is_zero(C) == isl_bool_true;
      bool One = isl_val_is_one(C) == isl_bool_true;
      isl_val_free(C);
      if (Zero)
        continue;
      const IndexMap *M = Sch.find(S.Indices[I]);
      if (One && !Follows && M && M->K == IndexMap::Kind::Grid)
        Follows = M;
      else
        Clean = false;
    }
    isl_aff_free(X);
    if (!Clean || !Follows || Follows->Strided || Follows->Ilp < 2)
      continue;
    long V = std::min(Follows->Ilp, 16 / ElemBytes);
    // The contiguous dimension wins a tie: its loads need no transposing.
    if (V > BestVector || (V == BestVector && D == St.ContiguousDim)) {
      Best = D;
      BestVector = V;
    }
  }
  St.Order.clear();
  for (unsigned D = 0; D < N; ++D)
    if (static_cast<int>(D) != Best)
      St.Order.push_back(D);
  if (Best >= 0)
    St.Order.push_back(Best);
  for (unsigned D : St.Order)
    St.Padded.push_back(St.Box.Size[D]);
  if (N == 0)
    return;
  long &Row = St.Padded.back();
  if (Best >= 0 && BestVector > 1) {
    // Rows of an odd number of vectors: threads reading (or the load
    // writing) down a column reach distinct banks.
    St.Vector = BestVector;
    Row = (Row + BestVector - 1) / BestVector * BestVector;
    if (N > 1 && (Row / BestVector) % 2 == 0)
      Row += BestVector;
  } else if (Row % 2 == 0 && Row > 1) {
    Row += 1; // odd row length: no bank conflicts
  }
}

bool Lowering::buildStages(std::string &Error) {
  if (Sch.Prefetch.empty())
    return true;
  isl::set BlockIters;
  for (unsigned R : Sch.Prefetch) {
    const Access &Acc = S.Reads[R];
    const Argument &A = K.Args[Acc.Arg];
    LoweringCache::Staged &Known = Facts->Reads[R];
    if (Known.Footprint.is_null()) {
      if (BlockIters.is_null())
        BlockIters = blockIterations();
      // Without the parameters it does not involve, it serves every split
      // of the block.
      Known.Footprint = isl::manage(isl_set_drop_unused_params(
          BlockIters.apply(align(Acc.Relation)).coalesce().release()));
      Known.Box = fixedBox(Known.Footprint);
    }
    isl::set F = align(Known.Footprint);
    const std::optional<FootprintBox> &Box = Known.Box;
    if (!Box) {
      Error = "the footprint of " + quote(Acc.Spelling) +
              " has no fixed size per block; it cannot be prefetched";
      return false;
    }
    Stage St;
    St.Read = R;
    St.Buf = fresh(A.Name + "_sh");
    St.Box = *Box;
    St.Footprint = F;
    // Loads are coalesced along the array's contiguous dimension.
    St.ContiguousDim = A.Order == Layout::ColMajor ? 0 : A.rank() - 1;
    layOut(St, Acc, dtypeSize(A.Type));
    if (Sch.Pipelined)
      St.Next = fresh(A.Name + "_next");
    if (doubleBuffered())
      St.Parity = "(" + TileParam + " & 1)";
    Stages.push_back(std::move(St));
  }
  return true;
}

/// The cooperative load of a stage reads 16 bytes at once where that is
/// safe for every block and tile: the element type is f32 or f64, rows of
/// the array lie a whole number of vectors apart (a fixed extent of the
/// contiguous dimension, a multiple of the vector), the box starts on a
/// vector boundary, and isl proves that the footprint is made of whole
/// aligned vectors -- so that the guard of a vector's first element
/// decides all of it. Base pointers must be 16-byte aligned (the kernel's
/// metadata says so; cuMemAlloc always is).
long Lowering::loadVector(const Stage &St, const Argument &A) const {
  if ((A.Type != DType::F32 && A.Type != DType::F64) ||
      A.Order == Layout::Strided || St.Box.Size.empty())
    return 1;
  const long V = 16 / dtypeSize(A.Type);
  const unsigned C = St.ContiguousDim;
  if (St.Box.Size[C] % V != 0)
    return 1;
  isl_ctx *X = isl_set_get_ctx(Context.get());
  // A multiple of V everywhere in the context: the extent, the box offset.
  auto MultipleOfV = [&](isl_pw_aff *P) {
    P = isl_pw_aff_align_params(P, isl_set_get_space(Context.get()));
    P = isl_pw_aff_intersect_params(P, Context.copy());
    P = isl_pw_aff_mod_val(P, isl_val_int_from_si(X, V));
    isl_set *Off = isl_pw_aff_non_zero_set(P);
    bool R = isl_set_is_empty(Off) == isl_bool_true;
    isl_set_free(Off);
    return R;
  };
  if (!MultipleOfV(fixSizes(isl::manage(isl_pw_aff_from_aff(A.Shape[C].copy())))
                       .release()) ||
      !MultipleOfV(isl_pw_aff_from_aff(isl_multi_aff_get_at(St.Box.Offset.get(), C))))
    return 1;
  // { A[x] -> A[y] : y in x's aligned vector }
  unsigned N = St.Box.Size.size();
  std::string Xs, Ys, Same;
  for (unsigned D = 0; D < N; ++D) {
    std::string XD = "x" + std::to_string(D), YD = "y" + std::to_string(D);
    Xs += (D ? ", " : "") + XD;
    Ys += (D ? ", " : "") + YD;
    Same += (D ? " and " : "") +
            (D == C ? "floor(" + XD + "/" + std::to_string(V) + ") = floor(" +
                          YD + "/" + std::to_string(V) + ")"
                    : XD + " = " + YD);
  }
  isl_set *Foot = isl_set_intersect_params(St.Footprint.copy(),
                                           isl_set_copy(Context.get()));
  std::string Name = isl_set_get_tuple_name(St.Footprint.get());
  isl_map *InVector = isl_map_read_from_str(
      X, ("{ " + Name + "[" + Xs + "] -> " + Name + "[" + Ys + "] : " + Same +
          " }")
             .c_str());
  InVector = isl_map_align_params(InVector, isl_set_get_space(Foot));
  // Every element of a vector that meets the footprint lies in it.
  isl_set *Vectors = isl_set_apply(isl_set_copy(Foot), InVector);
  bool Whole = isl_set_is_subset(Vectors, Foot) == isl_bool_true;
  isl_set_free(Vectors);
  isl_set_free(Foot);
  return Whole ? V : 1;
}

void Lowering::planLoads() {
  long NT = Sch.totalThreads();
  for (Stage &St : Stages) {
    long &Known = Facts->Reads[St.Read].LoadVector;
    if (!Known)
      Known = loadVector(St, K.Args[S.Reads[St.Read].Arg]);
    St.LoadVector = Known;
    long E = 1;
    for (long Sz : St.Box.Size)
      E *= Sz;
    long Vectors = E / St.LoadVector;
    St.Rounds = (Vectors + NT - 1) / NT;
  }
}

bool Lowering::fitsIn32Bits() const {
  // Bounds are only known where every parameter is fixed. Guards and tile
  // origins overshoot an index by at most a block's tile, so a margin of
  // 2x below 2^31 leaves room for them.
  for (const std::string &P : K.ParamNames)
    if (!K.Fixed.count(P))
      return false;
  const long Limit = 1L << 30;
  auto Small = [&](isl_val *V) {
    bool R = V && isl_val_is_int(V) == isl_bool_true &&
             std::labs(isl_val_get_num_si(V)) < Limit;
    isl_val_free(V);
    return R;
  };
  for (auto &[Name, Value] : K.Fixed)
    if (std::labs(Value) >= Limit)
      return false;
  // Every index of the statement.
  isl::set Ctx = isl::manage(isl_set_params(isl_set_from_params(K.Context.copy())));
  isl::set D = S.Domain.intersect_params(Ctx);
  for (unsigned I = 0; I < S.Indices.size(); ++I)
    if (!Small(isl_set_dim_max_val(D.copy(), I)) ||
        !Small(isl_set_dim_min_val(D.copy(), I)))
      return false;
  // Every array's largest element offset: sum of (extent - 1) * stride.
  auto Value = [&](const isl::aff &A) -> std::optional<long> {
    isl_pw_aff *P = isl_pw_aff_from_aff(isl_aff_align_params(
        A.copy(), isl_set_get_space(Ctx.get())));
    P = isl_pw_aff_intersect_params(P, Ctx.copy());
    isl_val *V = isl_pw_aff_max_val(P);
    std::optional<long> R;
    if (V && isl_val_is_int(V) == isl_bool_true)
      R = isl_val_get_num_si(V);
    isl_val_free(V);
    return R;
  };
  for (const Argument &A : K.Args) {
    if (!A.isArray())
      continue;
    std::vector<long> Ext;
    for (const isl::aff &X : A.Shape) {
      auto V = Value(X);
      if (!V || *V < 0 || *V >= Limit)
        return false;
      Ext.push_back(*V);
    }
    long Offset = 0, Stride = 1;
    for (unsigned D = 0; D < A.rank(); ++D) {
      unsigned Dim = A.Order == Layout::RowMajor ? A.rank() - 1 - D : D;
      long St = Stride;
      if (A.Order == Layout::Strided) {
        auto V = Value(A.Strides[Dim]);
        if (!V || std::labs(*V) >= Limit)
          return false;
        St = std::labs(*V);
      }
      Offset += std::max(Ext[Dim] - 1, 0L) * St;
      if (Offset >= Limit)
        return false;
      Stride = St * std::max(Ext[Dim], 1L);
      if (A.Order != Layout::Strided && Stride >= Limit)
        return false;
    }
  }
  return true;
}

void Lowering::buildStrides() {
  isl_ast_build *B = isl_ast_build_from_context(Context.copy());
  for (const Argument &A : K.Args) {
    std::vector<std::string> Ext, Str;
    auto Text = [&](const isl::aff &X) {
      // Shapes and strides are functions of the parameters alone.
      isl_aff *Al = isl_aff_project_domain_on_params(X.copy());
      isl::pw_aff P = fixSizes(isl::manage(isl_pw_aff_from_aff(Al)));
      return exprText(B, isl::manage(isl_pw_aff_align_params(P.release(),
                                                             Params.copy())));
    };
    for (const isl::aff &X : A.Shape)
      Ext.push_back(Text(X));
    auto Paren = [](const std::string &T) {
      return T.find_first_of(" +-*/%?") == std::string::npos ? T
                                                            : "(" + T + ")";
    };
    unsigned N = A.rank();
    for (unsigned D = 0; D < N; ++D) {
      std::string P;
      if (A.Order == Layout::Strided) {
        P = Paren(Text(A.Strides[D]));
      } else {
        bool Row = A.Order == Layout::RowMajor;
        for (unsigned E = Row ? D + 1 : 0; E < (Row ? N : D); ++E)
          P += (P.empty() ? "" : " * ") + Paren(Ext[E]);
      }
      Str.push_back(P.empty() ? "1" : P);
    }
    Strides.push_back(Str);
  }
  isl_ast_build_free(B);
}

std::string Lowering::globalElement(unsigned Arg,
                                    const std::vector<std::string> &Sub) {
  const Argument &A = K.Args[Arg];
  if (Sub.empty())
    return A.Name + "[0]";
  std::string L;
  for (size_t D = 0; D < Sub.size(); ++D) {
    std::string T = Sub[D];
    const std::string &St = Strides[Arg][D];
    if (St != "1") {
      if (T.find_first_of(" +-?") != std::string::npos)
        T = "(" + T + ")";
      T += " * " + St;
    }
    L += (L.empty() ? "" : " + ") + T;
  }
  return A.Name + "[" + L + "]";
}

std::string Lowering::tupleDimText(isl_ast_build *Build,
                                   const isl::pw_multi_aff &Iter,
                                   unsigned Pos) {
  return exprText(Build, isl::manage(isl_pw_multi_aff_get_pw_aff(Iter.get(), Pos)));
}

std::string Lowering::registerIndex(isl_ast_build *Build,
                                    const isl::pw_multi_aff &Iter, Piece P) {
  if (GridMaps.empty())
    return "0";
  // Flat index: sum over registers of u_r * (product of later Ilps).
  unsigned First = (P == Piece::Init || P == Piece::Write)
                       ? S.OutputIndices.size()
                       : S.Indices.size();
  isl_pw_aff *Flat = nullptr;
  long Stride = 1;
  for (int R = GridMaps.size() - 1; R >= 0; --R) {
    isl_pw_aff *U = isl_pw_multi_aff_get_pw_aff(Iter.get(), First + R);
    U = isl_pw_aff_scale_val(U, isl_val_int_from_si(Ctx.get(), Stride));
    Flat = Flat ? isl_pw_aff_add(Flat, U) : U;
    Stride *= GridMaps[R]->Ilp;
  }
  return exprText(Build, isl::manage(Flat));
}

std::string Lowering::readText(unsigned Read, isl_ast_build *Build,
                               const isl::pw_multi_aff &Iter, Piece P) {
  isl::multi_aff MA = accessOnTuple(S.Reads[Read].Relation, P);
  isl_pw_multi_aff *At = isl_pw_multi_aff_pullback_pw_multi_aff(
      isl_pw_multi_aff_from_multi_aff(MA.release()), Iter.copy());
  const Stage *St = nullptr;
  if (P == Piece::Update || P == Piece::Compute)
    for (const Stage &X : Stages)
      if (X.Read == Read)
        St = &X;
  std::vector<std::string> Sub;
  unsigned N = isl_pw_multi_aff_dim(At, isl_dim_out);
  for (unsigned D = 0; D < N; ++D) {
    isl_pw_aff *X = isl_pw_multi_aff_get_pw_aff(At, D);
    if (St) {
      // Shared buffer coordinates: x - offset of the block's box.
      isl_aff *Off = isl_multi_aff_get_aff(St->Box.Offset.get(), D);
      Off = isl_aff_align_params(Off, Params.copy());
      X = isl_pw_aff_sub(X, isl_pw_aff_from_aff(liftToDomainOf(Off, X)));
    }
    Sub.push_back(exprText(Build, isl::manage(X)));
  }
  isl_pw_multi_aff_free(At);
  if (!St)
    return globalElement(S.Reads[Read].Arg, Sub);
  return St->element(Sub);
}

static std::string literal(const Expr &E) {
  if (E.Kind == ExprKind::IntConst)
    return std::to_string(E.IntValue);
  std::ostringstream OS;
  OS.precision(E.Type == DType::F32 ? 9 : 17);
  OS << E.FloatValue;
  std::string S = OS.str();
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  return E.Type == DType::F32 ? S + "f" : S;
}


std::string Lowering::valueText(const Expr &E, isl_ast_build *Build,
                                const isl::pw_multi_aff &Iter, Piece P) {
  auto V = [&](const Expr &X) { return valueText(X, Build, Iter, P); };
  switch (E.Kind) {
  case ExprKind::IntConst:
  case ExprKind::FloatConst:
    return literal(E);
  case ExprKind::Index: {
    int Pos = tuplePos(E.Id);
    if (P == Piece::Init || P == Piece::Write) {
      auto It = std::find(S.OutputIndices.begin(), S.OutputIndices.end(), E.Id);
      Pos = It - S.OutputIndices.begin();
    }
    // An index is 64-bit in the IR: its arithmetic in the statement keeps
    // that width even where the loops count in 32 bits.
    std::string T = tupleDimText(Build, Iter, Pos);
    return Index32 ? "((idx)(" + T + "))" : "(" + T + ")";
  }
  case ExprKind::Param:
    return Index32 ? "((idx)" + K.ParamNames[E.Id] + ")" : K.ParamNames[E.Id];
  case ExprKind::Scalar:
    return K.Args[E.Id].Name;
  case ExprKind::Read:
    return readText(E.AccessId, Build, Iter, P);
  case ExprKind::Unary:
    return std::string(E.unaryOp() == UnaryOp::Neg ? "-" : "!") + "(" +
           V(*E.Operands[0]) + ")";
  case ExprKind::Binary:
    return "(" + V(*E.Operands[0]) + " " + binaryOpSpelling(E.binaryOp()) +
           " " + V(*E.Operands[1]) + ")";
  case ExprKind::Call: {
    bool F = isFloat(E.Type);
    std::string Name = mathFnName(E.mathFn());
    if (E.mathFn() == MathFn::Abs) {
      if (F)
        return "fabs(" + V(*E.Operands[0]) + ")";
      std::string X = V(*E.Operands[0]);
      return "(" + X + " < 0 ? -" + X + " : " + X + ")";
    }
    if (F && (E.mathFn() == MathFn::Min || E.mathFn() == MathFn::Max))
      Name = "f" + Name;
    std::string S = Name + "(";
    for (size_t I = 0; I < E.Operands.size(); ++I)
      S += (I ? ", " : "") + V(*E.Operands[I]);
    return S + ")";
  }
  case ExprKind::Cast:
    return std::string("((") + cTypeName(E.Type) + ")" + V(*E.Operands[0]) + ")";
  case ExprKind::Select:
    return "(" + V(*E.Operands[0]) + " ? " + V(*E.Operands[1]) + " : " +
           V(*E.Operands[2]) + ")";
  case ExprKind::Reduce:
    for (const Accumulator &A : Accs)
      if (A.Reduce == &E)
        return A.Name + "[" + registerIndex(Build, Iter, P) + "]";
    return "/*?*/";
  }
  return "/*?*/";
}

static std::string identity(ReduceOp Op, DType T) {
  switch (Op) {
  case ReduceOp::Sum:
    return isFloat(T) ? (T == DType::F32 ? "0.0f" : "0.0") : "0";
  case ReduceOp::Prod:
    return isFloat(T) ? (T == DType::F32 ? "1.0f" : "1.0") : "1";
  case ReduceOp::Max:
    return isFloat(T) ? "-LOOPY_INFINITY"
                      : (T == DType::I32 ? "(-2147483647 - 1)"
                                         : "(-9223372036854775807L - 1)");
  case ReduceOp::Min:
    return isFloat(T) ? "LOOPY_INFINITY"
                      : (T == DType::I32 ? "2147483647" : "9223372036854775807L");
  }
  return "0";
}

static std::string zeroOf(DType T) { return identity(ReduceOp::Sum, T); }


std::string Lowering::writtenElement(isl_ast_build *Build,
                                     const isl::pw_multi_aff &Iter, Piece P) {
  isl_pw_multi_aff *At = isl_pw_multi_aff_pullback_pw_multi_aff(
      isl_pw_multi_aff_from_multi_aff(
          accessOnTuple(S.Write.Relation, P).release()),
      Iter.copy());
  std::vector<std::string> Sub;
  for (int D = 0; D < isl_pw_multi_aff_dim(At, isl_dim_out); ++D)
    Sub.push_back(
        exprText(Build, isl::manage(isl_pw_multi_aff_get_pw_aff(At, D))));
  isl_pw_multi_aff_free(At);
  return globalElement(S.Write.Arg, Sub);
}

Instance Lowering::instanceText(isl_ast_build *Build, const std::string &Tuple,
                                isl::pw_multi_aff Iter) {
  Instance I;
  if (Tuple == TupleInit) {
    std::string R = registerIndex(Build, Iter, Piece::Init);
    for (const Accumulator &A : Accs)
      I.Lines.push_back(A.Name + "[" + R + "] = " +
                        identity(A.Reduce->reduceOp(), A.Reduce->Type) + ";");
  } else if (Tuple == TupleUpdate) {
    Piece P = Accs.empty() ? Piece::Compute : Piece::Update;
    if (P == Piece::Compute) {
      I.Lines.push_back(writtenElement(Build, Iter, P) + " = " +
                        valueText(*S.Rhs, Build, Iter, P) + ";");
    } else {
      std::string R = registerIndex(Build, Iter, P);
      for (const Accumulator &A : Accs) {
        std::string Acc = A.Name + "[" + R + "]";
        std::string V = valueText(*A.Reduce->Operands[0], Build, Iter, P);
        ReduceOp Op = A.Reduce->reduceOp();
        if (Op == ReduceOp::Sum || Op == ReduceOp::Prod)
          I.Lines.push_back(Acc + (Op == ReduceOp::Sum ? " += " : " *= ") + V +
                            ";");
        else
          I.Lines.push_back(Acc + " = " + combineText(Op, A.Reduce->Type, Acc, V) +
                            ";");
      }
    }
  } else if (Tuple == TupleWrite) {
    std::string Out = writtenElement(Build, Iter, Piece::Write);
    if (InitOutputs)
      I.Lines.push_back(Out + " = " + identity(S.Rhs->reduceOp(), S.Rhs->Type) +
                        ";");
    else if (splitAcrossBlocks())
      I.Lines.push_back("loopy_atomic_add(&" + Out + ", " +
                        valueText(*S.Rhs, Build, Iter, Piece::Write) + ");");
    else
      I.Lines.push_back(Out + " = " +
                        valueText(*S.Rhs, Build, Iter, Piece::Write) + ";");
  }
  return I;
}

isl_ast_node *Lowering::atEachDomain(isl_ast_node *Node, isl_ast_build *Build,
                                     void *User) {
  // The statements are printed later, from the build kept here, by every
  // lowering that finds the nest in the cache.
  auto *Builds = static_cast<std::vector<isl::ast_build> *>(User);
  Builds->push_back(isl::manage(isl_ast_build_copy(Build)));
  isl_id *Id = isl_id_alloc(isl_ast_node_get_ctx(Node),
                            ("I" + std::to_string(Builds->size() - 1)).c_str(),
                            nullptr);
  return isl_ast_node_set_annotation(Node, Id);
}

Instance Lowering::instanceAt(isl_ast_build *Build, const std::string &Tuple) {
  // The nest runs over a tuple of a neutral name; the instance is one of
  // piece Tuple.
  isl_map *M = isl_map_from_union_map(isl_ast_build_get_schedule(Build));
  M = isl_map_set_tuple_name(M, isl_dim_in, Tuple.c_str());
  isl::pw_multi_aff Iter =
      isl::manage(isl_pw_multi_aff_from_map(isl_map_reverse(M)));
  Instance I = instanceText(Build, Tuple, Iter);
  // Register tiles are unrolled over whole boxes; each instance is guarded
  // by membership of the statement's real domain.
  auto G = Guards.find(Tuple);
  if (G != Guards.end()) {
    isl_set *OnSchedule =
        isl_set_preimage_pw_multi_aff(G->second.copy(), Iter.copy());
    isl_ast_expr *E = isl_ast_build_expr_from_set(Build, OnSchedule);
    bool True = false;
    if (isl_ast_expr_get_type(E) == isl_ast_expr_int) {
      isl_val *V = isl_ast_expr_get_val(E);
      True = isl_val_is_one(V);
      isl_val_free(V);
    }
    if (!True)
      I.Guard = printAstExpr(E);
    isl_ast_expr_free(E);
  }
  return I;
}

/// The position in its nest's builds of the instance at user node \p N.
static size_t instancePos(isl_ast_node *N) {
  isl_id *Id = isl_ast_node_get_annotation(N);
  size_t Pos = std::stoul(std::string(isl_id_get_name(Id)).substr(1));
  isl_id_free(Id);
  return Pos;
}

NodeList Lowering::instanceNodes(isl_ast_node *N, size_t First) {
  NodeList Out;
  size_t Idx = First + instancePos(N);
  NodeList Lines;
  for (const std::string &L : Instances[Idx].Lines) {
    auto X = std::make_unique<Node>(Node::Kind::Line);
    X->Text = L;
    Lines.push_back(std::move(X));
  }
  if (Instances[Idx].Guard.empty()) {
    for (NodePtr &X : Lines)
      Out.push_back(std::move(X));
  } else {
    auto G = std::make_unique<Node>(Node::Kind::If);
    G->Cond = Instances[Idx].Guard;
    G->Body = std::move(Lines);
    Out.push_back(std::move(G));
  }
  return Out;
}

NodeList Lowering::convert(
    isl_ast_node *N, const std::function<NodeList(isl_ast_node *)> &User) {
  NodeList Out;
  switch (isl_ast_node_get_type(N)) {
  case isl_ast_node_block: {
    isl_ast_node_list *L = isl_ast_node_block_get_children(N);
    for (int I = 0; I < isl_ast_node_list_n_ast_node(L); ++I) {
      isl_ast_node *C = isl_ast_node_list_get_ast_node(L, I);
      for (NodePtr &X : convert(C, User))
        Out.push_back(std::move(X));
      isl_ast_node_free(C);
    }
    isl_ast_node_list_free(L);
    break;
  }
  case isl_ast_node_for: {
    isl_ast_expr *It = isl_ast_node_for_get_iterator(N);
    isl_ast_expr *Init = isl_ast_node_for_get_init(N);
    isl_ast_node *Body = isl_ast_node_for_get_body(N);
    std::string Iter = printAstExpr(It);
    if (isl_ast_node_for_is_degenerate(N) == isl_bool_true) {
      auto B = std::make_unique<Node>(Node::Kind::Block);
      auto D = std::make_unique<Node>(Node::Kind::Declare);
      D->Iter = Iter;
      D->Init = printAstExpr(Init);
      B->Body.push_back(std::move(D));
      for (NodePtr &X : convert(Body, User))
        B->Body.push_back(std::move(X));
      Out.push_back(std::move(B));
    } else {
      isl_ast_expr *Cond = isl_ast_node_for_get_cond(N);
      isl_ast_expr *Inc = isl_ast_node_for_get_inc(N);
      auto F = std::make_unique<Node>(Node::Kind::For);
      F->Iter = Iter;
      F->Init = printAstExpr(Init);
      F->Cond = printAstExpr(Cond);
      F->Step = printAstExpr(Inc);
      F->Unroll = PragmaUnroll.count(Iter) != 0;
      F->Body = convert(Body, User);
      Out.push_back(std::move(F));
      isl_ast_expr_free(Cond);
      isl_ast_expr_free(Inc);
    }
    isl_ast_expr_free(It);
    isl_ast_expr_free(Init);
    isl_ast_node_free(Body);
    break;
  }
  case isl_ast_node_if: {
    isl_ast_expr *Cond = isl_ast_node_if_get_cond(N);
    isl_ast_node *Then = isl_ast_node_if_get_then_node(N);
    auto F = std::make_unique<Node>(Node::Kind::If);
    F->Cond = printAstExpr(Cond);
    F->Body = convert(Then, User);
    if (isl_ast_node_if_has_else_node(N) == isl_bool_true) {
      isl_ast_node *Else = isl_ast_node_if_get_else_node(N);
      F->Else = convert(Else, User);
      isl_ast_node_free(Else);
    }
    Out.push_back(std::move(F));
    isl_ast_expr_free(Cond);
    isl_ast_node_free(Then);
    break;
  }
  case isl_ast_node_user:
    Out = User(N);
    break;
  case isl_ast_node_mark: {
    isl_ast_node *C = isl_ast_node_mark_get_node(N);
    Out = convert(C, User);
    isl_ast_node_free(C);
    break;
  }
  default:
    break;
  }
  return Out;
}

const LoweringCache::Nest &
Lowering::nest(isl::union_map Schedule, isl::set Context,
               const std::vector<std::string> &Iterators,
               const std::vector<bool> &Unroll) {
  // What isl's result depends on: the schedule, the context and the
  // options (the iterator names and the dimensions to unroll).
  auto Text = [](char *Str) {
    std::string T = Str ? Str : "";
    free(Str);
    return T;
  };
  std::string Key = Text(isl_union_map_to_str(Schedule.get())) + " | " +
                    Text(isl_set_to_str(Context.get())) + " |";
  for (size_t D = 0; D < Iterators.size(); ++D)
    Key += " " + Iterators[D] + (Unroll[D] ? "!" : "");
  if (const LoweringCache::Nest *N = Cache->findNest(Key))
    return *N;

  isl_ast_build *B = isl_ast_build_from_context(Context.release());
  isl_id_list *Ids = isl_id_list_alloc(Ctx.get(), Iterators.size());
  for (const std::string &N : Iterators)
    Ids = isl_id_list_add(Ids, isl_id_alloc(Ctx.get(), N.c_str(), nullptr));
  B = isl_ast_build_set_iterators(B, Ids);
  isl_union_map *Opt = isl_union_map_empty(isl_space_params_alloc(Ctx.get(), 0));
  for (size_t D = 0; D < Unroll.size(); ++D) {
    if (!Unroll[D])
      continue;
    isl_space *Dom = isl_space_set_alloc(Ctx.get(), 0, Unroll.size());
    isl_space *Ran = isl_space_set_alloc(Ctx.get(), 0, 1);
    Ran = isl_space_set_tuple_name(Ran, isl_dim_set, "unroll");
    isl_set *R = isl_set_fix_si(isl_set_universe(Ran), isl_dim_set, 0, D);
    isl_map *M = isl_map_from_domain_and_range(isl_set_universe(Dom), R);
    Opt = isl_union_map_add_map(Opt, M);
  }
  B = isl_ast_build_set_options(B, Opt);
  LoweringCache::Nest N;
  B = isl_ast_build_set_at_each_domain(B, atEachDomain, &N.Builds);
  N.Tree = isl::manage(
      isl_ast_build_node_from_schedule_map(B, Schedule.release()));
  isl_ast_build_free(B);
  return Cache->insertNest(Key, std::move(N));
}

NodeList Lowering::generate(isl::map Schedule, const std::string &Tuple,
                            const std::vector<std::string> &Iterators,
                            const std::vector<bool> &Unroll,
                            isl::set ExtraContext) {
  // Pieces over the same domain differ only in their tuple's name, which
  // isl's loops do not depend on: one name lets them share a nest.
  Schedule = isl::manage(
      isl_map_set_tuple_name(Schedule.release(), isl_dim_in, "thread"));
  // The iterators of uniform loops the piece does not run in (Init and
  // Write are outside the reduction tiles) tell isl nothing about its
  // loops; without them, variants that differ only there share the nest.
  isl::set C = Context.intersect_params(ExtraContext);
  std::vector<std::string> Uniform = SeqParams;
  if (Tiled)
    Uniform.push_back(TileParam);
  for (const std::string &P : Uniform) {
    int Pos = isl_map_find_dim_by_name(Schedule.get(), isl_dim_param, P.c_str());
    if (Pos >= 0 && isl_map_involves_dims(Schedule.get(), isl_dim_param, Pos,
                                          1) != isl_bool_false)
      continue;
    int CP = isl_set_find_dim_by_name(C.get(), isl_dim_param, P.c_str());
    if (CP >= 0)
      C = isl::manage(isl_set_project_out(C.release(), isl_dim_param, CP, 1));
  }
  const LoweringCache::Nest &N =
      nest(isl::manage(isl_union_map_from_map(Schedule.release())), C,
           Iterators, Unroll);
  size_t First = Instances.size();
  for (const isl::ast_build &B : N.Builds)
    Instances.push_back(instanceAt(B.get(), Tuple));
  NodeList L;
  if (!N.Tree.is_null())
    L = convert(N.Tree.get(), [this, First](isl_ast_node *U) {
      return instanceNodes(U, First);
    });
  return L;
}

/// The per-thread schedule of a piece: sequential reduction loops in the
/// schedule's order, then the register coordinates (unrolled).
isl::map Lowering::threadSchedule(const isl::set &Domain, Piece P,
                                  std::vector<std::string> &Iters,
                                  std::vector<bool> &Unroll) {
  unsigned NIn = isl_set_dim(Domain.get(), isl_dim_set);
  unsigned NIdx = NIn - GridMaps.size();
  std::vector<std::pair<std::vector<Term>, long>> Dims; // out = terms + cst
  if (P == Piece::Update || P == Piece::Compute) {
    for (const IndexMap &M : Sch.Maps) {
      if (isOutput(M.Index))
        continue;
      unsigned Pos = tuplePos(M.Index);
      const std::string &N = K.IndexNames[M.Index];
      if (M.K == IndexMap::Kind::Tiled) {
        Dims.push_back({{{isl_dim_in, Pos, 1},
                         {isl_dim_param, paramPos(Domain, TileParam), -M.Tile}},
                        0});
        // A short loop of constant trip count (at most Tile): nvcc unrolls
        // it fully where the sizes make it exact. isl unrolling it too
        // would multiply the guards of the register tile.
        Iters.push_back(fresh(N + "_in"));
        Unroll.push_back(false);
        PragmaUnroll.insert(Iters.back());
      } else {
        // The loop runs over the index itself and carries its name.
        Dims.push_back({{{isl_dim_in, Pos, 1}}, 0});
        Iters.push_back(N);
        Unroll.push_back(false);
      }
    }
  }
  // Register loops have constant bounds (the domain is relaxed to whole
  // tiles); printed with #pragma unroll, nvcc turns them into straight-line
  // code on registers. Generating them once keeps isl's work small.
  for (unsigned R = 0; R < GridMaps.size(); ++R) {
    Dims.push_back({{{isl_dim_in, NIdx + R, 1}}, 0});
    Iters.push_back(RegNames[R]);
    Unroll.push_back(false);
    PragmaUnroll.insert(RegNames[R]);
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
NodeList Lowering::threadCode(Piece P, const isl::set &Uniform) {
  isl::set Dom = (P == Piece::Init || P == Piece::Write) ? OutDom : Ext;
  const std::string &T = P == Piece::Init    ? TupleInit
                         : P == Piece::Write ? TupleWrite
                                             : TupleUpdate;
  Dom = isl::manage(isl_set_set_tuple_name(Dom.release(), T.c_str()));
  if (P == Piece::Write && BlockRed) {
    int A = static_cast<int>(BlockRed->Ax);
    Dom = addConstraint(Dom, {{isl_dim_param, paramPos(Dom, ThreadId[A]), 1}},
                        0, true);
  }
  // Relax the domain to whole register tiles: forget the output indices'
  // bounds (the registers' own bounds and the tiling equalities remain), so
  // that isl unrolls a box and each instance gets one flat guard.
  isl::set Real = Dom;
  if (!GridMaps.empty()) {
    unsigned NIdx = isl_set_dim(Dom.get(), isl_dim_set) - GridMaps.size();
    isl_set *X = Dom.copy();
    std::vector<unsigned> OutPos;
    for (unsigned I = 0; I < NIdx; ++I) {
      unsigned Index = (P == Piece::Init || P == Piece::Write)
                           ? S.OutputIndices[I]
                           : S.Indices[I];
      if (isOutput(Index))
        X = isl_set_eliminate(X, isl_dim_set, I, 1);
    }
    X = isl_set_eliminate(X, isl_dim_set, NIdx, GridMaps.size());
    Dom = isl::manage(X).intersect(frame(Dom.get_space(), P));
  }
  std::vector<std::string> Iters;
  std::vector<bool> Unroll;
  isl::map M = threadSchedule(Dom, P, Iters, Unroll);
  if (!GridMaps.empty())
    Guards[T] = Real;
  if (Iters.empty()) {
    // A single instance: give the schedule one constant dimension.
    isl_map *X = isl_map_add_dims(M.release(), isl_dim_out, 1);
    X = isl_map_fix_si(X, isl_dim_out, 0, 0);
    M = isl::manage(X);
    Iters.push_back(fresh("c"));
    Unroll.push_back(false);
  }
  return generate(M, T, Iters, Unroll, Uniform);
}

NodeList Lowering::loadCode(const Stage &St, const isl::set &Uniform,
                            LoadPart Part) {
  // The box is walked linearly, its contiguous dimension fastest: thread
  // tid loads positions p = tid, tid + NT, ... of the E / V vectors of V
  // elements (V = 1 unless loadVector allows more), so that consecutive
  // threads read consecutive addresses. Position p has box coordinates r
  // (p's mixed-radix digits, the contiguous one times V); the vector
  // starts at element Offset + r and is loaded where that element lies in
  // the footprint. isl gives the guard and the subscripts, with the
  // coordinates r as parameters.
  long NT = Sch.totalThreads();
  const long V = St.LoadVector;
  const unsigned CD = St.ContiguousDim;
  unsigned N = St.Box.Size.size();
  std::vector<unsigned> Order; // slowest first
  for (unsigned D = 0; D < N; ++D)
    if (D != St.ContiguousDim)
      Order.push_back(D);
  if (N)
    Order.push_back(St.ContiguousDim);
  long E = 1;
  for (long Sz : St.Box.Size)
    E *= Sz;
  const long Vectors = E / V;
  const long Count = St.Rounds; // ceil(Vectors / NT)

  // Every stage's load is a scope of its own: the names are shared.
  while (LoadCoord.size() < N)
    LoadCoord.push_back(fresh("r" + std::to_string(LoadCoord.size())));
  if (LoadPos.empty()) {
    LoadPos = fresh("p");
    LoadStep = fresh("s");
  }
  if (V > 1 && LoadVec.empty())
    LoadVec = fresh("v");
  const std::vector<std::string> &Coord = LoadCoord;
  isl_set *C = isl_set_intersect_params(Context.copy(), Uniform.copy());
  // A fetch computes the tile NextTile, which the caller binds.
  isl_multi_aff *Offset = isl_multi_aff_copy(St.Box.Offset.get());
  isl_set *Foot = St.Footprint.copy();
  if (Part == LoadPart::Fetch) {
    auto Rename = [&](auto *X, auto Find, auto Set) {
      int P = Find(X, isl_dim_param, TileParam.c_str());
      return P < 0 ? X : Set(X, isl_dim_param, P, NextTile.c_str());
    };
    C = Rename(C, isl_set_find_dim_by_name, isl_set_set_dim_name);
    Foot = Rename(Foot, isl_set_find_dim_by_name, isl_set_set_dim_name);
    Offset = Rename(Offset, isl_multi_aff_find_dim_by_name,
                    isl_multi_aff_set_dim_name);
  }
  unsigned NP = isl_set_dim(C, isl_dim_param);
  C = isl_set_add_dims(C, isl_dim_param, N);
  for (unsigned D = 0; D < N; ++D)
    C = isl_set_set_dim_name(C, isl_dim_param, NP + D, Coord[D].c_str());
  isl::set BoxCtx = isl::manage(C);
  for (unsigned D = 0; D < N; ++D) {
    BoxCtx = addConstraint(BoxCtx, {{isl_dim_param, NP + D, 1}}, 0, false);
    BoxCtx = addConstraint(BoxCtx, {{isl_dim_param, NP + D, -1}},
                           St.Box.Size[D] - 1, false);
  }
  if (V > 1) {
    // The contiguous coordinate is a multiple of V.
    std::string R = Coord[CD];
    isl_set *M = isl_set_read_from_str(
        BoxCtx.ctx().get(),
        ("[" + R + "] -> { : " + R + " mod " + std::to_string(V) + " = 0 }")
            .c_str());
    BoxCtx = BoxCtx.intersect(
        isl::manage(isl_set_align_params(M, BoxCtx.get_space().release())));
  }
  // { [] -> A[Offset + r] } on the extended parameters.
  isl_multi_aff *Elem =
      isl_multi_aff_align_params(Offset, isl_set_get_space(BoxCtx.get()));
  for (unsigned D = 0; D < N; ++D) {
    isl_aff *A = isl_multi_aff_get_at(Elem, D);
    A = isl_aff_add_coefficient_si(A, isl_dim_param, NP + D, 1);
    Elem = isl_multi_aff_set_at(Elem, D, A);
  }
  isl_ast_build *B = isl_ast_build_from_context(BoxCtx.copy());
  std::vector<std::string> Sub;
  for (unsigned D = 0; D < N; ++D) {
    isl_aff *A = isl_aff_project_domain_on_params(isl_multi_aff_get_at(Elem, D));
    Sub.push_back(exprText(B, isl::manage(isl_pw_aff_from_aff(A))));
  }
  isl_set *InFoot = isl_set_preimage_multi_aff(
      isl_set_align_params(Foot, isl_set_get_space(BoxCtx.get())), Elem);
  isl_ast_expr *GE = isl_ast_build_expr_from_set(B, isl_set_params(InFoot));
  std::string Guard;
  if (isl_ast_expr_get_type(GE) != isl_ast_expr_int)
    Guard = printAstExpr(GE);
  isl_ast_expr_free(GE);
  isl_ast_build_free(B);

  // Text: the linear thread id, the position, its digits, the copy.
  std::string Tid;
  long TStride = 1;
  for (int A = 0; A < 3; ++A) {
    if (ThreadId[A].empty())
      continue;
    Tid += (Tid.empty() ? "" : " + ") +
           (TStride == 1 ? ThreadId[A]
                         : std::to_string(TStride) + " * " + ThreadId[A]);
    TStride *= Sch.threads(static_cast<Axis>(A));
  }
  if (Tid.empty())
    Tid = "0";
  const std::string &Step = LoadStep, &Pos = LoadPos;
  NodeList Body;
  auto Declare = [&](NodeList &L, const std::string &Name,
                     const std::string &Init) {
    auto X = std::make_unique<Node>(Node::Kind::Declare);
    X->Iter = Name;
    X->Init = Init;
    L.push_back(std::move(X));
  };
  Declare(Body, Pos,
          Count > 1 ? std::to_string(NT) + " * " + Step + " + " +
                          (Tid.find(' ') == std::string::npos ? Tid
                                                              : "(" + Tid + ")")
                    : Tid);
  NodeList Copy;
  long Radix = 1;
  for (int I = static_cast<int>(Order.size()) - 1; I >= 0; --I) {
    unsigned D = Order[I];
    long Digits = D == CD ? St.Box.Size[D] / V : St.Box.Size[D];
    std::string Digit = Radix == 1 ? Pos : Pos + " / " + std::to_string(Radix);
    if (I > 0)
      Digit = (Radix == 1 ? Digit : "(" + Digit + ")") + " % " +
              std::to_string(Digits);
    if (D == CD && V > 1)
      Digit = std::to_string(V) + " * " +
              (Digit == Pos ? Digit : "(" + Digit + ")");
    Declare(Copy, Coord[D], Digit);
    Radix *= Digits;
  }
  // Element J of the vector: in shared memory, in the registers.
  auto Target = [&](long J) {
    std::vector<std::string> R(Coord.begin(), Coord.begin() + N);
    if (J)
      R[CD] += " + " + std::to_string(J);
    return St.element(R);
  };
  auto Reg = [&](long J) {
    std::string I = Count > 1 ? (V > 1 ? std::to_string(V) + " * " : "") + Step
                              : "";
    if (J || I.empty())
      I += (I.empty() ? "" : " + ") + std::to_string(J);
    return St.Next + "[" + I + "]";
  };
  DType T = K.Args[S.Reads[St.Read].Arg].Type;
  std::string Source = globalElement(S.Reads[St.Read].Arg, Sub);
  auto Line = [](const std::string &Text) {
    auto L = std::make_unique<Node>(Node::Kind::Line);
    L->Text = Text;
    return L;
  };
  // Each element of the vector (just Source where V is 1) into Dest(J).
  auto Load = [&](NodeList &L, const std::function<std::string(long)> &Dest) {
    if (V == 1) {
      L.push_back(Line(Dest(0) + " = " + Source + ";"));
      return;
    }
    auto VL = std::make_unique<Node>(Node::Kind::VectorLoad);
    VL->Iter = LoadVec;
    VL->Init = Source;
    VL->Count = V;
    VL->Type = T;
    L.push_back(std::move(VL));
    for (long J = 0; J < V; ++J)
      L.push_back(Line(Dest(J) + " = " + LoadVec + "." + "xyzw"[J] + ";"));
  };
  NodeList Lines;
  if (Part == LoadPart::Whole) {
    Load(Lines, Target);
  } else if (Part == LoadPart::Store) {
    // Elements outside the footprint are never read: no guard.
    for (long J = 0; J < V; ++J)
      Lines.push_back(Line(Target(J) + " = " + Reg(J) + ";"));
    Guard.clear();
  } else if (V == 1) {
    Lines.push_back(Line(
        Reg(0) + " = " +
        (Guard.empty() ? Source
                       : "(" + Guard + ") ? " + Source + " : " + zeroOf(T)) +
        ";"));
    Guard.clear();
  } else {
    // Outside the footprint the registers hold zeros.
    Load(Lines, Reg);
    if (!Guard.empty()) {
      auto G = std::make_unique<Node>(Node::Kind::If);
      G->Cond = Guard;
      G->Body = std::move(Lines);
      for (long J = 0; J < V; ++J)
        G->Else.push_back(Line(Reg(J) + " = " + zeroOf(T) + ";"));
      Lines.clear();
      Lines.push_back(std::move(G));
      Guard.clear();
    }
  }
  if (Guard.empty()) {
    for (NodePtr &X : Lines)
      Copy.push_back(std::move(X));
  } else {
    auto G = std::make_unique<Node>(Node::Kind::If);
    G->Cond = Guard;
    G->Body = std::move(Lines);
    Copy.push_back(std::move(G));
  }
  if (Vectors % NT != 0) {
    // The last round covers fewer positions than there are threads.
    auto G = std::make_unique<Node>(Node::Kind::If);
    G->Cond = Pos + " < " + std::to_string(Vectors);
    G->Body = std::move(Copy);
    Body.push_back(std::move(G));
  } else {
    for (NodePtr &X : Copy)
      Body.push_back(std::move(X));
  }
  NodeList Out;
  if (Count == 1) {
    auto Blk = std::make_unique<Node>(Node::Kind::Block);
    Blk->Body = std::move(Body);
    Out.push_back(std::move(Blk));
    return Out;
  }
  auto F = std::make_unique<Node>(Node::Kind::For);
  F->Iter = Step;
  F->Init = "0";
  F->Cond = Step + " < " + std::to_string(Count);
  F->Step = "1";
  F->Unroll = true;
  F->Body = std::move(Body);
  Out.push_back(std::move(F));
  return Out;
}

/// One half of the pipelined loads of every stage: the fetch of a tile
/// into registers (its tile number is the uniform instance's, bound to
/// NextTile), or the store of the fetched tile to shared memory, then a
/// barrier before the tile is computed.
NodeList Lowering::pipelinedLoads(isl_ast_node *User, bool Fetch,
                                  const isl::set &Uniform, unsigned NO) {
  NodeList Out;
  if (Fetch) {
    // The instance's arguments: the sequential outputs, then the tile.
    isl_ast_expr *Call = isl_ast_node_user_get_expr(User);
    isl_ast_expr *Arg = isl_ast_expr_get_op_arg(Call, 1 + NO);
    auto D = std::make_unique<Node>(Node::Kind::Declare);
    D->Iter = NextTile;
    D->Init = printAstExpr(Arg);
    isl_ast_expr_free(Arg);
    isl_ast_expr_free(Call);
    auto C = std::make_unique<Node>(Node::Kind::Comment);
    C->Text = "fetch the next tile of the staged reads into registers";
    Out.push_back(std::move(C));
    auto B = std::make_unique<Node>(Node::Kind::Block);
    B->Body.push_back(std::move(D));
    for (const Stage &St : Stages)
      for (NodePtr &X : loadCode(St, Uniform, LoadPart::Fetch))
        B->Body.push_back(std::move(X));
    Out.push_back(std::move(B));
    return Out;
  }
  for (const Stage &St : Stages) {
    auto C = std::make_unique<Node>(Node::Kind::Comment);
    C->Text = "stage " + S.Reads[St.Read].Spelling + " in " + St.Buf +
              " from " + St.Next;
    Out.push_back(std::move(C));
    for (NodePtr &X : loadCode(St, Uniform, LoadPart::Store))
      Out.push_back(std::move(X));
  }
  Out.push_back(std::make_unique<Node>(Node::Kind::Barrier));
  return Out;
}

/// What runs for one instance of the block-uniform loops.
NodeList Lowering::uniformBody(const isl::set &Uniform) {
  NodeList Out;
  auto Append = [&](NodeList L) {
    for (NodePtr &X : L)
      Out.push_back(std::move(X));
  };
  // Pipelined, the loads are placed by the uniform loop's schedule.
  for (const Stage &St : Stages) {
    if (Sch.Pipelined)
      break;
    auto C = std::make_unique<Node>(Node::Kind::Comment);
    C->Text = "stage " + S.Reads[St.Read].Spelling + " in " + St.Buf;
    Out.push_back(std::move(C));
    Append(loadCode(St, Uniform, LoadPart::Whole));
  }
  if (!Stages.empty() && !Sch.Pipelined)
    Out.push_back(std::make_unique<Node>(Node::Kind::Barrier));
  Append(threadCode(Accs.empty() ? Piece::Compute : Piece::Update, Uniform));
  // The next tile (or iteration) overwrites the buffers; with two of
  // them, it writes the one whose readers all passed the last barrier.
  if (!Stages.empty() && (Tiled || !SeqOutputs.empty()) && !doubleBuffered())
    Out.push_back(std::make_unique<Node>(Node::Kind::Barrier));
  return Out;
}

void Lowering::boundBlocks() {
  // Blocks along each grid axis: 1 + the largest block id used. Every
  // launched block has an id within that range, which the code may assume.
  for (int A = 0; A < 3; ++A) {
    if (BlockId[A].empty())
      continue;
    if (!Facts->Bounded) {
      isl_set *P = isl_set_params(blockIterations().release());
      P = isl_set_from_params(P);
      unsigned Pos = paramPos(isl::manage_copy(P), BlockId[A]);
      P = isl_set_move_dims(P, isl_dim_set, 0, isl_dim_param, Pos, 1);
      for (int Q = isl_set_dim(P, isl_dim_param) - 1; Q >= (int)NumSizes; --Q)
        P = isl_set_project_out(P, isl_dim_param, Q, 1);
      Facts->Max[A] = isl::manage(isl_set_dim_max(P, 0)).coalesce();
    }
    isl::pw_aff Max = Facts->Max[A];
    BlockMax[A] = Max;
    isl_pw_aff *Id = isl_pw_aff_param_on_domain_id(
        isl_set_universe(isl_space_params(Params.copy())),
        isl_id_alloc(Ctx.get(), BlockId[A].c_str(), nullptr));
    isl_set *Le = isl_pw_aff_le_set(Id, isl_pw_aff_align_params(Max.copy(), Params.copy()));
    Context = align(Context.intersect(isl::manage(Le)));
  }
  Facts->Bounded = true;
}

void Lowering::computeGrid(std::string *GridIsl, std::string *GridC,
                           std::string *LaunchIf) {
  isl::set KCtx = isl::manage(isl_set_from_params(K.Context.copy())).params();
  isl_ast_build *CB = isl_ast_build_from_context(KCtx.copy());
  isl::set Nonempty = KCtx;
  for (int A = 0; A < 3; ++A) {
    if (BlockId[A].empty()) {
      GridIsl[A] = "1";
      GridC[A] = "1";
      continue;
    }
    isl_pw_aff *Max = BlockMax[A].copy();
    Max = isl_pw_aff_add(Max, isl_pw_aff_val_on_domain(
                                  isl_pw_aff_domain(isl_pw_aff_copy(Max)),
                                  isl_val_one(Ctx.get())));
    Max = isl_pw_aff_coalesce(Max);
    Nonempty = Nonempty.intersect(isl::manage(isl_pw_aff_domain(isl_pw_aff_copy(Max))));
    GridC[A] = exprText(CB, isl::manage(isl_pw_aff_copy(Max)));
    // No block at all where the domain is empty: the launcher skips the
    // kernel, and the code may assume every block lies within the range.
    isl_set *Empty = isl_set_subtract(KCtx.copy(),
                                      isl_pw_aff_domain(isl_pw_aff_copy(Max)));
    if (isl_set_is_empty(Empty) == isl_bool_false)
      Max = isl_pw_aff_union_max(
          Max, isl_pw_aff_val_on_domain(Empty, isl_val_zero(Ctx.get())));
    else
      isl_set_free(Empty);
    char *Str = isl_pw_aff_to_str(isl_pw_aff_coalesce(Max));
    GridIsl[A] = Str ? Str : "";
    free(Str);
  }
  if (LaunchIf && !Nonempty.is_equal(KCtx)) {
    isl_ast_expr *E = isl_ast_build_expr_from_set(CB, Nonempty.release());
    *LaunchIf = printAstExpr(E);
    isl_ast_expr_free(E);
  }
  isl_ast_build_free(CB);
}

std::optional<LoweringFigures> Lowering::figures(std::string &Error) {
  if (!setUp(Error) || !buildDomains(Error))
    return std::nullopt;
  boundBlocks();
  if (!buildStages(Error))
    return std::nullopt;
  LoweringFigures F;
  std::string GridIsl[3];
  computeGrid(GridIsl, F.Grid, nullptr);
  std::vector<long> Buffers; // bytes of each shared buffer, in order
  for (const Stage &St : Stages) {
    long N = 1, P = dtypeSize(K.Args[S.Reads[St.Read].Arg].Type);
    for (size_t D = 0; D < St.Box.Size.size(); ++D) {
      N *= St.Box.Size[D];
      P *= St.Padded[D];
    }
    F.StageElements.push_back(N);
    Buffers.push_back(St.Parity.empty() ? P : 2 * P);
  }
  if (BlockRed)
    for (const Accumulator &A : Accs)
      Buffers.push_back(dtypeSize(A.Reduce->Type) * RegCount * Sch.totalThreads());
  // Past the static limit the buffers are carved at multiples of 16 bytes
  // (DeviceKernel::sharedOffsets).
  for (long B : Buffers)
    F.SharedBytes += B;
  if (F.SharedBytes > StaticSharedLimit) {
    F.SharedBytes = 0;
    for (long B : Buffers)
      F.SharedBytes += dynamicSharedSlot(B);
  }
  return F;
}

std::optional<DeviceKernel> Lowering::run(std::string &Error) {
  if (!setUp(Error) || !buildDomains(Error))
    return std::nullopt;
  boundBlocks();
  if (!buildStages(Error))
    return std::nullopt;
  planLoads();
  buildStrides();
  std::optional<bool> &Fits = Cache->statement(S.Name).Index32;
  if (!Fits)
    Fits = fitsIn32Bits();
  Index32 = *Fits;

  DeviceKernel DK;
  DK.Index32 = Index32;
  DK.Atomics = splitAcrossBlocks();
  DK.Name = K.Stmts.size() == 1 ? K.Name : K.Name + "_" + S.Name;
  for (int A = 0; A < 3; ++A) {
    DK.BlockDim[A] = Sch.threads(static_cast<Axis>(A));
    if (!BlockId[A].empty())
      DK.Ids.push_back({BlockId[A], true, static_cast<Axis>(A)});
  }
  for (int A = 0; A < 3; ++A)
    if (!ThreadId[A].empty())
      DK.Ids.push_back({ThreadId[A], false, static_cast<Axis>(A)});

  // Signature: fixed parameters become constants.
  for (const Argument &A : K.Args) {
    if (A.Kind == ArgKind::Index) {
      auto It = K.Fixed.find(A.Name);
      if (It != K.Fixed.end()) {
        DK.Constants.push_back({A.Name, It->second});
        continue;
      }
      DK.Params.push_back({KernelParam::Kind::Index, A.Name, DType::I64});
    } else if (A.Kind == ArgKind::Scalar) {
      DK.Params.push_back({KernelParam::Kind::Scalar, A.Name, A.Type});
    } else {
      DK.Params.push_back({A.Mode == ArgMode::In ? KernelParam::Kind::InArray
                                                 : KernelParam::Kind::OutArray,
                           A.Name, A.Type});
    }
  }
  for (const Accumulator &A : Accs)
    DK.Registers.push_back({A.Name, A.Reduce->Type, {RegCount},
                            "partial " + std::string(reduceOpName(A.Reduce->reduceOp())) +
                                " of each of the thread's outputs"});
  for (const Stage &St : Stages) {
    DType T = K.Args[S.Reads[St.Read].Arg].Type;
    if (!St.Next.empty())
      DK.Registers.push_back({St.Next, T, {St.Rounds * St.LoadVector},
                              "this thread's part of the next tile of " +
                                  S.Reads[St.Read].Spelling});
    std::string What = "footprint of " + S.Reads[St.Read].Spelling;
    if (St.Order.size() > 1 && St.Order.back() != St.Order.size() - 1)
      What += ", transposed";
    std::vector<long> Dims = St.Padded;
    if (!St.Parity.empty()) {
      Dims.insert(Dims.begin(), 2);
      What += ", two tiles";
    }
    DK.Shared.push_back({St.Buf, T, Dims, What,
                         St.Vector > 1 ? St.Vector * dtypeSize(T) : 0});
    const std::string &Arr = K.Args[S.Reads[St.Read].Arg].Name;
    if (St.LoadVector > 1 &&
        std::none_of(DK.Aligned.begin(), DK.Aligned.end(),
                     [&](const auto &X) { return X.first == Arr; }))
      DK.Aligned.push_back({Arr, St.LoadVector * dtypeSize(T)});
  }
  if (BlockRed)
    for (const Accumulator &A : Accs)
      DK.Shared.push_back({"red_" + A.Name, A.Reduce->Type,
                           {RegCount, Sch.threads(Axis::Z), Sch.threads(Axis::Y),
                            Sch.threads(Axis::X)},
                           "partial results of every thread"});

  // The block-uniform loops: sequential output indices, then reduction
  // tiles, around Init, the body and Write.
  std::vector<std::string> Threads;
  for (int A = 0; A < 3; ++A)
    if (!ThreadId[A].empty())
      Threads.push_back(ThreadId[A]);
  bool HasUniform = !SeqOutputs.empty() || Tiled;
  isl::set NoExtra = isl::set::universe(Params);
  if (!HasUniform) {
    if (!Accs.empty())
      for (NodePtr &X : threadCode(Piece::Init, NoExtra))
        DK.Body.push_back(std::move(X));
    for (NodePtr &X : uniformBody(NoExtra))
      DK.Body.push_back(std::move(X));
  } else {
    // Uniform placeholders U_init[o], U_body[o, kt], U_write[o], scheduled
    // as [o..., stage, kt].
    unsigned NO = SeqOutputs.size();
    auto Project = [&](const isl::set &Dom, bool WithTile) {
      // Onto the uniform parameters: they become the tuple.
      isl::set P = eliminateParams(Dom, Threads);
      isl_set *X = isl_set_params(P.release());
      unsigned NP = ParamNames.size();
      unsigned First = NP - NO - (Tiled ? 1 : 0);
      unsigned Count = NO + (WithTile && Tiled ? 1 : 0);
      X = isl_set_from_params(X);
      X = isl_set_move_dims(X, isl_dim_set, 0, isl_dim_param, First, Count);
      if (Tiled && !WithTile)
        X = isl_set_project_out(X, isl_dim_param,
                                isl_set_dim(X, isl_dim_param) - 1, 1);
      return isl::manage(X);
    };
    isl::set UOut = Project(OutDom, false);
    isl::set UBody = Project(Ext, true);
    isl_union_map *Sched = isl_union_map_empty(Params.copy());
    // Pipelined, each tile's body splits in three, at [stage 1, time, sub]:
    // its registers are stored to shared memory at (kt, 0), the next tile
    // is fetched at (kt, 1) -- so tile kt's fetch runs at (kt - 1, 1), the
    // first one before the loop -- and the tile is computed at (kt, 2).
    bool Pipe = Sch.Pipelined;
    unsigned NS = NO + (Pipe ? 3 : 2);
    auto Add = [&](isl::set Dom, const char *Name, long Stage, bool WithTile,
                   long Shift = 0, long Sub = 0) {
      isl_set *D = isl_set_set_tuple_name(Dom.release(), Name);
      isl_map *M = isl_map_from_domain(D);
      M = isl_map_add_dims(M, isl_dim_out, NS);
      isl::map MM = isl::manage(M);
      for (unsigned I = 0; I < NO; ++I)
        MM = addConstraint(MM, {{isl_dim_in, I, 1}, {isl_dim_out, I, -1}}, 0,
                           true);
      MM = addConstraint(MM, {{isl_dim_out, NO, 1}}, -Stage, true);
      if (WithTile && Tiled)
        MM = addConstraint(MM, {{isl_dim_in, NO, 1}, {isl_dim_out, NO + 1, -1}},
                           Shift, true);
      else
        MM = addConstraint(MM, {{isl_dim_out, NO + 1, 1}}, 0, true);
      if (Pipe)
        MM = addConstraint(MM, {{isl_dim_out, NO + 2, 1}}, -Sub, true);
      Sched = isl_union_map_add_map(Sched, align(MM).release());
    };
    if (!Accs.empty())
      Add(UOut, "U_init", 0, false);
    if (Pipe) {
      Add(UBody, "U_store", 1, true, 0, 0);
      Add(UBody, "U_fetch", 1, true, -1, 1);
    }
    Add(UBody, "U_body", 1, true, 0, Pipe ? 2 : 0);
    if (!Accs.empty())
      Add(UOut, "U_write", 2, false);
    // Generate the uniform loops; their user nodes are filled in below.
    std::vector<std::string> Iters = SeqParams;
    Iters.push_back(fresh("stage"));
    Iters.push_back(Tiled ? TileParam : fresh("c"));
    if (Pipe) {
      Iters.push_back(fresh("part"));
      NextTile = fresh(K.IndexNames[Tiled->Index] + "_next");
    }
    // Parameters the uniform loops do not involve only slow isl down. The
    // domains repeat the context's bounds on the block ids (and the sizes
    // fixed with -D): without them, the loops involve neither.
    isl_set *UC = eliminateParams(Context, Threads).release();
    Sched = isl_union_map_gist_params(Sched, isl_set_copy(UC));
    for (int P = isl_union_map_dim(Sched, isl_dim_param) - 1; P >= 0; --P) {
      if (isl_union_map_involves_dims(Sched, isl_dim_param, P, 1) != isl_bool_false)
        continue;
      isl_id *Name = isl_union_map_get_dim_id(Sched, isl_dim_param, P);
      int CP = isl_set_find_dim_by_id(UC, isl_dim_param, Name);
      isl_id_free(Name);
      if (CP >= 0)
        UC = isl_set_project_out(UC, isl_dim_param, CP, 1);
      Sched = isl_union_map_project_out(Sched, isl_dim_param, P, 1);
    }
    const LoweringCache::Nest &UN =
        nest(isl::manage(Sched), isl::manage(UC), Iters,
             std::vector<bool>(Iters.size(), false));
    // Which placeholder every uniform instance is; the thread code takes
    // the uniform iterators as parameters, so it needs nothing else.
    std::vector<std::string> UTuples;
    for (const isl::ast_build &B : UN.Builds) {
      isl_map *M = isl_map_from_union_map(isl_ast_build_get_schedule(B.get()));
      UTuples.push_back(isl_map_get_tuple_name(M, isl_dim_in));
      isl_map_free(M);
    }
    // Convert, expanding uniform user nodes into their thread code.
    isl::set UniformCtx = eliminateParams(Ext, Threads).params();
    std::function<NodeList(isl_ast_node *)> Conv = [&](isl_ast_node *N) {
      if (isl_ast_node_get_type(N) == isl_ast_node_user) {
        const std::string &T = UTuples[instancePos(N)];
        if (T == "U_init")
          return threadCode(Piece::Init, UniformCtx);
        if (T == "U_write") {
          NodeList L;
          if (BlockRed)
            for (const Accumulator &A : Accs)
              L.push_back(blockReduce(A));
          for (NodePtr &X : threadCode(Piece::Write, UniformCtx))
            L.push_back(std::move(X));
          return L;
        }
        if (T == "U_store" || T == "U_fetch")
          return pipelinedLoads(N, T == "U_fetch", UniformCtx, NO);
        return uniformBody(UniformCtx);
      }
      return NodeList();
    };
    // Loops and guards convert as everywhere; uniform instances expand into
    // their thread code.
    if (!UN.Tree.is_null())
      DK.Body = convert(UN.Tree.get(), Conv);
  }
  // Without uniform loops, the block reduction and Write come last.
  if (!HasUniform && !Accs.empty()) {
    if (BlockRed)
      for (const Accumulator &A : Accs)
        DK.Body.push_back(blockReduce(A));
    for (NodePtr &X : threadCode(Piece::Write, NoExtra))
      DK.Body.push_back(std::move(X));
  }

  computeGrid(DK.GridIsl, DK.GridC, &DK.LaunchIf);

  // Header comment.
  DK.Header.push_back("kernel " + K.Name + ", statement " + S.Name + ": " +
                      S.Write.Spelling + " = " + printExpr(K, *S.Rhs));
  DK.Header.push_back("schedule: " + Sch.str(K, S));
  DK.Header.push_back(launchLine(DK));
  // More than a kernel may declare statically: one dynamic array.
  if (DK.sharedBytes() > StaticSharedLimit && !DK.Shared.empty()) {
    const Buffer &Last = DK.Shared.back();
    DK.DynamicShared = DK.sharedOffsets().back() + dynamicSharedSlot(Last.bytes());
  }
  DK.Header.push_back("resources: " + std::to_string(DK.sharedBytes()) +
                      " bytes of shared memory" +
                      (DK.DynamicShared ? " (allocated at launch)" : "") +
                      ", " + std::to_string(RegCount) +
                      " output" + (RegCount == 1 ? "" : "s") +
                      " in registers per thread");
  return DK;
}

DeviceKernel Lowering::initKernel(const DeviceKernel &Main) {
  int A = static_cast<int>(BlockRed->Ax);
  DeviceKernel DK;
  DK.Name = Main.Name + "_init";
  DK.Params = Main.Params;
  DK.Constants = Main.Constants;
  DK.Ids = Main.Ids;
  DK.Index32 = Main.Index32;
  DK.LaunchIf = Main.LaunchIf;
  // The same grid, with one block and one thread along the split axis;
  // launched exactly where Main is (its grid is 0 where Main's is).
  for (int X = 0; X < 3; ++X) {
    DK.BlockDim[X] = Main.BlockDim[X];
    DK.GridIsl[X] = Main.GridIsl[X];
    DK.GridC[X] = Main.GridC[X];
  }
  DK.BlockDim[A] = 1;
  DK.GridC[A] = "1";
  isl_pw_aff *G = isl_pw_aff_read_from_str(Ctx.get(), Main.GridIsl[A].c_str());
  isl_pw_aff *One = isl_pw_aff_val_on_domain(isl_pw_aff_domain(isl_pw_aff_copy(G)),
                                             isl_val_one(Ctx.get()));
  char *Str = isl_pw_aff_to_str(isl_pw_aff_coalesce(isl_pw_aff_min(G, One)));
  DK.GridIsl[A] = Str ? Str : "1";
  free(Str);
  // Write's domain: every output the statement writes, once (thread 0 of
  // the split axis), in block 0.
  isl::set First = isl::set::universe(Params);
  First = addConstraint(First, {{isl_dim_param, paramPos(First, BlockId[A]), 1}},
                        0, true);
  First = addConstraint(First, {{isl_dim_param, paramPos(First, ThreadId[A]), 1}},
                        0, true);
  InitOutputs = true;
  DK.Body = threadCode(Piece::Write, First);
  InitOutputs = false;
  DK.Header.push_back("kernel " + K.Name + ", statement " + S.Name + ": " +
                      S.Write.Spelling + " = 0, before its blocks add their "
                      "partial sums");
  DK.Header.push_back("schedule: " + Sch.str(K, S));
  DK.Header.push_back(launchLine(DK));
  return DK;
}

} // namespace

std::optional<std::vector<DeviceKernel>>
lowerStatement(const Kernel &K, const Statement &S, const Schedule &Sch,
               std::string &Error, LoweringCache *Cache) {
  Lowering L(K, S, Sch, Cache);
  auto DK = L.run(Error);
  if (!DK)
    return std::nullopt;
  std::vector<DeviceKernel> Out;
  if (L.splitAcrossBlocks())
    Out.push_back(L.initKernel(*DK));
  Out.push_back(std::move(*DK));
  return Out;
}

std::optional<LoweringFigures> analyzeStatement(const Kernel &K,
                                                const Statement &S,
                                                const Schedule &Sch,
                                                std::string &Error,
                                                LoweringCache *Cache) {
  return Lowering(K, S, Sch, Cache).figures(Error);
}

std::optional<DeviceProgram> lowerKernel(const Kernel &K,
                                         const std::vector<Schedule> &Schedules,
                                         std::string &Error,
                                         LoweringCache *Cache) {
  DeviceProgram P;
  P.KernelName = K.Name;
  for (size_t I = 0; I < K.Stmts.size(); ++I) {
    auto DKs = lowerStatement(K, K.Stmts[I], Schedules[I], Error, Cache);
    if (!DKs)
      return std::nullopt;
    P.Schedule += (I ? " | " : "") + Schedules[I].str(K, K.Stmts[I]);
    for (DeviceKernel &DK : *DKs)
      P.Kernels.push_back(std::move(DK));
  }
  return P;
}

} // namespace loopy
