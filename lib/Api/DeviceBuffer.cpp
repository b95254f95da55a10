//===- DeviceBuffer.cpp - Public device memory of the embedding API -------===//
//
// loopy::api::DeviceBuffer over the driver layer (Runtime/Cuda.h), so that
// a program embedding loopy needs no header beyond loopy/loopy.h. Driver
// errors, and the lack of a GPU, become loopy::api::Error.
//
//===----------------------------------------------------------------------===//
#include "loopy/Runtime/Cuda.h"
#include "loopy/Runtime/GpuWorker.h"
#include "loopy/loopy.h"

namespace loopy::api {

struct DeviceBuffer::Impl {
  // The context first: the buffer is freed before it is released.
  cuda::Context Ctx;
  cuda::DeviceBuffer Buf;
  explicit Impl(std::size_t Bytes) : Ctx(cuda::Device(0)), Buf(Bytes) {}
};

namespace {
/// Runs \p F, turning the driver layer's exceptions into Error.
template <class F> auto translated(F &&Fn) -> decltype(Fn()) {
  try {
    return Fn();
  } catch (cuda::CudaError &E) {
    throw Error(E.what());
  } catch (gpu::NoGpuError &E) {
    throw Error(E.what());
  }
}
} // namespace

DeviceBuffer::DeviceBuffer(std::size_t Bytes)
    : P(translated([&] { return std::make_unique<Impl>(Bytes); })) {}
DeviceBuffer::DeviceBuffer(DeviceBuffer &&) noexcept = default;
DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&) noexcept = default;
DeviceBuffer::~DeviceBuffer() = default;

DevicePtr DeviceBuffer::pointer() const { return P ? P->Buf.pointer() : 0; }
std::size_t DeviceBuffer::size() const { return P ? P->Buf.size() : 0; }

void DeviceBuffer::upload(const void *Host) const {
  translated([&] { P->Buf.upload(Host); });
}
void DeviceBuffer::download(void *Host) const {
  translated([&] { P->Buf.download(Host); });
}
void DeviceBuffer::memset(unsigned char Value) const {
  translated([&] { P->Buf.memset(Value); });
}

} // namespace loopy::api
