//===- CachePaths.cpp - Where loopyc keeps its caches ---------------------===//
#include "CachePaths.h"

#include <cstdlib>

namespace loopy {

static const char *nonEmptyEnv(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V ? V : nullptr;
}

std::optional<std::filesystem::path> cachePath(const char *OverrideVar,
                                               const char *Leaf) {
  if (const char *Path = nonEmptyEnv(OverrideVar))
    return std::filesystem::path(Path);
  if (const char *Xdg = nonEmptyEnv("XDG_CACHE_HOME")) {
    std::filesystem::path Base(Xdg);
    if (Base.is_absolute())
      return Base / "loopy" / Leaf;
  }
  if (const char *Home = nonEmptyEnv("HOME"))
    return std::filesystem::path(Home) / ".cache" / "loopy" / Leaf;
  return std::nullopt;
}

} // namespace loopy
