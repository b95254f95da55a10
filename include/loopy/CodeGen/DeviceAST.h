//===- DeviceAST.h - The device code tree both printers walk ----*- C++ -*-===//
//
// Lowering produces one DeviceKernel per statement: a small tree of loops,
// guards, statement lines, barriers and block reductions, plus the shared
// and register buffers it uses. Expressions inside are C text built from
// isl's AST expressions and are the same in every dialect; what differs
// between CUDA and OpenCL (thread ids, address spaces, barriers, the index
// type) is left to the printers.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_CODEGEN_DEVICEAST_H
#define LOOPY_CODEGEN_DEVICEAST_H

#include "loopy/IR/Expr.h"
#include "loopy/Schedule/Figures.h"
#include "loopy/Schedule/Schedule.h"

#include <memory>
#include <string>
#include <vector>

namespace loopy::device {

struct Node;
using NodePtr = std::unique_ptr<Node>;
using NodeList = std::vector<NodePtr>;

/// C text combining two partial results \p L and \p R of a reduction.
std::string combineText(ReduceOp Op, DType T, const std::string &L,
                        const std::string &R);

struct Node {
  enum class Kind {
    Block,       // Body
    For,         // for (idx Iter = Init; Cond; Iter += Step) Body
    If,          // if (Cond) Body else Else
    Line,        // Text: one statement, e.g. "acc[0][1] += a[...] * b[...];"
    Declare,     // const idx Iter = Init;
    Barrier,     // all threads of the block
    Comment,     // Text
    BlockReduce, // combine Buffer over the thread axis Ax (see below)
    VectorLoad,  // const TypeCount Iter = the Count elements from Init on
    AsyncCopy,   // the Count elements from Init on (global) to those from
                 // Text on (shared), completed by a later AsyncWait
    AsyncCommit, // this thread's AsyncCopy operations since the last
                 // commit form one group
    AsyncWait,   // this thread's groups of AsyncCopy operations have
                 // completed, all but the Count latest
    MatrixLoad,  // ldmatrix: Count 8 x 8 matrices of 16-bit elements
                 // from shared memory into the registers Args (declared
                 // before), this lane giving the row that starts at the
                 // element Init, Text "_trans" where the matrices' rows
                 // are their columns; Body assigns the same values element
                 // by element, for targets without the instruction
    Mma,         // the warp's product on Type operands, of the shape
                 // Text (m16n8k16, or m16n8k8 on F32 as tf32): Args are
                 // the four accumulators (lvalues), then the operands'
                 // fragment registers, of the first and of the second:
                 // four and two of two 16-bit elements each, eight and
                 // four f64, or four and two f32 (Schedule/Mma.h)
  };
  Kind K;
  std::string Iter, Init, Cond, Step, Text;
  bool Unroll = false;
  /// With Unroll: 0 unrolls the loop fully, N > 0 by N (1: not at all).
  unsigned UnrollBy = 0;
  NodeList Body, Else;
  // BlockReduce: Buffer[Count][Threads of the block] holds one partial per
  // thread; combine along axis Ax (ReduceThreads threads, a power of two)
  // with Op, leaving the result in the entries of thread coordinate 0.
  std::string Buffer;
  ReduceOp Op = ReduceOp::Sum;
  Axis Ax = Axis::X;
  long ReduceThreads = 1;
  long Count = 1;
  /// VectorLoad: the element type; Init is the first element (an lvalue
  /// in global memory, aligned to Count elements), and the lines after
  /// it read the components Iter.x, Iter.y, ...
  DType Type = DType::F32;
  std::vector<std::string> Args;

  explicit Node(Kind K) : K(K) {}
};

/// A buffer in shared memory or registers.
struct Buffer {
  std::string Name;
  DType Type;
  std::vector<long> Dims; // padded extents
  std::string Comment;    // what it holds, for the reader
  /// Alignment in bytes where vector accesses need more than the
  /// element's (0: the element's).
  long Align = 0;
  long bytes() const;
};

struct KernelParam {
  enum class Kind { Index, Scalar, InArray, OutArray };
  Kind K = Kind::Index;
  std::string Name;
  DType Type = DType::I64;
  /// A temporary array (Argument::Internal) that the launcher allocates,
  /// row-major, with these extents (C expressions of the sizes).
  bool Temporary = false;
  std::vector<std::string> Extents;
};

/// A thread or block coordinate the body uses, bound at the top.
struct IdBinding {
  std::string Name; // the variable the body uses
  bool Block;       // blockIdx (true) or threadIdx (false)
  Axis Ax;
  /// A block id that shares its axis with others: (id / Div) % Mod, Mod 0
  /// for none.
  long Div = 1;
  long Mod = 0;
};

// The static limit of shared memory and the dynamic array's slots, which
// the planner's figures count too.
using loopy::dynamicSharedSlot;
using loopy::StaticSharedLimit;

struct DeviceKernel {
  std::string Name;
  /// Lines of the header comment: kernel, schedule, launch, resources.
  std::vector<std::string> Header;
  std::vector<KernelParam> Params;
  /// Parameters fixed at compile time: const idx NAME = VALUE;
  std::vector<std::pair<std::string, long>> Constants;
  std::vector<IdBinding> Ids;
  std::vector<Buffer> Shared;
  std::vector<Buffer> Registers;
  NodeList Body;

  // Launch configuration.
  long BlockDim[3] = {1, 1, 1};
  /// Where not 0, the CUDA kernel carries __launch_bounds__(threads,
  /// MinBlocks) (Schedule::MinBlocks).
  long MinBlocks = 0;
  /// Blocks along x, y, z: isl piecewise affine functions of the index
  /// parameters (isl text), and the same as C expressions for the reader.
  std::string GridIsl[3];
  std::string GridC[3];
  /// Where the domain can be empty: the condition (C, on the parameters)
  /// under which the kernel runs at all; GridIsl is 0 elsewhere.
  std::string LaunchIf;
  /// Index arithmetic in 32 bits (`int`) rather than 64 (`idx`): where
  /// every parameter is fixed and isl bounds every index, parameter and
  /// array offset well below 2^31.
  bool Index32 = false;
  /// The body calls loopy_atomic_add (the prelude defines it).
  bool Atomics = false;
  /// The body calls loopy_div_i32/i64 and loopy_rem_i32/i64, the language's
  /// integer division (x / 0 = 0, x % 0 = x, the minimum / -1 wraps, % -1
  /// is 0), which the prelude defines without undefined behaviour.
  bool IntDivision = false;
  /// The kernel holds f16 or bf16 values: the prelude defines their types
  /// (loopy_f16, loopy_bf16, their 16 bits) and the conversions to and
  /// from float (loopy_ld_*, loopy_st_*, loopy_rn_*).
  bool Half = false;
  /// The body copies asynchronously (AsyncCopy, AsyncCommit, AsyncWait):
  /// the prelude defines loopy_copy_async4, 8 and 16, loopy_commit_async
  /// and loopy_wait_async.
  bool Async = false;
  /// The body computes on the tensor cores (Mma): the prelude defines
  /// loopy_pack2, loopy_mma_m16n8k16_f16, _bf16 and _f64 and
  /// loopy_mma_m16n8k8_tf32; OpenCL emulates the instructions through a
  /// scratch buffer of the kernel's.
  bool Mma = false;
  /// Arrays the kernel reads as vectors, with the alignment in bytes their
  /// base pointers need (memory from cuMemAlloc always has it).
  std::vector<std::pair<std::string, long>> Aligned;
  /// Bytes of shared memory the launch allocates, where the buffers are
  /// more than the 48 KiB a kernel may declare (0 otherwise). The buffers
  /// are then carved from one dynamic array, each at a multiple of 16
  /// bytes, and the launcher opts the function in to that much.
  long DynamicShared = 0;
  long sharedBytes() const;
  /// The offset of each shared buffer in the dynamic array, in order.
  std::vector<long> sharedOffsets() const;
  /// The header line that gives the launch configuration.
  std::string launchLine() const;
  /// The kernel's text needs the prelude's 16-bit float types: its body
  /// converts such values (Half) or a parameter has such a type.
  bool usesHalf() const;
};

/// What one variant lowers to: a kernel per statement, run in order.
struct DeviceProgram {
  std::string KernelName;
  std::string Schedule;
  std::vector<DeviceKernel> Kernels;
};

} // namespace loopy::device

#endif
