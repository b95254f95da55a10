//===- Printer.cpp - Device AST to CUDA C and OpenCL C --------------------===//
#include "loopy/CodeGen/Printer.h"

#include <algorithm>
#include <sstream>

namespace loopy {

using namespace device;

namespace {

struct Spelling {
  const char *KernelQualifier;
  const char *IndexType;
  const char *Shared;
  const char *Barrier;
  const char *GlobalConst; // pointer to read-only global data
  const char *Global;
  const char *Restrict;
  const char *BlockIdx[3];
  const char *ThreadIdx[3];
  const char *Prelude;
  /// loopy_atomic_add(pointer, value) for every element type, where a
  /// kernel's blocks add their partial sums into the outputs.
  const char *AtomicPrelude;
  /// loopy_div_T and loopy_rem_T for T = i32, i64: integer / and % as the
  /// language defines them (docs/language.md, 8.2), where a kernel divides
  /// by what may be 0 or -1. C leaves x / 0 and the minimum / -1
  /// undefined; these never evaluate them.
  const char *IntDivisionPrelude;
  /// loopy_f16 and loopy_bf16, the 16 bits of an f16 or bf16 value, and
  /// their conversions: loopy_ld_T widens to float (exactly), loopy_st_T
  /// narrows a float to nearest even (Support/Half.h), loopy_rn_T rounds a
  /// float to the nearest value of T. CUDA converts f16 with the cvt
  /// instructions; the rest is the same bit arithmetic in both dialects.
  const char *HalfPrelude;
  /// loopy_copy_async4, 8 and 16 (shared destination, global source: that
  /// many bytes, aligned to them), loopy_commit_async, which closes the
  /// thread's group of copies, and loopy_wait_async(N), which waits for
  /// all its groups but the N latest: cp.async on sm_80 and later, plain
  /// copies before.
  /// Empty in OpenCL, which prints the copies as assignments.
  const char *AsyncPrelude;
  /// loopy_pack2 (two 16-bit elements in a register, the first in the low
  /// half), loopy_ldmatrix_x2 and _x4 (Node::Kind::MatrixLoad, sm_75 on)
  /// and loopy_mma_m16n8k16_f16, _bf16 and _f64 and loopy_mma_m16n8k8_tf32
  /// with loopy_tf32 (Node::Kind::Mma): the mma.sync instructions (f64: on
  /// sm_90, as eight m8n8k4 on sm_80) and shuffles before; in OpenCL an
  /// emulation through the kernel's scratch buffer loopy_mma_x.
  const char *MmaPrelude;
  /// Alignment is spelled before the type (CUDA's __align__) rather than
  /// as an attribute after the declarator (OpenCL).
  bool AlignPrefix;
  /// Warps exchange registers (__shfl_down_sync): block reductions along x
  /// combine within each warp without shared memory or barriers.
  bool WarpShuffle;
  /// Vector loads go through vloadN (OpenCL) rather than a cast of the
  /// element's address to a pointer to the vector type (CUDA).
  bool VectorBuiltin;
  /// Shared buffers past the static limit are carved from one array whose
  /// size the launch gives (CUDA's extern __shared__); OpenCL declares
  /// them as they are.
  bool DynamicShared;
  /// A kernel may ask for a number of resident blocks
  /// (__launch_bounds__, DeviceKernel::MinBlocks); OpenCL has no such
  /// request and prints none.
  bool LaunchBounds;
  /// The warp's matrix instruction exists: no scratch buffer (OpenCL
  /// declares loopy_mma_x for its emulation).
  bool MmaInstruction;
  /// The block and thread ids' ranges are stated (__builtin_assume):
  /// NVVM does not carry threadIdx's range through the conversion to int,
  /// and keeps the guards that the range decides. OpenCL states none
  /// (PoCL builds unoptimised code for the checks).
  bool IdRanges;
};

const Spelling CudaSpelling = {
    "extern \"C\" __global__ void",
    "long long",
    "__shared__ ",
    "__syncthreads();",
    "const ",
    "",
    "__restrict__ ",
    {"blockIdx.x", "blockIdx.y", "blockIdx.z"},
    {"threadIdx.x", "threadIdx.y", "threadIdx.z"},
    "typedef long long idx;\n"
    "static __device__ __forceinline__ idx loopy_floord(idx a, idx b) {\n"
    "  return (a >= 0 ? a : a - b + 1) / b;\n"
    "}\n"
    "static __device__ __forceinline__ idx loopy_min(idx a, idx b) { return a < b ? a : b; }\n"
    "static __device__ __forceinline__ idx loopy_max(idx a, idx b) { return a > b ? a : b; }\n"
    "#define LOOPY_INFINITY __int_as_float(0x7f800000)\n",
    "static __device__ __forceinline__ void loopy_atomic_add(float *p, float v) { atomicAdd(p, v); }\n"
    "static __device__ __forceinline__ void loopy_atomic_add(double *p, double v) { atomicAdd(p, v); }\n"
    "static __device__ __forceinline__ void loopy_atomic_add(int *p, int v) { atomicAdd(p, v); }\n"
    "static __device__ __forceinline__ void loopy_atomic_add(idx *p, idx v) {\n"
    "  atomicAdd((unsigned long long *)p, (unsigned long long)v);\n"
    "}\n",
    "static __device__ __forceinline__ int loopy_div_i32(int a, int b) {\n"
    "  return b == 0 ? 0 : b == -1 ? (int)(0u - (unsigned)a) : a / b;\n"
    "}\n"
    "static __device__ __forceinline__ int loopy_rem_i32(int a, int b) {\n"
    "  return b == 0 ? a : b == -1 ? 0 : a % b;\n"
    "}\n"
    "static __device__ __forceinline__ idx loopy_div_i64(idx a, idx b) {\n"
    "  return b == 0 ? 0 : b == -1 ? (idx)(0ull - (unsigned long long)a) : a / b;\n"
    "}\n"
    "static __device__ __forceinline__ idx loopy_rem_i64(idx a, idx b) {\n"
    "  return b == 0 ? a : b == -1 ? 0 : a % b;\n"
    "}\n",
    "typedef unsigned short loopy_f16;\n"
    "typedef unsigned short loopy_bf16;\n"
    "static __device__ __forceinline__ float loopy_ld_f16(loopy_f16 h) {\n"
    "  float f;\n"
    "  asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h));\n"
    "  return f;\n"
    "}\n"
    "static __device__ __forceinline__ loopy_f16 loopy_st_f16(float f) {\n"
    "  loopy_f16 h;\n"
    "  asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f));\n"
    "  return h;\n"
    "}\n"
    "static __device__ __forceinline__ float loopy_ld_bf16(loopy_bf16 h) {\n"
    "  return __uint_as_float((unsigned)h << 16);\n"
    "}\n"
    "static __device__ __forceinline__ loopy_bf16 loopy_st_bf16(float f) {\n"
    "  unsigned u = __float_as_uint(f);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u)\n"
    "    return (loopy_bf16)((u >> 16) | 0x40u);\n"
    "  return (loopy_bf16)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);\n"
    "}\n"
    "static __device__ __forceinline__ float loopy_rn_f16(float f) { return loopy_ld_f16(loopy_st_f16(f)); }\n"
    "static __device__ __forceinline__ float loopy_rn_bf16(float f) { return loopy_ld_bf16(loopy_st_bf16(f)); }\n",
    "#if __CUDA_ARCH__ >= 800\n"
    "#define LOOPY_COPY_ASYNC(cache, bytes, d, s) \\\n"
    "  asm volatile(\"cp.async.\" cache \".shared.global [%0], [%1], \" #bytes \";\\n\" \\\n"
    "               :: \"r\"((unsigned)__cvta_generic_to_shared(d)), \"l\"(s) : \"memory\")\n"
    "#else\n"
    "#define LOOPY_COPY_ASYNC(cache, bytes, d, s) loopy_copy_sync##bytes(d, s)\n"
    "#endif\n"
    "struct __align__(16) loopy_bytes16 { unsigned w[4]; };\n"
    "struct __align__(8) loopy_bytes8 { unsigned w[2]; };\n"
    "static __device__ __forceinline__ void loopy_copy_sync4(void *d, const void *s) { *(unsigned *)d = *(const unsigned *)s; }\n"
    "static __device__ __forceinline__ void loopy_copy_sync8(void *d, const void *s) { *(loopy_bytes8 *)d = *(const loopy_bytes8 *)s; }\n"
    "static __device__ __forceinline__ void loopy_copy_sync16(void *d, const void *s) { *(loopy_bytes16 *)d = *(const loopy_bytes16 *)s; }\n"
    "static __device__ __forceinline__ void loopy_copy_async4(void *d, const void *s) { LOOPY_COPY_ASYNC(\"ca\", 4, d, s); }\n"
    "static __device__ __forceinline__ void loopy_copy_async8(void *d, const void *s) { LOOPY_COPY_ASYNC(\"ca\", 8, d, s); }\n"
    "static __device__ __forceinline__ void loopy_copy_async16(void *d, const void *s) { LOOPY_COPY_ASYNC(\"cg\", 16, d, s); }\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "#define loopy_commit_async() asm volatile(\"cp.async.commit_group;\\n\" ::: \"memory\")\n"
    "#define loopy_wait_async(pending) asm volatile(\"cp.async.wait_group \" #pending \";\\n\" ::: \"memory\")\n"
    "#else\n"
    "#define loopy_commit_async()\n"
    "#define loopy_wait_async(pending)\n"
    "#endif\n",
    "static __device__ __forceinline__ unsigned loopy_pack2(unsigned short lo, unsigned short hi) {\n"
    "  return (unsigned)lo | ((unsigned)hi << 16);\n"
    "}\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "#define LOOPY_MMA(type, c0, c1, c2, c3, a0, a1, a2, a3, b0, b1) \\\n"
    "  asm(\"mma.sync.aligned.m16n8k16.row.col.f32.\" type \".\" type \".f32 \" \\\n"
    "      \"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\\n\" \\\n"
    "      : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3) \\\n"
    "      : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1))\n"
    "#else\n"
    "// Before sm_80: the same sums from the lanes' fragments, by shuffles. An operand's value of k\n"
    "// in register w: kind 0 f16 and 1 bf16 (two values a register, the lower k in the lower\n"
    "// half; m16n8k16), 2 tf32 (one; m16n8k8).\n"
    "static __device__ __forceinline__ float loopy_mma_elem(unsigned w, unsigned k, int kind) {\n"
    "  if (kind == 2)\n"
    "    return __uint_as_float(w);\n"
    "  const unsigned short h = (unsigned short)(w >> (16 * (k & 1)));\n"
    "  return kind ? __uint_as_float((unsigned)h << 16) : loopy_ld_f16(h);\n"
    "}\n"
    "static __device__ __forceinline__ void loopy_mma_shuffled(float &c0, float &c1, float &c2, float &c3,\n"
    "    unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1, int kind) {\n"
    "  const unsigned lane = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;\n"
    "  const unsigned gid = lane / 4, tig = lane % 4;\n"
    "  const unsigned n = kind == 2 ? 8 : 16, per = kind == 2 ? 1 : 2;\n"
    "  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;\n"
    "  for (unsigned k = 0; k < n; ++k) {\n"
    "    const unsigned from = (k % (n / 2)) / per;\n"
    "    const bool hi = k >= n / 2;\n"
    "    const float x0 = loopy_mma_elem(__shfl_sync(0xffffffffu, hi ? a2 : a0, 4 * gid + from), k, kind);\n"
    "    const float x1 = loopy_mma_elem(__shfl_sync(0xffffffffu, hi ? a3 : a1, 4 * gid + from), k, kind);\n"
    "    const float y0 = loopy_mma_elem(__shfl_sync(0xffffffffu, hi ? b1 : b0, 8 * tig + from), k, kind);\n"
    "    const float y1 = loopy_mma_elem(__shfl_sync(0xffffffffu, hi ? b1 : b0, 8 * tig + 4 + from), k, kind);\n"
    "    s0 += x0 * y0; s1 += x0 * y1; s2 += x1 * y0; s3 += x1 * y1;\n"
    "  }\n"
    "  c0 += s0; c1 += s1; c2 += s2; c3 += s3;\n"
    "}\n"
    "#define LOOPY_MMA(type, c0, c1, c2, c3, a0, a1, a2, a3, b0, b1) \\\n"
    "  loopy_mma_shuffled(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1, type[0] == 'b')\n"
    "#endif\n"
    "#if __CUDA_ARCH__ >= 750\n"
    "static __device__ __forceinline__ void loopy_ldmatrix_x2(unsigned &d0, unsigned &d1, const void *p) {\n"
    "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\\n\"\n"
    "               : \"=r\"(d0), \"=r\"(d1) : \"r\"((unsigned)__cvta_generic_to_shared(p)) : \"memory\");\n"
    "}\n"
    "static __device__ __forceinline__ void loopy_ldmatrix_x4(unsigned &d0, unsigned &d1, unsigned &d2, unsigned &d3,\n"
    "                                                         const void *p) {\n"
    "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\\n\"\n"
    "               : \"=r\"(d0), \"=r\"(d1), \"=r\"(d2), \"=r\"(d3)\n"
    "               : \"r\"((unsigned)__cvta_generic_to_shared(p)) : \"memory\");\n"
    "}\n"
    "static __device__ __forceinline__ void loopy_ldmatrix_x2_trans(unsigned &d0, unsigned &d1, const void *p) {\n"
    "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\\n\"\n"
    "               : \"=r\"(d0), \"=r\"(d1) : \"r\"((unsigned)__cvta_generic_to_shared(p)) : \"memory\");\n"
    "}\n"
    "static __device__ __forceinline__ void loopy_ldmatrix_x4_trans(unsigned &d0, unsigned &d1, unsigned &d2,\n"
    "                                                               unsigned &d3, const void *p) {\n"
    "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\\n\"\n"
    "               : \"=r\"(d0), \"=r\"(d1), \"=r\"(d2), \"=r\"(d3)\n"
    "               : \"r\"((unsigned)__cvta_generic_to_shared(p)) : \"memory\");\n"
    "}\n"
    "#endif\n"
    "static __device__ __forceinline__ void loopy_mma_m16n8k16_f16(float &c0, float &c1, float &c2, float &c3,\n"
    "    unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1) {\n"
    "  LOOPY_MMA(\"f16\", c0, c1, c2, c3, a0, a1, a2, a3, b0, b1);\n"
    "}\n"
    "static __device__ __forceinline__ void loopy_mma_m16n8k16_bf16(float &c0, float &c1, float &c2, float &c3,\n"
    "    unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1) {\n"
    "  LOOPY_MMA(\"bf16\", c0, c1, c2, c3, a0, a1, a2, a3, b0, b1);\n"
    "}\n"
    "static __device__ __forceinline__ void loopy_mma_m8n8k4_f64(double &c0, double &c1, double a0, double b0) {\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "  asm(\"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\\n\"\n"
    "      : \"+d\"(c0), \"+d\"(c1) : \"d\"(a0), \"d\"(b0));\n"
    "#else\n"
    "  const unsigned lane = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;\n"
    "  const unsigned gid = lane / 4, tig = lane % 4;\n"
    "  double s0 = 0.0, s1 = 0.0;\n"
    "  for (unsigned k = 0; k < 4; ++k) {\n"
    "    const double x = __shfl_sync(0xffffffffu, a0, 4 * gid + k);\n"
    "    s0 += x * __shfl_sync(0xffffffffu, b0, 8 * tig + k);\n"
    "    s1 += x * __shfl_sync(0xffffffffu, b0, 8 * tig + 4 + k);\n"
    "  }\n"
    "  c0 += s0; c1 += s1;\n"
    "#endif\n"
    "}\n"
    "// Register R of the first operand holds row gid + 8 * (R % 2), k tig + 4 * (R / 2); register R\n"
    "// of the second, k tig + 4 * R: the fragments of the eight m8n8k4 products of 8 rows by 4 k.\n"
    "static __device__ __forceinline__ void loopy_mma_m16n8k16_f64(double &c0, double &c1, double &c2, double &c3,\n"
    "    double a0, double a1, double a2, double a3, double a4, double a5, double a6, double a7,\n"
    "    double b0, double b1, double b2, double b3) {\n"
    "#if __CUDA_ARCH__ >= 900\n"
    "  asm(\"mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, \"\n"
    "      \"{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\\n\"\n"
    "      : \"+d\"(c0), \"+d\"(c1), \"+d\"(c2), \"+d\"(c3)\n"
    "      : \"d\"(a0), \"d\"(a1), \"d\"(a2), \"d\"(a3), \"d\"(a4), \"d\"(a5), \"d\"(a6), \"d\"(a7),\n"
    "        \"d\"(b0), \"d\"(b1), \"d\"(b2), \"d\"(b3));\n"
    "#else\n"
    "  loopy_mma_m8n8k4_f64(c0, c1, a0, b0); loopy_mma_m8n8k4_f64(c2, c3, a1, b0);\n"
    "  loopy_mma_m8n8k4_f64(c0, c1, a2, b1); loopy_mma_m8n8k4_f64(c2, c3, a3, b1);\n"
    "  loopy_mma_m8n8k4_f64(c0, c1, a4, b2); loopy_mma_m8n8k4_f64(c2, c3, a5, b2);\n"
    "  loopy_mma_m8n8k4_f64(c0, c1, a6, b3); loopy_mma_m8n8k4_f64(c2, c3, a7, b3);\n"
    "#endif\n"
    "}\n"
    "// f32 rounded to tf32 (to nearest, ties away from zero), in its 32 bits.\n"
    "static __device__ __forceinline__ unsigned loopy_tf32(float x) {\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "  unsigned r;\n"
    "  asm(\"cvt.rna.tf32.f32 %0, %1;\\n\" : \"=r\"(r) : \"f\"(x));\n"
    "  return r;\n"
    "#else\n"
    "  return (__float_as_uint(x) + 0x1000u) & 0xffffe000u;\n"
    "#endif\n"
    "}\n"
    "// Register R of the first operand holds row gid + 8 * (R % 2), k tig + 4 * (R / 2); of the\n"
    "// second, k tig + 4 * R.\n"
    "static __device__ __forceinline__ void loopy_mma_m16n8k8_tf32(float &c0, float &c1, float &c2, float &c3,\n"
    "    unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1) {\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "  asm(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, \"\n"
    "      \"{%0, %1, %2, %3};\\n\"\n"
    "      : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3)\n"
    "      : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));\n"
    "#else\n"
    "  loopy_mma_shuffled(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1, 2);\n"
    "#endif\n"
    "}\n",
    true, true, false, true, true, true, true};

const Spelling OpenCLSpelling = {
    "__kernel void",
    "long",
    "__local ",
    "barrier(CLK_LOCAL_MEM_FENCE);",
    "__global const ",
    "__global ",
    "restrict ",
    {"get_group_id(0)", "get_group_id(1)", "get_group_id(2)"},
    {"get_local_id(0)", "get_local_id(1)", "get_local_id(2)"},
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "typedef long idx;\n"
    "static inline idx loopy_floord(idx a, idx b) {\n"
    "  return (a >= 0 ? a : a - b + 1) / b;\n"
    "}\n"
    "static inline idx loopy_min(idx a, idx b) { return a < b ? a : b; }\n"
    "static inline idx loopy_max(idx a, idx b) { return a > b ? a : b; }\n"
    "#define LOOPY_INFINITY INFINITY\n",
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "static inline void __attribute__((overloadable))\n"
    "loopy_atomic_add(volatile __global float *p, float v) {\n"
    "  union { uint u; float f; } seen, sum;\n"
    "  do {\n"
    "    seen.f = *p;\n"
    "    sum.f = seen.f + v;\n"
    "  } while (atomic_cmpxchg((volatile __global uint *)p, seen.u, sum.u) != seen.u);\n"
    "}\n"
    "static inline void __attribute__((overloadable))\n"
    "loopy_atomic_add(volatile __global double *p, double v) {\n"
    "  union { ulong u; double f; } seen, sum;\n"
    "  do {\n"
    "    seen.f = *p;\n"
    "    sum.f = seen.f + v;\n"
    "  } while (atom_cmpxchg((volatile __global ulong *)p, seen.u, sum.u) != seen.u);\n"
    "}\n"
    "static inline void __attribute__((overloadable))\n"
    "loopy_atomic_add(volatile __global int *p, int v) { atomic_add(p, v); }\n"
    "static inline void __attribute__((overloadable))\n"
    "loopy_atomic_add(volatile __global long *p, long v) { atom_add(p, v); }\n",
    "static inline int loopy_div_i32(int a, int b) {\n"
    "  return b == 0 ? 0 : b == -1 ? (int)(0u - (uint)a) : a / b;\n"
    "}\n"
    "static inline int loopy_rem_i32(int a, int b) {\n"
    "  return b == 0 ? a : b == -1 ? 0 : a % b;\n"
    "}\n"
    "static inline idx loopy_div_i64(idx a, idx b) {\n"
    "  return b == 0 ? 0 : b == -1 ? (idx)(0ul - (ulong)a) : a / b;\n"
    "}\n"
    "static inline idx loopy_rem_i64(idx a, idx b) {\n"
    "  return b == 0 ? a : b == -1 ? 0 : a % b;\n"
    "}\n",
    "typedef ushort loopy_f16;\n"
    "typedef ushort loopy_bf16;\n"
    "static inline float loopy_ld_f16(loopy_f16 h) {\n"
    "  uint s = (uint)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;\n"
    "  if (e == 0x1f)\n"
    "    return as_float(s | 0x7f800000u | (m << 13));\n"
    "  if (e == 0) {\n"
    "    float v = (float)m * 0x1p-24f;\n"
    "    return s ? -v : v;\n"
    "  }\n"
    "  return as_float(s | ((e + 112) << 23) | (m << 13));\n"
    "}\n"
    "static inline loopy_f16 loopy_st_f16(float f) {\n"
    "  uint u = as_uint(f), a = u & 0x7fffffffu;\n"
    "  ushort s = (ushort)((u >> 16) & 0x8000);\n"
    "  if (a > 0x7f800000u)\n"
    "    return s | 0x7e00 | (ushort)((a >> 13) & 0x1ff);\n"
    "  if (a >= 0x477ff000u)\n"
    "    return s | 0x7c00;\n"
    "  if (a < 0x38800000u)\n"
    "    return s | (ushort)rint(as_float(a) * 0x1p24f);\n"
    "  return s | (ushort)(((a + 0xfffu + ((a >> 13) & 1u)) >> 13) - (112u << 10));\n"
    "}\n"
    "static inline float loopy_ld_bf16(loopy_bf16 h) { return as_float((uint)h << 16); }\n"
    "static inline loopy_bf16 loopy_st_bf16(float f) {\n"
    "  uint u = as_uint(f);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u)\n"
    "    return (loopy_bf16)((u >> 16) | 0x40u);\n"
    "  return (loopy_bf16)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);\n"
    "}\n"
    "static inline float loopy_rn_f16(float f) { return loopy_ld_f16(loopy_st_f16(f)); }\n"
    "static inline float loopy_rn_bf16(float f) { return loopy_ld_bf16(loopy_st_bf16(f)); }\n",
    "",
    "static inline uint loopy_pack2(ushort lo, ushort hi) { return (uint)lo | ((uint)hi << 16); }\n"
    "// An operand's value of k in register w: kind 0 f16 and 1 bf16 (two values a\n"
    "// register, the lower k in the lower half), 2 tf32 (one).\n"
    "static inline float loopy_mma_elem(uint w, uint k, int kind) {\n"
    "  if (kind == 2)\n"
    "    return as_float(w);\n"
    "  const ushort h = (ushort)(w >> (16 * (k & 1)));\n"
    "  return kind ? as_float((uint)h << 16) : loopy_ld_f16(h);\n"
    "}\n"
    "// The warp's instruction, emulated: its 32 work-items leave their\n"
    "// fragments in the kernel's scratch buffer (6 words each) and each sums\n"
    "// its accumulators' products from there: m16n8k16 on 16-bit operands,\n"
    "// m16n8k8 on tf32.\n"
    "static void loopy_mma_emulated(float *c0, float *c1, float *c2, float *c3,\n"
    "    uint a0, uint a1, uint a2, uint a3, uint b0, uint b1, int kind, __local uint *x) {\n"
    "  const uint lin = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));\n"
    "  const uint lane = lin % 32, gid = lane / 4, tig = lane % 4;\n"
    "  const uint n = kind == 2 ? 8 : 16, per = kind == 2 ? 1 : 2;\n"
    "  __local uint *w = x + 192 * (lin / 32);\n"
    "  w[6 * lane] = a0; w[6 * lane + 1] = a1; w[6 * lane + 2] = a2;\n"
    "  w[6 * lane + 3] = a3; w[6 * lane + 4] = b0; w[6 * lane + 5] = b1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;\n"
    "  for (uint k = 0; k < n; ++k) {\n"
    "    const uint from = (k % (n / 2)) / per, hi = k >= n / 2;\n"
    "    const float x0 = loopy_mma_elem(w[6 * (4 * gid + from) + (hi ? 2 : 0)], k, kind);\n"
    "    const float x1 = loopy_mma_elem(w[6 * (4 * gid + from) + (hi ? 3 : 1)], k, kind);\n"
    "    const float y0 = loopy_mma_elem(w[6 * (8 * tig + from) + (hi ? 5 : 4)], k, kind);\n"
    "    const float y1 = loopy_mma_elem(w[6 * (8 * tig + 4 + from) + (hi ? 5 : 4)], k, kind);\n"
    "    s0 += x0 * y0; s1 += x0 * y1; s2 += x1 * y0; s3 += x1 * y1;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  *c0 += s0; *c1 += s1; *c2 += s2; *c3 += s3;\n"
    "}\n"
    "#define loopy_mma_m16n8k16_f16(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1) \\\n"
    "  loopy_mma_emulated(&(c0), &(c1), &(c2), &(c3), a0, a1, a2, a3, b0, b1, 0, loopy_mma_x)\n"
    "#define loopy_mma_m16n8k16_bf16(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1) \\\n"
    "  loopy_mma_emulated(&(c0), &(c1), &(c2), &(c3), a0, a1, a2, a3, b0, b1, 1, loopy_mma_x)\n"
    "#define loopy_mma_m16n8k8_tf32(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1) \\\n"
    "  loopy_mma_emulated(&(c0), &(c1), &(c2), &(c3), a0, a1, a2, a3, b0, b1, 2, loopy_mma_x)\n"
    "// m8n8k4 on f64: two doubles a lane, in the same scratch words.\n"
    "static void loopy_mma_emulated_f64(double *c0, double *c1, double a0, double b0, __local uint *x) {\n"
    "  const uint lin = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));\n"
    "  const uint lane = lin % 32, gid = lane / 4, tig = lane % 4;\n"
    "  __local double *w = (__local double *)(x + 192 * (lin / 32));\n"
    "  w[2 * lane] = a0; w[2 * lane + 1] = b0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  double s0 = 0.0, s1 = 0.0;\n"
    "  for (uint k = 0; k < 4; ++k) {\n"
    "    const double v = w[2 * (4 * gid + k)];\n"
    "    s0 += v * w[2 * (8 * tig + k) + 1];\n"
    "    s1 += v * w[2 * (8 * tig + 4 + k) + 1];\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  *c0 += s0; *c1 += s1;\n"
    "}\n"
    "#define loopy_mma_m8n8k4_f64(c0, c1, a0, b0) loopy_mma_emulated_f64(&(c0), &(c1), a0, b0, loopy_mma_x)\n"
    "#define loopy_mma_m16n8k16_f64(c0, c1, c2, c3, a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3) \\\n"
    "  do { \\\n"
    "    loopy_mma_m8n8k4_f64(c0, c1, a0, b0); loopy_mma_m8n8k4_f64(c2, c3, a1, b0); \\\n"
    "    loopy_mma_m8n8k4_f64(c0, c1, a2, b1); loopy_mma_m8n8k4_f64(c2, c3, a3, b1); \\\n"
    "    loopy_mma_m8n8k4_f64(c0, c1, a4, b2); loopy_mma_m8n8k4_f64(c2, c3, a5, b2); \\\n"
    "    loopy_mma_m8n8k4_f64(c0, c1, a6, b3); loopy_mma_m8n8k4_f64(c2, c3, a7, b3); \\\n"
    "  } while (0)\n"
    "// f32 rounded to tf32 (to nearest, ties away from zero), in its 32 bits.\n"
    "static inline uint loopy_tf32(float x) { return (as_uint(x) + 0x1000u) & 0xffffe000u; }\n",
    false, false, true, false, false, false, false};


class Printer {
public:
  Printer(const Spelling &Sp, std::ostringstream &OS) : Sp(Sp), OS(OS) {}

  void kernel(const DeviceKernel &K);

private:
  void indent() { OS << std::string(2 * Depth, ' '); }
  /// \p L one level deeper, then the closing brace.
  void nested(const NodeList &L) {
    ++Depth;
    nodes(L);
    --Depth;
    indent();
    OS << "}\n";
  }
  void nodes(const NodeList &L);
  void node(const Node &N);
  void blockReduce(const Node &N);
  void warpReduce(const Node &N, const std::string (&T)[3], DType Type);

  const Spelling &Sp;
  std::ostringstream &OS;
  const DeviceKernel *K = nullptr;
  /// The type of loop counters, coordinates and constants of this kernel.
  const char *Index = "idx";
  unsigned Depth = 0;
};

void Printer::kernel(const DeviceKernel &DK) {
  K = &DK;
  Index = DK.Index32 ? "int" : "idx";
  OS << "\n";
  for (const std::string &H : DK.Header)
    OS << "// " << H << "\n";
  OS << Sp.KernelQualifier << " ";
  if (Sp.LaunchBounds && DK.MinBlocks)
    OS << "__launch_bounds__("
       << DK.BlockDim[0] * DK.BlockDim[1] * DK.BlockDim[2] << ", "
       << DK.MinBlocks << ") ";
  OS << DK.Name << "(";
  for (size_t I = 0; I < DK.Params.size(); ++I) {
    const KernelParam &P = DK.Params[I];
    OS << (I ? ",\n    " : "\n    ");
    switch (P.K) {
    case KernelParam::Kind::Index:
      OS << "const idx " << P.Name;
      break;
    case KernelParam::Kind::Scalar:
      OS << "const " << cTypeName(P.Type) << " " << P.Name;
      break;
    case KernelParam::Kind::InArray:
      OS << Sp.GlobalConst << cTypeName(P.Type) << " *" << Sp.Restrict << P.Name;
      break;
    case KernelParam::Kind::OutArray:
      OS << Sp.Global << cTypeName(P.Type) << " *" << Sp.Restrict << P.Name;
      break;
    }
  }
  OS << ") {\n";
  Depth = 1;
  for (auto &[Name, Value] : DK.Constants) {
    indent();
    OS << "const " << Index << " " << Name << " = " << Value << ";\n";
  }
  for (const IdBinding &B : DK.Ids) {
    indent();
    int A = static_cast<int>(B.Ax);
    std::string Id = B.Block ? Sp.BlockIdx[A] : Sp.ThreadIdx[A];
    if (B.Div > 1)
      Id = Id + " / " + std::to_string(B.Div);
    if (B.Mod > 0)
      Id = (B.Div > 1 ? "(" + Id + ")" : Id) + " % " + std::to_string(B.Mod);
    OS << "const " << Index << " " << B.Name << " = " << Id << ";\n";
  }
  // A register tile that overhangs the extent everywhere (8 outputs 32
  // threads apart over an extent of 40) leaves 2,048 guarded updates,
  // which took NVRTC 50 s where the ranges are unstated and 3 s where
  // they are.
  if (Sp.IdRanges)
    for (const IdBinding &B : DK.Ids) {
      indent();
      OS << "__builtin_assume(" << B.Name << " >= 0";
      if (!B.Block)
        OS << " && " << B.Name << " < "
           << DK.BlockDim[static_cast<int>(B.Ax)];
      OS << ");\n";
    }
  if (DK.DynamicShared && Sp.DynamicShared) {
    indent();
    OS << "extern " << Sp.Shared << "__align__(16) unsigned char loopy_shared[]; // "
       << DK.DynamicShared << " bytes, allocated at launch\n";
    std::vector<long> Off = DK.sharedOffsets();
    for (size_t I = 0; I < DK.Shared.size(); ++I) {
      // A pointer to the buffer's rows: subscripts read as they would on
      // the array.
      const Buffer &B = DK.Shared[I];
      std::string Rows;
      for (size_t D = 1; D < B.Dims.size(); ++D)
        Rows += "[" + std::to_string(B.Dims[D]) + "]";
      std::string T = cTypeName(B.Type);
      std::string Ptr = Rows.empty() ? T + " *" : T + " (*)" + Rows;
      indent();
      OS << (Rows.empty() ? T + " *" + B.Name : T + " (*" + B.Name + ")" + Rows)
         << " = reinterpret_cast<" << Ptr << ">(loopy_shared + " << Off[I]
         << "); // " << B.Comment << "\n";
    }
  }
  for (const Buffer &B : DK.Shared) {
    if (DK.DynamicShared && Sp.DynamicShared)
      break; // declared above
    indent();
    OS << Sp.Shared;
    if (B.Align && Sp.AlignPrefix)
      OS << "__align__(" << B.Align << ") ";
    OS << cTypeName(B.Type) << " " << B.Name;
    for (long D : B.Dims)
      OS << "[" << D << "]";
    if (B.Align && !Sp.AlignPrefix)
      OS << " __attribute__((aligned(" << B.Align << ")))";
    OS << "; // " << B.Comment << "\n";
  }
  if (DK.Mma && !Sp.MmaInstruction) {
    long Threads = DK.BlockDim[0] * DK.BlockDim[1] * DK.BlockDim[2];
    indent();
    OS << Sp.Shared << "uint loopy_mma_x[" << 192 * ((Threads + 31) / 32)
       << "] __attribute__((aligned(8))); // the warps' fragments, for the "
          "emulated instruction\n";
  }
  for (const Buffer &B : DK.Registers) {
    indent();
    OS << cTypeName(B.Type) << " " << B.Name;
    for (long D : B.Dims)
      OS << "[" << D << "]";
    OS << "; // " << B.Comment << "\n";
  }
  nodes(DK.Body);
  OS << "}\n";
}

void Printer::nodes(const NodeList &L) {
  for (const NodePtr &N : L)
    node(*N);
}

void Printer::node(const Node &N) {
  switch (N.K) {
  case Node::Kind::Block:
    indent();
    OS << "{\n";
    nested(N.Body);
    return;
  case Node::Kind::For:
    if (N.Unroll) {
      indent();
      OS << "#pragma unroll";
      if (N.UnrollBy > 0)
        OS << " " << N.UnrollBy;
      OS << "\n";
    }
    indent();
    OS << "for (" << Index << " " << N.Iter << " = " << N.Init << "; " << N.Cond << "; "
       << N.Iter << " += " << N.Step << ") {\n";
    nested(N.Body);
    return;
  case Node::Kind::If:
    indent();
    OS << "if (" << N.Cond << ") {\n";
    ++Depth;
    nodes(N.Body);
    --Depth;
    indent();
    if (!N.Else.empty()) {
      OS << "} else {\n";
      ++Depth;
      nodes(N.Else);
      --Depth;
      indent();
    }
    OS << "}\n";
    return;
  case Node::Kind::Line:
    indent();
    OS << N.Text << "\n";
    return;
  case Node::Kind::Declare:
    indent();
    OS << "const " << Index << " " << N.Iter << " = " << N.Init << ";\n";
    return;
  case Node::Kind::Barrier:
    indent();
    OS << Sp.Barrier << "\n";
    return;
  case Node::Kind::Comment:
    indent();
    OS << "// " << N.Text << "\n";
    return;
  case Node::Kind::BlockReduce:
    blockReduce(N);
    return;
  case Node::Kind::VectorLoad: {
    // 16-bit elements travel as 32-bit words, two to a word.
    bool Words = isHalf(N.Type);
    long Count = Words ? N.Count / 2 : N.Count;
    std::string E = Words ? "uint" : cTypeName(N.Type);
    std::string V = E + std::to_string(Count);
    indent();
    OS << "const " << V << " " << N.Iter << " = ";
    if (Sp.VectorBuiltin)
      OS << "vload" << Count << "(0, "
         << (Words ? "(" + std::string(Sp.GlobalConst) + "uint *)" : "")
         << "&" << N.Init << ");\n";
    else
      OS << "*reinterpret_cast<const " << V << " *>(&" << N.Init << ");\n";
    return;
  }
  case Node::Kind::AsyncCopy: {
    indent();
    long Bytes = N.Count * static_cast<long>(dtypeSize(N.Type));
    if (Sp.AsyncPrelude[0]) {
      OS << "loopy_copy_async" << Bytes << "(&" << N.Text << ", &" << N.Init
         << ");\n";
    } else if (N.Count == 1) {
      OS << N.Text << " = " << N.Init << ";\n";
    } else {
      OS << "vstore" << N.Count << "(vload" << N.Count << "(0, &" << N.Init
         << "), 0, &" << N.Text << ");\n";
    }
    return;
  }
  case Node::Kind::AsyncCommit:
    if (Sp.AsyncPrelude[0]) {
      indent();
      OS << "loopy_commit_async();\n";
    }
    return;
  case Node::Kind::AsyncWait:
    if (Sp.AsyncPrelude[0]) {
      indent();
      OS << "loopy_wait_async(" << N.Count << ");\n";
    }
    return;
  case Node::Kind::MatrixLoad:
    if (!Sp.MmaInstruction) {
      nodes(N.Body);
      return;
    }
    OS << "#if __CUDA_ARCH__ >= 750\n";
    indent();
    OS << "loopy_ldmatrix_x" << N.Count << N.Text << "(";
    for (const std::string &A : N.Args)
      OS << A << ", ";
    OS << "&" << N.Init << ");\n";
    OS << "#else\n";
    nodes(N.Body);
    OS << "#endif\n";
    return;
  case Node::Kind::Mma:
    indent();
    OS << "loopy_mma_" << N.Text << "_"
       << (N.Type == DType::F32 ? "tf32" : dtypeName(N.Type)) << "(";
    for (size_t I = 0; I < N.Args.size(); ++I)
      OS << (I ? ", " : "") << N.Args[I];
    OS << ");\n";
    return;
  }
}

void Printer::blockReduce(const Node &N) {
  // The thread coordinates, "0" on axes of one thread.
  std::string T[3] = {"0", "0", "0"};
  for (const IdBinding &B : K->Ids)
    if (!B.Block)
      T[static_cast<int>(B.Ax)] = B.Name;
  DType Type = DType::F32;
  for (const Buffer &B : K->Shared)
    if (B.Name == N.Buffer)
      Type = B.Type;
  int A = static_cast<int>(N.Ax);
  // Along x, whole warps hold consecutive threads of one row of the block.
  if (Sp.WarpShuffle && N.Ax == Axis::X && N.ReduceThreads % 32 == 0)
    return warpReduce(N, T, Type);
  auto Slot = [&](const std::string &R, const std::string &AxisValue) {
    std::string C[3] = {T[0], T[1], T[2]};
    C[A] = AxisValue;
    return N.Buffer + "[" + R + "][" + C[2] + "][" + C[1] + "][" + C[0] + "]";
  };
  std::string Cnt = std::to_string(N.Count);
  indent();
  OS << "// combine the partial results of the " << N.ReduceThreads
     << " threads along " << axisLetter(N.Ax) << "\n";
  indent();
  OS << "for (int red_r = 0; red_r < " << Cnt << "; ++red_r)\n";
  indent();
  OS << "  " << Slot("red_r", T[A]) << " = " << N.Text << "[red_r];\n";
  indent();
  OS << Sp.Barrier << "\n";
  indent();
  OS << "for (int red_s = " << N.ReduceThreads / 2 << "; red_s > 0; red_s /= 2) {\n";
  ++Depth;
  indent();
  OS << "if (" << T[A] << " < red_s)\n";
  indent();
  OS << "  for (int red_r = 0; red_r < " << Cnt << "; ++red_r)\n";
  indent();
  OS << "    " << Slot("red_r", T[A]) << " = "
     << combineText(N.Op, Type, Slot("red_r", T[A]), Slot("red_r", T[A] + " + red_s")) << ";\n";
  indent();
  OS << Sp.Barrier << "\n";
  --Depth;
  indent();
  OS << "}\n";
  indent();
  OS << "for (int red_r = 0; red_r < " << Cnt << "; ++red_r)\n";
  indent();
  OS << "  " << N.Text << "[red_r] = " << Slot("red_r", "0") << ";\n";
  // The buffer is free again only once every thread has read it.
  indent();
  OS << Sp.Barrier << "\n";
}

void Printer::warpReduce(const Node &N, const std::string (&T)[3], DType Type) {
  // Each warp folds its 32 partials by shuffles (lane 0 ends with the
  // warp's), lane 0 of every warp leaves it in the buffer, and the first
  // warp folds those the same way: thread 0 holds the block's result,
  // which is the only one that writes.
  long Warps = N.ReduceThreads / 32;
  std::string Cnt = std::to_string(N.Count);
  auto Slot = [&](const std::string &X) {
    return N.Buffer + "[red_r][" + T[2] + "][" + T[1] + "][" + X + "]";
  };
  auto Fold = [&](long From) {
    indent();
    OS << "for (int red_s = " << From << "; red_s > 0; red_s /= 2)\n";
    indent();
    OS << "  " << N.Text << "[red_r] = "
       << combineText(N.Op, Type, N.Text + "[red_r]",
                      "__shfl_down_sync(0xffffffffu, " + N.Text +
                          "[red_r], red_s)")
       << ";\n";
  };
  indent();
  OS << "// combine the partial results of the " << N.ReduceThreads
     << " threads along x: within each warp by shuffles";
  OS << (Warps > 1 ? ", then the warps' results\n" : "\n");
  indent();
  OS << "for (int red_r = 0; red_r < " << Cnt << "; ++red_r) {\n";
  ++Depth;
  Fold(16);
  if (Warps > 1) {
    indent();
    OS << "if (" << T[0] << " % 32 == 0)\n";
    indent();
    OS << "  " << Slot(T[0] + " / 32") << " = " << N.Text << "[red_r];\n";
  }
  --Depth;
  indent();
  OS << "}\n";
  if (Warps == 1)
    return;
  indent();
  OS << Sp.Barrier << "\n";
  indent();
  OS << "if (" << T[0] << " < 32) {\n";
  ++Depth;
  indent();
  OS << "for (int red_r = 0; red_r < " << Cnt << "; ++red_r) {\n";
  ++Depth;
  indent();
  OS << "if (" << T[0] << " < " << Warps << ")\n";
  indent();
  OS << "  " << N.Text << "[red_r] = " << Slot(T[0]) << ";\n";
  Fold(Warps / 2);
  --Depth;
  indent();
  OS << "}\n";
  --Depth;
  indent();
  OS << "}\n";
  // The buffer is free again only once the first warp has read it.
  indent();
  OS << Sp.Barrier << "\n";
}

} // namespace

namespace device {
std::string combineText(ReduceOp Op, DType T, const std::string &L,
                        const std::string &R) {
  switch (Op) {
  case ReduceOp::Sum:
    return L + " + " + R;
  case ReduceOp::Prod:
    return L + " * " + R;
  case ReduceOp::Max:
    return std::string(isFloat(T) ? "fmax(" : "max(") + L + ", " + R + ")";
  case ReduceOp::Min:
    return std::string(isFloat(T) ? "fmin(" : "min(") + L + ", " + R + ")";
  }
  return L;
}
} // namespace device

static const Spelling &spelling(Dialect D) {
  return D == Dialect::CUDA ? CudaSpelling : OpenCLSpelling;
}

void PreludeParts::add(const device::DeviceProgram &P) {
  for (const device::DeviceKernel &K : P.Kernels) {
    Atomics |= K.Atomics;
    IntDivision |= K.IntDivision;
    Half |= K.usesHalf();
    Async |= K.Async;
    Mma |= K.Mma;
  }
}

std::string printPrelude(Dialect D, const PreludeParts &Parts) {
  const Spelling &S = spelling(D);
  return std::string(S.Prelude) + (Parts.Atomics ? S.AtomicPrelude : "") +
         (Parts.IntDivision ? S.IntDivisionPrelude : "") +
         (Parts.Half || Parts.Mma ? S.HalfPrelude : "") +
         (Parts.Async ? S.AsyncPrelude : "") +
         (Parts.Mma ? S.MmaPrelude : "");
}

std::string printKernels(const DeviceProgram &P, Dialect D) {
  std::ostringstream OS;
  for (const DeviceKernel &K : P.Kernels)
    Printer(spelling(D), OS).kernel(K);
  return OS.str();
}

std::string printProgram(const DeviceProgram &P, Dialect D) {
  PreludeParts Parts = PreludeParts::none();
  Parts.add(P);
  return "// Generated by loopyc from kernel " + P.KernelName + "\n" +
         "// schedule: " + P.Schedule + "\n" + printPrelude(D, Parts) +
         printKernels(P, D);
}

} // namespace loopy
