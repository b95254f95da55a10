//===- Analysis.cpp - isl checks that complete a lifted kernel ------------===//
#include "Analysis.h"

#include "loopy/Support/Isl.h"

#include <algorithm>
#include <cstdlib>

namespace loopy::extract {

namespace {

std::vector<unsigned> paramIds(const LiftedKernel &K) {
  std::vector<unsigned> Ids;
  for (unsigned I = 0; I < K.Symbols.size(); ++I)
    if (K.Symbols[I].K == Symbol::Kind::Param)
      Ids.push_back(I);
  return Ids;
}

std::string indexTuple(const LiftedKernel &K) {
  std::string T;
  for (const Loop &L : K.Loops)
    T += (T.empty() ? "" : ", ") + K.Symbols[L.Index].Name;
  return "[" + T + "]";
}

/// { [indices] -> [E0, E1, ...] } over the kernel's parameters.
isl::map indexMap(const LiftedKernel &K, isl::ctx Ctx,
                  const std::vector<Poly> &Exprs) {
  std::vector<std::string> Names = K.symbolNames();
  std::string Out;
  for (const Poly &E : Exprs)
    Out += (Out.empty() ? "" : ", ") + E.str(Names, "*");
  return isl::map(Ctx, K.islParams() + "{ " + indexTuple(K) + " -> [" + Out + "] }");
}

/// The points of the domain where \p Constraint holds.
isl::set domainWhere(const LiftedKernel &K, isl::ctx Ctx,
                     const std::string &Constraint) {
  return isl::set(Ctx, K.islDomain()).intersect(isl::set(
      Ctx, K.islParams() + "{ " + indexTuple(K) + " : " + Constraint + " }"));
}

/// "i = 0, j = 1 with n = 1" for a point of \p S, whose dimensions are
/// named \p Names.
std::string witness(const isl::set &S, const std::vector<std::string> &Names) {
  isl::point P = smallestPoint(S);
  std::string Dims = describeValues(
      Names, coordinates(P, isl_dim_set, 0, static_cast<unsigned>(Names.size())));
  std::string Params = describeParams(S, P);
  if (Dims.empty())
    return Params;
  return Params.empty() ? Dims : Dims + " with " + Params;
}

std::vector<std::string> loopNames(const LiftedKernel &K) {
  std::vector<std::string> Names;
  for (const Loop &L : K.Loops)
    Names.push_back(K.Symbols[L.Index].Name);
  return Names;
}

/// Text of the constraints of a parameter set, as isl prints them.
std::string constraintText(const isl::set &S) {
  char *Raw = isl_set_to_str(S.get());
  std::string T = Raw ? Raw : "";
  free(Raw);
  size_t Colon = T.find(':'), Close = T.rfind('}');
  if (Colon == std::string::npos || Close == std::string::npos)
    return "";
  T = T.substr(Colon + 1, Close - Colon - 1);
  T.erase(0, T.find_first_not_of(' '));
  T.erase(T.find_last_not_of(' ') + 1);
  return T;
}

/// The polynomial of an isl affine expression over the parameters only.
std::optional<Poly> affToPoly(const isl::aff &A, const LiftedKernel &K) {
  if (isl_aff_dim(A.get(), isl_dim_div) != 0 ||
      isl_aff_dim(A.get(), isl_dim_in) != 0)
    return std::nullopt;
  auto IntOf = [](isl_val *V) -> std::optional<long> {
    std::optional<long> R;
    if (isl_val_is_int(V))
      R = isl_val_get_num_si(V);
    isl_val_free(V);
    return R;
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
    Events.push_back({S.WriteDepth, {Out.begin(), Out.end()}, S.Range, S.What, true});
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
  if (!Simple.is_equal(Params))
    K.Assumption += (K.Assumption.empty() ? "" : " and ") + constraintText(Simple);
}

void inferShapes(LiftedKernel &K, isl::ctx Ctx, Reporter &R) {
  std::vector<std::string> Names = K.symbolNames();
  isl::set Domain(Ctx, K.islDomain());
  std::vector<std::string> Indices = loopNames(K);
  for (unsigned Id = 0; Id < K.Arrays.size(); ++Id) {
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
    for (const Access &X : All) {
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
    }

    // The outer extent, where nothing gave it: the largest first subscript
    // plus one.
    if (!Extents[0]) {
      isl::pw_aff Max =
          isl::manage(isl_set_dim_max(Firsts.copy(), 0)).gist_params(Domain.params());
      std::optional<Poly> P;
      if (Max.n_piece() == 1) {
        isl_aff *Piece = nullptr;
        isl_pw_aff_foreach_piece(
            Max.get(),
            [](isl_set *S, isl_aff *A, void *User) {
              isl_set_free(S);
              *static_cast<isl_aff **>(User) = A;
              return isl_stat_ok;
            },
            &Piece);
        P = affToPoly(isl::manage(Piece), K);
      }
      if (!P) {
        char *Text = isl_pw_aff_to_str(Max.get());
        R.error(All[0].Range, msg::ExtentNotAffine) << CName << Text;
        free(Text);
        throw LiftFailed();
      }
      Extents[0] = *P + Poly::constant(1);
    }
    A.Shape.clear();
    for (const std::optional<Poly> &E : Extents)
      A.Shape.push_back(*E);
  }
}

} // namespace loopy::extract
