//===- variants.cpp - The installed loopy package, used from outside ------===//
//
// Checks a kernel, lists its first variants and prints the CUDA of the
// first-ranked one, through loopy/loopy.h alone; needs no GPU.
//
//   variants [N]     (default 1024; an N×N matrix-vector product)
//
//===----------------------------------------------------------------------===//
#include "loopy/loopy.h"

#include <cstdio>
#include <cstdlib>

static const char *MatvecSource = R"(
kernel matvec(n: index; a: in f32[n, n], x: in f32[n], y: out f32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < n }
  y[i] = sum(j, a[i, j] * x[j]);
}
)";

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 1024;
  try {
    loopy::api::Kernel K =
        loopy::api::Source::fromString(MatvecSource, "matvec.loop").kernel();
    K.fix("n", N);
    std::vector<loopy::api::VariantInfo> Vs = K.variants();
    std::printf("%zu variants of %s at n=%ld; the first three:\n", Vs.size(),
                K.name().c_str(), N);
    for (size_t I = 0; I < Vs.size() && I < 3; ++I)
      std::printf("  %zu  %s  threads=%ld\n", I, Vs[I].Schedule.c_str(),
                  Vs[I].Threads);
    std::printf("%s", K.cuda().c_str());
    // A kernel that does not check throws with loopyc's diagnostics.
    try {
      loopy::api::Source::fromString("kernel bad(", "bad.loop");
      std::printf("error: a malformed kernel was accepted\n");
      return 1;
    } catch (loopy::api::Error &E) {
      std::printf("diagnostics as expected: %.*s\n",
                  static_cast<int>(std::string(E.what()).find('\n')), E.what());
    }
    return 0;
  } catch (loopy::api::Error &E) {
    std::fprintf(stderr, "variants: %s\n", E.what());
    return 1;
  }
}
