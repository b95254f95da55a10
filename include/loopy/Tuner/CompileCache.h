//===- CompileCache.h - On-disk cache of NVRTC results ----------*- C++ -*-===//
//
// Compiling a variant with NVRTC takes tens to hundreds of milliseconds, and
// a tuning run compiles hundreds; the cache keeps each CUBIN with NVRTC's log
// in a folder, one file per compilation, named by a SHA-256 of everything
// the result depends on: the source, the options, NVRTC's version and the
// architecture.
//
// Entries are written to a temporary file in the same folder and renamed
// into place, so concurrent processes and crashes never leave a truncated
// entry under an entry's name. Each entry starts with a header holding its
// key, payload lengths and the payload's SHA-256; an entry that fails any of
// these checks is a miss, and the next store replaces it.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TUNER_COMPILECACHE_H
#define LOOPY_TUNER_COMPILECACHE_H

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace loopy {

/// A failure to create the cache folder or write an entry.
class CompileCacheError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The key of one compilation, 64 hex digits: a SHA-256 over \p Source,
/// \p Options (in order), \p NvrtcVersion and \p Arch, each field prefixed
/// with its length so that different inputs never serialize alike.
std::string compileCacheKey(std::string_view Source,
                            const std::vector<std::string> &Options,
                            std::string_view NvrtcVersion,
                            std::string_view Arch);

/// A cached compilation result.
struct CachedCompile {
  std::string Cubin;
  /// NVRTC's log (warnings).
  std::string Log;
};

/// A cache folder. Any number of CompileCache objects, in any processes,
/// may use one folder at once.
class CompileCache {
public:
  /// Uses \p Dir, creating it if missing; throws CompileCacheError if it
  /// cannot be created.
  explicit CompileCache(std::filesystem::path Dir);

  const std::filesystem::path &directory() const { return Dir; }

  /// The entry under \p Key (from compileCacheKey); nullopt if there is
  /// none, or if it cannot be read or fails its checks. Throws
  /// std::invalid_argument if \p Key is not 64 lower-case hex digits.
  std::optional<CachedCompile> lookup(const std::string &Key) const;

  /// Stores \p Entry under \p Key, replacing any entry there, atomically.
  /// Throws CompileCacheError if it cannot be written (the cache is then
  /// unchanged), std::invalid_argument for a malformed key.
  void store(const std::string &Key, const CachedCompile &Entry);

  /// The file that holds the entry under \p Key.
  std::filesystem::path entryPath(const std::string &Key) const;

private:
  std::filesystem::path Dir;
};

/// The cache folder unless the command line names one: the environment
/// variable LOOPY_CACHE_DIR if set, else $XDG_CACHE_HOME/loopy/cubin, else
/// $HOME/.cache/loopy/cubin. Throws CompileCacheError if none is set.
std::filesystem::path defaultCompileCacheDir();

} // namespace loopy

#endif
