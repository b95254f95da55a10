//===- CooperativeLoads.cpp - A block's threads fill a stage --------------===//
#include "CooperativeLoads.h"
#include "StatementText.h"
#include "loopy/Schedule/IslUtil.h"

#include <algorithm>
#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/set.h>

#include <functional>

namespace loopy {

using namespace device;

/// Element \p J of the vector \p Vec that a VectorLoad of \p T elements
/// declares: a component, or for 16-bit elements, a half of one of its
/// 32-bit words (the lower half the element of the lower address).
static std::string vectorElement(DType T, const std::string &Vec, long J) {
  if (!isHalf(T))
    return Vec + "." + "xyzw"[J];
  std::string Word = Vec + "." + "xyzw"[J / 2];
  return std::string("(") + cTypeName(T) + ")" +
         (J % 2 ? "(" + Word + " >> 16)" : Word);
}

NodeList loadCode(CodeGenState &G, const Stage &St, const isl::set &Uniform,
                  LoadPart Part) {
  StatementMapping &M = G.M;
  const Kernel &K = *G.M.K;
  const Statement &S = *G.M.S;
  const Schedule &Sch = *G.M.Sch;
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
  while (G.LoadCoord.size() < N)
    G.LoadCoord.push_back(
        M.Names.fresh("r" + std::to_string(G.LoadCoord.size())));
  if (G.LoadPos.empty()) {
    G.LoadPos = M.Names.fresh("p");
    G.LoadStep = M.Names.fresh("s");
  }
  if (V > 1 && G.LoadVec.empty())
    G.LoadVec = M.Names.fresh("v");
  const std::vector<std::string> &Coord = G.LoadCoord;
  isl_set *C = isl_set_intersect_params(M.Context.copy(), Uniform.copy());
  // A fetch computes the tile G.NextTile, which the caller binds.
  isl_multi_aff *Offset = isl_multi_aff_copy(St.Box.Offset.get());
  isl_set *Foot = St.Footprint.copy();
  if (Part == LoadPart::Fetch || Part == LoadPart::AsyncFetch) {
    auto Rename = [&](auto *X, auto Find, auto Set) {
      int P = Find(X, isl_dim_param, M.TileParam.c_str());
      return P < 0 ? X : Set(X, isl_dim_param, P, G.NextTile.c_str());
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
  isl::ast_build B = isl::ast_build::from_context(BoxCtx);
  std::vector<std::string> Sub;
  for (unsigned D = 0; D < N; ++D) {
    isl_aff *A =
        isl_aff_project_domain_on_params(isl_multi_aff_get_at(Elem, D));
    Sub.push_back(exprText(B, isl::manage(isl_pw_aff_from_aff(A))));
  }
  isl::set InFoot = isl::manage(isl_set_preimage_multi_aff(
      isl_set_align_params(Foot, isl_set_get_space(BoxCtx.get())), Elem));
  isl::ast_expr GE = B.expr_from(InFoot.params());
  std::string Guard;
  if (!GE.isa<isl::ast_expr_int>())
    Guard = printAstExpr(GE);

  // Text: the linear thread id, the position, its digits, the copy.
  std::string Tid;
  long TStride = 1;
  for (int A = 0; A < 3; ++A) {
    if (M.ThreadId[A].empty())
      continue;
    Tid += (Tid.empty() ? "" : " + ") +
           (TStride == 1 ? M.ThreadId[A]
                         : std::to_string(TStride) + " * " + M.ThreadId[A]);
    TStride *= Sch.threads(static_cast<Axis>(A));
  }
  if (Tid.empty())
    Tid = "0";
  const std::string &Step = G.LoadStep, &Pos = G.LoadPos;
  NodeList Body;
  auto Declare = [&](NodeList &L, const std::string &Name,
                     const std::string &Init) {
    auto X = std::make_unique<Node>(Node::Kind::Declare);
    X->Iter = Name;
    X->Init = Init;
    L.push_back(std::move(X));
  };
  Declare(Body, Pos,
          Count > 1
              ? std::to_string(NT) + " * " + Step + " + " +
                    (Tid.find(' ') == std::string::npos ? Tid : "(" + Tid + ")")
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
    std::string I =
        Count > 1 ? (V > 1 ? std::to_string(V) + " * " : "") + Step : "";
    if (J || I.empty())
      I += (I.empty() ? "" : " + ") + std::to_string(J);
    return St.Next + "[" + I + "]";
  };
  DType T = K.Args[S.Reads[St.Read].Arg].Type;
  std::string Source = G.Addr.element(S.Reads[St.Read].Arg, Sub);
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
    VL->Iter = G.LoadVec;
    VL->Init = Source;
    VL->Count = V;
    VL->Type = T;
    L.push_back(std::move(VL));
    for (long J = 0; J < V; ++J)
      L.push_back(Line(Dest(J) + " = " + vectorElement(T, G.LoadVec, J) + ";"));
  };
  NodeList Lines;
  // Where the stage is zero-filled, the buffer's elements outside the
  // footprint: zeros into Dest(J) (16-bit buffers hold the bits).
  NodeList Zeros;
  auto ZeroFill = [&](const std::function<std::string(long)> &Dest) {
    if (St.ZeroFill)
      for (long J = 0; J < V; ++J)
        Zeros.push_back(
            Line(Dest(J) + " = " + (isHalf(T) ? "0" : zeroOf(T)) + ";"));
  };
  if (Part == LoadPart::Whole) {
    Load(Lines, Target);
    ZeroFill(Target);
  } else if (Part == LoadPart::AsyncFetch) {
    // Into the fetched tile's buffer, which no thread reads during this
    // tile; a vector as one copy (chooseLoadVectors). Skipped elements are
    // outside the footprint, never read, or zero-filled by plain stores,
    // ordered before the tile's reads by the same barrier.
    Stage Next = St;
    Next.Parity = bufferOfTile(G.NextTile, St.Buffers);
    std::vector<std::string> R(Coord.begin(), Coord.begin() + N);
    ZeroFill([&](long J) {
      std::vector<std::string> RJ = R;
      if (J)
        RJ[CD] += " + " + std::to_string(J);
      return Next.element(RJ);
    });
    auto C = std::make_unique<Node>(Node::Kind::AsyncCopy);
    C->Text = Next.element(R);
    C->Init = Source;
    C->Count = V;
    C->Type = T;
    Lines.push_back(std::move(C));
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
    G->Else = std::move(Zeros);
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

NodeList pipelinedLoads(CodeGenState &G, isl_ast_node *User, bool Fetch,
                        const isl::set &Uniform, unsigned NO, Fetched Which,
                        long Pending) {
  const Statement &S = *G.M.S;
  NodeList Out;
  auto Chosen = [&](const Stage &St) {
    return Which == Fetched::All ||
           St.Async == (Which == Fetched::Async);
  };
  bool Async = false, Registers = false;
  for (const Stage &St : G.Stages)
    if (Chosen(St))
      (St.Async ? Async : Registers) = true;
  if (Fetch) {
    // The instance's arguments: the sequential outputs, then the tile.
    isl::ast_expr Call = isl::manage(isl_ast_node_user_get_expr(User));
    isl::ast_expr Arg =
        isl::manage(isl_ast_expr_get_op_arg(Call.get(), 1 + NO));
    auto D = std::make_unique<Node>(Node::Kind::Declare);
    D->Iter = G.NextTile;
    D->Init = printAstExpr(Arg);
    auto C = std::make_unique<Node>(Node::Kind::Comment);
    // The next tile, or with more buffers (Fetched::Async) a later one.
    std::string Tile = Which == Fetched::Async ? "a later" : "the next";
    C->Text = !Async ? "fetch " + Tile + " tile of the staged reads into "
                                         "registers"
              : Registers ? "fetch " + Tile +
                                " tile of the staged reads into registers "
                                "or, asynchronously, their buffers"
                          : "copy " + Tile + " tile of the staged reads "
                                             "into their buffers, "
                                             "asynchronously";
    Out.push_back(std::move(C));
    auto B = std::make_unique<Node>(Node::Kind::Block);
    B->Body.push_back(std::move(D));
    for (const Stage &St : G.Stages)
      if (Chosen(St))
        for (NodePtr &X :
             loadCode(G, St, Uniform,
                      St.Async ? LoadPart::AsyncFetch : LoadPart::Fetch))
          B->Body.push_back(std::move(X));
    // The tile's copies make one group, which the waits count.
    if (Async)
      B->Body.push_back(std::make_unique<Node>(Node::Kind::AsyncCommit));
    Out.push_back(std::move(B));
    return Out;
  }
  for (const Stage &St : G.Stages) {
    if (St.Async)
      continue;
    auto C = std::make_unique<Node>(Node::Kind::Comment);
    C->Text = "stage " + S.Reads[St.Read].Spelling + " in " + St.Buf +
              " from " + St.Next;
    Out.push_back(std::move(C));
    for (NodePtr &X : loadCode(G, St, Uniform, LoadPart::Store))
      Out.push_back(std::move(X));
  }
  if (Async) {
    auto C = std::make_unique<Node>(Node::Kind::Comment);
    C->Text = Pending == 0
                  ? "wait for this tile's asynchronous copies"
                  : "wait for this tile's asynchronous copies; the next " +
                        (Pending == 1 ? std::string("tile's stay")
                                      : std::to_string(Pending) +
                                            " tiles' stay") +
                        " in flight";
    Out.push_back(std::move(C));
    auto W = std::make_unique<Node>(Node::Kind::AsyncWait);
    W->Count = Pending;
    Out.push_back(std::move(W));
  }
  Out.push_back(std::make_unique<Node>(Node::Kind::Barrier));
  return Out;
}

} // namespace loopy
