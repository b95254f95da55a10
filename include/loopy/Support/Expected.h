//===- Expected.h - A value or the reason there is none ---------*- C++ -*-===//
//
// The libraries' one way of saying that a step failed: a function returns
// Expected<T>, holding either its result or a Failure. A Failure says why
// in words (lower-case, no trailing period, as diagnostics are) and whether
// the cause is the user's input (the driver reports it as an error, exit
// status 1) or a fault of loopyc itself (an internal error, exit status 2).
// Located user errors are reported through the DiagnosticEngine where they
// are found; a Failure then only carries the fact that they were. Exit
// codes belong to tools/ alone.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SUPPORT_EXPECTED_H
#define LOOPY_SUPPORT_EXPECTED_H

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace loopy {

/// Why a step produced nothing.
struct Failure {
  enum class Kind {
    User,     ///< the input or the options are wrong
    Internal, ///< loopyc itself failed (an isl error, a broken invariant)
  };
  Kind K = Kind::User;
  std::string Message;
  /// A user failure because isl ran past its operations quota.
  bool OutOfQuota = false;

  static Failure user(std::string Message) {
    return {Kind::User, std::move(Message)};
  }
  static Failure internal(std::string Message) {
    return {Kind::Internal, std::move(Message)};
  }
  static Failure quota(std::string Message) {
    return {Kind::User, std::move(Message), true};
  }
  bool isInternal() const { return K == Kind::Internal; }
};

/// A T, or the Failure that prevented it.
template <class T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : V(std::in_place_index<0>, std::move(Value)) {}
  Expected(Failure F) : V(std::in_place_index<1>, std::move(F)) {}

  explicit operator bool() const { return V.index() == 0; }
  bool hasValue() const { return V.index() == 0; }

  T &operator*() & {
    assert(hasValue() && "value of a failed Expected");
    return std::get<0>(V);
  }
  const T &operator*() const & {
    assert(hasValue() && "value of a failed Expected");
    return std::get<0>(V);
  }
  T &&operator*() && {
    assert(hasValue() && "value of a failed Expected");
    return std::get<0>(std::move(V));
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  const Failure &failure() const {
    assert(!hasValue() && "failure of a successful Expected");
    return std::get<1>(V);
  }
  Failure takeFailure() {
    assert(!hasValue() && "failure of a successful Expected");
    return std::get<1>(std::move(V));
  }

private:
  std::variant<T, Failure> V;
};

} // namespace loopy

#endif
