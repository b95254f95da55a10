//===- CostModel.h - Static estimate of a schedule's run time ---*- C++ -*-===//
//
// The planner's ranking of schedules when no GPU is at hand. What the model
// needs of a statement itself (the extents of its indices at the sizes it
// assumes, which subscripts use which index) is computed once, in CostFacts,
// for all of the statement's schedules.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_PLANNER_COSTMODEL_H
#define LOOPY_PLANNER_COSTMODEL_H

#include "loopy/Schedule/Figures.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Schedule/Schedule.h"

#include <map>
#include <vector>

namespace loopy {

class CostFacts {
public:
  CostFacts(const Kernel &K, const Statement &S);
  /// The extent of each statement index (tuple order) at the assumed sizes.
  const std::vector<double> &extents() const { return Extents; }
  /// Whether subscript \p Dim of \p Acc (any, if negative) uses \p Index.
  bool uses(const Access &Acc, int Dim, unsigned Index) const;

private:
  const Statement &S;
  std::vector<double> Extents;
  /// Per access: per subscript (the first entry: any), per tuple position.
  std::map<const Access *, std::vector<std::vector<bool>>> Uses;
};

/// The estimated run time of \p S under \p Sch, in seconds of an H100-class
/// GPU; only the order of the estimates means anything.
double estimateCost(const Kernel &K, const Statement &S, const Schedule &Sch,
                    const LoweringFigures &F, const CostFacts &Facts);

} // namespace loopy

#endif
