//===- CodeGenState.h - What the code-generating steps share ----*- C++ -*-===//
//
// The steps that generate a statement's code (thread code, cooperative
// loads, uniform loops, the split reduction's first kernel) read the
// mapping, the stages and the addressing that the steps before them
// produced, and add names and statement instances as they go. This is that
// state, built once by lowerStatement after the analysis steps.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_CODEGENSTATE_H
#define LOOPY_LIB_CODEGEN_CODEGENSTATE_H

#include "Addressing.h"
#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/LoweringCache.h"
#include "loopy/Schedule/Mapping.h"

#include <isl/cpp.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace loopy {

/// Text produced for one instance of a user statement of an isl AST.
struct Instance {
  std::string Guard; // empty if the instance always runs
  std::vector<std::string> Lines;
};

struct CodeGenState {
  CodeGenState(StatementMapping &M, const std::vector<Stage> &Stages,
               const Addressing &Addr, bool Index32, LoweringCache &Cache)
      : M(M), Stages(Stages), Addr(Addr), Index32(Index32), Cache(Cache) {}

  StatementMapping &M; // its names grow
  const std::vector<Stage> &Stages;
  const Addressing &Addr;
  /// Index arithmetic in 32 bits (see indexFitsIn32Bits).
  bool Index32 = false;
  LoweringCache &Cache;

  /// The instances of every nest generated so far, in order.
  std::vector<Instance> Instances;
  /// Per tuple: the real domain, where the AST runs over a relaxed box.
  std::map<std::string, isl::set> Guards;
  /// Where set: the statement's domain relaxed for the update's guards
  /// (overcomputeDomain, FullTiles.h).
  std::optional<isl::set> Overcompute;
  std::set<std::string> PragmaUnroll; // loops printed with #pragma unroll
  /// Of those, the loops over a reduction tile, with their trip counts (the
  /// others are register loops, which must unroll fully).
  std::map<std::string, long> ReductionTileLoops;
  /// The register loops, with their trip counts (a register tile's extent).
  std::map<std::string, long> RegisterLoops;
  /// Names in the cooperative loads: position, round, vector, box
  /// coordinates (every stage's load is a scope of its own).
  std::string LoadPos, LoadStep, LoadVec;
  std::vector<std::string> LoadCoord;
  /// Pipelined: the tile a fetch loads (the reduction tile's parameter
  /// renamed, bound to the uniform loop's tile + 1).
  std::string NextTile;
  /// Write sets the outputs to the reduction's identity (the kernel run
  /// before one whose blocks add their partial results).
  bool InitOutputs = false;
  /// The statement text calls loopy_div_* or loopy_rem_* (integer
  /// division whose divisor may be 0 or -1).
  bool IntDivision = false;
  /// The statement text converts f16 or bf16 values.
  bool Half = false;
};

} // namespace loopy

#endif
