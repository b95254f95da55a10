//===- RunExtractor.cpp - C and C++ input through loopy-extract -----------===//
#include "RunExtractor.h"

#include "loopy/Runtime/Subprocess.h"

#include <cstring>
#include <ostream>
#include <vector>

#include <unistd.h>

namespace loopy {

namespace {

/// loopy-extract in the folder of the running executable.
std::string extractorPath() {
  std::vector<char> Buf(4096);
  ssize_t N = readlink("/proc/self/exe", Buf.data(), Buf.size() - 1);
  std::string Self = N > 0 ? std::string(Buf.data(), N) : "";
  size_t Slash = Self.rfind('/');
  return (Slash == std::string::npos ? "." : Self.substr(0, Slash)) +
         "/loopy-extract";
}

} // namespace

bool isCSource(const std::string &Path) {
  for (const char *Ext : {".c", ".cc", ".cpp", ".cxx", ".C"}) {
    size_t L = std::strlen(Ext);
    if (Path.size() > L && Path.compare(Path.size() - L, L, Ext) == 0)
      return true;
  }
  return false;
}

Expected<std::string> liftCSource(const std::string &Input) {
  std::string Tool = extractorPath();
  auto Run = runCapturing({Tool, Input});
  if (!Run)
    return Failure::user(
        "cannot run '" + Tool + "': " + Run.failure().Message +
        "; C and C++ input needs loopy-extract next to loopyc (it is built "
        "where the Clang 14 development files are installed)");
  if (Run->End.K == ProcessEnd::Kind::Signaled)
    return Failure::internal("loopy-extract was killed by signal " +
                             std::to_string(Run->End.Code) + " on '" + Input +
                             "'");
  if (!Run->End.succeeded())
    return Failure::user("");
  return std::move(Run->Output);
}

void noteLiftedSource(const std::string &Source, std::ostream &Err) {
  Err << "loopyc: note: '" << LiftedName << "' is the .loop text lifted from '"
      << Source << "'; 'loopy-extract " << Source << "' prints it\n";
}

} // namespace loopy
