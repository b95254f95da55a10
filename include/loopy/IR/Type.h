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
/// I8, U8, I16 and U16 are stored in 8 or 16 bits and computed in i32, each
/// operation's result wrapped back to the type (modulo 2^8 or 2^16); a
/// reduction over them accumulates in i32 and wraps once, at its end.
enum class DType { Bool, I32, I64, F32, F64, F16, BF16, I8, U8, I16, U16 };

const char *dtypeName(DType T);
/// Parses f16, bf16, f32, f64, i8, u8, i16, u16, i32 or i64.
std::optional<DType> parseStorableDType(std::string_view S);
bool isFloat(DType T);
bool isInteger(DType T);
/// True for the 16-bit float types, which compute in float.
bool isHalf(DType T);
/// True for the 8- and 16-bit integer types, which compute in i32.
bool isNarrowInt(DType T);
/// The type that values of \p T are computed and accumulated in: f32 for
/// f16 and bf16, i32 for the 8- and 16-bit integers, \p T itself
/// otherwise.
DType computeType(DType T);
/// The smallest and largest values of the integer type \p T.
long long intMin(DType T);
long long intMax(DType T);
/// \p X wrapped to the integer type \p T, modulo 2^bits, and sign- or
/// zero-extended back: what storing \p X in an element of \p T keeps.
long long wrapInt(DType T, long long X);
/// The C spelling shared by CUDA and OpenCL (i64 is the printers' "idx";
/// f16 and bf16 are their 16 bits, "loopy_f16" and "loopy_bf16"; i8 is
/// "signed char", u8 "unsigned char", i16 "short", u16 "unsigned short").
const char *cTypeName(DType T);
/// Size in bytes of one element.
unsigned dtypeSize(DType T);

} // namespace loopy

#endif
