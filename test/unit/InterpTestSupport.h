//===- InterpTestSupport.h - Kernels from text for the interpreter tests -===//
#ifndef LOOPY_TEST_UNIT_INTERPTESTSUPPORT_H
#define LOOPY_TEST_UNIT_INTERPTESTSUPPORT_H

#include "loopy/Interp/HostData.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace loopy::interptest {
/// The checked kernel of \p Text (which must hold one), with the isl
/// context and source it lives on; null if it does not check.
std::shared_ptr<const Kernel>
buildKernel(const std::string &Text,
            const std::map<std::string, long> &Defines = {});
/// The checked kernel of examples/\p Name.loop, as buildKernel builds it.
std::shared_ptr<const Kernel>
buildExample(const std::string &Name,
             const std::map<std::string, long> &Defines = {});
/// Host data for \p K at \p Params, inputs filled from \p Seed.
HostData randomData(const Kernel &K, const ParamValues &Params, uint64_t Seed);
} // namespace loopy::interptest

#endif
