//===- module.cpp - The Python binding of the embedding API ---------------===//
//
// loopy._loopy: loopy::api (include/loopy/loopy.h) for Python through
// nanobind. The Pythonic surface (loopy.Kernel, keyword sizes, CuPy and
// PyTorch streams) is loopy/__init__.py; this file binds the classes,
// turns loopy::api::Error into the package's exception class with its
// location, and launches a tuned kernel on arrays given through DLPack
// (or the CUDA array interface, read in loopy/__init__.py), checked against the
// kernel's arguments (device, dtype, shape, strides). Everything slow
// (checking, planning, tuning) runs without the GIL.
//
//===----------------------------------------------------------------------===//
#include "loopy/loopy.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>

namespace nb = nanobind;
using namespace nb::literals;
using namespace loopy::api;

namespace {

/// The package's exception class (loopy.Error), set from Python on import;
/// a strong reference kept for the life of the process.
PyObject *ErrorType = nullptr;

void setErrorType(nb::handle T) {
  Py_XINCREF(T.ptr());
  Py_XDECREF(ErrorType);
  ErrorType = T.ptr();
}

/// Raises \p E as loopy.Error(text, file, line, column, message).
void raise(const Error &E) {
  nb::object Args =
      nb::make_tuple(E.what(), E.file(), E.line(), E.column(), E.message());
  PyErr_SetObject(ErrorType ? ErrorType : PyExc_RuntimeError, Args.ptr());
}

/// An array as the launch sees it, from DLPack or from the CUDA array
/// interface.
struct ArrayView {
  bool Cuda = false;
  int DeviceId = 0;
  std::string DType; // f16, bf16, f32, f64, i8, u8, ..., or else (b8, u32, ...)
  std::vector<long> Shape, Strides; // strides in elements
  std::uintptr_t Pointer = 0;
};

ArrayView viewOf(const nb::ndarray<> &A) {
  ArrayView V;
  V.Cuda = A.device_type() == nb::device::cuda::value;
  V.DeviceId = A.device_id();
  nb::dlpack::dtype T = A.dtype();
  const char *Code = T.code == (uint8_t)nb::dlpack::dtype_code::Float  ? "f"
                     : T.code == (uint8_t)nb::dlpack::dtype_code::Int  ? "i"
                     : T.code == (uint8_t)nb::dlpack::dtype_code::UInt ? "u"
                     : T.code == (uint8_t)nb::dlpack::dtype_code::Bool ? "b"
                     : T.code == (uint8_t)nb::dlpack::dtype_code::Bfloat
                         ? "bf"
                         : "?";
  V.DType = Code + std::to_string(T.bits);
  for (size_t D = 0; D < A.ndim(); ++D) {
    V.Shape.push_back(static_cast<long>(A.shape(D)));
    V.Strides.push_back(static_cast<long>(A.stride(D)));
  }
  V.Pointer = reinterpret_cast<std::uintptr_t>(A.data());
  return V;
}

/// The view loopy/__init__.py makes of an object with only
/// __cuda_array_interface__: ("cuda_array_interface", pointer, shape,
/// strides in elements, dtype). The interface names no device: device 0.
bool viewOfInterface(nb::handle H, ArrayView &V) {
  if (!nb::isinstance<nb::tuple>(H))
    return false;
  nb::tuple T = nb::borrow<nb::tuple>(H);
  if (T.size() != 5 || !nb::isinstance<nb::str>(T[0]) ||
      nb::cast<std::string>(T[0]) != "cuda_array_interface")
    return false;
  V.Cuda = true;
  V.Pointer = nb::cast<std::uintptr_t>(T[1]);
  V.Shape = nb::cast<std::vector<long>>(T[2]);
  V.Strides = nb::cast<std::vector<long>>(T[3]);
  V.DType = nb::cast<std::string>(T[4]);
  return true;
}

template <class V> std::string listText(const V &Values, size_t N) {
  std::string S = "(";
  for (size_t I = 0; I < N; ++I)
    S += (I ? ", " : "") + std::to_string(Values[I]);
  return S + (N == 1 ? ",)" : ")");
}

/// The device pointer of \p A after checking it against argument \p Arg
/// of \p Kernel: on device 0 of CUDA, of the argument's dtype, shape and
/// element strides (dimensions of extent 1 may have any stride).
DevicePtr checkedPointer(const std::string &Kernel, const ArgumentInfo &Arg,
                         const ArrayView &A) {
  std::string What = "argument '" + Arg.Name + "' of kernel '" + Kernel + "'";
  if (!A.Cuda)
    throw nb::value_error(
        (What + " is not in CUDA device memory; pass a CuPy or PyTorch "
                "array on the GPU")
            .c_str());
  if (A.DeviceId != 0)
    throw nb::value_error((What + " is on CUDA device " +
                           std::to_string(A.DeviceId) +
                           "; loopy runs kernels on device 0")
                              .c_str());
  if (A.DType != Arg.DType)
    throw nb::type_error(
        (What + " has dtype " + A.DType + "; the kernel declares " + Arg.DType)
            .c_str());
  if (A.Shape != Arg.Shape)
    throw nb::value_error(
        (What + " has shape " + listText(A.Shape, A.Shape.size()) +
         "; the kernel needs " + listText(Arg.Shape, Arg.Shape.size()) +
         " at its sizes")
            .c_str());
  for (size_t D = 0; D < A.Shape.size(); ++D)
    if (A.Shape[D] > 1 && A.Strides[D] != Arg.Strides[D])
      throw nb::value_error((What + " has element strides " +
                             listText(A.Strides, A.Strides.size()) +
                             "; the kernel's layout needs " +
                             listText(Arg.Strides, Arg.Strides.size()) +
                             " (a contiguous copy has them)")
                                .c_str());
  return static_cast<DevicePtr>(A.Pointer);
}

/// Launches \p T on the arrays \p Arrays (name -> any DLPack array) and the
/// scalars \p Scalars on the CUDA stream \p Stream (a CUstream as an
/// integer; 0 for the default stream).
void launch(const TunedKernel &T, const std::string &KernelName,
            nb::dict Arrays, const std::map<std::string, double> &Scalars,
            std::uintptr_t Stream) {
  std::map<std::string, DevicePtr> Pointers;
  std::map<std::string, double> Values;
  for (const ArgumentInfo &Arg : T.arguments()) {
    if (Arg.ArgKind == ArgumentInfo::Kind::Index)
      continue;
    if (Arg.ArgKind == ArgumentInfo::Kind::Scalar) {
      auto It = Scalars.find(Arg.Name);
      if (It == Scalars.end())
        throw nb::type_error(("kernel '" + KernelName +
                              "' needs a value for scalar '" + Arg.Name + "'")
                                 .c_str());
      Values[Arg.Name] = It->second;
      continue;
    }
    nb::str Key(Arg.Name.c_str());
    if (!Arrays.contains(Key))
      throw nb::type_error(("kernel '" + KernelName +
                            "' needs an array for argument '" + Arg.Name + "'")
                               .c_str());
    ArrayView View;
    nb::ndarray<> A;
    if (viewOfInterface(Arrays[Key], View)) {
    } else if (nb::try_cast(Arrays[Key], A)) {
      View = viewOf(A);
    } else {
      throw nb::type_error(("argument '" + Arg.Name + "' of kernel '" +
                            KernelName +
                            "' is not an array (__dlpack__ or "
                            "__cuda_array_interface__)")
                               .c_str());
    }
    Pointers[Arg.Name] = checkedPointer(KernelName, Arg, View);
  }
  for (auto [Key, Value] : Arrays) {
    std::string Name = nb::cast<std::string>(Key);
    if (!Pointers.count(Name))
      throw nb::type_error(
          ("kernel '" + KernelName + "' has no array argument '" + Name + "'")
              .c_str());
  }
  nb::gil_scoped_release Release;
  T.launch(Pointers, Values, reinterpret_cast<void *>(Stream));
}

const char *kindName(ArgumentInfo::Kind K) {
  switch (K) {
  case ArgumentInfo::Kind::Index:
    return "index";
  case ArgumentInfo::Kind::Scalar:
    return "scalar";
  case ArgumentInfo::Kind::Array:
    return "array";
  }
  return "?";
}

} // namespace

NB_MODULE(_loopy, M) {
  M.doc() = "The binding of loopy's C++ API; use the package loopy.";
  M.def("_set_error_type", &setErrorType, "type"_a);
  nb::register_exception_translator([](const std::exception_ptr &P, void *) {
    try {
      std::rethrow_exception(P);
    } catch (const Error &E) {
      raise(E);
    }
  });

  nb::class_<VariantInfo>(M, "VariantInfo")
      .def_ro("schedule", &VariantInfo::Schedule)
      .def_ro("threads", &VariantInfo::Threads)
      .def_ro("shared_bytes", &VariantInfo::SharedBytes)
      .def_ro("register_outputs", &VariantInfo::RegisterOutputs)
      .def_ro("static_cost", &VariantInfo::StaticCost);

  nb::class_<ArgumentInfo>(M, "ArgumentInfo")
      .def_ro("name", &ArgumentInfo::Name)
      .def_prop_ro("kind",
                   [](const ArgumentInfo &A) { return kindName(A.ArgKind); })
      .def_ro("dtype", &ArgumentInfo::DType)
      .def_ro("element_bytes", &ArgumentInfo::ElementBytes)
      .def_ro("mode", &ArgumentInfo::Mode)
      .def_ro("shape", &ArgumentInfo::Shape)
      .def_ro("strides", &ArgumentInfo::Strides)
      .def_ro("elements", &ArgumentInfo::Elements);

  nb::class_<TunedKernel>(M, "TunedKernel")
      .def_prop_ro("schedule", &TunedKernel::schedule)
      .def_prop_ro("cuda_source", &TunedKernel::cudaSource)
      .def_prop_ro("seconds", &TunedKernel::seconds)
      .def_prop_ro("gflops", &TunedKernel::gflops)
      .def_prop_ro("from_database", &TunedKernel::fromDatabase)
      .def_prop_ro("warnings", &TunedKernel::warnings)
      .def_prop_ro("tuning_seconds", &TunedKernel::tuningSeconds)
      .def_prop_ro("flops", &TunedKernel::flops)
      .def_prop_ro("bytes", &TunedKernel::bytes)
      .def_prop_ro("arguments", &TunedKernel::arguments)
      .def_prop_ro("parameter_values", &TunedKernel::parameterValues)
      .def("launch", &launch, "kernel_name"_a, "arrays"_a, "scalars"_a,
           "stream"_a);

  nb::class_<Kernel>(M, "Kernel")
      .def_prop_ro("name", &Kernel::name)
      .def_prop_ro("parameters", &Kernel::parameters)
      .def_prop_ro("fixed_values", &Kernel::fixedValues)
      .def_prop_ro("set_values", &Kernel::setValues)
      .def("copy", [](const Kernel &K) { return Kernel(K); })
      .def("fix", [](Kernel &K, const std::string &P, long V) { K.fix(P, V); })
      .def("set", [](Kernel &K, const std::string &P, long V) { K.set(P, V); })
      .def("planner",
           [](Kernel &K, long MinThreads, long MinBlocks, long MaxShared) {
             loopy::PlannerOptions O = K.plannerOptions();
             if (MinThreads >= 0)
               O.MinThreads = MinThreads;
             if (MinBlocks >= 0)
               O.MinBlocks = MinBlocks;
             if (MaxShared >= 0)
               O.MaxSharedBytes = MaxShared;
             K.planner(O);
           })
      .def("arguments", &Kernel::arguments,
           nb::call_guard<nb::gil_scoped_release>())
      .def("variants", &Kernel::variants,
           nb::call_guard<nb::gil_scoped_release>())
      .def("cuda", &Kernel::cuda, "schedule"_a = "",
           nb::call_guard<nb::gil_scoped_release>())
      .def(
          "compile",
          [](const Kernel &K, const std::string &Schedule,
             const std::string &Arch, bool Ptx) {
            CompiledVariant C;
            {
              nb::gil_scoped_release Release;
              C = K.compile(Schedule, Arch, Ptx);
            }
            return nb::make_tuple(C.Schedule, C.Arch, C.Cuda,
                                  nb::bytes(C.Binary.data(), C.Binary.size()));
          },
          "schedule"_a, "arch"_a, "ptx"_a)
      .def("load", &Kernel::load, "schedule"_a,
           nb::call_guard<nb::gil_scoped_release>())
      .def("sizes_from_shapes", &Kernel::sizesFromShapes, "shapes"_a,
           nb::call_guard<nb::gil_scoped_release>())
      .def(
          "tune",
          [](const Kernel &K, const std::string &Db, size_t Budget,
             bool Exhaustive, bool Retune, unsigned long Seed) {
            TuneSettings S;
            S.Database = Db;
            S.Budget = Budget;
            S.Exhaustive = Exhaustive;
            S.Retune = Retune;
            S.Seed = Seed;
            return K.tune(S);
          },
          "db"_a, "budget"_a, "exhaustive"_a, "retune"_a, "seed"_a,
          nb::call_guard<nb::gil_scoped_release>());

  nb::class_<Source>(M, "Source")
      .def_static("from_string", &Source::fromString, "text"_a,
                  "name"_a = "<string>",
                  nb::call_guard<nb::gil_scoped_release>())
      .def_static("from_file", &Source::fromFile, "path"_a,
                  nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("kernel_names", &Source::kernelNames)
      .def("kernel", &Source::kernel, "name"_a = "");
}
