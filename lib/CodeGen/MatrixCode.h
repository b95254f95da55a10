//===- MatrixCode.h - A reduction tile on the tensor cores ------*- C++ -*-===//
//
// The update step of an "mma" schedule (Schedule/Mma.h): for each 16
// values of the reduced index in the tile, each thread packs its parts of
// the operands' fragments from their shared buffers (or arrays) and the
// warp multiplies every pair of fragments into the accumulators that the
// thread's register tile already holds. isl gives every subscript, from
// the access relations at the fragment's points.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_MATRIXCODE_H
#define LOOPY_LIB_CODEGEN_MATRIXCODE_H

#include "CodeGenState.h"
#include "loopy/CodeGen/DeviceAST.h"

namespace loopy {

/// The code of one reduction tile's update on the tensor cores, under the
/// uniform loops' context \p Uniform.
device::NodeList mmaCode(CodeGenState &G, const isl::set &Uniform);

} // namespace loopy

#endif
