//===- TypeCheckAccess.cpp - Array accesses of a statement and its domain -===//
#include "TypeChecker.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <algorithm>

namespace loopy::sema {

std::string normalizedSpelling(std::string_view S) {
  std::string Out;
  bool Space = false;
  for (char C : S) {
    if (std::isspace(static_cast<unsigned char>(C))) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

std::optional<isl::map>
StatementChecker::accessFunction(const ast::Expr &E, const Argument &A,
                                 bool IsWrite) {
  if (E.Args.size() != A.rank()) {
    Diags.error(E.Range, "array " + quote(A.Name) + " has " +
                             std::to_string(A.rank()) + " dimension" +
                             (A.rank() == 1 ? "" : "s") + " but " +
                             std::to_string(E.Args.size()) + " subscript" +
                             (E.Args.size() == 1 ? " was" : "s were") +
                             " given");
    return std::nullopt;
  }
  isl_ctx *C = Ctx.get();
  isl::space Sp = take(C, isl_space_from_domain(Scope.Space.copy()));
  Sp = take(C, isl_space_add_dims(Sp.release(), isl_dim_out, A.rank()));
  Sp = take(C, isl_space_set_tuple_name(Sp.release(), isl_dim_out,
                                        A.Name.c_str()));
  isl::aff_list List(Ctx, A.rank());
  bool Ok = true;
  for (const ast::ExprPtr &Sub : E.Args) {
    std::set<unsigned> Used;
    auto Aff = buildAff(*Sub, Scope, Diags, &Used);
    if (!Aff) {
      Ok = false;
      continue;
    }
    for (unsigned Pos : Used) {
      if (IsWrite) {
        if (Reduced.count(Pos)) {
          Diags.error(Sub->Range, "index " + quote(K.IndexNames[Pos]) +
                                      " cannot be both an output index and "
                                      "a reduction index");
          Ok = false;
        }
        Outputs.insert(Pos);
      } else if (!checkIndexUse(Pos, Sub->Range)) {
        Ok = false;
      }
    }
    List = List.add(*Aff);
  }
  if (!Ok)
    return std::nullopt;
  isl::multi_aff MA =
      take(C, isl_multi_aff_from_aff_list(Sp.release(), List.release()));
  return MA.as_map();
}

std::optional<StatementChecker::Typed>
StatementChecker::subscript(const ast::Expr &E) {
  const Argument *A = K.findArg(E.Name);
  if (!A) {
    std::string Msg = "use of undeclared array " + quote(E.Name);
    if (auto C = closestName(E.Name, arrayNames()))
      Msg += "; did you mean " + quote(*C) + "?";
    Diags.error(E.NameRange, Msg);
    return std::nullopt;
  }
  if (!A->isArray()) {
    Diags.error(E.NameRange, quote(A->Name) +
                                 " is not an array and cannot be "
                                 "subscripted");
    return std::nullopt;
  }
  auto Fn = accessFunction(E, *A, /*IsWrite=*/false);
  if (!Fn)
    return std::nullopt;
  auto X = std::make_unique<Expr>(ExprKind::Read, A->Type, E.Range);
  X->Id = A - K.Args.data();
  X->AccessId = Reads.size();
  X->Spelling = normalizedSpelling(SM.slice(E.Range));
  Reads.push_back({X->Id, E.Range, *Fn});
  return Typed{std::move(X)};
}

void StatementChecker::finishStatement(const ast::Expr &L,
                                       const isl::map &WriteFn,
                                       Statement &St) {
  // The statement runs over its output and reduction indices: project the
  // kernel domain onto them.
  std::set<unsigned> Used(Outputs);
  Used.insert(Reduced.begin(), Reduced.end());
  St.Indices.assign(Used.begin(), Used.end());
  St.OutputIndices.assign(Outputs.begin(), Outputs.end());
  St.ReductionIndices.assign(Reduced.begin(), Reduced.end());
  isl_ctx *C = Ctx.get();
  isl::set Dom = K.Domain;
  isl::map W = WriteFn;
  std::vector<isl::map> R;
  for (PendingAccess &P : Reads)
    R.push_back(P.Fn);
  for (int Pos = K.IndexNames.size() - 1; Pos >= 0; --Pos) {
    if (Used.count(Pos))
      continue;
    Dom = take(C, isl_set_project_out(Dom.release(), isl_dim_set, Pos, 1));
    W = take(C, isl_map_project_out(W.release(), isl_dim_in, Pos, 1));
    for (isl::map &M : R)
      M = take(C, isl_map_project_out(M.release(), isl_dim_in, Pos, 1));
  }
  Dom = take(C, isl_set_set_tuple_name(Dom.release(), St.Name.c_str()));
  St.Domain = Dom.coalesce();
  auto Finish = [&](isl::map M) {
    M = take(C, isl_map_set_tuple_name(M.release(), isl_dim_in,
                                       St.Name.c_str()));
    return M.intersect_domain(St.Domain).coalesce();
  };
  St.Write = {static_cast<unsigned>(Target - K.Args.data()), L.Range,
              normalizedSpelling(SM.slice(L.Range)), Finish(W)};
  for (size_t I = 0; I < Reads.size(); ++I)
    St.Reads.push_back({Reads[I].Arg, Reads[I].Loc,
                        normalizedSpelling(SM.slice(Reads[I].Loc)),
                        Finish(R[I])});
}

} // namespace loopy::sema
