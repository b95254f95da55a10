//===- Type.h - Element types of kernel values ------------------*- C++ -*-===//
#ifndef LOOPY_IR_TYPE_H
#define LOOPY_IR_TYPE_H

#include <optional>
#include <string_view>

namespace loopy {

/// The element type of a value. Bool is the type of comparisons only; it
/// cannot be stored.
enum class DType { Bool, I32, I64, F32, F64 };

const char *dtypeName(DType T);
/// Parses f32, f64, i32 or i64. f16/bf16 are recognised by the caller so it
/// can say they are not supported yet.
std::optional<DType> parseStorableDType(std::string_view S);
bool isFloat(DType T);
bool isInteger(DType T);
/// The C spelling shared by CUDA and OpenCL (i64 is the printers' "idx").
const char *cTypeName(DType T);
/// Size in bytes of one element.
unsigned dtypeSize(DType T);

} // namespace loopy

#endif
