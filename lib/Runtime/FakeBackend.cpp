//===- FakeBackend.cpp - A GPU worker without a GPU, for tests ------------===//
//
// Lets the unit tests drive GpuWorker through a real child process on
// machines without a GPU: launches act by name (WorkerServer.h lists
// them), so a test can make the worker hang, crash or lose its context
// at a chosen call. "Device memory" is host memory of this process, so
// data that survives in it must have come through upload() after a
// restart, as on a GPU.
//
//===----------------------------------------------------------------------===//
#include "WorkerBackend.h"

#include "loopy/Runtime/Cuda.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>

namespace loopy::gpu {

namespace {

class FakeBackend final : public WorkerBackend {
  int Ordinal;
  int Count;
  std::vector<protocol::BufferSlot> Slots;
  unsigned char *Host = nullptr;
  std::vector<std::vector<unsigned char>> Device; // one per slot
  std::vector<std::vector<unsigned char>> Kept;   // keepOutputs()'s

public:
  /// LOOPY_WORKER_FAKE_DEVICES says how many devices there are (1 if
  /// unset); \p Ordinal must be one of them, as the driver wants.
  explicit FakeBackend(int Ordinal) : Ordinal(Ordinal), Count(1) {
    if (const char *N = std::getenv("LOOPY_WORKER_FAKE_DEVICES"))
      Count = std::max(1, std::atoi(N));
    if (Ordinal < 0 || Ordinal >= Count)
      throw cuda::CudaError(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGet",
                            "CUDA_ERROR_INVALID_DEVICE",
                            "invalid device ordinal");
  }

  DeviceInfo device() override {
    DeviceInfo D;
    D.Name = "loopy-worker fake GPU";
    D.Ordinal = Ordinal;
    D.DeviceCount = Count;
    D.CcMajor = 9;
    D.Multiprocessors = 132;
    D.L2Bytes = 50 << 20;
    D.GlobalBytes = size_t(80) << 30;
    D.SharedPerBlock = 48 << 10;
    D.SharedPerBlockOptin = 227 << 10;
    D.SharedPerMultiprocessor = 228 << 10;
    D.DriverVersion = 13000;
    return D;
  }

  void setBuffers(const std::vector<protocol::BufferSlot> &NewSlots,
                  unsigned char *NewHost) override {
    Slots = NewSlots;
    Host = NewHost;
    Device.assign(Slots.size(), {});
    Kept.clear();
    for (size_t I = 0; I < Slots.size(); ++I)
      Device[I].resize(Slots[I].Bytes);
    upload(true);
  }

  std::vector<FunctionInfo> load(const std::string &Image,
                                 const std::vector<Launch> &Launches) override {
    // An empty image is invalid, as the driver finds it: a caller that
    // loads code it has not compiled yet fails.
    if (Image == "invalid" || Image.empty())
      throw cuda::CudaError(CUDA_ERROR_INVALID_IMAGE, "cuModuleLoadData",
                            "CUDA_ERROR_INVALID_IMAGE",
                            "device kernel image is invalid");
    // LOOPY_WORKER_FAKE_REGISTERS sets the registers of every function
    // (32 if unset), which bound its blocks per multiprocessor as the
    // driver's occupancy calculator would.
    unsigned Registers = 32;
    if (const char *R = std::getenv("LOOPY_WORKER_FAKE_REGISTERS"))
      Registers = std::clamp(std::atoi(R), 1, 255);
    std::vector<FunctionInfo> Infos;
    for (const Launch &L : Launches) {
      FunctionInfo &I = Infos.emplace_back();
      I.Name = L.Function;
      I.Registers = static_cast<int>(Registers);
      I.MaxThreads = 1024;
      unsigned Threads = std::max(1u, L.Block[0] * L.Block[1] * L.Block[2]);
      unsigned Warps = (Threads + 31) / 32;
      unsigned PerWarp = (Registers * 32 + 255) / 256 * 256;
      I.BlocksPerMultiprocessor = static_cast<int>(
          std::min({32u, 2048 / Threads, 65536 / (PerWarp * Warps)}));
    }
    return Infos;
  }

  void upload(bool All) override {
    for (size_t I = 0; I < Slots.size(); ++I)
      if (All || Slots[I].Output)
        std::copy_n(Host + Slots[I].Offset, Slots[I].Bytes, Device[I].data());
  }

  bool keepOutputs() override {
    Kept.assign(Slots.size(), {});
    for (size_t I = 0; I < Slots.size(); ++I)
      if (Slots[I].Output)
        Kept[I] = Device[I];
    return true;
  }

  void restoreOutputs() override {
    for (size_t I = 0; I < Slots.size(); ++I)
      if (Slots[I].Output)
        Device[I] = Kept.at(I);
  }

  void launchAll(const std::vector<Launch> &Launches) override {
    for (const Launch &L : Launches)
      act(L);
  }

  void synchronize(const std::vector<Launch> &) override {}

  void downloadOutputs() override {
    for (size_t I = 0; I < Slots.size(); ++I)
      if (Slots[I].Output)
        std::copy_n(Device[I].data(), Slots[I].Bytes, Host + Slots[I].Offset);
  }

  double timedRepeat(const std::vector<Launch> &Launches) override {
    launchAll(Launches);
    return 1e-3;
  }

  void setChecker(const std::string &Image) override {
    if (Image.empty())
      throw cuda::CudaError(CUDA_ERROR_INVALID_IMAGE, "cuModuleLoadData",
                            "CUDA_ERROR_INVALID_IMAGE",
                            "device kernel image is invalid");
  }

  std::vector<CompareStats>
  compare(const std::vector<CompareSpec> &Specs) override {
    std::vector<std::pair<size_t, size_t>> Pairs = compareSlots(Slots, Specs);
    std::vector<CompareStats> Stats;
    for (size_t I = 0; I < Specs.size(); ++I)
      Stats.push_back(compareOnHost(
          Device[Pairs[I].first].data(), Device[Pairs[I].second].data(),
          Slots[Pairs[I].first].Bytes / elementBytes(Specs[I].Kind), Specs[I]));
    return Stats;
  }

  std::string gather(const std::string &Buffer, unsigned ElementBytes,
                     const std::vector<uint64_t> &Offsets) override {
    size_t Slot = findSlot(Slots, Buffer);
    checkOffsets(Slots[Slot], ElementBytes, Offsets);
    std::string Out;
    for (uint64_t O : Offsets)
      Out.append(reinterpret_cast<const char *>(Device[Slot].data()) +
                     O * ElementBytes,
                 ElementBytes);
    return Out;
  }

private:
  /// What a launch does here, by the function's name.
  void act(const Launch &L) {
    if (L.Function == "hang")
      for (;;)
        ::pause();
    if (L.Function == "crash") {
      // A test's crash is expected; leave no core file behind.
      rlimit NoCore{0, 0};
      ::setrlimit(RLIMIT_CORE, &NoCore);
      std::raise(SIGSEGV);
    }
    if (L.Function == "fault")
      throw cuda::CudaError(CUDA_ERROR_ILLEGAL_ADDRESS, "cuStreamSynchronize",
                            "CUDA_ERROR_ILLEGAL_ADDRESS",
                            "an illegal memory access was encountered",
                            L.Function);
    if (L.Function == "copy" && L.Args.size() >= 2) {
      const auto &From = Device[findSlot(Slots, L.Args[0].Buffer)];
      auto &To = Device[findSlot(Slots, L.Args[1].Buffer)];
      size_t Bytes = std::min(From.size(), To.size());
      // A wrong variant for the tuner's tests: blocks of this many threads
      // leave the last 4 bytes unwritten.
      const char *Short = std::getenv("LOOPY_WORKER_FAKE_SHORT_COPY");
      if (Short && std::to_string(L.Block[0] * L.Block[1] * L.Block[2]) ==
                       Short)
        Bytes -= std::min<size_t>(Bytes, 4);
      std::copy_n(From.begin(), Bytes, To.begin());
    }
  }
};

} // namespace

std::unique_ptr<WorkerBackend> makeFakeBackend(int Ordinal) {
  return std::make_unique<FakeBackend>(Ordinal);
}

} // namespace loopy::gpu
