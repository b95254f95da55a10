//===- RunOpenCL.h - One lowered variant run through OpenCL -----*- C++ -*-===//
//
// The launch step that --check=opencl and the C++ round-trip test share: a
// lowered variant, already printed and built for an OpenCL device, runs on
// host data laid out for its kernel, and its outputs come back into that
// data, where compareOutputs can judge them.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_DRIVER_RUNOPENCL_H
#define LOOPY_DRIVER_RUNOPENCL_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/Interp/HostData.h"
#include "loopy/Runtime/OpenCL.h"

#include <isl/cpp.h>

namespace loopy {

/// Copies every array of \p Data to \p Dev, launches the kernels of \p P
/// (built into \p Prog) in order on the grids launchBlocks computes in \p Ctx
/// from Data.Params (a kernel whose grid is empty is skipped), and reads the
/// 'out' and 'inout' arrays of \p K back into \p Data. Throws
/// cl::OpenCLError when a call fails, std::invalid_argument when \p Data
/// lacks a value the kernels take or a grid is past the device's limits.
void runOnOpenCL(const cl::Device &Dev, const cl::Program &Prog,
                 const device::DeviceProgram &P, const Kernel &K,
                 HostData &Data, isl::ctx Ctx);

} // namespace loopy

#endif
