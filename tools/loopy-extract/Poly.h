//===- Poly.h - Integer polynomials over indices and parameters -*- C++ -*-===//
//
// Subscripts, loop bounds and array extents, read from C expressions before
// they become isl objects or .loop text. Most are affine; a flattened
// subscript such as `i * l + k` is a polynomial until it is split into
// dimensions by the array's strides.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_POLY_H
#define LOOPY_EXTRACT_POLY_H

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace loopy::extract {

/// A polynomial with integer coefficients over symbols named by small
/// integers (the ids of a SymbolTable).
class Poly {
public:
  /// Symbol ids, sorted, with repetition; empty for the constant term.
  using Monomial = std::vector<unsigned>;

  Poly() = default;
  static Poly constant(long C);
  static Poly symbol(unsigned Id);

  Poly operator+(const Poly &O) const;
  Poly operator-(const Poly &O) const;
  Poly operator*(const Poly &O) const;
  Poly operator-() const { return scaled(-1); }
  Poly scaled(long C) const;
  bool operator==(const Poly &O) const { return Terms == O.Terms; }
  bool operator!=(const Poly &O) const { return Terms != O.Terms; }
  bool operator<(const Poly &O) const { return Terms < O.Terms; }

  /// True if a coefficient left the signed 64-bit integers (or reached
  /// their minimum, whose negation does not fit) in the arithmetic that
  /// made this polynomial; its terms are then meaningless.
  bool overflowed() const { return Overflow; }

  bool isConstant() const;
  long constantTerm() const;
  /// Degree of the highest monomial; 0 for a constant.
  unsigned degree() const;
  bool isAffine() const { return degree() <= 1; }
  bool uses(unsigned Id) const;
  std::set<unsigned> symbols() const;
  const std::map<Monomial, long> &terms() const { return Terms; }

  /// The terms of this polynomial that are multiples of \p Stride, divided
  /// by it, when \p Stride is a single monomial with a positive coefficient
  /// (such as `l`, `m * l` or `64`); nullopt otherwise. A constant stride
  /// takes the whole multiples of itself out of the constant term.
  std::optional<Poly> quotientByMonomial(const Poly &Stride) const;

  /// `2 * i + n - 1`: positive terms first, the constant last. \p Names
  /// maps symbol ids to names; \p Mul is the multiplication sign.
  std::string str(const std::vector<std::string> &Names,
                  const char *Mul = " * ") const;

private:
  void add(const Monomial &M, long C);
  std::map<Monomial, long> Terms;
  bool Overflow = false;
};

} // namespace loopy::extract

#endif
