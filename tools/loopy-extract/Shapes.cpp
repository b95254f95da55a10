//===- Shapes.cpp - The .loop shapes of the arrays of a lifted kernel -----===//
#include "Analysis.h"
#include "KernelIsl.h"
#include "loopy/Support/Isl.h"

#include <algorithm>
#include <climits>

namespace loopy::extract {

namespace {

std::vector<unsigned> paramIds(const LiftedKernel &K) {
  std::vector<unsigned> Ids;
  for (unsigned I = 0; I < K.Symbols.size(); ++I)
    if (K.Symbols[I].K == Symbol::Kind::Param)
      Ids.push_back(I);
  return Ids;
}

std::vector<std::string> loopNames(const LiftedKernel &K) {
  std::vector<std::string> Names;
  for (const Loop &L : K.Loops)
    Names.push_back(K.Symbols[L.Index].Name);
  return Names;
}

/// The polynomial of an isl affine expression over the parameters only.
std::optional<Poly> affToPoly(const isl::aff &A, const LiftedKernel &K) {
  if (isl_aff_dim(A.get(), isl_dim_div) != 0 ||
      isl_aff_dim(A.get(), isl_dim_in) != 0)
    return std::nullopt;
  auto IntOf = [&A](isl_val *Taken) -> std::optional<long> {
    isl::val V = take(A.ctx(), Taken);
    // Past the signed 64-bit integers, num_si would truncate.
    if (V.is_int() && isl_val_cmp_si(V.get(), LONG_MAX) <= 0 &&
        isl_val_cmp_si(V.get(), LONG_MIN) > 0)
      return isl_val_get_num_si(V.get());
    return std::nullopt;
  };
  std::vector<unsigned> Params = paramIds(K);
  std::optional<long> C = IntOf(isl_aff_get_constant_val(A.get()));
  if (!C)
    return std::nullopt;
  Poly P = Poly::constant(*C);
  for (unsigned I = 0; I < Params.size(); ++I) {
    std::optional<long> V =
        IntOf(isl_aff_get_coefficient_val(A.get(), isl_dim_param, I));
    if (!V)
      return std::nullopt;
    P = P + Poly::symbol(Params[I]).scaled(*V);
  }
  return P;
}

} // namespace

void inferShapes(LiftedKernel &K, isl::ctx Ctx, Reporter &R) {
  std::vector<std::string> Names = K.symbolNames();
  isl::set Domain(Ctx, K.islDomain());
  std::vector<std::string> Indices = loopNames(K);
  // Every array, and every access of one, is checked on its own, so that
  // one run reports all that fail.
  bool Failed = false;
  for (unsigned Id = 0; Id < K.Arrays.size(); ++Id) try {
    ArrayArg &A = K.Arrays[Id];
    if (!A.Read && !A.Written)
      continue;
    struct Access {
      const std::vector<Poly> *Raw;
      clang::SourceRange Range;
    };
    std::vector<Access> All;
    for (const Statement &S : K.Stmts) {
      if (S.Array == Id)
        All.push_back({&S.Subs, S.Range});
      walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
        if (N.K == LExpr::Kind::Read && N.Id == Id)
          All.push_back({&N.Subs, N.Range});
      });
    }
    const std::string &CName = A.CName;

    // `*r` everywhere: a 0-dimensional array.
    if (!A.PragmaShape && A.Levels == 1 &&
        std::all_of(All.begin(), All.end(), [](const Access &X) {
          return (*X.Raw)[0] == Poly();
        })) {
      A.ZeroDim = true;
      continue;
    }

    std::vector<std::optional<Poly>> Extents;
    if (A.PragmaShape) {
      const std::vector<Poly> &Shape = *A.PragmaShape;
      if (A.Levels == 1 && Shape.size() > 1) {
        Poly Stride = Poly::constant(1);
        for (size_t D = Shape.size() - 1; D >= 1; --D) {
          if (Shape[D].terms().size() != 1 || Shape[D].terms().begin()->second <= 0) {
            R.error(A.PragmaLoc, msg::ShapeStride) << Shape[D].str(Names) << CName;
            throw LiftFailed();
          }
          Stride = Stride * Shape[D];
          A.Strides.insert(A.Strides.begin(), Stride);
        }
      } else if (A.Levels != Shape.size()) {
        R.error(A.PragmaLoc, msg::ShapeRank)
            << CName << static_cast<unsigned>(Shape.size()) << A.Levels;
        throw LiftFailed();
      } else {
        for (unsigned D = 0; D < A.Levels; ++D)
          if (A.TypeExtents[D] && *A.TypeExtents[D] != Shape[D]) {
            R.error(A.PragmaLoc, msg::ShapeExtentMismatch)
                << D << CName << Shape[D].str(Names) << A.TypeExtents[D]->str(Names);
            throw LiftFailed();
          }
      }
      Extents.assign(Shape.begin(), Shape.end());
    } else if (A.Levels > 1) {
      Extents = A.TypeExtents;
    } else {
      // A flat pointer: the products of parameters that multiply indices
      // in its subscripts are the strides of its dimensions.
      std::vector<Poly> Strides;
      for (const Access &X : All)
        for (const auto &[M, C] : (*X.Raw)[0].terms()) {
          Poly::Monomial ParamPart;
          bool HasIndex = false;
          for (unsigned S : M) {
            if (K.Symbols[S].K == Symbol::Kind::Param)
              ParamPart.push_back(S);
            else
              HasIndex = true;
          }
          if (!HasIndex || ParamPart.empty())
            continue;
          Poly S = Poly::constant(1);
          for (unsigned P : ParamPart)
            S = S * Poly::symbol(P);
          if (std::find(Strides.begin(), Strides.end(), S) == Strides.end())
            Strides.push_back(S);
        }
      std::sort(Strides.begin(), Strides.end(), [](const Poly &X, const Poly &Y) {
        return X.degree() > Y.degree();
      });
      for (size_t I = 1; I < Strides.size(); ++I) {
        const Poly::Monomial &Big = Strides[I - 1].terms().begin()->first;
        const Poly::Monomial &Small = Strides[I].terms().begin()->first;
        if (Big.size() == Small.size() ||
            !std::includes(Big.begin(), Big.end(), Small.begin(), Small.end())) {
          R.error(All[0].Range, msg::StridesDoNotNest)
              << CName << Strides[I - 1].str(Names) << Strides[I].str(Names);
          throw LiftFailed();
        }
      }
      A.Strides = Strides;
      Extents.push_back(A.TypeExtents[0]);
      for (size_t I = 0; I < Strides.size(); ++I)
        Extents.push_back(I + 1 < Strides.size()
                              ? *Strides[I].quotientByMonomial(Strides[I + 1])
                              : Strides[I]);
    }

    // Every subscript: affine, never negative, and below its extent where
    // that is known (inside its row, where a flat subscript was split).
    std::string DimsText;
    for (size_t D = 0; D < Extents.size(); ++D)
      DimsText += (D ? ", " : "") + (Extents[D] ? Extents[D]->str(Names) : "?");
    isl::set Firsts;
    bool AccessFailed = false;
    // An update (`C[k][j] += ...`) reads and writes one element at one
    // place in the source: it is checked, and reported, once.
    std::vector<std::pair<clang::SourceLocation, const std::vector<Poly> *>>
        Checked;
    for (const Access &X : All) try {
      if (std::any_of(Checked.begin(), Checked.end(), [&](const auto &C) {
            return C.first == X.Range.getBegin() && *C.second == *X.Raw;
          }))
        continue;
      Checked.push_back({X.Range.getBegin(), X.Raw});
      std::vector<Poly> Coords = A.coordinates(*X.Raw);
      std::string RawText = (*X.Raw)[0].str(Names);
      for (size_t D = 0; D < Coords.size(); ++D) {
        const Poly &C = Coords[D];
        if (!C.isAffine()) {
          R.error(X.Range, msg::NotAffine)
              << "subscript" << C.str(Names)
              << "no shape of '" + CName +
                     "' explains its products; give one with '#pragma loopy "
                     "shape(" + CName + ", ...)'";
          throw LiftFailed();
        }
        isl::set Negative = domainWhere(K, Ctx, C.str(Names, "*") + " < 0");
        if (!Negative.is_empty()) {
          R.error(X.Range, msg::NegativeSubscript)
              << C.str(Names) << CName << witness(Negative, Indices);
          throw LiftFailed();
        }
        if (!Extents[D])
          continue;
        isl::set Outside = domainWhere(
            K, Ctx, C.str(Names, "*") + " >= " + Extents[D]->str(Names, "*"));
        if (Outside.is_empty())
          continue;
        // The C code reads or writes the element too, which is undefined
        // where the array's C type has no room for it. Where that happens
        // only for parameters that leave the array empty (fdtd-2d's
        // ey[0][j] with nx = 0), the kernel assumes the others.
        if (!A.PragmaShape) {
          std::string NonEmpty;
          for (const std::optional<Poly> &E : Extents)
            if (E)
              NonEmpty += (NonEmpty.empty() ? "" : " and ") +
                          E->str(Names, "*") + " >= 1";
          if (Outside.intersect(domainWhere(K, Ctx, NonEmpty)).is_empty()) {
            isl::set Good = Outside.params().complement();
            if (!K.Assumption.empty())
              Good = Good.gist(
                  isl::set(Ctx, K.islParams() + "{ : " + K.Assumption + " }"));
            Good = Good.coalesce();
            std::string T = constraintText(Good);
            if (!T.empty() && T.find(';') == std::string::npos) {
              if (T.find(" or ") != std::string::npos)
                T = "(" + T + ")";
              K.Assumption += (K.Assumption.empty() ? "" : " and ") + T;
              continue;
            }
          }
        }
        if (D > 0 && !A.Strides.empty())
          R.error(X.Range, msg::SubscriptNotSplit)
              << RawText << CName << DimsText << C.str(Names)
              << Extents[D]->str(Names) << witness(Outside, Indices);
        else
          R.error(X.Range, msg::SubscriptTooLarge)
              << C.str(Names) << CName << Extents[D]->str(Names) << D
              << witness(Outside, Indices);
        throw LiftFailed();
      }
      isl::set First = Domain.apply(indexMap(K, Ctx, {Coords[0]}));
      Firsts = Firsts.is_null() ? First : Firsts.unite(First);
    } catch (LiftFailed &) {
      AccessFailed = true;
    }
    if (AccessFailed)
      throw LiftFailed();

    // The outer extent, where nothing gave it: the largest first subscript
    // plus one.
    if (!Extents[0]) {
      isl::pw_aff Max =
          isl::manage(isl_set_dim_max(Firsts.copy(), 0)).gist_params(Domain.params());
      std::optional<Poly> P;
      if (Max.n_piece() == 1) {
        isl::aff Piece;
        Max.foreach_piece(
            [&Piece](isl::set, isl::multi_aff MA) { Piece = MA.at(0); });
        P = affToPoly(Piece, K);
      }
      if (P)
        P = *P + Poly::constant(1);
      if (!P || P->overflowed()) {
        char *Text = isl_pw_aff_to_str(Max.get());
        R.error(All[0].Range, P ? msg::ExtentOverflow : msg::ExtentNotAffine)
            << CName << Text;
        free(Text);
        throw LiftFailed();
      }
      Extents[0] = *P;
    }
    A.Shape.clear();
    for (const std::optional<Poly> &E : Extents)
      A.Shape.push_back(*E);
  } catch (LiftFailed &) {
    Failed = true;
  }
  if (Failed)
    throw LiftFailed();
}

} // namespace loopy::extract
