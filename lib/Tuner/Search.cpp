//===- Search.cpp - Which variants the tuner runs -------------------------===//
#include "loopy/Tuner/Search.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace loopy {

namespace {

/// The family of one statement's schedule ("i:g.y,t.y*16,ilp4 k:seq*8
/// prefetch:a" gives "i@y k:tiled prefetch:a").
std::string statementFamily(const std::string &S) {
  std::istringstream In(S);
  std::string Token;
  std::vector<std::string> Grid, Reductions, Rest;
  while (In >> Token) {
    size_t Colon = Token.find(':');
    if (Colon == std::string::npos || Token.rfind("prefetch:", 0) == 0) {
      Rest.push_back(Token); // prefetch:..., pipelined, a view's tag
      continue;
    }
    std::string Index = Token.substr(0, Colon);
    std::vector<std::string> Parts;
    std::istringstream Spec(Token.substr(Colon + 1));
    for (std::string P; std::getline(Spec, P, ',');)
      Parts.push_back(P);
    // The part that begins with Prefix ("g.", "ilp", ...), if any.
    auto Part = [&](const char *Prefix) {
      return std::find_if(
          Parts.begin(), Parts.end(),
          [&](const std::string &P) { return P.rfind(Prefix, 0) == 0; });
    };
    auto Has = [&](const char *Prefix) { return Part(Prefix) != Parts.end(); };
    bool Grid_ = Has("g."), Threads = Has("t."), Seq = Has("seq");
    if (Grid_ && !Threads) {
      Grid.push_back(Index + "@?"); // a grid axis alone: an odd schedule
    } else if (Grid_) {
      // On the grid: an output, unless the grid part has a chunk, which
      // splits a reduction across blocks.
      std::string G = *Part("g.");
      if (G.find('*') != std::string::npos) {
        Reductions.push_back(Index + ":split");
      } else {
        // On x, how a thread's outputs lie is a family apart: strided
        // ("ilp4s"), in strided runs ("ilp8s4") or adjacent. The static
        // model ranks them by coalescing and banks alone, and one can run
        // far faster than the other ranked ahead of it.
        std::string Lie;
        auto Ilp = Part("ilp");
        if (G == "g.x" && Ilp != Parts.end()) {
          size_t S = Ilp->find('s');
          if (S != std::string::npos)
            Lie = "/" + Ilp->substr(S);
        }
        Grid.push_back(Index + "@" + G.substr(2, 1) + Lie);
      }
    } else if (Threads) {
      // On the threads of one block, off the grid: a block-parallel
      // reduction.
      Reductions.push_back(Index + ":block");
    } else if (Seq) {
      bool Tiled = std::any_of(Parts.begin(), Parts.end(),
                               [](const std::string &P) {
                                 return P.rfind("seq*", 0) == 0;
                               });
      // A loop of the block around the tiles is a strategy of its own.
      Reductions.push_back(Index + (Has("outer") ? (Tiled ? ":outertiles"
                                                          : ":outer")
                                    : Tiled ? ":tiled"
                                            : ":seq"));
    } else {
      Rest.push_back(Index);
    }
  }
  std::sort(Grid.begin(), Grid.end());
  std::sort(Reductions.begin(), Reductions.end());
  std::string F;
  for (const auto *L : {&Grid, &Reductions, &Rest})
    for (const std::string &X : *L)
      F += (F.empty() ? "" : " ") + X;
  return F;
}

} // namespace

std::string variantFamily(const std::string &Schedule) {
  std::string F;
  size_t Pos = 0;
  for (;;) {
    size_t Bar = Schedule.find(" | ", Pos);
    F += (Pos ? " | " : "") +
         statementFamily(Schedule.substr(Pos, Bar == std::string::npos
                                                  ? std::string::npos
                                                  : Bar - Pos));
    if (Bar == std::string::npos)
      return F;
    Pos = Bar + 3;
  }
}

std::vector<size_t> familiesFirst(const std::vector<std::string> &Ranked,
                                  size_t Budget) {
  size_t Half = std::min((Budget + 1) / 2, Ranked.size());
  size_t Quarter = std::min((Budget + 3) / 4, Half);
  std::vector<size_t> Pick;
  std::set<std::string> Covered;
  std::vector<bool> Taken(Ranked.size(), false);
  auto Take = [&](size_t I) {
    Pick.push_back(I);
    Taken[I] = true;
    Covered.insert(variantFamily(Ranked[I]));
  };
  for (size_t I = 0; I < Quarter; ++I)
    Take(I);
  for (size_t I = Quarter; I < Ranked.size() && Pick.size() < Half; ++I)
    if (!Covered.count(variantFamily(Ranked[I])))
      Take(I);
  for (size_t I = 0; I < Ranked.size() && Pick.size() < Half; ++I)
    if (!Taken[I])
      Take(I);
  std::sort(Pick.begin(), Pick.end());
  return Pick;
}

std::vector<size_t>
fastestFamiliesNext(const std::vector<std::string> &Ranked,
                    const std::vector<size_t> &Done,
                    const std::vector<std::optional<double>> &Seconds,
                    size_t Count, double Slack) {
  std::vector<bool> Ran(Ranked.size(), false);
  std::map<std::string, double> Best;
  double Fastest = 0;
  for (size_t D = 0; D < Done.size(); ++D) {
    Ran[Done[D]] = true;
    if (!Seconds[D])
      continue;
    std::string F = variantFamily(Ranked[Done[D]]);
    auto It = Best.find(F);
    if (It == Best.end() || *Seconds[D] < It->second)
      Best[F] = *Seconds[D];
    if (Fastest == 0 || *Seconds[D] < Fastest)
      Fastest = *Seconds[D];
  }
  // The families within Slack of the fastest, fastest first, each with
  // its variants not yet run in rank order.
  std::vector<std::pair<double, std::string>> Order;
  for (const auto &[F, T] : Best)
    if (T <= Slack * Fastest)
      Order.push_back({T, F});
  std::sort(Order.begin(), Order.end());
  std::map<std::string, std::vector<size_t>> Members;
  for (size_t I = 0; I < Ranked.size(); ++I)
    if (!Ran[I])
      Members[variantFamily(Ranked[I])].push_back(I);
  std::vector<size_t> Next;
  std::vector<size_t> At(Order.size(), 0);
  for (bool More = true; More && Next.size() < Count;) {
    More = false;
    for (size_t F = 0; F < Order.size() && Next.size() < Count; ++F) {
      const std::vector<size_t> &M = Members[Order[F].second];
      if (At[F] < M.size()) {
        Next.push_back(M[At[F]++]);
        Ran[Next.back()] = true;
        More = true;
      }
    }
  }
  for (size_t I = 0; I < Ranked.size() && Next.size() < Count; ++I)
    if (!Ran[I]) {
      Next.push_back(I);
      Ran[I] = true;
    }
  return Next;
}

} // namespace loopy
