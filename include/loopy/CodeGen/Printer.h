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

/// What a source's prelude must define for the kernels it holds: the
/// atomic additions of reductions split across blocks, the integer
/// division of the language (defined for every divisor), the 16-bit float
/// types and their conversions, the asynchronous copies to shared memory,
/// the matrix instructions. Every part on by default.
struct PreludeParts {
  bool Atomics = true, IntDivision = true, Half = true, Async = true,
       Mma = true;
  /// No part: what add() then turns on.
  static PreludeParts none() { return {false, false, false, false, false}; }
  /// Turns on what the kernels of \p P need.
  void add(const device::DeviceProgram &P);
};

/// The pieces of printProgram, for sources that hold several programs: the
/// prelude (types and helpers, once per source, with \p Parts) and the
/// kernel functions.
std::string printPrelude(Dialect D, const PreludeParts &Parts = {});
std::string printKernels(const device::DeviceProgram &P, Dialect D);

} // namespace loopy

#endif
