//===- KernelSignature.h - Parameters, buffers, header ----------*- C++ -*-===//
//
// The declaration step of lowering: declareKernel takes the code state and
// produces the DeviceKernel's outside -- name, block shape and ids, the
// parameters (sizes fixed with -D become constants), register and shared
// buffers -- before its body is generated; finishKernel adds the grid, the
// dynamic shared memory and the header comment after it. emptyKernel
// stands for both where the statement has no point.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_KERNELSIGNATURE_H
#define LOOPY_LIB_CODEGEN_KERNELSIGNATURE_H

#include "CodeGenState.h"
#include "loopy/CodeGen/DeviceAST.h"

namespace loopy {

device::DeviceKernel declareKernel(const CodeGenState &G);

void finishKernel(device::DeviceKernel &DK, const CodeGenState &G);

/// The kernel of statement \p S of \p K under \p Sch where the statement
/// has no point (statementIsEmpty): the same name and parameters as it
/// would have, an empty body, a grid of no block and a launch condition
/// that never holds, so that no launcher runs it.
device::DeviceKernel emptyKernel(const Kernel &K, const Statement &S,
                                 const Schedule &Sch);

} // namespace loopy

#endif
