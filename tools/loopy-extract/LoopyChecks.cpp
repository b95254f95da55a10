//===- LoopyChecks.cpp - loopyc's checks on a lifted kernel ---------------===//
//
// The printed kernel goes through loopyc's parser, Sema and checks, with
// their diagnostics written to a buffer. Each one names a line of the
// lifted text; it is reported again at the C source that line came from,
// so the user sees the C file's line, not a line of text they never wrote.
//
//===----------------------------------------------------------------------===//
#include "Analysis.h"

#include "loopy/Analysis/Checks.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/Sema/Sema.h"
#include "loopy/Support/Diagnostics.h"
#include "loopy/Support/Isl.h"
#include "loopy/Support/SourceManager.h"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace loopy::extract {

namespace {

/// The name the lifted text has in loopyc's diagnostics.
constexpr char LiftedName[] = "<lifted>";

/// The bound on isl's work in the checks, loopyc's default.
constexpr unsigned long CheckQuota = 20000000;

/// One diagnostic line that loopyc printed: `NAME:LINE:COL: SEVERITY: MSG`
/// or, without a location, `loopyc: SEVERITY: MSG`.
struct LoopycDiag {
  unsigned Line = 0;
  std::string Severity;
  std::string Message;
};

std::optional<LoopycDiag> parseDiag(const std::string &L) {
  LoopycDiag D;
  std::string Rest;
  std::string Located = std::string(LiftedName) + ":";
  if (L.rfind(Located, 0) == 0) {
    size_t Pos = Located.size();
    size_t Colon = L.find(':', Pos);
    size_t Colon2 = Colon == std::string::npos ? Colon : L.find(':', Colon + 1);
    if (Colon2 == std::string::npos)
      return std::nullopt;
    D.Line = static_cast<unsigned>(std::stoul(L.substr(Pos, Colon - Pos)));
    Rest = L.substr(Colon2 + 2);
  } else if (L.rfind("loopyc: ", 0) == 0) {
    Rest = L.substr(8);
  } else {
    return std::nullopt;
  }
  for (const char *S : {"error", "warning", "note"}) {
    std::string Prefix = std::string(S) + ": ";
    if (Rest.rfind(Prefix, 0) == 0) {
      D.Severity = S;
      D.Message = Rest.substr(Prefix.size());
      return D;
    }
  }
  // "fatal error: too many errors": the errors before it were reported.
  return std::nullopt;
}

/// Line \p N (1-based) of \p Text, without the indentation.
std::string lineOf(const std::string &Text, unsigned N) {
  std::istringstream In(Text);
  std::string L;
  for (unsigned I = 0; I < N && std::getline(In, L); ++I) {
  }
  L.erase(0, L.find_first_not_of(' '));
  return L;
}

} // namespace

void checkWithLoopyc(const std::string &Text,
                     const std::vector<clang::SourceRange> &LineOrigins,
                     Reporter &R, bool DomainWarned) {
  SourceManager SM(LiftedName, Text);
  std::ostringstream Out;
  DiagnosticEngine Diags(&SM, Out);
  IslContext Isl;
  try {
    IslMaxOperationsGuard Quota(Isl.raw(), CheckQuota);
    ast::Module M = parseModule(SM, Diags);
    if (!Diags.hasErrors())
      for (const Kernel &K :
           buildKernels(M, Isl.get(), SM, Diags, SemaOptions()))
        checkKernel(K, Diags);
  } catch (const TooManyErrors &) {
  } catch (const isl::exception &) {
    // Past the quota the checks are left to loopyc, which reports it.
    return;
  }

  std::istringstream In(Out.str());
  bool Failed = false, Skip = false;
  clang::SourceRange Last = LineOrigins.empty() ? clang::SourceRange()
                                                : LineOrigins.front();
  for (std::string L; std::getline(In, L);) {
    std::optional<LoopycDiag> D = parseDiag(L);
    if (!D)
      continue;
    // Notes belong to the diagnostic before them.
    if (D->Severity != "note")
      Skip = DomainWarned && D->Severity == "warning" &&
             lineOf(Text, D->Line).rfind("domain", 0) == 0;
    if (Skip)
      continue;
    clang::SourceRange At =
        D->Line >= 1 && D->Line <= LineOrigins.size() ? LineOrigins[D->Line - 1]
        : D->Severity == "note"                       ? Last
                                                      : LineOrigins.front();
    if (D->Severity == "error") {
      R.error(At, msg::Loopyc) << D->Message;
      Failed = true;
    } else if (D->Severity == "warning") {
      R.warning(At, msg::Loopyc) << D->Message;
    } else {
      R.note(At, msg::Loopyc) << D->Message;
    }
    if (D->Line >= 1 && D->Severity != "note")
      R.note(At, msg::LiftedAs) << lineOf(Text, D->Line);
    Last = At;
  }
  if (Failed)
    throw LiftFailed();
}

} // namespace loopy::extract
