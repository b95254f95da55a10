//===- HostData.cpp - Host buffers bound to one kernel's arguments --------===//
#include "loopy/Interp/HostData.h"

#include "Bytes.h"
#include "Instantiate.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace loopy {

HostArray::HostArray(DType Type, std::vector<long> Extents,
                     std::vector<long> Strides, size_t Elements)
    : Type(Type), Extents(std::move(Extents)), Strides(std::move(Strides)),
      Elements(Elements), Bytes(Elements * dtypeSize(Type), 0) {}

long HostArray::offset(const std::vector<long> &Sub) const {
  long Off = 0;
  for (size_t D = 0; D < Sub.size() && D < Strides.size(); ++D)
    Off += Sub[D] * Strides[D];
  return Off;
}

uint64_t HostArray::bits(size_t Offset) const {
  uint64_t B = 0;
  std::memcpy(&B, Bytes.data() + Offset * dtypeSize(Type), dtypeSize(Type));
  return B;
}

void HostArray::setBits(size_t Offset, uint64_t B) {
  std::memcpy(Bytes.data() + Offset * dtypeSize(Type), &B, dtypeSize(Type));
}

double HostArray::getDouble(size_t Offset) const {
  const unsigned char *P = Bytes.data() + Offset * dtypeSize(Type);
  if (isFloat(Type))
    return interp::loadFloat(P, Type);
  return static_cast<double>(interp::loadInt(P, Type));
}

int64_t HostArray::getInt(size_t Offset) const {
  const unsigned char *P = Bytes.data() + Offset * dtypeSize(Type);
  if (isInteger(Type))
    return interp::loadInt(P, Type);
  double F = interp::loadFloat(P, Type);
  return std::isfinite(F) ? static_cast<int64_t>(F) : 0;
}

void HostArray::setDouble(size_t Offset, double V) {
  unsigned char *P = Bytes.data() + Offset * dtypeSize(Type);
  if (isFloat(Type))
    interp::storeFloat(P, Type, V);
  else
    setInt(Offset, std::isfinite(V) ? static_cast<int64_t>(V) : 0);
}

void HostArray::setInt(size_t Offset, int64_t V) {
  unsigned char *P = Bytes.data() + Offset * dtypeSize(Type);
  if (isInteger(Type))
    interp::storeInt(P, Type, V);
  else
    setDouble(Offset, static_cast<double>(V));
}

double roundToType(DType T, double V) {
  unsigned char Bytes[8];
  interp::storeFloat(Bytes, T, V);
  return interp::loadFloat(Bytes, T);
}

size_t elementCount(const std::vector<long> &Extents,
                    const std::vector<long> &Strides) {
  long Last = 0;
  for (size_t D = 0; D < Extents.size(); ++D) {
    if (Extents[D] <= 0)
      return 0;
    Last += Strides[D] * (Extents[D] - 1);
  }
  return static_cast<size_t>(Last) + 1;
}

bool evaluateLayout(const Argument &A, const ParamValues &Params,
                    std::vector<long> &Extents, std::vector<long> &Strides,
                    std::string &Error) {
  Extents.clear();
  Strides.assign(A.rank(), 1);
  for (unsigned D = 0; D < A.rank(); ++D) {
    Extents.push_back(interp::evaluate(A.Shape[D], Params));
    // A temporary's extent bounds its index where the domain has points
    // (Sema's splitReductions); elsewhere it may fall below 0, and it holds
    // nothing.
    if (A.Internal && Extents.back() < 0)
      Extents.back() = 0;
    if (Extents.back() < 0) {
      Error = "dimension " + std::to_string(D) + " of '" + A.Name +
              "' has the negative extent " + std::to_string(Extents.back());
      return false;
    }
  }
  switch (A.Order) {
  case Layout::RowMajor:
    for (int D = static_cast<int>(A.rank()) - 2; D >= 0; --D)
      Strides[D] = Strides[D + 1] * Extents[D + 1];
    break;
  case Layout::ColMajor:
    for (unsigned D = 1; D < A.rank(); ++D)
      Strides[D] = Strides[D - 1] * Extents[D - 1];
    break;
  case Layout::Strided:
    for (unsigned D = 0; D < A.rank(); ++D) {
      Strides[D] = interp::evaluate(A.Strides[D], Params);
      if (Strides[D] < 0) {
        Error = "stride " + std::to_string(D) + " of '" + A.Name +
                "' is negative (" + std::to_string(Strides[D]) + ")";
        return false;
      }
    }
    break;
  }
  return true;
}

bool collectParams(const Kernel &K, const ParamValues &Given, ParamValues &All,
                   std::string &Error) {
  All = Given;
  for (const auto &[Name, Value] : K.Fixed) {
    auto [It, New] = All.emplace(Name, Value);
    if (!New && It->second != Value) {
      Error = "parameter '" + Name + "' is given as " +
              std::to_string(It->second) + " but the kernel fixes it to " +
              std::to_string(Value);
      return false;
    }
  }
  for (const std::string &Name : K.ParamNames)
    if (!All.count(Name)) {
      Error = "kernel '" + K.Name + "' needs a value for parameter '" + Name +
              "'";
      return false;
    }
  return true;
}

std::optional<HostData> makeHostData(const Kernel &K, const ParamValues &Given,
                                     std::string &Error) {
  HostData D;
  if (!collectParams(K, Given, D.Params, Error))
    return std::nullopt;
  if (!interp::satisfies(K.Context, D.Params)) {
    Error = "the parameter values violate the assumptions of kernel '" +
            K.Name + "'";
    return std::nullopt;
  }
  // The layouts first: arrays the host cannot hold (a run of the
  // reference at sizes meant for a GPU, or past any memory) are refused
  // before anything is allocated.
  struct Layout {
    const Argument *A;
    std::vector<long> Extents, Strides;
  };
  std::vector<Layout> Layouts;
  double Bytes = 0;
  for (const Argument &A : K.Args) {
    if (A.Kind == ArgKind::Scalar) {
      D.Scalars[A.Name].Type = A.Type;
      continue;
    }
    if (!A.isArray())
      continue;
    Layout L{&A, {}, {}};
    if (!evaluateLayout(A, D.Params, L.Extents, L.Strides, Error))
      return std::nullopt;
    // In floating point: past any memory, the count would overflow.
    double Elements = 1;
    for (size_t I = 0; I < L.Extents.size(); ++I)
      Elements += double(L.Extents[I] > 0 ? L.Extents[I] - 1 : 0) *
                  double(L.Strides[I] < 0 ? -L.Strides[I] : L.Strides[I]);
    Bytes += Elements * dtypeSize(A.Type);
    Layouts.push_back(std::move(L));
  }
  double Memory = double(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  if (Memory > 0 && Bytes > Memory / 2) {
    char Text[160];
    std::snprintf(Text, sizeof Text,
                  "its arrays take %.3g GB at these sizes, more than half "
                  "of this machine's memory (%.3g GB); run with smaller sizes",
                  Bytes / 1e9, Memory / 1e9);
    Error = Text;
    return std::nullopt;
  }
  for (Layout &L : Layouts) {
    size_t N = elementCount(L.Extents, L.Strides);
    D.Arrays.emplace(L.A->Name, HostArray(L.A->Type, std::move(L.Extents),
                                          std::move(L.Strides), N));
  }
  return D;
}

} // namespace loopy
