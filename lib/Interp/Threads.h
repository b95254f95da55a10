//===- Threads.h - Work on large host arrays spread over threads -*- C++ -*-===//
//
// Filling, poisoning and comparing arrays of 10^8 elements took seconds of
// each tuning on one thread. onThreads runs the pieces of such work on
// threads of their own; each piece's result must not depend on which
// thread runs it.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_THREADS_H
#define LOOPY_LIB_INTERP_THREADS_H

#include <system_error>
#include <thread>
#include <vector>

namespace loopy::interp {

/// Runs \p Piece(0), ..., \p Piece(Pieces - 1), each on a thread of its own
/// where the system gives one, the others (and the first) on this thread.
template <class Fn> void onThreads(unsigned Pieces, Fn Piece) {
  std::vector<std::thread> Pool;
  unsigned T = 1;
  try {
    for (; T < Pieces; ++T)
      Pool.emplace_back(Piece, T);
  } catch (const std::system_error &) {
    // The system refuses more threads: this one runs the other pieces.
  }
  for (unsigned U = T; U < Pieces; ++U)
    Piece(U);
  if (Pieces > 0)
    Piece(0);
  for (std::thread &P : Pool)
    P.join();
}

} // namespace loopy::interp

#endif
