//===- Type.cpp - Element types of kernel values --------------------------===//
#include "loopy/IR/Type.h"

namespace loopy {

const char *dtypeName(DType T) {
  switch (T) {
  case DType::Bool:
    return "bool";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I8:
    return "i8";
  case DType::U8:
    return "u8";
  case DType::I16:
    return "i16";
  case DType::U16:
    return "u16";
  }
  return "?";
}

std::optional<DType> parseStorableDType(std::string_view S) {
  if (S == "f32")
    return DType::F32;
  if (S == "f64")
    return DType::F64;
  if (S == "i32")
    return DType::I32;
  if (S == "i64")
    return DType::I64;
  if (S == "f16")
    return DType::F16;
  if (S == "bf16")
    return DType::BF16;
  if (S == "i8")
    return DType::I8;
  if (S == "u8")
    return DType::U8;
  if (S == "i16")
    return DType::I16;
  if (S == "u16")
    return DType::U16;
  return std::nullopt;
}

const char *cTypeName(DType T) {
  switch (T) {
  case DType::Bool:
    return "bool";
  case DType::I32:
    return "int";
  case DType::I64:
    return "idx";
  case DType::F32:
    return "float";
  case DType::F64:
    return "double";
  case DType::F16:
    return "loopy_f16";
  case DType::BF16:
    return "loopy_bf16";
  case DType::I8:
    return "signed char";
  case DType::U8:
    return "unsigned char";
  case DType::I16:
    return "short";
  case DType::U16:
    return "unsigned short";
  }
  return "?";
}

bool isFloat(DType T) {
  return T == DType::F32 || T == DType::F64 || isHalf(T);
}
bool isInteger(DType T) {
  return T == DType::I32 || T == DType::I64 || isNarrowInt(T);
}
bool isHalf(DType T) { return T == DType::F16 || T == DType::BF16; }
bool isNarrowInt(DType T) {
  return T == DType::I8 || T == DType::U8 || T == DType::I16 ||
         T == DType::U16;
}
DType computeType(DType T) {
  return isHalf(T) ? DType::F32 : isNarrowInt(T) ? DType::I32 : T;
}

long long intMin(DType T) {
  switch (T) {
  case DType::I8:
    return -128;
  case DType::I16:
    return -32768;
  case DType::I32:
    return -2147483647LL - 1;
  case DType::U8:
  case DType::U16:
  case DType::Bool:
    return 0;
  default:
    return -9223372036854775807LL - 1;
  }
}

long long wrapInt(DType T, long long X) {
  unsigned Bits = 8 * dtypeSize(T);
  if (Bits >= 64)
    return X;
  unsigned long long Mask = (1ULL << Bits) - 1;
  unsigned long long U = static_cast<unsigned long long>(X) & Mask;
  if (intMin(T) < 0 && (U >> (Bits - 1)))
    U |= ~Mask;
  return static_cast<long long>(U);
}

long long intMax(DType T) {
  switch (T) {
  case DType::I8:
    return 127;
  case DType::U8:
    return 255;
  case DType::I16:
    return 32767;
  case DType::U16:
    return 65535;
  case DType::I32:
    return 2147483647;
  case DType::Bool:
    return 1;
  default:
    return 9223372036854775807LL;
  }
}

unsigned dtypeSize(DType T) {
  switch (T) {
  case DType::Bool:
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  }
  return 0;
}

} // namespace loopy
