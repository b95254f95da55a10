//===- BlockCode.h - Uniform loops around the pieces ------------*- C++ -*-===//
//
// The uniform-loops step of lowering: blockCode takes the whole code state
// and produces the kernel's body. Where the schedule has sequential
// outputs or reduction tiles, isl generates the block-uniform loops over
// placeholders U_init, U_body, U_write (and, pipelined, U_store and
// U_fetch), scheduled as [outputs..., stage, tile(, part)]; every
// placeholder expands into its thread code, cooperative loads, barriers
// and block reductions. Without uniform loops the pieces follow each
// other.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_BLOCKCODE_H
#define LOOPY_LIB_CODEGEN_BLOCKCODE_H

#include "CodeGenState.h"
#include "loopy/CodeGen/DeviceAST.h"

namespace loopy {

device::NodeList blockCode(CodeGenState &G);

/// blockCode, generated apart for the blocks whose tiles lie wholly in the
/// domain (no guards on their outputs and loads) and for the others, under
/// an if on the block ids (fullBlocks, FullTiles.h); blockCode alone where
/// there is no such split.
device::NodeList blockCodeByTiles(CodeGenState &G);

/// Keeps the unrolled code of \p L's nests of reduction loops within about
/// \p Cap statements: a loop over a reduction tile
/// (CodeGenState::ReductionTileLoops) around another whose unrolled body
/// would exceed it unrolls by the largest divisor of its trip count that
/// fits, by 1 (not at all) where none does. The innermost loop over a
/// reduction tile and the register loops within unroll fully: the
/// scheduler sees the whole tile's loads.
void capUnrolling(const CodeGenState &G, device::NodeList &L, long Cap);

/// The combination of accumulator \p A's partial results over the block's
/// reduction threads.
device::NodePtr blockReduce(const CodeGenState &G, const Accumulator &A);

} // namespace loopy

#endif
