//===- Learner.h - A model of variants' run times, fit while tuning -*- C++ -*-===//
//
// The static cost model ranks a kernel's variants before anything has run;
// once some have run, their times say more. `--search=learned` fits
// gradient-boosted regression trees on the variants measured so far --
// their features (variantFeatures: tile shapes, threads, register outputs,
// shared memory, blocks per multiprocessor, staging, reduction strategy,
// the static estimate) against the logarithm of their time relative to the
// fastest -- and runs the variants the model predicts fastest next, round
// after round, refitting on every new measurement (learnedNext).
//
// The features describe a variant, never its kernel's name: a model fit on
// one kernel's measurements applies to another's variants.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TUNER_LEARNER_H
#define LOOPY_TUNER_LEARNER_H

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace loopy {

struct Kernel;
struct Variant;

/// Squared-loss gradient boosting over depth-limited regression trees,
/// each split chosen greedily over every feature and threshold; weighted
/// samples. Deterministic: the same data give the same model.
class BoostedTrees {
public:
  struct Options {
    unsigned Trees = 80;
    unsigned Depth = 3;
    double Rate = 0.15;
    /// Least total weight on each side of a split.
    double MinLeafWeight = 2;
  };

  /// Fits the model to rows \p X (one feature vector each, all of one
  /// length) and targets \p Y, with weights \p W (empty: all 1).
  void fit(const std::vector<std::vector<double>> &X,
           const std::vector<double> &Y, const std::vector<double> &W,
           const Options &O);
  void fit(const std::vector<std::vector<double>> &X,
           const std::vector<double> &Y) {
    fit(X, Y, {}, Options());
  }
  double predict(const std::vector<double> &X) const;
  size_t trees() const { return Trees.size(); }

private:
  struct Node {
    int Feature = -1; // -1: a leaf
    double Threshold = 0;
    int Left = -1, Right = -1;
    double Value = 0;
  };
  struct Tree {
    std::vector<Node> Nodes;
    double predict(const std::vector<double> &X) const;
  };
  double Base = 0;
  double Rate = 0;
  std::vector<Tree> Trees;
};

/// The names of variantFeatures' entries, in order.
const std::vector<std::string> &variantFeatureNames();

/// What the model knows of variant \p V of \p K on a GPU of \p
/// Multiprocessors multiprocessors with \p SharedPerMultiprocessor bytes of
/// shared memory each: numbers only, the same length for every variant of
/// every kernel. \p BestCost is the least static estimate among the
/// kernel's variants (the static estimate enters relative to it).
std::vector<double> variantFeatures(const Kernel &K, const Variant &V,
                                    double BestCost, int Multiprocessors,
                                    size_t SharedPerMultiprocessor);

/// \p Features as stored with a variant's result in the tuning database:
/// a tag naming this list of features, then the numbers.
std::string encodeFeatures(const std::vector<double> &Features);
/// The features \p Text holds; none if they are another list's (stored
/// by a loopyc whose features differ) or damaged.
std::optional<std::vector<double>> decodeFeatures(const std::string &Text);

/// The next \p Count variants to run, of those whose features are \p
/// Features (one per variant, in rank order), after the variants at \p Done
/// ran with the median times \p Seconds (none where a variant failed or was
/// wrong, which the model takes as three times slower than the slowest
/// measured): the model fit on those predicts the others, and the fastest
/// predicted come first (ties in rank order). \p Extra adds training rows
/// from elsewhere (another search's variants: features and the logarithm
/// of time over its fastest), which weigh as much together as this
/// search's measurements. \p Predicted, where given, gets the predicted
/// time of each variant returned, in seconds (none where nothing was
/// timed yet).
std::vector<size_t>
learnedNext(const std::vector<std::vector<double>> &Features,
            const std::vector<size_t> &Done,
            const std::vector<std::optional<double>> &Seconds, size_t Count,
            const std::vector<std::pair<std::vector<double>, double>> &Extra =
                {},
            std::vector<std::optional<double>> *Predicted = nullptr);

} // namespace loopy

#endif
