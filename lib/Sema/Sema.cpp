//===- Sema.cpp - From syntax tree to checked Kernel IR -------------------===//
//
// Per kernel: arguments, then assumptions and domain (isl), then each
// statement (names, types, index classification, access relations).
//
//===----------------------------------------------------------------------===//
#include "loopy/Sema/Sema.h"
#include "SemaInternal.h"
#include "SplitReductions.h"
#include "TypeChecker.h"

#include "loopy/Support/Isl.h"

#include <algorithm>

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

namespace loopy {
namespace {

using sema::AffScope;

class KernelBuilder {
public:
  KernelBuilder(const ast::KernelDecl &D, isl::ctx Ctx, const SourceManager &SM,
                DiagnosticEngine &Diags, const SemaOptions &Opts)
      : D(D), Ctx(Ctx), SM(SM), Diags(Diags), Opts(Opts) {}

  /// Returns false if the kernel's arguments or domain had errors, so that
  /// no statement of it could be checked. Statements with errors are
  /// reported and left out; the others are kept for the later checks.
  bool build(Kernel &K);

private:
  bool buildArguments(Kernel &K);
  bool buildContext(Kernel &K);
  bool buildDomain(Kernel &K);
  bool buildArrayShapes(Kernel &K);
  bool checkArrayShapes(const Kernel &K);
  /// Reports the extent or stride \p F of \p A, written at \p Loc, if it
  /// can lie in \p Bad (a set of parameter values, already restricted to
  /// those where the kernel runs) with \p Problem and \p Fix.
  bool reportIfPossible(const isl::aff &F, isl::set Bad, SourceRange Loc,
                        const std::string &What, const std::string &Problem,
                        const std::string &Fix);
  bool buildStatement(Kernel &K, const ast::Stmt &S, unsigned Number);

  std::string paramPrefix(const Kernel &K) const;
  isl::space paramSpace(const Kernel &K);
  AffScope paramScope(const Kernel &K, const std::string &What);

  const ast::KernelDecl &D;
  isl::ctx Ctx;
  const SourceManager &SM;
  DiagnosticEngine &Diags;
  const SemaOptions &Opts;
  std::vector<const ast::ParamDecl *> ArgDecls;
};

bool KernelBuilder::build(Kernel &K) {
  K.Name = D.Name;
  K.Loc = D.NameRange;
  if (!buildArguments(K))
    return false;
  if (!buildContext(K))
    return false;
  bool ShapesOk = buildArrayShapes(K);
  if (!buildDomain(K) || !ShapesOk)
    return false;
  checkArrayShapes(K);
  for (unsigned I = 0; I < D.Stmts.size(); ++I)
    buildStatement(K, D.Stmts[I], I);
  // After a syntax error the statements may just have been dropped.
  if (D.Stmts.empty() && !Diags.hasErrors())
    Diags.warning(D.NameRange,
                  "kernel " + quote(K.Name) + " has no statements");
  return true;
}

bool KernelBuilder::buildArguments(Kernel &K) {
  bool Ok = true;
  std::map<std::string, SourceRange> Seen;
  for (const ast::ParamDecl &P : D.Params) {
    auto [It, New] = Seen.emplace(P.Name, P.NameRange);
    if (!New) {
      Diags.error(P.NameRange, "redefinition of parameter " + quote(P.Name));
      Diags.note(It->second, "previous definition is here");
      Ok = false;
      continue;
    }
    Argument A;
    A.Name = P.Name;
    A.Loc = P.NameRange;
    using TK = ast::TypeSpec::Kind;
    if (P.Type.K == TK::Index) {
      A.Kind = ArgKind::Index;
      A.Type = DType::I64;
      A.ParamPos = K.ParamNames.size();
      K.ParamNames.push_back(P.Name);
    } else {
      const std::string &T = P.Type.DType;
      auto DT = parseStorableDType(T);
      if (!DT) {
        if (T == "in" || T == "out" || T == "inout")
          Diags.error(P.Type.DTypeRange,
                      "expected an element type after " + quote(T));
        else
          Diags.error(P.Type.DTypeRange,
                      "unknown type " + quote(T) +
                          "; expected index, f16, bf16, f32, f64, i8, u8, i16, "
                          "u16, i32 or i64");
        Ok = false;
        continue;
      }
      A.Type = *DT;
      if (P.Type.K == TK::Scalar) {
        A.Kind = ArgKind::Scalar;
      } else {
        A.Kind = ArgKind::Array;
        A.Mode = P.Type.Mode == ast::ArgMode::In    ? ArgMode::In
                 : P.Type.Mode == ast::ArgMode::Out ? ArgMode::Out
                                                    : ArgMode::InOut;
      }
    }
    ArgDecls.push_back(&P);
    K.Args.push_back(std::move(A));
  }
  return Ok;
}

std::string KernelBuilder::paramPrefix(const Kernel &K) const {
  std::string P = "[";
  for (size_t I = 0; I < K.ParamNames.size(); ++I)
    P += (I ? ", " : "") + K.ParamNames[I];
  return P + "] -> ";
}

isl::space KernelBuilder::paramSpace(const Kernel &K) {
  isl_ctx *C = Ctx.get();
  isl::space S =
      take(C, isl_space_params_alloc(C, K.ParamNames.size()));
  for (unsigned I = 0; I < K.ParamNames.size(); ++I)
    S = take(C, isl_space_set_dim_name(S.release(), isl_dim_param, I,
                                       K.ParamNames[I].c_str()));
  return take(C, isl_space_set_from_params(S.release()));
}

AffScope KernelBuilder::paramScope(const Kernel &K,
                                   const std::string &What) {
  AffScope Scope;
  Scope.Space = paramSpace(K);
  Scope.What = What;
  for (unsigned I = 0; I < K.ParamNames.size(); ++I)
    Scope.Names[K.ParamNames[I]] = {isl_dim_param, I};
  for (const Argument &A : K.Args)
    if (A.Kind != ArgKind::Index)
      Scope.Forbidden[A.Name] =
          "argument " + quote(A.Name) + " cannot appear in an " + What +
          ": only index parameters and integer constants can";
  return Scope;
}

bool KernelBuilder::buildContext(Kernel &K) {
  std::set<std::string> Known(K.ParamNames.begin(), K.ParamNames.end());
  // A parameter set ({ : ... }), the space the assumptions are read in.
  isl::set Context = isl::set::universe(paramSpace(K)).params();
  bool Ok = true;
  for (SourceRange R : D.Assumptions) {
    auto S = sema::parseIslText(Ctx, SM, R, paramPrefix(K) + "{ : ", " }",
                                Known, "assumption", Diags);
    if (!S) {
      Ok = false;
      continue;
    }
    isl::set P = S->params();
    Context = Context.intersect(P);
    if (Context.is_empty()) {
      Diags.error(R, "assumption " + quote(SM.slice(R)) +
                         " contradicts the assumptions before it: no "
                         "parameter values satisfy them all");
      return false;
    }
  }
  if (!Ok)
    return false;
  // -D name=value: fix parameters, and check the values against the
  // assumptions.
  for (auto &[Name, Value] : Opts.Defines) {
    auto It = std::find(K.ParamNames.begin(), K.ParamNames.end(), Name);
    if (It == K.ParamNames.end())
      continue;
    unsigned Pos = It - K.ParamNames.begin();
    // isl_set_fix_si takes an int; the value may not fit one.
    isl::set Fixed =
        take(Ctx, isl_set_fix_val(Context.copy(), isl_dim_param, Pos,
                                  isl::val(Ctx, Value).release()));
    if (Fixed.is_empty()) {
      Diags.error("-D " + Name + "=" + std::to_string(Value) +
                  " violates the assumptions of kernel " + quote(K.Name));
      for (SourceRange R : D.Assumptions)
        Diags.note(R, "assumption is here");
      return false;
    }
    K.Fixed[Name] = Value;
    Context = Fixed;
  }
  K.Context = Context.params().coalesce();
  return true;
}

bool KernelBuilder::buildDomain(Kernel &K) {
  if (!D.Domain.isValid()) {
    Diags.error(D.NameRange,
                "kernel " + quote(K.Name) +
                    " has no domain; add one such as 'domain { [i] : 0 <= i "
                    "< n }'");
    return false;
  }
  std::set<std::string> Known(K.ParamNames.begin(), K.ParamNames.end());
  auto S = sema::parseIslText(Ctx, SM, D.Domain, paramPrefix(K), "", Known,
                              "domain", Diags);
  if (!S)
    return false;
  isl::set Dom = take(Ctx, isl_set_reset_tuple_id(S->release()));
  unsigned N = Dom.tuple_dim();
  bool Ok = true;
  for (unsigned I = 0; I < N; ++I) {
    const char *Name = isl_set_get_dim_name(Dom.get(), isl_dim_set, I);
    if (!Name) {
      Diags.error(D.Domain, "dimension " + std::to_string(I) +
                                " of the domain has no name; write every "
                                "dimension as an index name, such as [i, j]");
      Ok = false;
      continue;
    }
    std::string IndexName = Name;
    if (K.findArg(IndexName)) {
      Diags.error(D.Domain, "domain index " + quote(IndexName) +
                                " has the name of a kernel argument; rename "
                                "one of them");
      Diags.note(K.findArg(IndexName)->Loc, "argument is declared here");
      Ok = false;
    }
    K.IndexNames.push_back(IndexName);
  }
  if (!Ok)
    return false;
  Dom = Dom.intersect_params(K.Context).coalesce();
  K.Domain = Dom;
  for (unsigned I = 0; I < N; ++I) {
    if (isDimBounded(Dom, I))
      continue;
    std::string Bound = K.ParamNames.empty() ? "16" : K.ParamNames[0];
    Diags.error(D.Domain, "the domain is unbounded in index " +
                              quote(K.IndexNames[I]) +
                              ": give it a lower and an upper bound, such "
                              "as 0 <= " +
                              K.IndexNames[I] + " < " + Bound);
    Ok = false;
  }
  if (Ok && Dom.is_empty())
    Diags.warning(D.Domain, "the domain is empty for every parameter value "
                            "allowed by the assumptions");
  return Ok;
}

bool KernelBuilder::buildArrayShapes(Kernel &K) {
  bool Ok = true;
  for (unsigned I = 0; I < K.Args.size(); ++I) {
    Argument &A = K.Args[I];
    if (!A.isArray())
      continue;
    const ast::TypeSpec &T = ArgDecls[I]->Type;
    AffScope Scope = paramScope(K, "array extent");
    for (const ast::ExprPtr &E : T.Shape) {
      auto Aff = sema::buildAff(*E, Scope, Diags);
      if (!Aff) {
        Ok = false;
        continue;
      }
      A.Shape.push_back(*Aff);
    }
    if (T.Layout == ast::TypeSpec::Layout::Strides) {
      if (T.Strides.size() != T.Shape.size()) {
        auto Count = [](size_t N, const char *What) {
          return std::to_string(N) + " " + What + (N == 1 ? "" : "s");
        };
        Diags.error(T.LayoutRange, "array " + quote(A.Name) + " has " +
                                       Count(T.Shape.size(), "dimension") +
                                       " but " +
                                       Count(T.Strides.size(), "stride"));
        Ok = false;
        continue;
      }
      A.Order = Layout::Strided;
      AffScope SScope = paramScope(K, "array stride");
      for (const ast::ExprPtr &E : T.Strides) {
        auto Aff = sema::buildAff(*E, SScope, Diags);
        if (!Aff) {
          Ok = false;
          continue;
        }
        A.Strides.push_back(*Aff);
      }
    } else if (T.Layout == ast::TypeSpec::Layout::ColMajor) {
      A.Order = Layout::ColMajor;
    }
  }
  return Ok;
}

bool KernelBuilder::reportIfPossible(const isl::aff &F, isl::set Bad,
                                     SourceRange Loc, const std::string &What,
                                     const std::string &Problem,
                                     const std::string &Fix) {
  if (Bad.is_empty())
    return true;
  std::string Msg = What;
  if (F.is_cst()) {
    Msg += " is " + Problem + "; " + Fix;
  } else {
    isl::point P = smallestPoint(Bad);
    Msg += " can be " + Problem + ": it is " +
           std::to_string(toLong(F.eval(P))) + " at " +
           describeParams(Bad, P) + "; " + Fix +
           ": correct it, or exclude these values with 'assume'";
  }
  Diags.error(Loc, Msg);
  return false;
}

bool KernelBuilder::checkArrayShapes(const Kernel &K) {
  // Extents and strides matter where the kernel runs: for the parameter
  // values the assumptions allow and the domain is not empty. (A constant
  // is checked whatever the domain.)
  isl::set Runs = K.Domain.params();
  bool Ok = true;
  for (unsigned I = 0; I < K.Args.size(); ++I) {
    const Argument &A = K.Args[I];
    if (!A.isArray())
      continue;
    const ast::TypeSpec &T = ArgDecls[I]->Type;
    auto Where = [&](const isl::aff &F, isl::set S) {
      return F.is_cst() ? S : S.intersect_params(Runs);
    };
    for (unsigned D = 0; D < A.Shape.size(); ++D) {
      const isl::aff &E = A.Shape[D];
      isl::aff Zero = isl::aff::zero_on_domain(paramSpace(K));
      SourceRange Loc = T.Shape[D]->Outer;
      Ok &= reportIfPossible(E, Where(E, E.lt_set(Zero)), Loc,
                             "extent " + quote(SM.slice(Loc)) + " of " +
                                 quote(A.Name),
                             "negative", "an extent must be 0 or more");
    }
    for (unsigned D = 0; D < A.Strides.size() && D < A.Shape.size(); ++D) {
      const isl::aff &S = A.Strides[D];
      isl::aff Zero = isl::aff::zero_on_domain(paramSpace(K));
      SourceRange Loc = T.Strides[D]->Outer;
      std::string What =
          "stride " + quote(SM.slice(Loc)) + " of " + quote(A.Name);
      if (!reportIfPossible(S, Where(S, S.lt_set(Zero)), Loc, What,
                            "negative", "a stride must be 0 or more")) {
        Ok = false;
        continue;
      }
      if (A.Mode == ArgMode::In)
        continue;
      // Two elements that differ in this dimension alone would share one
      // address, and the statements write them as distinct elements.
      isl::aff Two = Zero.add_constant(isl::val(Ctx, 2));
      isl::set Alias = S.eq_set(Zero).intersect(A.Shape[D].ge_set(Two));
      bool Const = S.is_cst() && A.Shape[D].is_cst();
      Ok &= reportIfPossible(
          S, Const ? Alias : Alias.intersect_params(Runs), Loc, What,
          "0 where dimension " + std::to_string(D) +
              " has more than one element",
          "distinct elements of an array the kernel writes would share "
          "memory, and their writes race; give a written array positive "
          "strides");
    }
  }
  return Ok;
}

bool KernelBuilder::buildStatement(Kernel &K, const ast::Stmt &S,
                                   unsigned Number) {
  sema::StatementChecker SC(K, SM, Diags, Ctx);
  Statement St;
  St.Name = "S" + std::to_string(Number);
  St.Loc = S.Range;
  if (!SC.check(S, St))
    return false;
  // One reduction per statement: the others first, into temporaries.
  std::vector<Statement> Before;
  if (!sema::splitReductions(K, St, Before, Diags))
    return false;
  for (Statement &B : Before)
    K.Stmts.push_back(std::move(B));
  K.Stmts.push_back(std::move(St));
  return true;
}

} // namespace

std::vector<Kernel> buildKernels(const ast::Module &M, isl::ctx Ctx,
                                 const SourceManager &SM,
                                 DiagnosticEngine &Diags,
                                 const SemaOptions &UserOpts) {
  // Values are bounded like the integer constants of the source, so that
  // every witness in a message fits a machine integer.
  SemaOptions Opts;
  for (auto &[Name, Value] : UserOpts.Defines) {
    if (Value > (1L << 53) || Value < -(1L << 53)) {
      Diags.error("-D " + Name + "=" + std::to_string(Value) +
                  ": the value is too large; values must lie within 2^53");
      continue;
    }
    Opts.Defines[Name] = Value;
  }
  std::vector<Kernel> Kernels;
  std::map<std::string, SourceRange> Names;
  for (const ast::KernelDecl &D : M.Kernels) {
    auto [Prev, New] = Names.emplace(D.Name, D.NameRange);
    if (!New) {
      Diags.error(D.NameRange, "redefinition of kernel " + quote(D.Name));
      Diags.note(Prev->second, "previous definition is here");
      continue;
    }
    if (D.Incomplete)
      continue; // reported by the parser
    Kernel K;
    if (KernelBuilder(D, Ctx, SM, Diags, Opts).build(K))
      Kernels.push_back(std::move(K));
  }
  // A -D that names no parameter of any kernel is almost certainly a typo.
  for (auto &[Name, Value] : Opts.Defines) {
    bool Found = false;
    std::vector<std::string> All;
    for (const ast::KernelDecl &D : M.Kernels)
      for (const ast::ParamDecl &P : D.Params)
        if (P.Type.K == ast::TypeSpec::Kind::Index) {
          All.push_back(P.Name);
          Found |= P.Name == Name;
        }
    if (Found)
      continue;
    std::string Msg = "-D " + Name + "=" + std::to_string(Value) +
                      ": no kernel has an index parameter " + quote(Name);
    if (auto C = sema::closestName(Name, All))
      Msg += "; did you mean " + quote(*C) + "?";
    Diags.error(Msg);
  }
  return Kernels;
}

} // namespace loopy
