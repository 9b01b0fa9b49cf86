// The eager side of protacc: a PrivateUse1 device whose memory the host can
// address but may not touch outside a grant, as on devices whose memory is
// mapped into the host only on demand.
//
// Device memory is made of whole pages, mapped PROT_NONE: host code that
// reads or writes it faults (SIGSEGV).  It is accessible
//   * while one of this runtime's operators runs (an `Access` scope), and
//   * for the tensors passed to protacc::set_access(tensors, true), until
//     protacc::set_access(tensors, false): what a kernel-call guard calls
//     around each kernel that Inductor generates (see torch_protacc/inductor.py).
//
// Loading this library registers, for DeviceType::PrivateUse1, the allocator,
// a device guard (one device, no streams), PrivateUse1 hooks (for
// `torch.accelerator`), kernels for tensor creation, copies and views, a boxed
// fallback running every other operator with the CPU kernels, and the operator
// protacc::set_access.  It has no Python bindings.

#include <ATen/EmptyTensor.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_local_scalar_dense.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <mutex>

namespace protacc {
namespace {

constexpr c10::DeviceType kDeviceType = c10::DeviceType::PrivateUse1;
const c10::Device kDevice(kDeviceType, 0);

// ---------------------------------------------------------------------------
// 1. Protected memory.
// ---------------------------------------------------------------------------

struct Memory {
  std::mutex mutex; // guards blocks and access_depth
  std::map<void*, size_t> blocks; // each allocation: address -> mapped bytes
  int access_depth = 0; // > 0: inside an Access scope, all of it accessible
};

// Leaked on purpose: tensors may be freed at interpreter shutdown, after
// static destructors ran.
Memory& memory = *new Memory();

void protect(void* address, size_t nbytes, bool accessible) {
  const int prot = accessible ? PROT_READ | PROT_WRITE : PROT_NONE;
  TORCH_CHECK(mprotect(address, nbytes, prot) == 0, "protacc: mprotect failed");
}

// Makes all device memory accessible for its lifetime; scopes nest.
struct Access {
  Access() {
    std::lock_guard<std::mutex> lock(memory.mutex);
    if (memory.access_depth++ == 0) {
      for (const auto& [address, nbytes] : memory.blocks) {
        protect(address, nbytes, true);
      }
    }
  }
  ~Access() {
    std::lock_guard<std::mutex> lock(memory.mutex);
    if (--memory.access_depth == 0) {
      for (const auto& [address, nbytes] : memory.blocks) {
        protect(address, nbytes, false);
      }
    }
  }
};

void free_device_memory(void* ptr) {
  std::lock_guard<std::mutex> lock(memory.mutex);
  auto it = memory.blocks.find(ptr);
  if (it != memory.blocks.end()) {
    munmap(ptr, it->second);
    memory.blocks.erase(it);
  }
}

struct Allocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) override {
    if (nbytes == 0) {
      return {nullptr, nullptr, &free_device_memory, kDevice};
    }
    const size_t page = sysconf(_SC_PAGESIZE);
    const size_t mapped = (nbytes + page - 1) / page * page;
    void* ptr = mmap(
        nullptr, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    TORCH_CHECK(ptr != MAP_FAILED, "protacc: out of memory");
    std::lock_guard<std::mutex> lock(memory.mutex);
    memory.blocks.emplace(ptr, mapped);
    if (memory.access_depth > 0) {
      protect(ptr, mapped, true);
    }
    return {ptr, ptr, &free_device_memory, kDevice};
  }
  c10::DeleterFnPtr raw_deleter() const override {
    return &free_device_memory;
  }
  void copy_data(void* dest, const void* src, std::size_t count)
      const override {
    Access access;
    default_copy_data(dest, src, count);
  }
};

Allocator allocator;
REGISTER_ALLOCATOR(kDeviceType, &allocator)

// protacc::set_access: grants (or withdraws) host access to the memory of
// `tensors`.  Inside an Access scope everything is accessible already.
void set_access(at::TensorList tensors, bool accessible) {
  std::lock_guard<std::mutex> lock(memory.mutex);
  for (const auto& tensor : tensors) {
    auto it = memory.blocks.find(tensor.storage().data_ptr().get());
    if (it != memory.blocks.end() && memory.access_depth == 0) {
      protect(it->first, it->second, accessible);
    }
  }
}

TORCH_LIBRARY(protacc, m) {
  m.def("set_access(Tensor[] tensors, bool accessible) -> ()", &set_access);
}

// ---------------------------------------------------------------------------
// 2. Device guard: one device, and only its default stream.
// ---------------------------------------------------------------------------

struct GuardImpl final : c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override {
    return kDeviceType;
  }
  c10::Device exchangeDevice(c10::Device device) const override {
    setDevice(device);
    return kDevice;
  }
  c10::Device getDevice() const override {
    return kDevice;
  }
  void setDevice(c10::Device device) const override {
    TORCH_CHECK(device.index() <= 0, "protacc has one device");
  }
  void uncheckedSetDevice(c10::Device /*device*/) const noexcept override {}
  c10::Stream getStream(c10::Device /*device*/) const override {
    return c10::Stream(c10::Stream::DEFAULT, kDevice);
  }
  c10::Stream getDefaultStream(c10::Device device) const override {
    return getStream(device);
  }
  c10::Stream exchangeStream(c10::Stream stream) const override {
    return stream;
  }
  c10::DeviceIndex deviceCount() const noexcept override {
    return 1;
  }
  void synchronizeDevice(c10::DeviceIndex /*index*/) const override {}
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, GuardImpl);

// ---------------------------------------------------------------------------
// 3. PrivateUse1 hooks: what `torch.accelerator` asks.
// ---------------------------------------------------------------------------

struct Hooks final : at::PrivateUse1HooksInterface {
  bool isBuilt() const override {
    return true;
  }
  bool isAvailable() const override {
    return true;
  }
  bool hasPrimaryContext(c10::DeviceIndex /*index*/) const override {
    return true;
  }
  c10::DeviceIndex deviceCount() const override {
    return 1;
  }
  c10::DeviceIndex getCurrentDevice() const override {
    return 0;
  }
  void setCurrentDevice(c10::DeviceIndex index) const override {
    GuardImpl().setDevice(c10::Device(kDeviceType, index));
  }
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex index) const override {
    setCurrentDevice(index);
    return 0;
  }
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex index) const override {
    return exchangeDevice(index);
  }
  at::Device getDeviceFromPtr(void* /*data*/) const override {
    return kDevice;
  }
};

[[maybe_unused]] const bool hooks_registered = [] {
  at::RegisterPrivateUse1HooksInterface(new Hooks());
  return true;
}();

// ---------------------------------------------------------------------------
// 4. Kernels, each in an Access scope.  Every other operator goes to the CPU
// fallback, which runs in one too.
// ---------------------------------------------------------------------------

// A CPU tensor sharing the memory of a CPU or protacc tensor.
at::Tensor host_alias(const at::Tensor& tensor) {
  if (tensor.device().is_cpu()) {
    return tensor;
  }
  return at::from_blob(
      tensor.data_ptr(),
      tensor.sizes(),
      tensor.strides(),
      tensor.options().device(c10::DeviceType::CPU));
}

at::Tensor empty_memory_format(
    c10::IntArrayRef size,
    std::optional<at::ScalarType> dtype,
    std::optional<at::Layout> /*layout*/,
    std::optional<at::Device> /*device*/,
    std::optional<bool> /*pin_memory*/,
    std::optional<at::MemoryFormat> memory_format) {
  return at::detail::empty_generic(
      size,
      &allocator,
      c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::dtype_or_default(dtype),
      memory_format);
}

at::Tensor empty_strided(
    c10::IntArrayRef size,
    c10::IntArrayRef stride,
    std::optional<at::ScalarType> dtype,
    std::optional<at::Layout> /*layout*/,
    std::optional<at::Device> /*device*/,
    std::optional<bool> /*pin_memory*/) {
  return at::detail::empty_strided_generic(
      size,
      stride,
      &allocator,
      c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::dtype_or_default(dtype));
}

at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool) {
  Access access;
  if (dst.numel() > 0) {
    host_alias(dst).copy_(host_alias(self));
  }
  return dst;
}

// Resizes in place, moving the data to a new allocation when it grows.
const at::Tensor& resize_(
    const at::Tensor& self,
    c10::IntArrayRef size,
    std::optional<at::MemoryFormat> /*memory_format*/) {
  auto* impl = self.unsafeGetTensorImpl();
  impl->set_sizes_contiguous(size);
  const auto nbytes = at::detail::computeStorageNbytesContiguous(
      size, impl->dtype().itemsize(), impl->storage_offset());
  const auto& storage = impl->storage();
  if (nbytes > storage.nbytes()) {
    c10::DataPtr data = allocator.allocate(nbytes);
    if (storage.nbytes() > 0) {
      allocator.copy_data(data.get(), storage.data(), storage.nbytes());
    }
    storage.set_data_ptr_noswap(std::move(data));
    storage.set_nbytes(nbytes);
  }
  return self;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  resize_(dst, self.sizes(), std::nullopt);
  return copy_from(self, dst, false);
}

at::Tensor& fill_scalar(at::Tensor& self, const at::Scalar& value) {
  Access access;
  host_alias(self).fill_(value);
  return self;
}

at::Tensor& zero_(at::Tensor& self) {
  return fill_scalar(self, 0);
}

at::Scalar local_scalar_dense(const at::Tensor& self) {
  Access access;
  return at::_local_scalar_dense(host_alias(self));
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", empty_memory_format);
  m.impl("empty_strided", empty_strided);
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
  m.impl("resize_", resize_);
  m.impl("fill_.Scalar", fill_scalar);
  m.impl("zero_", zero_);
  m.impl("_local_scalar_dense", local_scalar_dense);
  // Views share storage, so they cannot go through the CPU fallback.
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("view", at::native::view);
  m.impl("_reshape_alias", at::native::_reshape_alias);
}

void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  Access access;
  at::native::cpu_fallback(op, stack);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
}

} // namespace
} // namespace protacc
