//===- loopy.h - Run-time code generation from C++ --------------*- C++ -*-===//
//
// The embedding API: parse a kernel from a string or a file, fix its
// parameters, list its variants, emit CUDA for one, tune it on the GPU
// (through the tuning database) and launch the tuned kernel on device
// buffers by argument name.
//
//   auto K = loopy::api::Source::fromFile("matmul.loop").kernel("matmul");
//   K.fix("n", 4096).fix("m", 4096).fix("l", 4096);
//   loopy::api::TunedKernel T = K.tune();
//   T.launch({{"a", dA}, {"b", dB}, {"c", dC}});
//
// Every failure is a loopy::api::Error whose what() reads like loopyc's
// diagnostics (file:line:col: error: ...), with the first error's location
// and message apart. Nothing needs freeing.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LOOPY_H
#define LOOPY_LOOPY_H

#include "loopy/Planner/Planner.h" // PlannerOptions

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loopy::api {

class Error : public std::runtime_error {
public:
  /// \p What is diagnostics as loopyc prints them, or one message.
  explicit Error(const std::string &What);

  /// The first error's file, line and column (1-based), where \p What
  /// holds a located one (file:line:col: error: message); else an empty
  /// file and 0.
  const std::string &file() const { return File; }
  unsigned line() const { return Line; }
  unsigned column() const { return Column; }
  /// The first error's message, without location and "error: ".
  const std::string &message() const { return Message; }

private:
  std::string File, Message;
  unsigned Line = 0, Column = 0;
};

/// One variant as the planner lists it, best ranked first.
struct VariantInfo {
  std::string Schedule;
  long Threads = 0;         // per block (first statement)
  long SharedBytes = 0;     // per block (first statement)
  long RegisterOutputs = 0; // outputs held per thread (first statement)
  double StaticCost = 0;    // the planner's estimate, in seconds
};

/// One argument of a kernel, in declaration order.
struct ArgumentInfo {
  enum class Kind { Index, Scalar, Array };
  std::string Name;
  Kind ArgKind = Kind::Array;
  /// "f16", "bf16", "f32", "f64", "i8", "u8", "i16", "u16", "i32", "i64"
  /// (index parameters: "i64").
  std::string DType;
  /// Bytes of one element (of the value, for a scalar).
  unsigned ElementBytes = 0;
  /// "in", "out" or "inout" (index parameters and scalars: "in").
  std::string Mode;
  /// Arrays: extents and element strides, one per dimension, at the
  /// parameter values known (fix or set); -1 where one depends on a
  /// parameter without a value.
  std::vector<long> Shape, Strides;
  /// Arrays: elements the buffer must hold (the largest offset of an
  /// element plus one); -1 where the shape is not known.
  long Elements = -1;
};

struct TuneSettings {
  /// Variants timed at most (0: the tuner's default).
  size_t Budget = 0;
  bool Exhaustive = false;
  /// Search again even where the database has a result.
  bool Retune = false;
  /// The tuning database; empty for the default.
  std::string Database;
  unsigned long Seed = 1;
};

class Kernel;

/// A device pointer (CUdeviceptr).
using DevicePtr = std::uint64_t;

/// An array argument by name with a typed device pointer: the element type
/// is checked against the kernel's at launch.
struct ArrayArg {
  ArrayArg(std::string Name, DevicePtr Pointer, std::string DType)
      : Name(std::move(Name)), Pointer(Pointer), DType(std::move(DType)) {}
  std::string Name;
  DevicePtr Pointer = 0;
  /// "f16", "bf16", "f32", "f64", "i8", "u8", "i16", "u16", "i32" or
  /// "i64".
  std::string DType;
};
/// An element of an f16 or bf16 array: its 16 bits, laid out as CUDA's
/// __half and __nv_bfloat16 are, so that a pointer to those converts with
/// reinterpret_cast (arg("x", reinterpret_cast<loopy::api::Float16 *>(X))).
struct Float16 {
  std::uint16_t Bits;
};
struct BFloat16 {
  std::uint16_t Bits;
};
template <class T> struct DTypeOf;
template <> struct DTypeOf<Float16> {
  static constexpr const char *Name = "f16";
};
template <> struct DTypeOf<BFloat16> {
  static constexpr const char *Name = "bf16";
};
template <> struct DTypeOf<float> {
  static constexpr const char *Name = "f32";
};
template <> struct DTypeOf<double> {
  static constexpr const char *Name = "f64";
};
template <> struct DTypeOf<std::int32_t> {
  static constexpr const char *Name = "i32";
};
template <> struct DTypeOf<std::int64_t> {
  static constexpr const char *Name = "i64";
};
template <> struct DTypeOf<std::int8_t> {
  static constexpr const char *Name = "i8";
};
template <> struct DTypeOf<std::uint8_t> {
  static constexpr const char *Name = "u8";
};
template <> struct DTypeOf<std::int16_t> {
  static constexpr const char *Name = "i16";
};
template <> struct DTypeOf<std::uint16_t> {
  static constexpr const char *Name = "u16";
};
/// arg("a", DeviceA) with DeviceA a float * (const or not) on the device.
template <class T> ArrayArg arg(const std::string &Name, T *Device) {
  using E = std::remove_const_t<T>;
  return {Name, reinterpret_cast<DevicePtr>(Device), DTypeOf<E>::Name};
}

/// A variant compiled for a GPU architecture, with no GPU needed.
struct CompiledVariant {
  std::string Schedule;
  std::string Arch; // "sm_90", ...
  std::string Cuda;
  /// CUBIN, or PTX where asked for.
  std::string Binary;
};

/// A tuned kernel, loaded into the calling thread's current CUDA context
/// (the primary context of device 0 when there is none).
class TunedKernel {
public:
  TunedKernel(TunedKernel &&) noexcept;
  TunedKernel &operator=(TunedKernel &&) noexcept;
  ~TunedKernel();

  const std::string &schedule() const;
  const std::string &cudaSource() const;
  /// Median time of one run on the GPU it was tuned on, in seconds.
  double seconds() const;
  double gflops() const;
  /// The result came from the tuning database.
  bool fromDatabase() const;
  /// Warnings of the tuning, as loopyc would print them (a row of the
  /// tuning database whose compiled code was damaged, and so tuned again);
  /// empty where there were none.
  const std::string &warnings() const;
  /// What the search took, when it ran (also for a result read from the
  /// database).
  double tuningSeconds() const;
  /// The kernel's counted floating-point operations and compulsory bytes
  /// (each element read or written once) at the tuned sizes.
  double flops() const;
  double bytes() const;
  /// The kernel's arguments at the tuned sizes (every shape known).
  const std::vector<ArgumentInfo> &arguments() const;
  /// Every index parameter's value at the tuned sizes.
  const std::map<std::string, long> &parameterValues() const;

  /// Runs the kernel on device buffers given by argument name (every
  /// array argument), with scalar arguments by name, on \p Stream (a
  /// CUstream; 0 for the default stream). Returns once launched.
  void launch(const std::map<std::string, DevicePtr> &Arrays,
              const std::map<std::string, double> &Scalars = {},
              void *Stream = nullptr) const;
  /// The same with typed pointers (arg("a", DeviceA), ...): an element
  /// type other than the argument's throws Error before anything runs.
  void launch(const std::vector<ArrayArg> &Arrays,
              const std::map<std::string, double> &Scalars = {},
              void *Stream = nullptr) const;

private:
  friend class Kernel;
  struct Impl;
  explicit TunedKernel(std::unique_ptr<Impl> P);
  std::unique_ptr<Impl> P;
};

/// One kernel of a Source, with the parameter values given so far.
class Kernel {
public:
  Kernel(const Kernel &);
  Kernel &operator=(const Kernel &);
  Kernel(Kernel &&) noexcept;
  Kernel &operator=(Kernel &&) noexcept;
  ~Kernel();

  const std::string &name() const;
  /// The index parameters, in declaration order.
  std::vector<std::string> parameters() const;
  /// The values given with fix() and with set().
  const std::map<std::string, long> &fixedValues() const;
  const std::map<std::string, long> &setValues() const;
  /// Every argument, with array shapes at the values given so far.
  std::vector<ArgumentInfo> arguments() const;

  /// Fixes index parameter \p Param to \p Value in the generated code
  /// (loopyc's -D): a constant the compiler can use.
  Kernel &fix(const std::string &Param, long Value);
  /// Gives index parameter \p Param the value \p Value for tuning and
  /// launching, as a kernel argument (loopyc's --param).
  Kernel &set(const std::string &Param, long Value);

  /// The planner's constraints for the variants listed, emitted and tuned
  /// (loopyc's --min-threads, --min-blocks, --max-shared). Tuning results
  /// are kept per set of options: other options are another search.
  /// Without them, tuning plans with the GPU's shared memory per block,
  /// as loopyc does without --max-shared.
  Kernel &planner(const PlannerOptions &Opts);
  const PlannerOptions &plannerOptions() const;
  /// Offers sums of f32 products on the tensor cores, their operands
  /// rounded to tf32 (loopyc's --allow-tf32; PlannerOptions::AllowTf32),
  /// keeping the other planner options as they are.
  Kernel &allowTf32(bool Allow = true);

  std::vector<VariantInfo> variants() const;
  /// The CUDA source of the variant \p Schedule (a schedule string or a
  /// rank); the best ranked one if empty.
  std::string cuda(const std::string &Schedule = "") const;
  /// Tunes on the GPU, or reads the result from the tuning database, and
  /// loads the winner. Every parameter needs a value (fix or set).
  TunedKernel tune(const TuneSettings &S = {}) const;
  /// Compiles the variant \p Schedule (as for cuda()) with NVRTC for
  /// \p Arch ("sm_90"; empty: GPU 0's, which needs one), as CUBIN or PTX;
  /// needs no GPU otherwise.
  CompiledVariant compile(const std::string &Schedule = "",
                          const std::string &Arch = "", bool Ptx = false) const;
  /// Loads the variant \p Schedule (as for cuda(); untimed: seconds() is
  /// 0) to be launched like a tuned one. Every parameter needs a value.
  TunedKernel load(const std::string &Schedule = "") const;
  /// Values of the index parameters that some array dimension has as its
  /// whole extent (n of f32[n, m]), read off \p Shapes (array name ->
  /// extents); Error where two arrays disagree on one, or a shape has
  /// the wrong rank. Parameters fixed already are left out.
  std::map<std::string, long>
  sizesFromShapes(const std::map<std::string, std::vector<long>> &Shapes) const;

private:
  friend class Source;
  struct Impl;
  explicit Kernel(std::shared_ptr<Impl> P);
  std::shared_ptr<Impl> P;
};

/// One kernel tuned per set of sizes, like Triton's autotuning key: the
/// first use at some sizes tunes the kernel with them fixed (or reads the
/// result from the tuning database) and keeps the tuned kernel; later uses
/// at those sizes reuse it. Safe to use from several threads.
class SizedKernel {
public:
  explicit SizedKernel(Kernel K, TuneSettings S = {});
  SizedKernel(SizedKernel &&) noexcept;
  SizedKernel &operator=(SizedKernel &&) noexcept;
  ~SizedKernel();

  /// The kernel tuned at \p Sizes (a value for every index parameter the
  /// kernel does not fix).
  const TunedKernel &at(const std::map<std::string, long> &Sizes);
  /// Launches at the sizes read off the arrays' shapes
  /// (Kernel::sizesFromShapes), each array given with its extents.
  void launch(const std::vector<std::pair<ArrayArg, std::vector<long>>> &Arrays,
              const std::map<std::string, double> &Scalars = {},
              void *Stream = nullptr);
  /// Sets of sizes tuned so far.
  std::size_t size() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// A parsed and checked .loop file.
class Source {
public:
  /// Throws Error with the diagnostics if \p Text does not check.
  static Source fromString(const std::string &Text,
                           const std::string &Name = "<string>");
  static Source fromFile(const std::string &Path);

  std::vector<std::string> kernelNames() const;
  /// The kernel \p Name; the only one when empty.
  Kernel kernel(const std::string &Name = "") const;

private:
  friend class Kernel;
  struct Impl;
  explicit Source(std::shared_ptr<const Impl> P);
  std::shared_ptr<const Impl> P;
};

/// Device memory on device 0, in its primary context (the one tuned
/// kernels run in and the CUDA runtime shares), freed on destruction.
/// Movable, not copyable; every failure throws Error.
class DeviceBuffer {
public:
  explicit DeviceBuffer(std::size_t Bytes);
  DeviceBuffer(DeviceBuffer &&) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&) noexcept;
  ~DeviceBuffer();

  DevicePtr pointer() const;
  /// The memory as a typed device pointer, for arg("a", Buffer.as<float>()).
  template <class T> T *as() const { return reinterpret_cast<T *>(pointer()); }
  std::size_t size() const;
  /// Copies size() bytes from \p Host (synchronously).
  void upload(const void *Host) const;
  /// Copies size() bytes to \p Host (synchronously).
  void download(void *Host) const;
  /// Sets every byte to \p Value.
  void memset(unsigned char Value) const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace loopy::api

#endif
