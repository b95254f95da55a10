# lit configuration of loopyc's golden tests.
import os
import lit.formats

config.name = "loopyc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".loop", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "unit", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.loopy_obj_root, "test")

loopyc = os.path.join(config.loopy_tools_dir, "loopyc")
config.substitutions.append(("%loopyc", loopyc))
# The C/C++ front end is built only where the Clang 14 development files
# are installed; test/Extract needs it.
loopy_extract = os.path.join(config.loopy_tools_dir, "loopy-extract")
config.substitutions.append(("%loopy-extract", loopy_extract))
if os.path.exists(loopy_extract):
    config.available_features.add("loopy-extract")
# loopy-bench is built only where the CUDA toolkit has cuBLAS.
loopy_bench = os.path.join(config.loopy_tools_dir, "loopy-bench")
config.substitutions.append(("%loopy-bench", loopy_bench))
if os.path.exists(loopy_bench):
    config.available_features.add("loopy-bench")
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%loopy_src", config.loopy_src_root))
config.substitutions.append(("%examples", os.path.join(config.loopy_src_root, "examples")))
config.substitutions.append(("FileCheck", config.filecheck))
# LLVM's `not` fails when the command crashes, so an expected error can
# never be satisfied by a crash.
config.substitutions.append(("not ", config.llvm_not + " "))
config.environment["LC_ALL"] = "C"
# PoCL keeps its builds of --check=opencl programs inside the build tree.
config.environment["POCL_CACHE_DIR"] = os.path.join(config.loopy_obj_root, "pocl-cache")

# Tests of what loopyc does without a GPU run where the NVIDIA driver has no
# device node.
if not os.path.exists("/dev/nvidiactl"):
    config.available_features.add("no-gpu")

# nvcc compiles the modules of --emit=cuda-module (no GPU needed); tests
# that need it say REQUIRES: nvcc and are reported unsupported without it.
import shutil
nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
if os.path.exists(nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
