//===- CudaBackend.cpp - The GPU worker's device work through CUDA --------===//
#include "WorkerBackend.h"

#include "loopy/Runtime/Cuda.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

namespace loopy::gpu {

namespace {

/// Launches may use this much dynamic shared memory without opting in.
constexpr unsigned DefaultDynamicSharedLimit = 48 * 1024;

class CudaBackend final : public WorkerBackend {
public:
  explicit CudaBackend(int Ordinal) : Ordinal(Ordinal), Dev(Ordinal), Ctx(Dev) {}
  DeviceInfo device() override;
  void setBuffers(const std::vector<protocol::BufferSlot> &NewSlots,
                  unsigned char *NewHost) override;
  std::vector<FunctionInfo> load(const std::string &Image,
                                 const std::vector<Launch> &Launches) override;
  void upload(bool All) override;
  bool keepOutputs() override;
  void restoreOutputs() override;
  void launchAll(const std::vector<Launch> &Launches) override;
  void synchronize(const std::vector<Launch> &Launches) override;
  void downloadOutputs() override;
  double timedRepeat(const std::vector<Launch> &Launches) override;
  void setChecker(const std::string &Image) override;
  std::vector<CompareStats>
  compare(const std::vector<CompareSpec> &Specs) override;
  std::string gather(const std::string &Buffer, unsigned ElementBytes,
                     const std::vector<uint64_t> &Offsets) override;

private:
  /// The function \p L launches, allowed the dynamic shared memory it asks.
  const cuda::Function &function(const Launch &L);

  // Declared in the order they must be made: the context before anything
  // allocated in it, and destroyed after all of it.
  int Ordinal;
  cuda::Device Dev;
  cuda::Context Ctx;
  cuda::Stream S;
  cuda::Event Start, Stop;

  std::vector<protocol::BufferSlot> Slots;
  unsigned char *Host = nullptr;
  std::vector<cuda::DeviceBuffer> Buffers; // one per slot
  /// keepOutputs()'s copies, one per slot (empty for inputs); none if
  /// they are not kept.
  std::vector<cuda::DeviceBuffer> Kept;

  std::optional<cuda::Module> Module;
  std::map<std::string, cuda::Function> Functions;
  /// The module of checkerSource(), and its results: two sums (f64) and
  /// three counts (u64) per comparison.
  std::optional<cuda::Module> Checker;
  cuda::DeviceBuffer CheckResults{5 * 8};
  /// The dynamic shared memory each function was allowed, above the default.
  std::map<std::string, unsigned> DynamicSharedAllowed;
};

} // namespace

DeviceInfo CudaBackend::device() { return localDeviceInfo(Ordinal); }

DeviceInfo localDeviceInfo(int Ordinal) {
  cuda::Device Dev(Ordinal);
  DeviceInfo D;
  D.Name = Dev.name();
  D.CcMajor = Dev.ccMajor();
  D.CcMinor = Dev.ccMinor();
  D.Multiprocessors = Dev.multiprocessors();
  D.L2Bytes = Dev.l2Bytes();
  D.GlobalBytes = Dev.totalMemory();
  D.SharedPerBlock = Dev.sharedPerBlock();
  D.SharedPerBlockOptin = Dev.sharedPerBlockOptin();
  D.SharedPerMultiprocessor = Dev.sharedPerMultiprocessor();
  D.DriverVersion = cuda::Driver::get().version();
  D.Ordinal = Ordinal;
  D.DeviceCount = cuda::Driver::get().deviceCount();
  return D;
}

void CudaBackend::setBuffers(const std::vector<protocol::BufferSlot> &NewSlots,
                             unsigned char *NewHost) {
  // Free the old buffers first: the new ones may need their memory.
  Kept.clear();
  Buffers.clear();
  Slots = NewSlots;
  Host = NewHost;
  for (const protocol::BufferSlot &Slot : Slots)
    Buffers.emplace_back(Slot.Bytes);
  upload(true);
}

const cuda::Function &CudaBackend::function(const Launch &L) {
  auto It = Functions.find(L.Function);
  if (It == Functions.end())
    It = Functions.emplace(L.Function, Module->function(L.Function)).first;
  if (L.DynamicShared > DefaultDynamicSharedLimit &&
      DynamicSharedAllowed[L.Function] < L.DynamicShared) {
    It->second.setMaxDynamicShared(L.DynamicShared);
    DynamicSharedAllowed[L.Function] = L.DynamicShared;
  }
  return It->second;
}

std::vector<FunctionInfo>
CudaBackend::load(const std::string &Image,
                  const std::vector<Launch> &Launches) {
  Functions.clear();
  DynamicSharedAllowed.clear();
  Module.reset();
  Module.emplace(Image);
  std::vector<FunctionInfo> Infos;
  try {
    for (const Launch &L : Launches) {
      const cuda::Function &F = function(L);
      FunctionInfo &I = Infos.emplace_back();
      I.Name = L.Function;
      I.Registers = F.registers();
      I.LocalBytes = F.localBytes();
      I.StaticShared = F.staticShared();
      I.MaxThreads = F.maxThreadsPerBlock();
      I.BlocksPerMultiprocessor =
          F.occupancy(L.Block[0] * L.Block[1] * L.Block[2], L.DynamicShared);
    }
  } catch (...) {
    Functions.clear();
    Module.reset();
    throw;
  }
  return Infos;
}

void CudaBackend::upload(bool All) {
  for (size_t I = 0; I < Slots.size(); ++I)
    if (All || Slots[I].Output)
      Buffers[I].upload(Host + Slots[I].Offset);
}

bool CudaBackend::keepOutputs() {
  if (Kept.size() != Slots.size()) {
    Kept.clear();
    try {
      for (const protocol::BufferSlot &Slot : Slots)
        Kept.emplace_back(Slot.Output ? Slot.Bytes : 0);
    } catch (const cuda::CudaError &) {
      Kept.clear(); // no room: the outputs come from the host
      return false;
    }
  }
  for (size_t I = 0; I < Slots.size(); ++I)
    if (Slots[I].Output)
      Kept[I].copyFrom(Buffers[I]);
  return true;
}

void CudaBackend::restoreOutputs() {
  for (size_t I = 0; I < Slots.size(); ++I)
    if (Slots[I].Output)
      Buffers[I].copyFrom(Kept.at(I));
}

void CudaBackend::launchAll(const std::vector<Launch> &Launches) {
  for (const Launch &L : Launches) {
    const cuda::Function &F = function(L);
    // cuLaunchKernel takes a pointer to each argument's bytes; a buffer's
    // bytes are its device pointer.
    std::vector<CUdeviceptr> Pointers(L.Args.size());
    std::vector<void *> Params(L.Args.size());
    for (size_t I = 0; I < L.Args.size(); ++I) {
      const KernelArg &A = L.Args[I];
      if (A.Buffer.empty()) {
        Params[I] = const_cast<unsigned char *>(A.Bytes.data());
        continue;
      }
      Pointers[I] = Buffers[findSlot(Slots, A.Buffer)].pointer();
      Params[I] = &Pointers[I];
    }
    cuda::launch(F, L.Grid, L.Block, L.DynamicShared, S, Params.data());
  }
}

void CudaBackend::synchronize(const std::vector<Launch> &Launches) {
  S.synchronize(launchNames(Launches));
}

void CudaBackend::downloadOutputs() {
  for (size_t I = 0; I < Slots.size(); ++I)
    if (Slots[I].Output)
      Buffers[I].download(Host + Slots[I].Offset);
}

double CudaBackend::timedRepeat(const std::vector<Launch> &Launches) {
  Start.record(S);
  launchAll(Launches);
  Stop.record(S);
  Stop.synchronize(launchNames(Launches));
  return cuda::Event::elapsedSeconds(Start, Stop);
}

void CudaBackend::setChecker(const std::string &Image) {
  Checker.reset();
  Checker.emplace(Image);
}

namespace {

const char *kindName(ElementKind K) {
  switch (K) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I16:
    return "i16";
  }
  return "?";
}

} // namespace

std::vector<CompareStats>
CudaBackend::compare(const std::vector<CompareSpec> &Specs) {
  if (!Checker)
    throw std::runtime_error("no checker module loaded");
  std::vector<std::pair<size_t, size_t>> Pairs = compareSlots(Slots, Specs);
  std::vector<CompareStats> Stats;
  for (size_t I = 0; I < Specs.size(); ++I) {
    const CompareSpec &C = Specs[I];
    CompareStats &St = Stats.emplace_back();
    unsigned long long N =
        Slots[Pairs[I].first].Bytes / elementBytes(C.Kind);
    if (N == 0)
      continue;
    CUdeviceptr Cand = Buffers[Pairs[I].first].pointer();
    CUdeviceptr Ref = Buffers[Pairs[I].second].pointer();
    unsigned long long Poison = C.PoisonBits;
    CUdeviceptr Sums = CheckResults.pointer(), Counts = Sums + 16,
                First = Sums + 32;
    unsigned Block[3] = {256, 1, 1};
    unsigned Grid[3] = {static_cast<unsigned>(
                            std::min<unsigned long long>((N + 255) / 256, 1024)),
                        1, 1};
    // The sums: compared, sum (c - r)^2, sum r^2.
    CheckResults.memset(0);
    cuda::Function Sum =
        Checker->function(std::string("loopy_check_sums_") + kindName(C.Kind));
    void *SumArgs[] = {&Cand, &Ref, &N, &Poison, &Sums, &Counts};
    cuda::launch(Sum, Grid, Block, 0, S, SumArgs);
    S.synchronize("loopy_check_sums");
    unsigned char Result[40];
    CheckResults.download(Result);
    std::memcpy(&St.Diff2, Result, 8);
    std::memcpy(&St.Ref2, Result + 8, 8);
    std::memcpy(&St.Compared, Result + 16, 8);
    // The bad elements, with the root mean square of the reference.
    double Tol = C.Tolerance;
    double Rms = St.Compared ? std::sqrt(St.Ref2 / double(St.Compared)) : 0;
    CheckResults.memset(0);
    unsigned long long NoneYet = ~0ull;
    cuda::copyToDevice(First, &NoneYet, 8);
    cuda::Function Bad =
        Checker->function(std::string("loopy_check_bad_") + kindName(C.Kind));
    CUdeviceptr BadCount = Counts + 8;
    void *BadArgs[] = {&Cand, &Ref, &N, &Poison, &Tol, &Rms, &BadCount, &First};
    cuda::launch(Bad, Grid, Block, 0, S, BadArgs);
    S.synchronize("loopy_check_bad");
    CheckResults.download(Result);
    std::memcpy(&St.Bad, Result + 24, 8);
    std::memcpy(&St.FirstBad, Result + 32, 8);
  }
  return Stats;
}

std::string CudaBackend::gather(const std::string &Buffer,
                                unsigned ElementBytes,
                                const std::vector<uint64_t> &Offsets) {
  size_t Slot = findSlot(Slots, Buffer);
  checkOffsets(Slots[Slot], ElementBytes, Offsets);
  std::string Out(Offsets.size() * ElementBytes, '\0');
  for (size_t I = 0; I < Offsets.size(); ++I)
    cuda::copyToHost(Out.data() + I * ElementBytes,
                     Buffers[Slot].pointer() + Offsets[I] * ElementBytes,
                     ElementBytes);
  return Out;
}

std::unique_ptr<WorkerBackend> makeCudaBackend(int Ordinal) {
  return std::make_unique<CudaBackend>(Ordinal);
}

} // namespace loopy::gpu
