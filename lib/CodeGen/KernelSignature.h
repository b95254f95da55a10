//===- KernelSignature.h - Parameters, buffers, header ----------*- C++ -*-===//
//
// The declaration step of lowering: declareKernel takes the code state and
// produces the DeviceKernel's outside -- name, block shape and ids, the
// parameters (sizes fixed with -D become constants), register and shared
// buffers -- before its body is generated; finishKernel adds the grid, the
// dynamic shared memory and the header comment after it.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_KERNELSIGNATURE_H
#define LOOPY_LIB_CODEGEN_KERNELSIGNATURE_H

#include "CodeGenState.h"
#include "loopy/CodeGen/DeviceAST.h"

namespace loopy {

device::DeviceKernel declareKernel(const CodeGenState &G);

void finishKernel(device::DeviceKernel &DK, const CodeGenState &G);

} // namespace loopy

#endif
