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
  }
  return "?";
}

bool isFloat(DType T) {
  return T == DType::F32 || T == DType::F64 || isHalf(T);
}
bool isInteger(DType T) { return T == DType::I32 || T == DType::I64; }
bool isHalf(DType T) { return T == DType::F16 || T == DType::BF16; }
DType computeType(DType T) { return isHalf(T) ? DType::F32 : T; }

unsigned dtypeSize(DType T) {
  switch (T) {
  case DType::Bool:
    return 1;
  case DType::F16:
  case DType::BF16:
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
