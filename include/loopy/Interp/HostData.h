//===- HostData.h - Host buffers bound to one kernel's arguments -*- C++ -*-===//
//
// The values a kernel runs on, held on the host: index parameter values,
// scalar argument values and one buffer per array argument, laid out by
// the argument's shape and layout evaluated at the parameter values. The
// reference interpreter reads and writes these buffers; a GPU run copies
// them to the device and back, so both sides see the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_INTERP_HOSTDATA_H
#define LOOPY_INTERP_HOSTDATA_H

#include "loopy/IR/Kernel.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// Values of index parameters, by name.
using ParamValues = std::map<std::string, long>;

/// The buffer of one array argument: elements of one dtype at element
/// offsets sum(Strides[d] * subscript[d]).
class HostArray {
public:
  HostArray() = default;
  /// A zero-filled buffer of \p Elements elements of \p Type.
  HostArray(DType Type, std::vector<long> Extents, std::vector<long> Strides,
            size_t Elements);

  DType type() const { return Type; }
  /// Extents and element strides at the parameter values, one per dimension.
  const std::vector<long> &extents() const { return Extents; }
  const std::vector<long> &strides() const { return Strides; }
  /// Elements in the buffer: one more than the largest offset of an element
  /// inside the extents (0 when an extent is 0). Padding that strides leave
  /// between elements is counted.
  size_t size() const { return Elements; }
  size_t byteSize() const { return Bytes.size(); }
  void *data() { return Bytes.data(); }
  const void *data() const { return Bytes.data(); }

  /// The element offset of the subscripts \p Sub (one per dimension).
  long offset(const std::vector<long> &Sub) const;

  /// The element at \p Offset converted to double (integers exactly up to
  /// 2^53) or to int64_t (floats truncated toward zero).
  double getDouble(size_t Offset) const;
  int64_t getInt(size_t Offset) const;
  /// Stores \p V converted to the element type (rounded to f32, or
  /// wrapped to i32).
  void setDouble(size_t Offset, double V);
  void setInt(size_t Offset, int64_t V);

  /// The raw bit pattern of the element at \p Offset, zero-extended.
  uint64_t bits(size_t Offset) const;
  void setBits(size_t Offset, uint64_t Bits);

private:
  DType Type = DType::F32;
  std::vector<long> Extents;
  std::vector<long> Strides;
  size_t Elements = 0;
  std::vector<unsigned char> Bytes;
};

/// \p V rounded to the float type \p T, as an element of that type holds
/// it (f16 and bf16 to nearest even, through float).
double roundToType(DType T, double V);

/// A scalar argument's value; Float holds float values (of f16, bf16, f32
/// or f64), Int i32/i64 ones.
struct HostScalar {
  DType Type = DType::F32;
  double Float = 0;
  int64_t Int = 0;
};

/// Everything one run of a kernel reads and writes.
struct HostData {
  /// Every index parameter of the kernel, including its Fixed values.
  ParamValues Params;
  std::map<std::string, HostScalar> Scalars;
  std::map<std::string, HostArray> Arrays;

  HostArray &array(const std::string &Name) { return Arrays.at(Name); }
  const HostArray &array(const std::string &Name) const {
    return Arrays.at(Name);
  }
};

/// Binds \p K to the parameter values \p Params (the kernel's Fixed values
/// are added; a given value that contradicts one is an error): zero-filled
/// scalars and arrays, each array sized and laid out by its shape and
/// layout evaluated with isl at the parameter values. Fails, with \p Error
/// saying why, when a parameter has no value, the values violate the
/// kernel's assumptions, or an extent or stride is negative.
std::optional<HostData> makeHostData(const Kernel &K, const ParamValues &Params,
                                     std::string &Error);

/// \p Given with the kernel's Fixed values added, in \p All. Returns
/// false, with \p Error saying why, when a given value contradicts a Fixed
/// one or a parameter of \p K has no value.
bool collectParams(const Kernel &K, const ParamValues &Given, ParamValues &All,
                   std::string &Error);

/// The extents and element strides of array argument \p A at \p Params:
/// row-major and column-major strides are products of the extents, given
/// strides are evaluated. Returns false, with \p Error set, for a negative
/// extent or stride.
bool evaluateLayout(const Argument &A, const ParamValues &Params,
                    std::vector<long> &Extents, std::vector<long> &Strides,
                    std::string &Error);

/// Elements to allocate for extents \p Extents and strides \p Strides:
/// the largest offset of an element plus one, or 0 for an empty array.
size_t elementCount(const std::vector<long> &Extents,
                    const std::vector<long> &Strides);

} // namespace loopy

#endif
