//===- Instantiate.h - isl objects at fixed parameter values ----*- C++ -*-===//
//
// The interpreter runs a kernel at one set of parameter values. These
// helpers fix the kernel's parameters in its isl objects and remove them,
// and turn chosen set dimensions into parameters, so that isl can build
// loops over the remaining ones as functions of the fixed ones.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_INSTANTIATE_H
#define LOOPY_LIB_INTERP_INSTANTIATE_H

#include "loopy/Interp/HostData.h"

#include <isl/cpp.h>

#include <string>
#include <vector>

namespace loopy::interp {

/// The value of \p A { [] -> [e] } (on the kernel's parameters) at
/// \p Params. Throws std::invalid_argument if a parameter has no value.
long evaluate(const isl::aff &A, const ParamValues &Params);

/// \p S with every parameter fixed to its value in \p Params and then
/// projected out: a set without parameters. Throws std::invalid_argument if
/// a parameter has no value.
isl::set instantiate(const isl::set &S, const ParamValues &Params);
/// The same for a map.
isl::map instantiate(const isl::map &M, const ParamValues &Params);

/// Whether the parameter set \p Context contains \p Params.
bool satisfies(const isl::set &Context, const ParamValues &Params);

/// Of the parameter-free set \p S { [x0, ..., xn] }, whose dimension p is
/// named \p Names[p]: the set of the dimensions \p Free (positions, kept
/// in order) for fixed values of the dimensions \p Bound, which become
/// parameters named after them; every other dimension is projected out.
/// \returns [bound...] -> { [free...] }
isl::set sliceSet(const isl::set &S, const std::vector<std::string> &Names,
                  const std::vector<unsigned> &Bound,
                  const std::vector<unsigned> &Free);

/// \p M { [x0, ..., xn] -> [y...] } with the input dimensions not in
/// \p Keep projected out and those in \p Keep turned into parameters named
/// \p Names[p]: [kept...] -> { [] -> [y...] }.
isl::map inputsToParams(const isl::map &M,
                        const std::vector<std::string> &Names,
                        const std::vector<unsigned> &Keep);

/// The positions, ascending, in the tuple of statement \p S (its Indices)
/// of the kernel indices \p Indices.
std::vector<unsigned> tuplePositions(const Statement &S,
                                     const std::vector<unsigned> &Indices);

} // namespace loopy::interp

#endif
