//===- Printer.h - Device AST to CUDA C (and other dialects) ----*- C++ -*-===//
//
// One printer walks the device AST; a Dialect supplies the spellings that
// differ between CUDA and OpenCL (thread and block ids, address spaces,
// barriers, the index type, the kernel qualifier).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_CODEGEN_PRINTER_H
#define LOOPY_CODEGEN_PRINTER_H

#include "loopy/CodeGen/DeviceAST.h"

#include <string>

namespace loopy {

enum class Dialect { CUDA, OpenCL };

/// The whole source of \p P in \p D: a prelude, then one kernel function per
/// statement (two where a statement's blocks add into its outputs).
std::string printProgram(const device::DeviceProgram &P, Dialect D);

/// The pieces of printProgram, for sources that hold several programs: the
/// prelude (types and helpers, once per source; with \p Atomics also the
/// atomic additions of reductions split across blocks, with
/// \p IntDivision the integer division of the language, defined for every
/// divisor, with \p Half the 16-bit float types and their conversions,
/// with \p Async the asynchronous copies to shared memory, with \p Mma
/// the matrix instructions) and the kernel
/// functions.
std::string printPrelude(Dialect D, bool Atomics = true,
                         bool IntDivision = true, bool Half = true,
                         bool Async = true, bool Mma = true);
std::string printKernels(const device::DeviceProgram &P, Dialect D);

} // namespace loopy

#endif
