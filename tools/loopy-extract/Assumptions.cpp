//===- Assumptions.cpp - Where the lifted statements match the C code -----===//
#include "Analysis.h"
#include "KernelIsl.h"

#include <cstdlib>
#include <set>

namespace loopy::extract {

namespace {

/// A C assignment that writes a statement's element (Write) or adds terms
/// to one of its reductions, with the loops around it (Depth).
struct Event {
  unsigned Depth;
  /// Domain positions of the indices whose values the event depends on.
  std::vector<unsigned> Dims;
  clang::SourceRange Range;
  std::string What;
  bool Write;
};

} // namespace

void inferAssumptions(LiftedKernel &K, isl::ctx Ctx, Reporter &R) {
  std::vector<std::string> Names = K.symbolNames();
  auto PositionOf = [&](unsigned Symbol) {
    for (unsigned D = 0; D < K.Loops.size(); ++D)
      if (K.Loops[D].Index == Symbol)
        return D;
    return ~0u;
  };
  std::vector<Event> Events;
  for (const Statement &S : K.Stmts) {
    std::set<unsigned> Out;
    for (const Poly &P : S.Subs)
      for (unsigned Id : P.symbols())
        if (PositionOf(Id) != ~0u)
          Out.insert(PositionOf(Id));
    // Where the write's loops are empty, a kernel split off writes.
    if (!S.EmptySplit)
      Events.push_back(
          {S.WriteDepth, {Out.begin(), Out.end()}, S.Range, S.What, true});
    walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &Enclosing) {
      if (N.K != LExpr::Kind::Reduce)
        return;
      std::set<unsigned> Dims = Out;
      for (unsigned Id : Enclosing)
        Dims.insert(PositionOf(Id));
      for (unsigned Id : N.RedIndices)
        Dims.insert(PositionOf(Id));
      Events.push_back({N.Depth, {Dims.begin(), Dims.end()}, N.Range, N.Target, false});
    });
  }

  isl::set Domain(Ctx, K.islDomain());
  auto Project = [&](const isl::set &S, const std::vector<unsigned> &Dims) {
    std::vector<Poly> Exprs;
    for (unsigned D : Dims)
      Exprs.push_back(Poly::symbol(K.Loops[D].Index));
    return S.apply(indexMap(K, Ctx, Exprs));
  };
  auto Prefix = [&](unsigned NumLoops) {
    return isl::set(Ctx, K.islDomain(NumLoops));
  };
  isl::set Params = isl::set(Ctx, K.islParams() + "{ : }");
  isl::set Active = Params.subtract(Params), Bad = Active;
  const Event *FirstBad = nullptr;
  for (const Event &E : Events) {
    // Where C runs the event, against where the lifted statement does.
    isl::set InC = Project(Prefix(E.Depth), E.Dims);
    isl::set Missed = InC.subtract(Project(Domain, E.Dims));
    Active = Active.unite(InC.params());
    if (Missed.is_empty())
      continue;
    Bad = Bad.unite(Missed.params());
    if (!FirstBad)
      FirstBad = &E;
  }
  if (!FirstBad)
    return;
  isl::set Good = Bad.complement();
  if (Good.intersect(Active).is_empty()) {
    const Event &E = *FirstBad;
    isl::set InC = Project(Prefix(E.Depth), E.Dims);
    for (unsigned D = E.Depth; D < K.Loops.size(); ++D) {
      isl::set Missed = InC.subtract(Project(Prefix(D + 1), E.Dims));
      if (Missed.is_empty())
        continue;
      std::vector<std::string> DimNames;
      for (unsigned Dim : E.Dims)
        DimNames.push_back(Names[K.Loops[Dim].Index]);
      std::string Name = Names[K.Loops[D].Index];
      R.error(E.Range, msg::EmptyLoop)
          << "'" + E.What + (E.Write ? "' is written" : "' accumulates")
          << Name << witness(Missed, DimNames) << (E.Write ? 0 : 1);
      R.note(K.Loops[D].Header, msg::LoopHere) << Name;
      throw LiftFailed();
    }
  }
  isl::set Simple = Good.gist(Active).coalesce();
  if (Simple.is_equal(Params))
    return;
  std::string Text = constraintText(Simple);
  if (K.Assumption.empty())
    K.Assumption = Text;
  else if (Text.find(" or ") != std::string::npos)
    K.Assumption += " and (" + Text + ")";
  else
    K.Assumption += " and " + Text;
}

bool warnEmptyDomain(const LiftedKernel &K, isl::ctx Ctx, Reporter &R) {
  std::vector<std::string> Names = K.symbolNames();
  for (unsigned D = 0; D < K.Loops.size(); ++D) {
    if (!isl::set(Ctx, K.islDomain(D + 1)).is_empty())
      continue;
    R.warning(K.Loops[D].Header, msg::EmptyDomain)
        << Names[K.Loops[D].Index] << K.constraints(D + 1);
    return true;
  }
  return false;
}

} // namespace loopy::extract
