//===- SplitReduction.h - The kernel before a split reduction ---*- C++ -*-===//
//
// The split-reduction step of lowering: where a reduction is split across
// blocks, whose results are added into the outputs atomically,
// zeroOutputsKernel produces the kernel launched first, which sets every
// output the statement writes to the sum's identity: Write's code, once
// per output, on the main kernel's grid with one block and one thread
// along the split axis.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_SPLITREDUCTION_H
#define LOOPY_LIB_CODEGEN_SPLITREDUCTION_H

#include "CodeGenState.h"
#include "loopy/CodeGen/DeviceAST.h"

namespace loopy {

/// The kernel that zeroes the outputs before \p Main runs.
device::DeviceKernel zeroOutputsKernel(CodeGenState &G,
                                       const device::DeviceKernel &Main);

} // namespace loopy

#endif
