//===- CppKernels.cpp - examples/cpp/kernels.cpp, linked into the tests ---===//
//
// The round-trip test runs the C++ functions that loopy-extract lifts, as
// g++ compiles them, on the host. The example is included whole rather than
// copied, so that the test always runs the code the lifted kernels come
// from; its main is renamed out of the way.
//
//===----------------------------------------------------------------------===//
#define main kernels_main
#include "../../examples/cpp/kernels.cpp"
#undef main
