// The C++ wrapper header of vendor_a: what the CPU wrapper needs, plus the
// device's C shim aoti_torch_vendor_a_<op> (from the fake device's header).
#pragma once
#define USE_EXTENSION_DEVICE
#include "../../extension_backends/cpp/include/extension_device/cpp_wrapper.h"
EXTENSION_DEVICE_DEFINE_C_SHIM(vendor_a)
