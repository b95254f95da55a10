//===- OpenCL.h - Running generated kernels through OpenCL -------*- C++ -*-===//
//
// A small owning layer over the OpenCL API, loaded at run time
// (libOpenCL.so.1 through dlopen) so that loopyc starts, and its other
// paths work, on machines without an OpenCL loader. Every failed call
// throws an OpenCLError naming the call and the error; every object is
// released with its owner.
//
// loopyc uses it to execute each variant on the CPU through PoCL, which
// runs work-groups, local memory and barriers as a GPU would.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_RUNTIME_OPENCL_H
#define LOOPY_RUNTIME_OPENCL_H

#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopy::cl {

class OpenCLError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct Api;     // the loaded entry points
struct Handles; // context and queue

/// A device buffer.
class Buffer {
public:
  Buffer(Buffer &&) noexcept;
  Buffer &operator=(Buffer &&) noexcept;
  ~Buffer();
  size_t size() const { return Size; }
  void *handle() const { return Mem; }

private:
  friend class Device;
  Buffer(const Api *A, void *Mem, size_t Size) : A(A), Mem(Mem), Size(Size) {}
  const Api *A;
  void *Mem;
  size_t Size;
};

/// One argument of a launch: a buffer, or the bytes of a scalar.
struct Arg {
  const Buffer *Buf = nullptr;
  std::vector<unsigned char> Bytes;
  static Arg buffer(const Buffer &B) { return {&B, {}}; }
  template <typename T> static Arg value(T V) {
    Arg A;
    A.Bytes.resize(sizeof V);
    std::memcpy(A.Bytes.data(), &V, sizeof V);
    return A;
  }
};

/// A built program.
class Program {
public:
  Program(Program &&) noexcept;
  Program &operator=(Program &&) noexcept;
  ~Program();

private:
  friend class Device;
  Program(const Api *A, void *P) : A(A), P(P) {}
  const Api *A;
  void *P;
};

/// The first CPU device of the first platform that has one (PoCL on a
/// machine set up by scripts/setup.sh), with a context and an in-order
/// queue.
class Device {
public:
  /// Throws OpenCLError if no loader, platform or CPU device is found.
  Device();
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// "pocl 3.1 ...: cpu-x86-64-..." for reports.
  std::string description() const;

  /// Builds \p Source; on failure the OpenCLError carries the build log.
  Program build(const std::string &Source, const std::string &Options = "") const;

  Buffer allocate(size_t Bytes) const;
  void write(const Buffer &B, const void *Data, size_t Bytes) const;
  void read(const Buffer &B, void *Data, size_t Bytes) const;

  /// Runs kernel \p Name of \p P on Groups[d] work-groups of Local[d]
  /// work-items each and waits for it.
  void launch(const Program &P, const std::string &Name,
              const std::vector<Arg> &Args, const size_t Groups[3],
              const size_t Local[3]) const;

private:
  std::unique_ptr<Api> A;
  std::unique_ptr<Handles> H;
};

} // namespace loopy::cl

#endif
