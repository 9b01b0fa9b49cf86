// The C++ wrapper header of vendor_b, at the path the C++ wrapper includes by
// default, on an include directory of the device's C++ build options.
#pragma once
#include <extension_device/cpp_wrapper.h>
EXTENSION_DEVICE_DEFINE_C_SHIM(vendor_b)
