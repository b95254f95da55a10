//===- SplitReduction.cpp - The kernel before a split reduction -----------===//
#include "SplitReduction.h"
#include "ThreadCode.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/IslUtil.h"

#include <isl/aff.h>
#include <isl/val.h>

#include <sstream>

namespace loopy {

using namespace device;

DeviceKernel zeroOutputsKernel(CodeGenState &G, const DeviceKernel &Main) {
  StatementMapping &M = G.M;
  const Kernel &K = *G.M.K;
  const Statement &S = *G.M.S;
  const Schedule &Sch = *G.M.Sch;
  int A = static_cast<int>(M.BlockRed->Ax);
  DeviceKernel DK;
  DK.Name = Main.Name + "_init";
  DK.Params = Main.Params;
  DK.Constants = Main.Constants;
  DK.Ids = Main.Ids;
  DK.Index32 = Main.Index32;
  DK.LaunchIf = Main.LaunchIf;
  // The same grid, with one block and one thread along the split axis;
  // launched exactly where Main is (its grid is 0 where Main's is).
  for (int X = 0; X < 3; ++X) {
    DK.BlockDim[X] = Main.BlockDim[X];
    DK.GridIsl[X] = Main.GridIsl[X];
    DK.GridC[X] = Main.GridC[X];
  }
  DK.BlockDim[A] = 1;
  DK.GridC[A] = "1";
  isl_pw_aff *Grid =
      isl_pw_aff_read_from_str(M.Ctx.get(), Main.GridIsl[A].c_str());
  isl_pw_aff *One = isl_pw_aff_val_on_domain(
      isl_pw_aff_domain(isl_pw_aff_copy(Grid)), isl_val_one(M.Ctx.get()));
  std::ostringstream Text;
  Text << isl::manage(isl_pw_aff_coalesce(isl_pw_aff_min(Grid, One)));
  DK.GridIsl[A] = Text.str();
  // Write's domain: every output the statement writes, once (thread 0 of
  // the split axis), in block 0.
  isl::set First = isl::set::universe(M.Params);
  First = addConstraint(
      First, {{isl_dim_param, paramPos(First, M.BlockId[A]), 1}}, 0, true);
  First = addConstraint(
      First, {{isl_dim_param, paramPos(First, M.ThreadId[A]), 1}}, 0, true);
  G.InitOutputs = true;
  DK.Body = threadCode(G, Piece::Write, First);
  G.InitOutputs = false;
  std::string Zeroed;
  for (unsigned O = 0; O < outputCount(S); ++O)
    Zeroed += (O ? ", " : "") + outputWrite(S, O).Spelling;
  DK.Header.push_back("kernel " + K.Name + ", statement" +
                      (S.MoreOutputs.empty() ? " " : "s ") + S.Name + ": " +
                      Zeroed + " = 0, before its blocks add their "
                      "partial sums");
  DK.Header.push_back("schedule: " + Sch.str(K, S));
  DK.Header.push_back(DK.launchLine());
  return DK;
}

} // namespace loopy
