//===- RunParams.h - Parameter values of runs -------------------*- C++ -*-===//
//
// Runs (--check=opencl, --tune) need a value for every index parameter:
// fixed in the code with -D, or passed as a kernel argument with --param
// (or --all-params).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_DRIVER_RUNPARAMS_H
#define LOOPY_LIB_DRIVER_RUNPARAMS_H

#include "loopy/Driver/Driver.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Support/Diagnostics.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// \p K's index parameters that neither its code (-D) nor \p Opts
/// (--param, --all-params) gives a value, in declaration order.
std::vector<std::string> paramsWithoutValue(const Kernel &K,
                                            const CompileOptions &Opts);

/// The values of \p K's index parameters that are not fixed in its code,
/// from --param and --all-params; an error naming the missing ones (for
/// the option \p Option) and nullopt if some have none.
std::optional<std::map<std::string, long>>
runParams(const Kernel &K, const CompileOptions &Opts, const char *Option,
          DiagnosticEngine &Diags);

} // namespace loopy

#endif
