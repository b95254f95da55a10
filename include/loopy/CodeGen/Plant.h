//===- Plant.h - Planting known bugs in lowered code ------------*- C++ -*-===//
//
// A check that never fails proves nothing. These damage a lowered variant
// in a known way, so that tests can show the OpenCL check and the tuner
// catch what they claim to catch: wrong results, faults and hangs.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_CODEGEN_PLANT_H
#define LOOPY_CODEGEN_PLANT_H

#include "loopy/CodeGen/DeviceAST.h"

#include <string>

namespace loopy {

/// Whether \p What names a bug plantBug knows: drop-barrier (the first
/// barrier goes), skip-first-iteration (the first loop skips its first
/// iteration), fault (thread 0 of each kernel writes to address 16: an
/// illegal address on a GPU), hang (every thread spins forever),
/// skip-thread-0 (thread 0 of block 0 stores no outputs: a few wrong
/// elements, which sampled checks are likely to miss).
bool isPlantableBug(const std::string &What);

/// Damages \p P as \p What says; false if \p P has nothing to damage (no
/// barrier, no loop, no store).
bool plantBug(device::DeviceProgram &P, const std::string &What);

} // namespace loopy

#endif
