//===- DataflowCheck.cpp - Input/output separation between statements ----===//
//
// Statements of one kernel run in any order and in parallel, so none may
// read what another writes. A statement may read its own output only at
// the very element it writes (an inout update such as c[i] = c[i] + ...).
// The temporaries that splitReductions makes are the exception: the
// statement that writes one runs before those that read it.
//
//===----------------------------------------------------------------------===//
#include "loopy/Analysis/Checks.h"

namespace loopy {

bool checkDataflow(const Kernel &K, DiagnosticEngine &Diags) {
  bool Ok = true;
  for (const Statement &S : K.Stmts) {
    for (const Access &R : S.Reads) {
      const Argument &A = K.Args[R.Arg];
      // A temporary of splitReductions: written by a statement before.
      if (A.Internal)
        continue;
      if (A.Mode == ArgMode::Out) {
        Diags.error(R.Loc, "cannot read " + quote(A.Name) +
                               ": it is declared 'out'; declare it 'inout' "
                               "to read its old values");
        Ok = false;
        continue;
      }
      for (const Statement &T : K.Stmts) {
        if (&T == &S || T.Write.Arg != R.Arg)
          continue;
        Diags.error(R.Loc, "statement " + S.Name + " reads " + quote(A.Name) +
                               ", which statement " + T.Name +
                               " writes; statements of one kernel may not "
                               "read each other's outputs (split the work "
                               "into two kernels)");
        Diags.note(T.Write.Loc, "written here");
        Ok = false;
      }
      if (S.Write.Arg == R.Arg && !R.Relation.is_equal(S.Write.Relation)) {
        Diags.error(R.Loc, "statement " + S.Name + " reads " +
                               quote(R.Spelling) + " but writes " +
                               quote(S.Write.Spelling) +
                               "; a statement may read its output array only "
                               "at the element it writes");
        Ok = false;
      }
    }
  }
  for (const Argument &A : K.Args) {
    if (!A.isArray() || A.Mode == ArgMode::In)
      continue;
    bool Written = false;
    for (const Statement &S : K.Stmts)
      Written |= S.Write.Arg == static_cast<unsigned>(&A - K.Args.data());
    // After errors, the writing statement may just have been left out.
    if (!Written && !K.Stmts.empty() && !Diags.hasErrors())
      Diags.warning(A.Loc, "output array " + quote(A.Name) +
                               " is never written");
  }
  return Ok;
}

bool checkKernel(const Kernel &K, DiagnosticEngine &Diags) {
  bool Ok = checkDataflow(K, Diags);
  Ok &= checkWritesRaceFree(K, Diags);
  Ok &= checkAccessesInBounds(K, Diags);
  return Ok;
}

} // namespace loopy
