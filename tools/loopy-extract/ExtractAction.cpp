//===- ExtractAction.cpp - The Clang action behind loopy-extract ----------===//
#include "ExtractAction.h"
#include "Analysis.h"
#include "Distribute.h"
#include "Lifter.h"
#include "LoopPrinter.h"
#include "Pragmas.h"
#include "Targets.h"

#include "loopy/Support/Isl.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"

#include <map>
#include <set>
#include <tuple>

namespace loopy::extract {

namespace {

/// Holds the diagnostics of one nest while it is lifted, and passes them
/// on when it is done: each (level, place and text) once -- the parts of a
/// distributed nest, or of a nest split by statement, each lift the
/// statements beside their loops, which would report their errors once per
/// part -- and the errors that name a dependence between iterations first,
/// each with its notes: where the iterations of a nest depend on each
/// other, that is why it cannot be a kernel, whatever else stands in the
/// way (a local array, an 'if' on the indices).
class NestDiagnostics : public clang::DiagnosticConsumer {
public:
  explicit NestDiagnostics(clang::DiagnosticsEngine &D)
      : D(D), Client(D.getClient()), Owned(D.takeClient()) {
    D.setClient(this, false);
  }
  NestDiagnostics(const NestDiagnostics &) = delete;
  NestDiagnostics &operator=(const NestDiagnostics &) = delete;
  ~NestDiagnostics() override {
    if (Owned)
      D.setClient(Owned.release(), true);
    else
      D.setClient(Client, false);
    // An error or warning with the notes after it.
    std::vector<std::vector<clang::StoredDiagnostic>> Entries;
    for (clang::StoredDiagnostic &S : Stored) {
      if (S.getLevel() != clang::DiagnosticsEngine::Note || Entries.empty())
        Entries.emplace_back();
      Entries.back().push_back(std::move(S));
    }
    std::set<std::tuple<int, unsigned, std::string>> Seen;
    std::vector<std::vector<clang::StoredDiagnostic> *> Kept;
    for (auto &E : Entries)
      if (Seen.insert({static_cast<int>(E[0].getLevel()),
                       E[0].getLocation().getRawEncoding(),
                       E[0].getMessage().str()})
              .second)
        Kept.push_back(&E);
    std::stable_partition(Kept.begin(), Kept.end(), [&](const auto *E) {
      return isDependence(D.getDiagnosticIDs()->getDescription((*E)[0].getID()));
    });
    for (const auto *E : Kept)
      for (const clang::StoredDiagnostic &S : *E)
        D.Report(S);
  }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &Info) override {
    Stored.emplace_back(L, Info);
  }

private:
  clang::DiagnosticsEngine &D;
  clang::DiagnosticConsumer *Client;
  std::unique_ptr<clang::DiagnosticConsumer> Owned;
  std::vector<clang::StoredDiagnostic> Stored;
};

class ExtractConsumer : public clang::ASTConsumer {
public:
  ExtractConsumer(const std::string &Only, ExtractResult &Result,
                  std::unique_ptr<std::vector<LoopyPragma>> Pragmas)
      : Only(Only), Result(Result), Pragmas(std::move(Pragmas)) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    Reporter R(Ctx.getDiagnostics());
    // A file Clang rejects is not lifted.
    if (R.hasErrors())
      return;
    std::vector<KernelRequest> Requests = matchPragmas(*Pragmas, Ctx, R);
    IslContext Isl;
    // The parts of one distributed nest are lifted together.
    for (size_t I = 0; I < Requests.size();) {
      size_t E = I + 1;
      while (Requests[I].DistGroup && E < Requests.size() &&
             Requests[E].DistGroup == Requests[I].DistGroup)
        ++E;
      NestDiagnostics Nest(Ctx.getDiagnostics());
      if (E == I + 1 && !Requests[I].StmtSplit.empty())
        liftOrSplit(Requests[I], Ctx, R, Isl.get());
      else
        liftGroup({Requests.begin() + I, Requests.begin() + E}, Ctx, R,
                  Isl.get());
      I = E;
    }
  }

private:
  /// Lifts the parts \p Parts of one nest (one request unless it was
  /// distributed), checks them and adds them to the result: all of them,
  /// or none if one fails.
  void liftGroup(const std::vector<KernelRequest> &Parts,
                 clang::ASTContext &Ctx, Reporter &R, isl::ctx Isl);

  /// Lifts the nest of \p K whole where it lifts without an error, and
  /// otherwise its parts split by statement (KernelRequest::StmtSplit),
  /// whose errors are the ones reported.
  void liftOrSplit(const KernelRequest &K, clang::ASTContext &Ctx,
                   Reporter &R, isl::ctx Isl);

  std::map<std::string, clang::SourceLocation> Seen;

  std::string Only;
  ExtractResult &Result;
  std::unique_ptr<std::vector<LoopyPragma>> Pragmas;
};

void ExtractConsumer::liftOrSplit(const KernelRequest &K,
                                  clang::ASTContext &Ctx, Reporter &R,
                                  isl::ctx Isl) {
  // A trial with the diagnostics dropped; the result and the names seen
  // are restored after it.
  clang::DiagnosticsEngine &D = Ctx.getDiagnostics();
  clang::DiagnosticsEngine Quiet(D.getDiagnosticIDs(),
                                 &D.getDiagnosticOptions(),
                                 new clang::IgnoringDiagConsumer(), true);
  Quiet.setSourceManager(&Ctx.getSourceManager());
  Reporter QuietR(Quiet);
  ExtractResult Saved = Result;
  std::map<std::string, clang::SourceLocation> SavedSeen = Seen;
  liftGroup({K}, Ctx, QuietR, Isl);
  Result = Saved;
  Seen = SavedSeen;
  if (!Quiet.hasErrorOccurred()) {
    liftGroup({K}, Ctx, R, Isl);
    return;
  }
  liftGroup(K.StmtSplit, Ctx, R, Isl);
}

void ExtractConsumer::liftGroup(const std::vector<KernelRequest> &Parts,
                                clang::ASTContext &Ctx, Reporter &R,
                                isl::ctx Isl) {
  clang::SourceManager &SM = Ctx.getSourceManager();
  const KernelRequest &Lead = Parts.front();
  std::string Base =
      Lead.Name.empty() ? Lead.Function->getNameAsString() : Lead.Name;
  if (!Only.empty() && Only != Base && Only.rfind(Base + "_", 0) != 0)
    return;
  auto Duplicate = [&](const std::string &Name) {
    if (!Seen.count(Name))
      return false;
    R.error(Lead.PragmaLoc, msg::DuplicateKernelName) << Name;
    R.note(Seen[Name], msg::PreviousKernel) << Name;
    return true;
  };
  if (Parts.size() == 1 && Duplicate(Base))
    return;

  const std::vector<KernelRequest> *NoteReqs = &Parts;
  // The comment above each part names the deeper of the splits that
  // separate it from its neighbours.
  auto Note = [&](size_t I, size_t Count,
                  const std::vector<size_t> &First) -> std::string {
    auto LoopList = [](const std::vector<std::string> &Names) {
      std::string Loops;
      for (const std::string &L : Names)
        Loops += (Loops.empty() ? "'" : ", '") + L + "'";
      return Loops;
    };
    std::string N = "part " + std::to_string(I + 1) + " of " +
                    std::to_string(Count) + " of '" + Base + "', ";
    const KernelRequest &Self = (*NoteReqs)[First[I]];
    if (!Self.EmptyRange.empty())
      return N + "the iterations of its loops over " +
             LoopList(Self.SharedNames) + " where the loop over '" +
             Self.EmptyRange + "' runs zero times, so that its reductions "
             "have no terms: the host runs the parts in this order";
    // The split before it is told by its own request, the one after it
    // by the next part's; a kernel split off where a loop is empty is no
    // split of the nest.
    auto Empty = [&](size_t J) {
      return !(*NoteReqs)[First[J]].EmptyRange.empty();
    };
    const KernelRequest *Split = nullptr;
    for (size_t J = 0; J < I; ++J)
      if (!Empty(J))
        Split = &Self;
    size_t Next = I + 1;
    while (Next < Count && Empty(Next))
      ++Next;
    if (Next < Count &&
        (!Split || (*NoteReqs)[First[Next]].Shared > Split->Shared))
      Split = &(*NoteReqs)[First[Next]];
    if (!Split) {
      const KernelRequest &E =
          (*NoteReqs)[First[I + 1 < Count && Empty(I + 1) ? I + 1 : I - 1]];
      return N + "the iterations of its loops over " +
             LoopList(E.SharedNames) + " where the loop over '" +
             E.EmptyRange + "' runs: the host runs the parts in this order";
    }
    if (Split->Shared == 0)
      return N + "one kernel per loop nest: the host runs the parts in this "
                 "order";
    std::string Loops = LoopList(Split->SharedNames);
    if (Split->HostShared)
      return N + "the body of its loops over " + Loops + " on line " +
             std::to_string(SM.getExpansionLineNumber(Split->SharedLoc)) +
             ", which stay on the host: it runs the parts in this order";
    if (!Split->StmtSplitLoops.empty())
      return N + "its loops over " + Loops + " on line " +
             std::to_string(SM.getExpansionLineNumber(Split->SharedLoc)) +
             " split by statement, in the order of their dependences: the "
             "host runs the parts in this order";
    return N + "its loops over " + Loops + " on line " +
           std::to_string(SM.getExpansionLineNumber(Split->SharedLoc)) +
           " distributed: the host runs the parts in this order";
  };

  // The parts as lifted, with the kernels that the lifter split off each
  // (those share all their loops with the part before).
  std::vector<LiftedKernel> Lifted;
  std::vector<KernelRequest> Reqs;
  // The loops of the nest that each kernel came from.
  std::vector<std::vector<const clang::ForStmt *>> NestLoops;
  bool Failed = false;
  for (const KernelRequest &Req : Parts) {
    try {
      Lifter L(Req, Ctx, R);
      Lifted.push_back(L.lift());
      Reqs.push_back(Req);
      NestLoops.push_back(L.loopStmts());
      for (LiftedKernel &Split : L.splitParts()) {
        NestLoops.push_back(L.loopStmts());
        Lifted.push_back(std::move(Split));
        KernelRequest After = Req;
        After.SplitOff = true;
        After.Shared = static_cast<unsigned>(Lifted.back().Loops.size());
        After.SharedNames.clear();
        for (const Loop &Lp : Lifted.back().Loops)
          After.SharedNames.push_back(Lifted.back().Symbols[Lp.Index].Name);
        After.SharedLoc = Lifted.back().Loops[0].Header.getBegin();
        After.EmptyRange = Lifted.back().EmptyRange;
        Reqs.push_back(std::move(After));
      }
    } catch (LiftFailed &) {
      Failed = true;
    }
  }
  if (Failed)
    return;
  NoteReqs = &Reqs;
  std::vector<std::string> Texts;
  std::vector<std::string> Names;
  try {
    // The parts as lifted: their dependences decide whether they may run
    // one after another; then the parts that fuse, fused.
    // The parts of a nest split by statement run in the order that
    // their dependences allow.
    // The kernels split off where a loop inside a write is empty run
    // where their dependences allow too: with the parts of a nest split
    // by statement, or else beside the part they came from.
    auto EmptySplit = [&](size_t I) { return !Lifted[I].EmptyRange.empty(); };
    bool OtherSplits = false;
    for (size_t I = 0; I < Lifted.size(); ++I)
      OtherSplits |= Reqs[I].SplitOff && !EmptySplit(I);
    // Orders the kernels [Begin, End) by their dependences in the loops
    // \p Loops.
    auto Order = [&](size_t Begin, size_t End,
                     const std::vector<const clang::ForStmt *> &Loops,
                     const std::vector<std::string> &SharedNames) {
      std::vector<const LiftedKernel *> Ptrs;
      for (size_t I = Begin; I < End; ++I) {
        inferAssumptions(Lifted[I], Isl, R);
        inferShapes(Lifted[I], Isl, R);
        Ptrs.push_back(&Lifted[I]);
      }
      std::vector<size_t> Order =
          orderStatementParts(Ptrs, Loops, SharedNames, Ctx, Isl, R);
      std::vector<LiftedKernel> L2;
      std::vector<KernelRequest> R2;
      for (size_t I : Order) {
        L2.push_back(std::move(Lifted[Begin + I]));
        R2.push_back(std::move(Reqs[Begin + I]));
      }
      std::move(L2.begin(), L2.end(), Lifted.begin() + Begin);
      std::move(R2.begin(), R2.end(), Reqs.begin() + Begin);
    };
    bool Ordered = false;
    if (!Lead.StmtSplitLoops.empty() && !OtherSplits) {
      Order(0, Lifted.size(), Lead.StmtSplitLoops, Lead.SharedNames);
      Ordered = true;
    } else {
      for (size_t I = 0; I < Lifted.size();) {
        size_t E = I + 1;
        while (E < Lifted.size() && EmptySplit(E))
          ++E;
        if (E > I + 1)
          Order(I, E, NestLoops[I], {});
        I = E;
      }
    }
    std::vector<LiftedKernel> Fused = Lifted;
    if (Reqs.size() > 1 && !Ordered) {
      std::vector<DistributedPart> Checked;
      for (size_t I = 0; I < Lifted.size(); ++I) {
        inferAssumptions(Lifted[I], Isl, R);
        inferShapes(Lifted[I], Isl, R);
        Checked.push_back({&Lifted[I], Reqs[I].Shared, Reqs[I].SharedNames,
                           Reqs[I].SplitOff, Reqs[I].HostShared,
                           Reqs[I].SharedDown});
      }
      checkDistribution(Checked, Ctx, Isl, R);
    }
    std::vector<size_t> First = fuseParts(Fused, Isl);
    auto FusedName = [&](size_t I) {
      return Fused.size() > 1 ? Base + "_" + std::to_string(I) : Base;
    };
    for (size_t I = 0; I < Fused.size(); ++I) {
      LiftedKernel &K = Fused[I];
      const KernelRequest &Req = Reqs[First[I]];
      if (Reqs.size() > 1)
        K.Name = FusedName(I);
      K.PartNote = Fused.size() > 1 ? Note(I, Fused.size(), First) : "";

      clang::PresumedLoc At = SM.getPresumedLoc(
          Req.NestLoc.isValid() ? Req.NestLoc : Req.PragmaLoc);
      K.Origin = "lifted by loopy-extract from " +
                 std::string(At.getFilename()) + ":" +
                 std::to_string(At.getLine());
      inferAssumptions(K, Isl, R);
      bool EmptyDomain = warnEmptyDomain(K, Isl, R);
      inferShapes(K, Isl, R);
      std::vector<clang::SourceRange> LineOrigins;
      std::string Text = printKernel(K, LineOrigins);
      checkWithLoopyc(Text, LineOrigins, R, EmptyDomain);
      Texts.push_back(Text);
      Names.push_back(K.Name);
    }
  } catch (LiftFailed &) {
    return;
  }
  for (const std::string &Name : Names)
    if (Reqs.size() > 1 && Duplicate(Name))
      return;
  for (const std::string &Name : Names)
    Seen[Name] = Lead.PragmaLoc;
  for (size_t I = 0; I < Texts.size(); ++I)
    if (Only.empty() || Only == Base || Only == Names[I])
      Result.Text += (Result.Kernels++ ? "\n" : "") + Texts[I];
}
} // namespace

std::unique_ptr<clang::ASTConsumer>
ExtractAction::CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) {
  auto Pragmas = std::make_unique<std::vector<LoopyPragma>>();
  // The preprocessor owns the handler; the consumer owns what it records.
  CI.getPreprocessor().AddPragmaHandler(new LoopyPragmaHandler(*Pragmas));
  return std::make_unique<ExtractConsumer>(Only, Result, std::move(Pragmas));
}

} // namespace loopy::extract
