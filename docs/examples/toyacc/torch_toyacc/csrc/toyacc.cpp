// The eager side of toyacc: a PrivateUse1 device whose memory is host RAM.
//
// Loading this library registers, for DeviceType::PrivateUse1,
//   1. an allocator,
//   2. a device guard (one device; streams and events, all synchronous),
//   3. PrivateUse1 hooks, which make toyacc the current `torch.accelerator`,
//   4. kernels for tensor creation, copies and views, and a boxed fallback
//      that runs every other operator with the CPU kernels (registered by
//      name for the few the dispatcher would otherwise decompose).
// It defines no Python bindings: the Python side (torch_toyacc/runtime.py)
// reaches it through `torch.accelerator` and `torch.Stream`/`torch.Event`.
// A real backend replaces each part with calls into its driver.

#include <ATen/EmptyTensor.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_local_scalar_dense.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/set_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/core/impl/alloc_cpu.h>
#include <torch/library.h>

#include <atomic>
#include <cstring>

namespace toyacc {
namespace {

constexpr c10::DeviceType kDeviceType = c10::DeviceType::PrivateUse1;
const c10::Device kDevice(kDeviceType, 0);

// ---------------------------------------------------------------------------
// 1. Memory: device memory is host memory.
// ---------------------------------------------------------------------------

void free_device_memory(void* ptr) {
  c10::free_cpu(ptr);
}

struct Allocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) override {
    void* ptr = nbytes == 0 ? nullptr : c10::alloc_cpu(nbytes);
    return {ptr, ptr, &free_device_memory, kDevice};
  }
  c10::DeleterFnPtr raw_deleter() const override {
    return &free_device_memory;
  }
  void copy_data(void* dest, const void* src, std::size_t count)
      const override {
    default_copy_data(dest, src, count);
  }
};

Allocator allocator;
REGISTER_ALLOCATOR(kDeviceType, &allocator)

// ---------------------------------------------------------------------------
// 2. Device guard: one device.  Work runs synchronously on the calling thread,
// so every stream is always idle and an event completes when it is recorded.
// Stream 0 is the default stream; new streams get ids 1, 2, ...
// ---------------------------------------------------------------------------

thread_local c10::StreamId current_stream_id = 0;
std::atomic<c10::StreamId> next_stream_id{1};

c10::Stream make_stream(c10::StreamId id) {
  return c10::Stream(c10::Stream::UNSAFE, kDevice, id);
}

// What an event handle points to: the stream it was last recorded on.
struct Event {
  c10::Stream stream;
};

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
    TORCH_CHECK(
        device.index() <= 0, "toyacc has one device, not ", device.index() + 1);
  }
  void uncheckedSetDevice(c10::Device /*device*/) const noexcept override {}
  c10::DeviceIndex deviceCount() const noexcept override {
    return 1;
  }

  c10::Stream getStream(c10::Device /*device*/) const override {
    return make_stream(current_stream_id);
  }
  c10::Stream getDefaultStream(c10::Device /*device*/) const override {
    return make_stream(0);
  }
  c10::Stream getNewStream(c10::Device /*device*/, int /*priority*/)
      const override {
    return make_stream(next_stream_id++);
  }
  c10::Stream getStreamFromGlobalPool(c10::Device device, bool /*high*/)
      const override {
    return getNewStream(device, 0);
  }
  c10::Stream exchangeStream(c10::Stream stream) const override {
    const auto previous = make_stream(current_stream_id);
    current_stream_id = stream.id();
    return previous;
  }
  bool queryStream(const c10::Stream& /*stream*/) const override {
    return true;
  }
  void synchronizeStream(const c10::Stream& /*stream*/) const override {}
  void synchronizeDevice(c10::DeviceIndex /*index*/) const override {}

  void record(
      void** event,
      const c10::Stream& stream,
      const c10::DeviceIndex /*device_index*/,
      const c10::EventFlag /*flag*/) const override {
    if (*event == nullptr) {
      *event = new Event{stream};
    } else {
      static_cast<Event*>(*event)->stream = stream;
    }
  }
  void block(void* /*event*/, const c10::Stream& /*stream*/) const override {}
  bool queryEvent(void* /*event*/) const override {
    return true;
  }
  void synchronizeEvent(void* /*event*/) const override {}
  void destroyEvent(void* event, const c10::DeviceIndex /*index*/)
      const noexcept override {
    delete static_cast<Event*>(event);
  }
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
// 4. Kernels.  Everything not registered here goes to the CPU fallback.
// ---------------------------------------------------------------------------

// A CPU tensor sharing the memory of a CPU or toyacc tensor.
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

// Host<->device and device<->device copies.
at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool) {
  if (dst.numel() > 0) {
    host_alias(dst).copy_(host_alias(self));
  }
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  dst.resize_(self.sizes());
  return copy_from(self, dst, false);
}

// Resizes in place, reallocating the storage on this device when it grows.
const at::Tensor& resize_(
    const at::Tensor& self,
    c10::IntArrayRef size,
    std::optional<at::MemoryFormat> /*memory_format*/) {
  auto* impl = self.unsafeGetTensorImpl();
  impl->set_sizes_contiguous(size);
  const auto nbytes = at::detail::computeStorageNbytesContiguous(
      size, impl->dtype().itemsize(), impl->storage_offset());
  if (nbytes > impl->storage().nbytes()) {
    const auto& storage = impl->storage();
    c10::DataPtr data = allocator.allocate(nbytes);
    if (storage.nbytes() > 0) {
      std::memcpy(data.get(), storage.data(), storage.nbytes());
    }
    storage.set_data_ptr_noswap(std::move(data));
    storage.set_nbytes(nbytes);
  }
  return self;
}

// Points `self` at `source`: how `storage.cpu()` (and so Triton's interpreter)
// makes a tensor of a device storage.
at::Tensor& set_storage(
    at::Tensor& self,
    c10::Storage source,
    int64_t storage_offset,
    c10::IntArrayRef size,
    c10::IntArrayRef stride) {
  at::native::checkSetStorage(self, source, storage_offset, size, stride);
  auto* impl = self.unsafeGetTensorImpl();
  impl->set_storage_offset(storage_offset);
  if (stride.data() == nullptr) {
    impl->set_sizes_contiguous(size);
  } else {
    impl->set_sizes_and_strides(size, stride);
  }
  return self;
}

at::Tensor& fill_scalar(at::Tensor& self, const at::Scalar& value) {
  host_alias(self).fill_(value);
  return self;
}

at::Tensor& zero_(at::Tensor& self) {
  return fill_scalar(self, 0);
}

at::Scalar local_scalar_dense(const at::Tensor& self) {
  return at::_local_scalar_dense(host_alias(self));
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", empty_memory_format);
  m.impl("empty_strided", empty_strided);
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
  m.impl("resize_", resize_);
  m.impl("set_.source_Storage", at::native::set_);
  m.impl("set_.source_Storage_storage_offset", set_storage);
  m.impl("fill_.Scalar", fill_scalar);
  m.impl("zero_", zero_);
  m.impl("_local_scalar_dense", local_scalar_dense);
  // Views share storage, so they cannot go through the CPU fallback.
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("view", at::native::view);
  m.impl("_reshape_alias", at::native::_reshape_alias);
}

// Every other operator: copy the inputs to the CPU, run the CPU kernel, copy
// the results back.
void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  at::native::cpu_fallback(op, stack);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
}

// Operators with a CompositeImplicitAutograd kernel beside the CPU one: the
// dispatcher prefers that decomposition to a fallback, so they are registered
// by name, or compiled training code would differ from cpu's.
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  for (const char* name :
       {"silu_backward", "mish_backward", "native_channel_shuffle"}) {
    m.impl(name, torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
  }
}

} // namespace
} // namespace toyacc
