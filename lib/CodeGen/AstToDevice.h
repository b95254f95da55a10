//===- AstToDevice.h - isl's AST as device nodes ----------------*- C++ -*-===//
//
// The AST-translation step of lowering: convertAst takes an isl AST (loops,
// guards, blocks, marks) and produces the device AST's nodes, with every
// expression printed as C; user nodes are expanded by the caller.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_ASTTODEVICE_H
#define LOOPY_LIB_CODEGEN_ASTTODEVICE_H

#include "loopy/CodeGen/DeviceAST.h"

#include <isl/cpp.h>

#include <functional>
#include <set>
#include <string>

namespace loopy {

/// The nodes of \p N; loops whose iterator is in \p Unrolled print with
/// #pragma unroll, and \p User expands each user node.
device::NodeList
convertAst(const isl::ast_node &N, const std::set<std::string> &Unrolled,
           const std::function<device::NodeList(isl_ast_node *)> &User);

/// The position in its nest's builds of the instance at user node \p N
/// (see loopNest).
size_t instancePos(isl_ast_node *N);

} // namespace loopy

#endif
