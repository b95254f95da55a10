//===- CppKernels.cpp - examples/cpp, linked into the tests ---------------===//
//
// The round-trip test runs the C++ functions that loopy-extract lifts, as
// g++ compiles them, on the host. The examples are included whole rather
// than copied, so that the test always runs the code the lifted kernels
// come from; their mains are renamed out of the way.
//
//===----------------------------------------------------------------------===//
#define main kernels_main
#include "../../examples/cpp/kernels.cpp"
#undef main
#define main polybench_style_main
#include "../../examples/cpp/polybench_style.cpp"
#undef main
