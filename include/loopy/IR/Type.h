//===- Type.h - Element types of kernel values ------------------*- C++ -*-===//
#ifndef LOOPY_IR_TYPE_H
#define LOOPY_IR_TYPE_H

#include <optional>
#include <string_view>

namespace loopy {

/// The element type of a value. Bool is the type of comparisons only; it
/// cannot be stored. F16 (IEEE binary16) and BF16 (bfloat16) are stored in
/// 16 bits and computed in float, each operation's result rounded back to
/// the type (Support/Half.h); a reduction over them accumulates in float.
enum class DType { Bool, I32, I64, F32, F64, F16, BF16 };

const char *dtypeName(DType T);
/// Parses f16, bf16, f32, f64, i32 or i64.
std::optional<DType> parseStorableDType(std::string_view S);
bool isFloat(DType T);
bool isInteger(DType T);
/// True for the 16-bit float types, which compute in float.
bool isHalf(DType T);
/// The type that values of \p T are computed and accumulated in: f32 for
/// f16 and bf16, \p T itself otherwise.
DType computeType(DType T);
/// The C spelling shared by CUDA and OpenCL (i64 is the printers' "idx";
/// f16 and bf16 are their 16 bits, "loopy_f16" and "loopy_bf16").
const char *cTypeName(DType T);
/// Size in bytes of one element.
unsigned dtypeSize(DType T);

} // namespace loopy

#endif
