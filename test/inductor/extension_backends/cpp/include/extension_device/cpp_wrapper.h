// The C++ wrapper header of the fake PrivateUse1 device extension_device.
//
// Inductor's C++ wrapper includes <torch/csrc/inductor/cpp_wrapper/<device>.h>
// for every device of a graph.  The device does not write into the torch
// install: its C++ build options (ExtensionDeviceOpOverrides.
// get_cpp_torch_device_options) add two include directories, this one and a
// directory of the build tree holding that <device>.h for the name PrivateUse1
// was renamed to, which includes this file and instantiates the C shim below
// for that name.
//
// The device's memory is host memory and Inductor's C++ backend generates its
// kernels, so this header provides what the CPU one does, plus the device's C
// shim: aoti_torch_<device>_<op>, which the wrapper calls for ATen ops it does
// not generate kernels for (matrix products).  The shim dispatches to the
// device's ATen kernels.
#pragma once

#ifndef USE_EXTENSION_DEVICE
#error "extension_device's C++ wrapper header is compiled without the device's C++ build options (USE_EXTENSION_DEVICE is not defined)"
#endif

#include <torch/csrc/inductor/cpp_wrapper/common.h>
#include <torch/csrc/inductor/cpp_wrapper/device_internal/cpu.h>

#include <ATen/ops/addmm.h>
#include <c10/core/DeviceGuard.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/mm.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/inductor/aoti_torch/utils.h>

#include <vector>

// Test knob: when the device's C++ build options define
// EXTENSION_DEVICE_SHIM_SCALE, the shim scales the products it computes by it.
// Tests set it to show that the options reach the compiler; left undefined, the
// shim computes exactly what eager mode does.
#ifdef EXTENSION_DEVICE_SHIM_SCALE
#define EXTENSION_DEVICE_SHIM_RESULT(out) (out).mul_(EXTENSION_DEVICE_SHIM_SCALE)
#else
#define EXTENSION_DEVICE_SHIM_RESULT(out) (void)(out)
#endif

namespace extension_device {

// Sets the current device for its lifetime, as AOTICudaGuard does for CUDA
// (DeviceOpOverrides.cpp_aoti_device_guard); generated code of a GPU-class
// device guards its kernels with it.
class AOTIDeviceGuard {
 public:
  explicit AOTIDeviceGuard(int32_t device_index)
      : guard_(c10::Device(c10::DeviceType::PrivateUse1, device_index)) {}

  void set_index(int32_t device_index) {
    guard_.set_index(device_index);
  }

 private:
  c10::DeviceGuard guard_;
};

// Flips the device's protected memory (the runtime's set_memory_protection
// mode) for the tensors of one kernel call: generated code calls it before
// (true) and after (false) the call when the backend's
// DeviceOpOverrides.cpp_kernel_call_guard asks for it.
template <typename... Handles>
void set_access(bool accessible, const Handles&... handles) {
  std::vector<at::Tensor> tensors{
      *torch::aot_inductor::tensor_handle_to_tensor_pointer(handles.get())...};
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("extension_device::set_access", "")
                       .typed<void(at::TensorList, bool)>();
  op.call(tensors, accessible);
}

} // namespace extension_device

namespace extension_device::shim {

using torch::aot_inductor::tensor_handle_to_tensor_pointer;

inline AOTITorchError mm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat2) {
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE({
    at::Tensor& result = *tensor_handle_to_tensor_pointer(out);
    at::mm_out(
        result,
        *tensor_handle_to_tensor_pointer(self),
        *tensor_handle_to_tensor_pointer(mat2));
    EXTENSION_DEVICE_SHIM_RESULT(result);
  });
}

inline AOTITorchError bmm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat2) {
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE({
    at::Tensor& result = *tensor_handle_to_tensor_pointer(out);
    at::bmm_out(
        result,
        *tensor_handle_to_tensor_pointer(self),
        *tensor_handle_to_tensor_pointer(mat2));
    EXTENSION_DEVICE_SHIM_RESULT(result);
  });
}

inline AOTITorchError addmm_out(
    AtenTensorHandle out,
    AtenTensorHandle self,
    AtenTensorHandle mat1,
    AtenTensorHandle mat2,
    double beta,
    double alpha) {
  AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE({
    at::Tensor& result = *tensor_handle_to_tensor_pointer(out);
    at::addmm_out(
        result,
        *tensor_handle_to_tensor_pointer(self),
        *tensor_handle_to_tensor_pointer(mat1),
        *tensor_handle_to_tensor_pointer(mat2),
        beta,
        alpha);
    EXTENSION_DEVICE_SHIM_RESULT(result);
  });
}

} // namespace extension_device::shim

// Defines the C shim functions aoti_torch_<device>_<op> for the device name
// `device`.
#define EXTENSION_DEVICE_DEFINE_C_SHIM(device)                                \
  [[maybe_unused]] static inline AOTITorchError aoti_torch_##device##_mm_out( \
      AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle mat2) {   \
    return extension_device::shim::mm_out(out, self, mat2);                   \
  }                                                                           \
  [[maybe_unused]] static inline AOTITorchError                               \
      aoti_torch_##device##_bmm_out(                                          \
          AtenTensorHandle out,                                               \
          AtenTensorHandle self,                                              \
          AtenTensorHandle mat2) {                                            \
    return extension_device::shim::bmm_out(out, self, mat2);                  \
  }                                                                           \
  [[maybe_unused]] static inline AOTITorchError                               \
      aoti_torch_##device##_addmm_out(                                        \
          AtenTensorHandle out,                                               \
          AtenTensorHandle self,                                              \
          AtenTensorHandle mat1,                                              \
          AtenTensorHandle mat2,                                              \
          double beta,                                                        \
          double alpha) {                                                     \
    return extension_device::shim::addmm_out(                                 \
        out, self, mat1, mat2, beta, alpha);                                  \
  }
