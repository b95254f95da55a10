//===- Schedule.cpp - One point of the schedule space ---------------------===//
#include "loopy/Schedule/Schedule.h"
#include "loopy/Schedule/Mma.h"
#include "loopy/Support/Diagnostics.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

namespace loopy {

char axisLetter(Axis A) { return "xyz"[static_cast<int>(A)]; }

const IndexMap *Schedule::find(unsigned Index) const {
  for (const IndexMap &M : Maps)
    if (M.Index == Index)
      return &M;
  return nullptr;
}

const IndexMap *Schedule::tiledReduction() const {
  for (const IndexMap &M : Maps)
    if (M.K == IndexMap::Kind::Tiled)
      return &M;
  return nullptr;
}

const IndexMap *Schedule::blockReduction() const {
  for (const IndexMap &M : Maps)
    if (M.K == IndexMap::Kind::Block)
      return &M;
  return nullptr;
}

long Schedule::threads(Axis A) const {
  // A block of several warps on the tensor cores numbers them along z,
  // where a batch index has one thread.
  if (A == Axis::Z && Mma)
    return MmaWarps[0] * MmaWarps[1];
  for (const IndexMap &M : Maps)
    if ((M.K == IndexMap::Kind::Grid || M.K == IndexMap::Kind::Block) &&
        M.Ax == A)
      return M.Threads;
  return 1;
}

long Schedule::totalThreads() const {
  return threads(Axis::X) * threads(Axis::Y) * threads(Axis::Z);
}

long Schedule::registerOutputs() const {
  long R = 1;
  for (const IndexMap &M : Maps)
    if (M.K == IndexMap::Kind::Grid)
      R *= M.Ilp;
  return R;
}

std::string readName(const Kernel &K, const Statement &S, unsigned ReadPos) {
  unsigned Arg = S.Reads[ReadPos].Arg;
  unsigned Same = 0, Nth = 0;
  for (unsigned I = 0; I < S.Reads.size(); ++I)
    if (S.Reads[I].Arg == Arg) {
      if (I == ReadPos)
        Nth = Same;
      ++Same;
    }
  std::string N = K.Args[Arg].Name;
  return Same > 1 ? N + "@" + std::to_string(Nth) : N;
}

std::string Schedule::str(const Kernel &K, const Statement &S) const {
  std::ostringstream OS;
  bool First = true;
  for (const IndexMap &M : Maps) {
    OS << (First ? "" : " ") << K.IndexNames[M.Index] << ":";
    First = false;
    switch (M.K) {
    case IndexMap::Kind::Seq:
      OS << "seq";
      if (M.Outer && M.Tile > 1)
        OS << "*" << M.Tile;
      if (M.Outer)
        OS << ",outer";
      break;
    case IndexMap::Kind::Tiled:
      OS << "seq*" << M.Tile;
      break;
    case IndexMap::Kind::Grid:
      OS << "g." << axisLetter(M.Ax) << ",t." << axisLetter(M.Ax) << "*"
         << M.Threads;
      if (M.Ilp > 1)
        OS << ",ilp" << M.Ilp << M.runSuffix();
      break;
    case IndexMap::Kind::Block:
      if (M.Chunk)
        OS << "g." << axisLetter(M.Ax) << "*" << M.Chunk << ",";
      OS << "t." << axisLetter(M.Ax) << "*" << M.Threads;
      break;
    }
  }
  if (!Prefetch.empty()) {
    OS << (First ? "" : " ") << "prefetch:";
    for (size_t I = 0; I < Prefetch.size(); ++I)
      OS << (I ? "," : "") << readName(K, S, Prefetch[I]);
  }
  if (Pipelined)
    OS << (First ? "" : " ") << "pipelined";
  if (Async) {
    OS << (First ? "" : " ") << "async";
    if (Buffers != 2)
      OS << ":" << Buffers;
  }
  if (MinBlocks)
    OS << (First ? "" : " ") << "minblocks:" << MinBlocks;
  if (Mma) {
    OS << (First ? "" : " ") << "mma";
    if (MmaWarps[0] * MmaWarps[1] > 1)
      OS << ":" << MmaWarps[0] << "x" << MmaWarps[1];
  }
  if (Tf32)
    OS << (First ? "" : " ") << "tf32";
  return OS.str();
}

std::string IndexMap::runSuffix() const {
  long R = run();
  if (R == Ilp)
    return "";
  return R == 1 ? "s" : "s" + std::to_string(R);
}

static bool parseLong(std::string_view S, long &V) {
  auto [P, E] = std::from_chars(S.data(), S.data() + S.size(), V);
  return E == std::errc() && P == S.data() + S.size() && V > 0;
}

static bool parseAxis(std::string_view S, Axis &A) {
  if (S.size() != 1)
    return false;
  switch (S[0]) {
  case 'x':
    A = Axis::X;
    return true;
  case 'y':
    A = Axis::Y;
    return true;
  case 'z':
    A = Axis::Z;
    return true;
  }
  return false;
}

/// Parses the part after "name:".
static bool parseMap(std::string_view Spec, IndexMap &M) {
  if (Spec == "seq" || Spec == "seq,outer") {
    M.K = IndexMap::Kind::Seq;
    M.Outer = Spec != "seq";
    return true;
  }
  if (Spec.rfind("seq*", 0) == 0 && Spec.size() > 6 &&
      Spec.substr(Spec.size() - 6) == ",outer") {
    // seq*T,outer: a loop of the block over tiles of T values.
    M.K = IndexMap::Kind::Seq;
    M.Outer = true;
    return parseLong(Spec.substr(4, Spec.size() - 10), M.Tile);
  }
  if (Spec.rfind("seq*", 0) == 0) {
    M.K = IndexMap::Kind::Tiled;
    return parseLong(Spec.substr(4), M.Tile);
  }
  std::vector<std::string_view> Parts;
  for (size_t B = 0;;) {
    size_t C = Spec.find(',', B);
    Parts.push_back(Spec.substr(B, C - B));
    if (C == std::string_view::npos)
      break;
    B = C + 1;
  }
  auto ThreadPart = [&](std::string_view P, Axis &A, long &T) {
    if (P.rfind("t.", 0) != 0 || P.size() < 5 || P[3] != '*')
      return false;
    return parseAxis(P.substr(2, 1), A) && parseLong(P.substr(4), T);
  };
  if (Parts.size() == 1) {
    M.K = IndexMap::Kind::Block;
    return ThreadPart(Parts[0], M.Ax, M.Threads);
  }
  if (Parts.size() == 2 && Parts[0].rfind("g.", 0) == 0 &&
      Parts[0].size() > 4 && Parts[0][3] == '*') {
    // g.A*CHUNK,t.A*N: a reduction split across blocks.
    M.K = IndexMap::Kind::Block;
    Axis G;
    return parseAxis(Parts[0].substr(2, 1), G) &&
           parseLong(Parts[0].substr(4), M.Chunk) &&
           ThreadPart(Parts[1], M.Ax, M.Threads) && G == M.Ax;
  }
  M.K = IndexMap::Kind::Grid;
  if (Parts.size() > 3 || Parts[0].rfind("g.", 0) != 0)
    return false;
  Axis G;
  if (!parseAxis(Parts[0].substr(2), G) || !ThreadPart(Parts[1], M.Ax, M.Threads) ||
      G != M.Ax)
    return false;
  if (Parts.size() == 3) {
    std::string_view P = Parts[2];
    if (P.rfind("ilp", 0) != 0)
      return false;
    P.remove_prefix(3);
    // ilpU, ilpUs (runs of one) or ilpUsR (runs of R).
    size_t S = P.find('s');
    if (S != std::string_view::npos) {
      std::string_view R = P.substr(S + 1);
      P = P.substr(0, S);
      M.Run = 1;
      if (!R.empty() && !parseLong(R, M.Run))
        return false;
    }
    return parseLong(P, M.Ilp);
  }
  return true;
}

std::optional<Schedule> parseSchedule(const std::string &Text, const Kernel &K,
                                      const Statement &S, std::string &Error) {
  Schedule Sch;
  std::istringstream IS(Text);
  std::string Word;
  while (IS >> Word) {
    if (Word == "pipelined") {
      Sch.Pipelined = true;
      continue;
    }
    if (Word == "async") {
      Sch.Async = true;
      continue;
    }
    if (Word == "mma") {
      Sch.Mma = true;
      continue;
    }
    if (Word == "tf32") {
      Sch.Tf32 = true;
      continue;
    }
    size_t Colon = Word.find(':');
    if (Colon == std::string::npos) {
      Error = "expected 'index:mapping', 'prefetch:arrays', 'pipelined', "
              "'async', 'async:N', 'mma', 'tf32' or 'minblocks:N', found " +
              quote(Word);
      return std::nullopt;
    }
    std::string Name = Word.substr(0, Colon);
    std::string_view Spec = std::string_view(Word).substr(Colon + 1);
    // async:N, where N starts with a digit as no index mapping does.
    if (Name == "async" && !Spec.empty() &&
        std::isdigit(static_cast<unsigned char>(Spec[0]))) {
      if (!parseLong(Spec, Sch.Buffers) || Sch.Buffers < 2 ||
          Sch.Buffers > 8) {
        Error = "malformed " + quote(Word) +
                "; expected async:N, the buffers of each stage, 2 to 8";
        return std::nullopt;
      }
      Sch.Async = true;
      continue;
    }
    // Likewise mma: its warps start with a digit.
    if (Name == "mma" && !Spec.empty() &&
        std::isdigit(static_cast<unsigned char>(Spec[0]))) {
      size_t X = Spec.find('x');
      if (X == std::string_view::npos ||
          !parseLong(Spec.substr(0, X), Sch.MmaWarps[0]) ||
          !parseLong(Spec.substr(X + 1), Sch.MmaWarps[1]) ||
          Sch.MmaWarps[0] < 1 || Sch.MmaWarps[1] < 1 ||
          Sch.MmaWarps[0] * Sch.MmaWarps[1] > 32) {
        Error = "malformed " + quote(Word) +
                "; expected mma:RxC, R and C warps along the rows and "
                "the columns, at most 32 in all";
        return std::nullopt;
      }
      Sch.Mma = true;
      continue;
    }
    // An index may be called minblocks: its mapping starts with a letter.
    if (Name == "minblocks" && !Spec.empty() && std::isdigit(static_cast<unsigned char>(Spec[0]))) {
      if (!parseLong(Spec, Sch.MinBlocks) || Sch.MinBlocks > 32) {
        Error = "malformed " + quote(Word) +
                "; expected minblocks:N, N from 1 to 32";
        return std::nullopt;
      }
      continue;
    }
    if (Name == "prefetch") {
      for (size_t B = 0; B <= Spec.size();) {
        size_t C = std::min(Spec.find(',', B), Spec.size());
        std::string R(Spec.substr(B, C - B));
        bool Found = false;
        for (unsigned I = 0; I < S.Reads.size() && !Found; ++I)
          if (readName(K, S, I) == R) {
            Sch.Prefetch.push_back(I);
            Found = true;
          }
        if (!Found) {
          Error = "prefetch names " + quote(R) +
                  ", which the statement does not read";
          return std::nullopt;
        }
        B = C + 1;
      }
      continue;
    }
    auto It = std::find(K.IndexNames.begin(), K.IndexNames.end(), Name);
    if (It == K.IndexNames.end()) {
      Error = "unknown index " + quote(Name) + " in the schedule";
      return std::nullopt;
    }
    IndexMap M;
    M.Index = It - K.IndexNames.begin();
    if (!parseMap(Spec, M)) {
      Error = "malformed mapping " + quote(Word) +
              "; expected seq, seq,outer, seq*T, g.A,t.A*N[,ilpU[s[R]]], "
              "t.A*N or g.A*C,t.A*N";
      return std::nullopt;
    }
    if (M.K == IndexMap::Kind::Grid && M.Ilp % std::max(M.Run, 1L) != 0) {
      Error = "in " + quote(Word) + ", runs of " + std::to_string(M.Run) +
              " do not divide the thread's " + std::to_string(M.Ilp) +
              " outputs";
      return std::nullopt;
    }
    Sch.Maps.push_back(M);
  }
  if (Sch.Mma)
    for (IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Grid && M.Ax != Axis::Z)
        M.Warps = Sch.MmaWarps[M.Ax == Axis::Y ? 0 : 1];
  std::string Rule = validateSchedule(Sch, K, S);
  if (!Rule.empty()) {
    Error = Rule;
    return std::nullopt;
  }
  return Sch;
}

std::string validateSchedule(const Schedule &Sch, const Kernel &K,
                             const Statement &S) {
  auto IsOutput = [&](unsigned I) {
    return std::find(S.OutputIndices.begin(), S.OutputIndices.end(), I) !=
           S.OutputIndices.end();
  };
  std::vector<bool> Seen(K.IndexNames.size());
  bool AxisUsed[3] = {false, false, false};
  // Several output indices may take z where each has one thread there
  // (and no reduction takes it).
  bool ZShareable = std::all_of(
      Sch.Maps.begin(), Sch.Maps.end(), [](const IndexMap &M) {
        return M.Ax != Axis::Z || (M.K == IndexMap::Kind::Grid
                                       ? M.Threads == 1
                                       : M.K != IndexMap::Kind::Block);
      });
  unsigned Tiled = 0;
  for (const IndexMap &M : Sch.Maps) {
    const std::string &N = K.IndexNames[M.Index];
    if (std::find(S.Indices.begin(), S.Indices.end(), M.Index) ==
        S.Indices.end())
      return "index " + quote(N) + " is not an index of the statement";
    if (Seen[M.Index])
      return "index " + quote(N) + " is mapped twice";
    Seen[M.Index] = true;
    bool Out = IsOutput(M.Index);
    if (Out && (M.K == IndexMap::Kind::Tiled || M.K == IndexMap::Kind::Block))
      return "output index " + quote(N) + " must be g.A,t.A*N or seq";
    if (!Out && M.K == IndexMap::Kind::Grid)
      return "reduction index " + quote(N) +
             " must be seq, seq*T, t.A*N or g.A*C,t.A*N";
    if (M.K == IndexMap::Kind::Grid || M.K == IndexMap::Kind::Block) {
      int A = static_cast<int>(M.Ax);
      // Output indices past the third share z's blocks, one thread each.
      bool SharesZ = M.K == IndexMap::Kind::Grid && M.Ax == Axis::Z &&
                     M.Threads == 1 && ZShareable;
      if (AxisUsed[A] && !SharesZ)
        return std::string("axis ") + axisLetter(M.Ax) +
               (M.Ax == Axis::Z && M.K == IndexMap::Kind::Grid
                    ? " is used twice (output indices share z only with one "
                      "thread each: g.z,t.z*1)"
                    : " is used twice");
      AxisUsed[A] = true;
    }
    if (M.K == IndexMap::Kind::Tiled && ++Tiled > 1)
      return "at most one reduction index can be tiled";
    if (M.Outer && !Out && Tiled > 0)
      return "reduction index " + quote(N) +
             " runs outside the tiles (seq,outer): it must come before the "
             "tiled one";
    if (M.Outer && Out)
      return "output index " + quote(N) +
             " cannot be seq,outer (only a reduction index before the tiled "
             "one)";
    if (M.K == IndexMap::Kind::Seq && !M.Outer && M.Tile != 1)
      return "index " + quote(N) + " is seq with a tile; only seq,outer "
             "takes one (seq*T,outer)";
  }
  if (std::any_of(Sch.Maps.begin(), Sch.Maps.end(),
                  [](const IndexMap &M) { return M.Outer; }) &&
      !Sch.tiledReduction())
    return "seq,outer needs a tiled reduction (seq*T) after it";
  for (unsigned I : S.Indices)
    if (!Seen[I])
      return "index " + quote(K.IndexNames[I]) + " is not mapped";
  if (Sch.blockReduction() && Sch.tiledReduction())
    return "a block-parallel reduction cannot be combined with a tiled one";
  long T = Sch.totalThreads();
  if (T > 1024)
    return "a block has " + std::to_string(T) + " threads; at most 1024";
  if (Sch.threads(Axis::Z) > 64)
    return "at most 64 threads on axis z";
  const IndexMap *B = Sch.blockReduction();
  if (B && (B->Threads & (B->Threads - 1)))
    return "a block-parallel reduction needs a power-of-two thread count";
  if (!Sch.Prefetch.empty() && B)
    return "prefetch cannot be combined with a block-parallel reduction";
  if (B && B->Chunk) {
    if (B->Chunk % B->Threads != 0)
      return "a reduction split across blocks needs a chunk that is a "
             "multiple of its threads";
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Seq && IsOutput(M.Index))
        return "a reduction split across blocks needs every output index "
               "on the grid";
  }
  if (Sch.Pipelined && (Sch.Prefetch.empty() || !Sch.tiledReduction()))
    return "pipelined needs staged reads (prefetch:...) in a tiled reduction "
           "(seq*T)";
  if (Sch.Async) {
    if (!Sch.Pipelined)
      return "async needs pipelined stages (pipelined)";
    // Two buffers per stage, alternating with the tile's parity: the
    // copies of the next tile go to the one no thread reads.
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Seq && (IsOutput(M.Index) || M.Outer))
        return "async needs the tile loop outermost: index " +
               quote(K.IndexNames[M.Index]) +
               " is a loop of the block around it, and the tiles' two "
               "buffers would not alternate";
  }
  if (!Sch.Prefetch.empty() && !Sch.tiledReduction() &&
      !S.ReductionIndices.empty())
    return "prefetch needs a tiled reduction (seq*T)";
  if (Sch.Tf32 && !Sch.Mma)
    return "tf32 names the precision of mma's products: it needs mma";
  if (Sch.Mma)
    return mmaScheduleRule(Sch, K, S);
  return "";
}

} // namespace loopy
