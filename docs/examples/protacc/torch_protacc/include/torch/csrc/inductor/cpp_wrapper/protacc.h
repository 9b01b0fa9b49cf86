// The C++ wrapper header of protacc.
//
// Inductor's C++ wrapper (CppWrapperCpu) includes
// <torch/csrc/inductor/cpp_wrapper/protacc.h> in the code it generates for a
// graph on protacc; the build options torch_protacc.inductor registers put this
// package's include/ directory on the include path.
//
// It provides what the CPU header does, the C shim functions the wrapper calls
// for matrix products (aoti_torch_protacc_*), and protacc::set_access, which
// the lines of ProtaccOpOverrides.cpp_kernel_call_guard call around each
// generated kernel.
#pragma once

#ifndef USE_PROTACC
#error "compiled without protacc's C++ build options"
#endif

#include <torch/csrc/inductor/cpp_wrapper/common.h>
#include <torch/csrc/inductor/cpp_wrapper/device_internal/cpu.h>

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/mm.h>
#include <torch/csrc/inductor/aoti_torch/utils.h>

#include <vector>

namespace protacc {

inline at::Tensor& T(AtenTensorHandle handle) {
  return *torch::aot_inductor::tensor_handle_to_tensor_pointer(handle);
}

// Grants (true) or withdraws (false) host access to the memory of the tensors
// behind `handles`, through the runtime's operator protacc::set_access.
template <typename... Handles>
void set_access(bool accessible, const Handles&... handles) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("protacc::set_access", "")
                       .typed<void(at::TensorList, bool)>();
  op.call(std::vector<at::Tensor>{T(handles.get())...}, accessible);
}

} // namespace protacc

// Each shim function has the signature of its aoti_torch_cpu_<op> counterpart
// (torch/csrc/inductor/aoti_torch/generated/c_shim_cpu.h) and calls the ATen op
// through the dispatcher, whose protacc kernels have access to the memory.

[[maybe_unused]] static inline AOTITorchError aoti_torch_protacc_mm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat2) {
  using protacc::T;
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE(
      { at::mm_out(T(out), T(self), T(mat2)); });
}

[[maybe_unused]] static inline AOTITorchError aoti_torch_protacc_addmm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat1,
    AtenTensorHandle mat2,
    double beta,
    double alpha) {
  using protacc::T;
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE(
      { at::addmm_out(T(out), T(self), T(mat1), T(mat2), beta, alpha); });
}
