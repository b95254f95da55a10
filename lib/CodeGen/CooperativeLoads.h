//===- CooperativeLoads.h - A block's threads fill a stage ------*- C++ -*-===//
//
// The cooperative-load step of lowering: loadCode takes one stage and the
// values the uniform loops fix, and produces the code in which the block's
// threads copy the stage's box from global to shared memory -- walked
// linearly, the contiguous dimension fastest, one element or one vector per
// thread and round, each guarded by membership of the footprint (isl
// prints the guard and the subscripts). Pipelined stages load in two
// halves through registers: pipelinedLoads gives the fetch of the next tile
// or the store of the fetched one.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_COOPERATIVELOADS_H
#define LOOPY_LIB_CODEGEN_COOPERATIVELOADS_H

#include "CodeGenState.h"
#include "loopy/CodeGen/DeviceAST.h"

namespace loopy {

/// How a cooperative load runs: straight from global to shared memory, or
/// in two halves through registers (pipelined): Fetch loads the tile
/// NextTile names into registers, Store moves them to shared memory; or
/// (pipelined, async) AsyncFetch copies the tile NextTile names straight
/// into its buffer of the two, completed before the tile is computed.
enum class LoadPart { Whole, Fetch, Store, AsyncFetch };

/// The load of stage \p St for the uniform instance \p Uniform { [params] }.
device::NodeList loadCode(CodeGenState &G, const Stage &St,
                          const isl::set &Uniform, LoadPart Part);

/// Which stages a pipelined fetch loads: all of them, or (where the
/// asynchronous copies run further ahead) those it copies asynchronously
/// or those through registers.
enum class Fetched { All, Async, Registers };

/// One half of the pipelined loads of the stages \p Which at the uniform
/// user node \p User: the fetch of a later tile into registers (\p Fetch;
/// its tile is the instance's argument after the \p NO sequential
/// outputs), or the store of the fetched tile to shared memory and a
/// barrier. With async copies the fetch copies into shared memory as one
/// group of copies, and the store only waits for the copies, all but the
/// last \p Pending groups, before the barrier.
device::NodeList pipelinedLoads(CodeGenState &G, isl_ast_node *User, bool Fetch,
                                const isl::set &Uniform, unsigned NO,
                                Fetched Which = Fetched::All,
                                long Pending = 0);

} // namespace loopy

#endif
