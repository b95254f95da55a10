//===- CudaTest.cpp - Tests of the CUDA driver layer ----------------------===//
//
// What needs no driver: the format of CUDA errors, which errors are sticky,
// and which symbols the layer resolves. (GpuWorkerTest.cpp loads the
// toolkit's stub driver and checks the refusal where there is none.)
//
//===----------------------------------------------------------------------===//
#include "loopy/Runtime/Cuda.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace loopy;

namespace {

TEST(CudaErrorTest, MessageNamesCallContextAndError) {
  cuda::CudaError E(CUDA_ERROR_ILLEGAL_ADDRESS, "cuLaunchKernel",
                    "CUDA_ERROR_ILLEGAL_ADDRESS",
                    "an illegal memory access was encountered", "matmul_v3");
  EXPECT_STREQ(E.what(),
               "cuLaunchKernel(matmul_v3): CUDA_ERROR_ILLEGAL_ADDRESS: "
               "an illegal memory access was encountered");
  EXPECT_EQ(E.code(), CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(E.call(), "cuLaunchKernel");
  EXPECT_EQ(E.context(), "matmul_v3");
  EXPECT_TRUE(E.sticky());

  cuda::CudaError NoContext(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc",
                            "CUDA_ERROR_OUT_OF_MEMORY", "out of memory");
  EXPECT_STREQ(NoContext.what(),
               "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory");
  EXPECT_FALSE(NoContext.sticky());
}

TEST(CudaErrorTest, StickyErrors) {
  for (CUresult Code :
       {CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_MISALIGNED_ADDRESS,
        CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_HARDWARE_STACK_ERROR,
        CUDA_ERROR_ILLEGAL_INSTRUCTION, CUDA_ERROR_ECC_UNCORRECTABLE,
        CUDA_ERROR_ASSERT, CUDA_ERROR_INVALID_PC})
    EXPECT_TRUE(cuda::isStickyError(Code)) << Code;
  for (CUresult Code :
       {CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_OUT_OF_MEMORY,
        CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_NOT_FOUND,
        CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CUDA_ERROR_NO_BINARY_FOR_GPU})
    EXPECT_FALSE(cuda::isStickyError(Code)) << Code;
}

TEST(CudaDriverTest, ResolvesTheVersionedEntryPoints) {
  std::vector<std::string> Symbols = cuda::driverSymbols();
  for (const char *Versioned :
       {"cuMemAlloc_v2", "cuMemFree_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2",
        "cuDeviceTotalMem_v2", "cuDevicePrimaryCtxRelease_v2",
        "cuStreamDestroy_v2", "cuEventDestroy_v2", "cuEventElapsedTime_v2",
        "cuLaunchKernel", "cuModuleLoadData"})
    EXPECT_NE(std::find(Symbols.begin(), Symbols.end(), Versioned),
              Symbols.end())
        << Versioned;
  EXPECT_EQ(std::find(Symbols.begin(), Symbols.end(), "cuMemAlloc"),
            Symbols.end());
}

} // namespace
