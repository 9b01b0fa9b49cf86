// The C++ wrapper header of toyacc.
//
// Inductor's C++ wrapper (CppWrapperCpu) includes
// <torch/csrc/inductor/cpp_wrapper/toyacc.h> in the code it generates for a
// graph on toyacc; the build options torch_toyacc.inductor registers put this
// package's include/ directory on the include path, so nothing is written
// into the torch install.
//
// toyacc's kernels are Inductor's C++ kernels on host memory, so the header
// provides what the CPU one does, plus the device's C shim: the
// aoti_torch_toyacc_<op> functions the wrapper calls for ATen ops it does not
// generate kernels for.  Ops without a shim function here are called through
// aoti_torch_call_dispatcher instead (see the guide).
#pragma once

#ifndef USE_TOYACC
#error "compiled without toyacc's C++ build options"
#endif

#include <torch/csrc/inductor/cpp_wrapper/common.h>
#include <torch/csrc/inductor/cpp_wrapper/device_internal/cpu.h>

#include <ATen/ops/addmm.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/mm.h>
#include <torch/csrc/inductor/aoti_torch/utils.h>

// Each shim function has the signature of its aoti_torch_cpu_<op> counterpart
// in torch/csrc/inductor/aoti_torch/generated/c_shim_cpu.h and calls the
// ATen op through the dispatcher, which reaches toyacc's kernels.

namespace toyacc_shim {
inline at::Tensor& T(AtenTensorHandle handle) {
  return *torch::aot_inductor::tensor_handle_to_tensor_pointer(handle);
}
} // namespace toyacc_shim

[[maybe_unused]] static inline AOTITorchError aoti_torch_toyacc_mm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat2) {
  using toyacc_shim::T;
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE(
      { at::mm_out(T(out), T(self), T(mat2)); });
}

[[maybe_unused]] static inline AOTITorchError aoti_torch_toyacc_addmm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat1,
    AtenTensorHandle mat2,
    double beta,
    double alpha) {
  using toyacc_shim::T;
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE(
      { at::addmm_out(T(out), T(self), T(mat1), T(mat2), beta, alpha); });
}

[[maybe_unused]] static inline AOTITorchError aoti_torch_toyacc_bmm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat2) {
  using toyacc_shim::T;
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE(
      { at::bmm_out(T(out), T(self), T(mat2)); });
}

[[maybe_unused]] static inline AOTITorchError aoti_torch_toyacc_baddbmm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle batch1,
    AtenTensorHandle batch2,
    double beta,
    double alpha) {
  using toyacc_shim::T;
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE(
      { at::baddbmm_out(T(out), T(self), T(batch1), T(batch2), beta, alpha); });
}
