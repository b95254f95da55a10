//===- CompileCache.cpp - On-disk cache of NVRTC results ------------------===//
//
// An entry file is a 120-byte header followed by the payload:
//
//   magic "LOOPYCC1" (8) | key, hex (64) | CUBIN size (8, little-endian) |
//   log size (8, little-endian) | SHA-256 of CUBIN then log (32) |
//   CUBIN | log
//
//===----------------------------------------------------------------------===//
#include "loopy/Tuner/CompileCache.h"

#include "CachePaths.h"
#include "loopy/Support/Diagnostics.h"
#include "loopy/Support/Hash.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace loopy {

namespace {

constexpr std::string_view Magic = "LOOPYCC1";
constexpr size_t KeySize = 64;
constexpr size_t DigestSize = 32;
constexpr size_t HeaderSize = Magic.size() + KeySize + 8 + 8 + DigestSize;

void checkKey(const std::string &Key) {
  bool Ok = Key.size() == KeySize;
  for (char C : Key)
    Ok = Ok && ((C >= '0' && C <= '9') || (C >= 'a' && C <= 'f'));
  if (!Ok)
    throw std::invalid_argument("compile cache key " + quote(Key) +
                                " is not 64 lower-case hex digits");
}

void appendSize(std::string &Out, uint64_t V) {
  for (unsigned I = 0; I < 8; ++I)
    Out += static_cast<char>(V >> (8 * I));
}

uint64_t readSize(std::string_view In) {
  uint64_t V = 0;
  for (unsigned I = 0; I < 8; ++I)
    V |= uint64_t(static_cast<unsigned char>(In[I])) << (8 * I);
  return V;
}

Sha256::Digest payloadDigest(const CachedCompile &E) {
  Sha256 H;
  H.update(E.Cubin);
  H.update(E.Log);
  return H.digest();
}

void hashField(Sha256 &H, std::string_view Field) {
  std::string Size = std::to_string(Field.size()) + ":";
  H.update(Size);
  H.update(Field);
}

std::string encodeEntry(const std::string &Key, const CachedCompile &E) {
  std::string Out;
  Out.reserve(HeaderSize + E.Cubin.size() + E.Log.size());
  Out += Magic;
  Out += Key;
  appendSize(Out, E.Cubin.size());
  appendSize(Out, E.Log.size());
  Sha256::Digest D = payloadDigest(E);
  Out.append(reinterpret_cast<const char *>(D.data()), D.size());
  Out += E.Cubin;
  Out += E.Log;
  return Out;
}

std::optional<CachedCompile> decodeEntry(const std::string &Key,
                                         std::string_view In) {
  if (In.size() < HeaderSize || In.substr(0, Magic.size()) != Magic ||
      In.substr(Magic.size(), KeySize) != Key)
    return std::nullopt;
  size_t Pos = Magic.size() + KeySize;
  uint64_t CubinSize = readSize(In.substr(Pos));
  uint64_t LogSize = readSize(In.substr(Pos + 8));
  std::string_view Digest = In.substr(Pos + 16, DigestSize);
  // Compared without adding the sizes first: they may be garbage.
  uint64_t Payload = In.size() - HeaderSize;
  if (CubinSize > Payload || LogSize != Payload - CubinSize)
    return std::nullopt;
  CachedCompile E;
  E.Cubin = In.substr(HeaderSize, CubinSize);
  E.Log = In.substr(HeaderSize + CubinSize);
  Sha256::Digest D = payloadDigest(E);
  if (Digest != std::string_view(reinterpret_cast<const char *>(D.data()),
                                 D.size()))
    return std::nullopt;
  return E;
}

/// Writes all of \p Data to \p Fd; false on an error (errno set).
bool writeAll(int Fd, std::string_view Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(Fd, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data.remove_prefix(N);
  }
  return true;
}

} // namespace

std::string compileCacheKey(std::string_view Source,
                            const std::vector<std::string> &Options,
                            std::string_view NvrtcVersion,
                            std::string_view Arch) {
  Sha256 H;
  hashField(H, "loopy-cubin 1");
  hashField(H, Source);
  hashField(H, std::to_string(Options.size()));
  for (const std::string &O : Options)
    hashField(H, O);
  hashField(H, NvrtcVersion);
  hashField(H, Arch);
  return toHex(H.digest());
}

CompileCache::CompileCache(std::filesystem::path D) : Dir(std::move(D)) {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  if (EC)
    throw CompileCacheError("cannot create the compile cache folder " +
                            quote(Dir.string()) + ": " + EC.message() +
                            "; choose another with LOOPY_CACHE_DIR");
}

std::filesystem::path CompileCache::entryPath(const std::string &Key) const {
  checkKey(Key);
  return Dir / (Key + ".cubin");
}

std::optional<CachedCompile>
CompileCache::lookup(const std::string &Key) const {
  std::ifstream In(entryPath(Key), std::ios::binary);
  if (!In)
    return std::nullopt;
  std::string Data((std::istreambuf_iterator<char>(In)),
                   std::istreambuf_iterator<char>());
  if (In.bad())
    return std::nullopt;
  return decodeEntry(Key, Data);
}

void CompileCache::store(const std::string &Key, const CachedCompile &Entry) {
  std::filesystem::path Final = entryPath(Key);
  std::string Template = (Dir / (Key + ".tmp.XXXXXX")).string();
  int Fd = ::mkstemp(Template.data());
  bool Created = Fd >= 0;
  auto Fail = [&](const std::string &What) {
    std::string Msg = "cannot write the compile cache entry " +
                      quote(Final.string()) + ": " + What + ": " +
                      std::strerror(errno);
    if (Fd >= 0)
      ::close(Fd);
    if (Created)
      ::unlink(Template.c_str());
    throw CompileCacheError(Msg);
  };
  if (!Created)
    Fail("cannot create a temporary file");
  if (!writeAll(Fd, encodeEntry(Key, Entry)))
    Fail("write failed");
  int Closed = ::close(Fd);
  Fd = -1;
  if (Closed != 0)
    Fail("close failed");
  if (::rename(Template.c_str(), Final.c_str()) != 0)
    Fail("rename failed");
}

std::filesystem::path defaultCompileCacheDir() {
  return cachePathOrThrow<CompileCacheError>("LOOPY_CACHE_DIR", "cubin",
                                             "compile cache");
}

} // namespace loopy
