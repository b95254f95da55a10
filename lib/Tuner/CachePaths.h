//===- CachePaths.h - Where loopyc keeps its caches -------------*- C++ -*-===//
#ifndef LOOPY_LIB_TUNER_CACHEPATHS_H
#define LOOPY_LIB_TUNER_CACHEPATHS_H

#include <filesystem>
#include <optional>
#include <string>

namespace loopy {

/// The value of the environment variable \p OverrideVar if it is set and
/// not empty; else \p Leaf under $XDG_CACHE_HOME/loopy (when that is an
/// absolute path, as the XDG base directory specification asks), else under
/// $HOME/.cache/loopy; nullopt if neither variable is set.
std::optional<std::filesystem::path> cachePath(const char *OverrideVar,
                                               const char *Leaf);

/// cachePath, or an \p Error saying that \p What has no place.
template <class Error>
std::filesystem::path cachePathOrThrow(const char *OverrideVar,
                                       const char *Leaf, const char *What) {
  if (auto P = cachePath(OverrideVar, Leaf))
    return *P;
  throw Error(std::string("cannot place the ") + What + ": none of " +
              OverrideVar + ", XDG_CACHE_HOME and HOME is set; set one of "
              "them");
}

} // namespace loopy

#endif
