//===- ScopedEnv.h - An environment variable set for one scope --*- C++ -*-===//
//
// Tests that change the environment (cache paths, the GPU worker's mode)
// restore it when they end, so the next test sees the environment the
// program started with.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TEST_UNIT_SCOPEDENV_H
#define LOOPY_TEST_UNIT_SCOPEDENV_H

#include <cstdlib>
#include <optional>
#include <string>

namespace loopy::test {

/// Sets an environment variable for one scope; unset if \p Value is null.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    if (Value)
      ::setenv(Name, Value, 1);
    else
      ::unsetenv(Name);
  }
  ~ScopedEnv() {
    if (Saved)
      ::setenv(Name, Saved->c_str(), 1);
    else
      ::unsetenv(Name);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  const char *Name;
  std::optional<std::string> Saved;
};

} // namespace loopy::test

#endif
