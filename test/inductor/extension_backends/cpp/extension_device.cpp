// A fake out-of-tree PrivateUse1 backend used to test torch.compile support
// for vendor devices.
//
// The device behaves like a real vendor runtime as far as PyTorch can tell:
// it owns an allocator, a device guard with two devices, per-device stream
// pools and thread-local current streams, timing events, per-device random
// generators and PrivateUse1 hooks (so `torch.accelerator` works).  The only
// thing that is fake is the hardware:
//
//   * Device memory is ordinary host RAM.  Data pointers of device tensors can
//     therefore be read and written directly by host code (Inductor's C++
//     kernels rely on this), and the copy engine is the CPU copy kernel applied
//     to host aliases of the device buffers.
//   * Work is executed synchronously on the calling host thread when it is
//     enqueued.  Every stream is thus idle at all times and an event is
//     complete as soon as it has been recorded; the bookkeeping (current
//     streams, the stream an event was recorded on, timestamps) is still kept
//     exactly as an asynchronous backend would keep it.
//   * Compute kernels are the CPU kernels, reached through a boxed fallback
//     (`at::native::cpu_fallback`) that moves the operands to the CPU and the
//     results back to the device of the inputs.  Native kernels cover memory
//     management, views, copies and fills, the few compute operators the
//     fallback cannot run correctly, and a fused attention kernel that
//     scaled_dot_product_attention picks (section 6).
//
// Sections:
//   1. Device state (current device, contexts)
//   2. Memory (allocation table, device and pinned host allocators)
//   3. Streams and events (DeviceGuardImplInterface)
//   4. Random number generators
//   5. PrivateUse1 hooks
//   6. Native kernels (and autocast policies)
//   7. Boxed CPU fallback
//   8. Python bindings

#include <ATen/AccumulateType.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/EmptyTensor.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Operators.h>
#include <ATen/SDPBackend.h>
#include <ATen/autocast_mode.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <ATen/native/transformers/attention.h>
#include <ATen/ops/_local_scalar_dense.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/is_set_to_native.h>
#include <ATen/ops/set_native.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/view_as_complex_native.h>
#include <ATen/ops/view_as_real_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/core/impl/alloc_cpu.h>
#include <c10/util/irange.h>
#include <torch/csrc/Event.h>
#include <torch/csrc/Generator.h>
#include <torch/extension.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace extension_device {
namespace {

constexpr c10::DeviceType kDeviceType = c10::DeviceType::PrivateUse1;
constexpr c10::DeviceIndex kDeviceCount = 2;

c10::Device make_device(c10::DeviceIndex index) {
  return c10::Device(kDeviceType, index);
}

// ---------------------------------------------------------------------------
// 1. Device state
// ---------------------------------------------------------------------------

// Like cudaSetDevice, the current device is a per-thread setting.
thread_local c10::DeviceIndex tls_current_device = 0;

// A device "context" is created the first time a device is made current or
// memory is allocated on it; it backs hooks' hasPrimaryContext().
std::array<std::atomic<bool>, kDeviceCount> device_has_context{};

// Set by the hooks' init(), run by at::globalContext().lazyInitDevice.
std::atomic<bool> runtime_initialized{false};

void check_device_index(int index) {
  TORCH_CHECK(
      index >= 0 && index < kDeviceCount,
      "Invalid ",
      c10::get_privateuse1_backend(),
      " device index ",
      index,
      ": the device count is ",
      static_cast<int>(kDeviceCount));
}

c10::DeviceIndex current_device() {
  return tls_current_device;
}

void set_current_device(c10::DeviceIndex index) {
  check_device_index(index);
  device_has_context[index].store(true, std::memory_order_relaxed);
  tls_current_device = index;
}

c10::DeviceIndex exchange_device(c10::DeviceIndex index) {
  const auto previous = current_device();
  if (index != previous) {
    set_current_device(index);
  }
  return previous;
}

// Validates a device index, mapping the "no index" convention (-1) to the
// current device.
c10::DeviceIndex resolve_device_index(int index) {
  if (index == -1) {
    return current_device();
  }
  check_device_index(index);
  return static_cast<c10::DeviceIndex>(index);
}

// ---------------------------------------------------------------------------
// 2. Memory
// ---------------------------------------------------------------------------

struct MemoryStats {
  size_t allocated_bytes = 0;
  size_t peak_allocated_bytes = 0;
};

// Thread-safe record of the live allocations of one allocator: it answers
// "which device owns this (possibly interior) pointer" and keeps per-device
// byte counters.
class AllocationTable {
 public:
  void insert(void* ptr, size_t nbytes, c10::Device device) {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_.emplace(reinterpret_cast<uintptr_t>(ptr), Block{nbytes, device});
    auto& stats = stats_[device];
    stats.allocated_bytes += nbytes;
    stats.peak_allocated_bytes =
        std::max(stats.peak_allocated_bytes, stats.allocated_bytes);
  }

  void erase(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.find(reinterpret_cast<uintptr_t>(ptr));
    TORCH_INTERNAL_ASSERT(it != blocks_.end(), "freeing unknown pointer ", ptr);
    stats_[it->second.device].allocated_bytes -= it->second.nbytes;
    blocks_.erase(it);
  }

  // The device of the allocation containing `ptr`, if there is one.
  std::optional<c10::Device> find(const void* ptr) const {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.upper_bound(address);
    if (it == blocks_.begin()) {
      return std::nullopt;
    }
    --it;
    if (address >= it->first + it->second.nbytes) {
      return std::nullopt;
    }
    return it->second.device;
  }

  MemoryStats stats(c10::Device device) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = stats_.find(device);
    return it == stats_.end() ? MemoryStats{} : it->second;
  }

  void reset_peak(c10::Device device) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& stats = stats_[device];
    stats.peak_allocated_bytes = stats.allocated_bytes;
  }

 private:
  struct Block {
    size_t nbytes;
    c10::Device device;
  };
  mutable std::mutex mutex_;
  std::map<uintptr_t, Block> blocks_;
  std::unordered_map<c10::Device, MemoryStats> stats_;
};

// Both tables are leaked on purpose: tensors may be freed during interpreter
// shutdown, after static destructors would have run.
AllocationTable& device_allocations() {
  static auto* table = new AllocationTable();
  return *table;
}

AllocationTable& pinned_allocations() {
  static auto* table = new AllocationTable();
  return *table;
}

// Protected memory, a test mode modelled on OpenReg's: while it is on, new
// device allocations are whole pages mapped PROT_NONE, so host code reading
// them faults, except inside a HostAccess scope (this runtime's own ops) and
// between set_access(tensors, true) and set_access(tensors, false), which a
// backend's kernel-call guard calls around each generated kernel.
std::atomic<bool> protect_new_allocations{false};
std::mutex protected_mutex; // guards protected_blocks and host_access_depth
std::map<uintptr_t, size_t>& protected_blocks() {
  static auto* blocks = new std::map<uintptr_t, size_t>();
  return *blocks;
}
int host_access_depth = 0;

void protect_block(uintptr_t address, size_t nbytes, bool accessible) {
  const int prot = accessible ? PROT_READ | PROT_WRITE : PROT_NONE;
  TORCH_CHECK(
      mprotect(reinterpret_cast<void*>(address), nbytes, prot) == 0,
      "mprotect failed");
}

void protect_all_locked(bool accessible) {
  for (const auto& [address, nbytes] : protected_blocks()) {
    protect_block(address, nbytes, accessible);
  }
}

// Makes all protected memory accessible for its lifetime (nested scopes count).
struct HostAccess {
  HostAccess() {
    std::lock_guard<std::mutex> lock(protected_mutex);
    if (host_access_depth++ == 0) {
      protect_all_locked(true);
    }
  }
  ~HostAccess() {
    std::lock_guard<std::mutex> lock(protected_mutex);
    if (--host_access_depth == 0) {
      protect_all_locked(false);
    }
  }
};

size_t page_rounded(size_t nbytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (nbytes + page - 1) / page * page;
}

void* alloc_device_bytes(size_t nbytes) {
  if (!protect_new_allocations.load()) {
    return c10::alloc_cpu(nbytes);
  }
  const size_t mapped = page_rounded(nbytes);
  void* ptr = mmap(
      nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
      0);
  TORCH_CHECK(ptr != MAP_FAILED, "mmap of ", mapped, " bytes failed");
  std::lock_guard<std::mutex> lock(protected_mutex);
  protected_blocks().emplace(reinterpret_cast<uintptr_t>(ptr), mapped);
  if (host_access_depth == 0) {
    protect_block(reinterpret_cast<uintptr_t>(ptr), mapped, false);
  }
  return ptr;
}

void free_device_bytes(void* ptr) {
  {
    std::lock_guard<std::mutex> lock(protected_mutex);
    auto it = protected_blocks().find(reinterpret_cast<uintptr_t>(ptr));
    if (it != protected_blocks().end()) {
      munmap(ptr, it->second);
      protected_blocks().erase(it);
      return;
    }
  }
  c10::free_cpu(ptr);
}

// Flips the protected allocations holding `tensors`' data.
void set_access(at::TensorList tensors, bool accessible) {
  std::lock_guard<std::mutex> lock(protected_mutex);
  for (const auto& tensor : tensors) {
    auto address =
        reinterpret_cast<uintptr_t>(tensor.storage().data_ptr().get());
    auto it = protected_blocks().find(address);
    if (it != protected_blocks().end() && host_access_depth == 0) {
      protect_block(it->first, it->second, accessible);
    }
  }
}

void free_device_memory(void* ptr) {
  device_allocations().erase(ptr);
  free_device_bytes(ptr);
}

void free_pinned_memory(void* ptr) {
  pinned_allocations().erase(ptr);
  c10::free_cpu(ptr);
}

// Allocates device memory on the current device (like the CUDA allocators).
class DeviceAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t nbytes) override {
    const auto index = current_device();
    device_has_context[index].store(true, std::memory_order_relaxed);
    const auto device = make_device(index);
    if (nbytes == 0) {
      return {nullptr, nullptr, &free_device_memory, device};
    }
    void* ptr = alloc_device_bytes(nbytes);
    device_allocations().insert(ptr, nbytes, device);
    return {ptr, ptr, &free_device_memory, device};
  }

  c10::DeleterFnPtr raw_deleter() const override {
    return &free_device_memory;
  }

  void copy_data(void* dest, const void* src, std::size_t count)
      const override {
    default_copy_data(dest, src, count);
  }
};

// Page-locked host memory in a real runtime; here it is only remembered so
// that isPinnedPtr() can recognise it.
class PinnedHostAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t nbytes) override {
    const c10::Device cpu(c10::DeviceType::CPU);
    if (nbytes == 0) {
      return {nullptr, nullptr, &free_pinned_memory, cpu};
    }
    void* ptr = c10::alloc_cpu(nbytes);
    pinned_allocations().insert(ptr, nbytes, cpu);
    return {ptr, ptr, &free_pinned_memory, cpu};
  }

  c10::DeleterFnPtr raw_deleter() const override {
    return &free_pinned_memory;
  }

  void copy_data(void* dest, const void* src, std::size_t count)
      const override {
    default_copy_data(dest, src, count);
  }
};

DeviceAllocator device_allocator;
PinnedHostAllocator pinned_host_allocator;
REGISTER_ALLOCATOR(kDeviceType, &device_allocator)

// Reallocates `storage` to exactly `nbytes` on its own device, keeping the
// common prefix of the old contents.
void resize_storage_bytes(const c10::Storage& storage, size_t nbytes) {
  const HostAccess host_access;
  TORCH_CHECK(
      storage.resizable(), "Trying to resize storage that is not resizable");
  const c10::DeviceGuard guard(storage.device());
  c10::DataPtr new_data = storage.allocator()->allocate(nbytes);
  const size_t common = std::min(nbytes, storage.nbytes());
  if (common > 0) {
    std::memcpy(new_data.get(), storage.data(), common);
  }
  storage.set_data_ptr_noswap(std::move(new_data));
  storage.set_nbytes(nbytes);
}

// ---------------------------------------------------------------------------
// 3. Streams and events
// ---------------------------------------------------------------------------

// Stream 0 of every device is its default stream; streams 1..kStreamsPerPool
// form the device's pool and are handed out round-robin, like CUDA's pool.
// Priorities are accepted but all streams share one priority.
constexpr c10::StreamId kDefaultStreamId = 0;
constexpr c10::StreamId kStreamsPerPool = 8;

std::array<std::atomic<uint32_t>, kDeviceCount> next_pool_stream{};

// Current stream of every device, per thread (zero-initialised: default).
thread_local std::array<c10::StreamId, kDeviceCount> tls_current_streams{};

c10::Stream make_stream(c10::DeviceIndex index, c10::StreamId id) {
  return c10::Stream(c10::Stream::UNSAFE, make_device(index), id);
}

void check_stream(const c10::Stream& stream) {
  TORCH_CHECK(
      stream.device_type() == kDeviceType,
      "Expected a ",
      c10::get_privateuse1_backend(),
      " stream but got a stream on ",
      stream.device());
  check_device_index(stream.device_index());
  TORCH_CHECK(
      stream.id() >= kDefaultStreamId && stream.id() <= kStreamsPerPool,
      "Invalid stream id ",
      stream.id(),
      " for ",
      stream.device());
}

c10::Stream stream_from_pool(c10::DeviceIndex index) {
  const auto slot = next_pool_stream[index].fetch_add(1) % kStreamsPerPool;
  return make_stream(index, 1 + static_cast<c10::StreamId>(slot));
}

// The state behind the opaque `void*` event handles.  An event is created by
// its first record(), which is also when it completes.
struct DeviceEvent {
  bool enable_timing;
  // Where and when the event was last recorded.
  c10::Stream stream;
  std::chrono::steady_clock::time_point timestamp;
};

bool event_flag_enables_timing(c10::EventFlag flag) {
  switch (flag) {
    case c10::EventFlag::PYTORCH_DEFAULT:
      // Like CUDA, PyTorch's default events do not record timing.
      return false;
    case c10::EventFlag::BACKEND_DEFAULT:
      return true;
    default:
      TORCH_CHECK(false, "Received unknown event flag");
  }
}

struct GuardImpl final : public c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override {
    return kDeviceType;
  }

  c10::Device exchangeDevice(c10::Device device) const override {
    TORCH_INTERNAL_ASSERT(device.type() == kDeviceType);
    return make_device(exchange_device(device.index()));
  }

  c10::Device getDevice() const override {
    return make_device(current_device());
  }

  void setDevice(c10::Device device) const override {
    TORCH_INTERNAL_ASSERT(device.type() == kDeviceType);
    set_current_device(device.index());
  }

  void uncheckedSetDevice(c10::Device device) const noexcept override {
    if (device.index() >= 0 && device.index() < kDeviceCount) {
      tls_current_device = device.index();
    }
  }

  c10::DeviceIndex deviceCount() const noexcept override {
    return kDeviceCount;
  }

  c10::DeviceCapability getDeviceCapability(
      c10::Device /*device*/) const override {
    // Every dtype the CPU kernels support, except the quantized ones (those
    // need a Quantized* dispatch key that this backend does not register).
    c10::DeviceCapability capability;
    auto& types = capability.capability_data.supported_scalar_types;
    types.has_QInt8 = 0;
    types.has_QUInt8 = 0;
    types.has_QInt32 = 0;
    types.has_QUInt4x2 = 0;
    types.has_QUInt2x4 = 0;
    return capability;
  }

  c10::Stream getStream(c10::Device device) const override {
    const auto index = resolve_device_index(device.index());
    return make_stream(index, tls_current_streams[index]);
  }

  c10::Stream getDefaultStream(c10::Device device) const override {
    return make_stream(resolve_device_index(device.index()), kDefaultStreamId);
  }

  c10::Stream getStreamFromGlobalPool(
      c10::Device device,
      bool /*isHighPriority*/) const override {
    return stream_from_pool(resolve_device_index(device.index()));
  }

  c10::Stream getNewStream(c10::Device device, int /*priority*/)
      const override {
    return stream_from_pool(resolve_device_index(device.index()));
  }

  c10::Stream exchangeStream(c10::Stream stream) const override {
    check_stream(stream);
    auto& current = tls_current_streams[stream.device_index()];
    const auto previous = make_stream(stream.device_index(), current);
    current = stream.id();
    return previous;
  }

  bool queryStream(const c10::Stream& stream) const override {
    check_stream(stream);
    return true; // Work runs at enqueue time: nothing is ever pending.
  }

  void synchronizeStream(const c10::Stream& stream) const override {
    check_stream(stream);
  }

  void synchronizeDevice(c10::DeviceIndex device_index) const override {
    check_device_index(device_index);
  }

  void record(
      void** event,
      const c10::Stream& stream,
      const c10::DeviceIndex device_index,
      const c10::EventFlag flag) const override {
    check_stream(stream);
    TORCH_CHECK(
        device_index == -1 || device_index == stream.device_index(),
        "Event device index ",
        static_cast<int>(device_index),
        " does not match recording stream's device index ",
        static_cast<int>(stream.device_index()),
        ".");
    const auto now = std::chrono::steady_clock::now();
    if (*event == nullptr) {
      *event = new DeviceEvent{event_flag_enables_timing(flag), stream, now};
    } else {
      auto* device_event = static_cast<DeviceEvent*>(*event);
      device_event->stream = stream;
      device_event->timestamp = now;
    }
  }

  // Events complete when they are recorded, so waiting on one never blocks.
  void block(void* /*event*/, const c10::Stream& stream) const override {
    check_stream(stream);
  }

  bool queryEvent(void* /*event*/) const override {
    return true;
  }

  void synchronizeEvent(void* /*event*/) const override {}

  double elapsedTime(
      void* start_event,
      void* end_event,
      const c10::DeviceIndex /*device_index*/) const override {
    auto* start = static_cast<DeviceEvent*>(start_event);
    auto* end = static_cast<DeviceEvent*>(end_event);
    TORCH_CHECK(
        start->enable_timing && end->enable_timing,
        "Both events must be created with argument 'enable_timing=True'.");
    TORCH_CHECK(
        start->stream.device() == end->stream.device(),
        "Both events must be recorded on the same device, got ",
        start->stream.device(),
        " and ",
        end->stream.device());
    return std::chrono::duration<double, std::milli>(
               end->timestamp - start->timestamp)
        .count();
  }

  void destroyEvent(void* event, const c10::DeviceIndex /*device_index*/)
      const noexcept override {
    delete static_cast<DeviceEvent*>(event);
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, GuardImpl)

// ---------------------------------------------------------------------------
// 4. Random number generators
// ---------------------------------------------------------------------------

// A device generator backed by a host Mersenne-Twister engine (a
// CPUGeneratorImpl).  Random kernels run on the CPU through the fallback,
// which hands them the engine in place of the device generator; the engine's
// state is therefore the device generator's state.
class DeviceGenerator final : public c10::GeneratorImpl {
 public:
  explicit DeviceGenerator(
      c10::DeviceIndex index,
      at::Generator engine = at::detail::createCPUGenerator())
      : c10::GeneratorImpl(
            make_device(index),
            c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)),
        engine_(std::move(engine)) {}

  const at::Generator& engine() const {
    return engine_;
  }

  void set_current_seed(uint64_t seed) override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    engine_.set_current_seed(seed);
  }

  void set_offset(uint64_t offset) override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    engine_.set_offset(offset);
  }

  uint64_t get_offset() const override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    return engine_.get_offset();
  }

  uint64_t current_seed() const override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    return engine_.current_seed();
  }

  uint64_t seed() override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    return engine_.seed();
  }

  void set_state(const c10::TensorImpl& new_state) override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    engine_.unsafeGetGeneratorImpl()->set_state(new_state);
  }

  c10::intrusive_ptr<c10::TensorImpl> get_state() const override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    return engine_.unsafeGetGeneratorImpl()->get_state();
  }

 private:
  DeviceGenerator* clone_impl() const override {
    std::lock_guard<std::mutex> lock(engine_mutex());
    return new DeviceGenerator(device_.index(), engine_.clone());
  }

  std::mutex& engine_mutex() const {
    return engine_.unsafeGetGeneratorImpl()->mutex_;
  }

  at::Generator engine_;
};

at::Generator make_generator(c10::DeviceIndex index) {
  return at::make_generator<DeviceGenerator>(resolve_device_index(index));
}

// Seeded with c10::default_rng_seed_val, like every default generator.
const at::Generator& default_generator(c10::DeviceIndex index) {
  static const auto generators = [] {
    std::array<at::Generator, kDeviceCount> generators;
    for (const auto i : c10::irange(kDeviceCount)) {
      generators[i] = make_generator(i);
    }
    return generators;
  }();
  return generators[resolve_device_index(index)];
}

// ---------------------------------------------------------------------------
// 5. PrivateUse1 hooks
// ---------------------------------------------------------------------------

struct Hooks final : public at::PrivateUse1HooksInterface {
  bool isBuilt() const override {
    return true;
  }

  bool isAvailable() const override {
    return true;
  }

  void init() const override {
    runtime_initialized.store(true);
  }

  bool hasPrimaryContext(c10::DeviceIndex device_index) const override {
    check_device_index(device_index);
    return device_has_context[device_index].load(std::memory_order_relaxed);
  }

  c10::DeviceIndex deviceCount() const override {
    return kDeviceCount;
  }

  void setCurrentDevice(c10::DeviceIndex device) const override {
    set_current_device(device);
  }

  c10::DeviceIndex getCurrentDevice() const override {
    return current_device();
  }

  c10::DeviceIndex exchangeDevice(c10::DeviceIndex device) const override {
    return exchange_device(device);
  }

  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex device) const override {
    return exchange_device(device);
  }

  const at::Generator& getDefaultGenerator(
      c10::DeviceIndex device_index) const override {
    return default_generator(device_index);
  }

  at::Generator getNewGenerator(c10::DeviceIndex device_index) const override {
    return make_generator(device_index);
  }

  at::Device getDeviceFromPtr(void* data) const override {
    auto device = device_allocations().find(data);
    TORCH_CHECK(
        device.has_value(),
        "Pointer ",
        data,
        " was not allocated on a ",
        c10::get_privateuse1_backend(),
        " device");
    return *device;
  }

  bool isPinnedPtr(const void* data) const override {
    return pinned_allocations().find(data).has_value();
  }

  at::Allocator* getPinnedMemoryAllocator() const override {
    return &pinned_host_allocator;
  }

  void resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize)
      const override {
    resize_storage_bytes(storage, newsize);
  }
};

// Registered at library load, like the guard and the allocator.
[[maybe_unused]] const bool hooks_registered = [] {
  at::RegisterPrivateUse1HooksInterface(new Hooks());
  return true;
}();

// ---------------------------------------------------------------------------
// 6. Native kernels (and autocast policies)
// ---------------------------------------------------------------------------

// A CPU tensor aliasing the memory of `tensor`, which lives either on the CPU
// or on this device (whose memory is host RAM).  This is how the "copy
// engine" and the memset/scalar-read kernels reach device memory.
at::Tensor host_alias(const at::Tensor& tensor) {
  if (tensor.device().is_cpu()) {
    return tensor;
  }
  TORCH_CHECK(
      tensor.device().type() == kDeviceType,
      "Expected a CPU or ",
      c10::get_privateuse1_backend(),
      " tensor but got a tensor on ",
      tensor.device());
  auto alias = at::from_blob(
      tensor.data_ptr(),
      tensor.sizes(),
      tensor.strides(),
      tensor.options().device(c10::DeviceType::CPU));
  alias.unsafeGetTensorImpl()->_set_conj(tensor.is_conj());
  alias.unsafeGetTensorImpl()->_set_neg(tensor.is_neg());
  return alias;
}

at::Tensor empty_memory_format(
    c10::IntArrayRef size,
    std::optional<at::ScalarType> dtype,
    std::optional<at::Layout> layout,
    std::optional<at::Device> device,
    std::optional<bool> pin_memory,
    std::optional<at::MemoryFormat> memory_format) {
  TORCH_CHECK(
      c10::layout_or_default(layout) == c10::Layout::Strided,
      "Only strided tensors are supported on this device");
  TORCH_CHECK(
      !c10::pinned_memory_or_default(pin_memory),
      "Only dense CPU tensors can be pinned");
  const c10::OptionalDeviceGuard guard(device);
  return at::detail::empty_generic(
      size,
      &device_allocator,
      c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::dtype_or_default(dtype),
      memory_format);
}

at::Tensor empty_strided(
    c10::IntArrayRef size,
    c10::IntArrayRef stride,
    std::optional<at::ScalarType> dtype,
    std::optional<at::Layout> layout,
    std::optional<at::Device> device,
    std::optional<bool> pin_memory) {
  TORCH_CHECK(
      c10::layout_or_default(layout) == c10::Layout::Strided,
      "Only strided tensors are supported on this device");
  TORCH_CHECK(
      !c10::pinned_memory_or_default(pin_memory),
      "Only dense CPU tensors can be pinned");
  const c10::OptionalDeviceGuard guard(device);
  return at::detail::empty_strided_generic(
      size,
      stride,
      &device_allocator,
      c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::dtype_or_default(dtype));
}

// Host<->device and device<->device copies (including across device indices),
// with broadcasting, dtype conversion and arbitrary strides.  Everything is
// synchronous, so `non_blocking` needs no special handling.
at::Tensor copy_from(
    const at::Tensor& self,
    const at::Tensor& dst,
    bool /*non_blocking*/) {
  const HostAccess host_access;
  if (dst.numel() > 0) {
    host_alias(dst).copy_(host_alias(self));
  }
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  const HostAccess host_access;
  dst.resize_(self.sizes());
  return copy_from(self, dst, /*non_blocking=*/false);
}

// Sets sizes/strides of `self` and grows its storage if it is too small,
// like the CPU's resize_impl_cpu_ but allocating on this device.
void set_sizes_and_grow_storage(
    c10::TensorImpl* self,
    c10::IntArrayRef size,
    at::OptionalIntArrayRef stride) {
  at::detail::check_size_nonnegative(size);
  const auto itemsize = self->dtype().itemsize();
  const auto offset = static_cast<size_t>(self->storage_offset());
  size_t nbytes = 0;
  if (stride.has_value()) {
    self->set_sizes_and_strides(size, *stride);
    nbytes = at::detail::computeStorageNbytes(size, *stride, itemsize, offset);
  } else {
    self->set_sizes_contiguous(size);
    nbytes = at::detail::computeStorageNbytesContiguous(size, itemsize, offset);
  }
  if (self->numel() > 0 && nbytes > self->storage().nbytes()) {
    resize_storage_bytes(self->storage(), nbytes);
  }
}

const at::Tensor& resize_(
    const at::Tensor& self,
    c10::IntArrayRef size,
    std::optional<at::MemoryFormat> memory_format) {
  auto* impl = self.unsafeGetTensorImpl();
  if (impl->sizes() != size) {
    set_sizes_and_grow_storage(impl, size, std::nullopt);
  }
  if (memory_format.has_value()) {
    TORCH_CHECK(
        *memory_format != at::MemoryFormat::Preserve,
        "Unsupported memory format ",
        *memory_format);
    impl->empty_tensor_restride(*memory_format);
  }
  return self;
}

at::Tensor& set_storage(
    at::Tensor& self,
    c10::Storage source,
    int64_t storage_offset,
    c10::IntArrayRef size,
    c10::IntArrayRef stride) {
  at::native::checkSetStorage(self, source, storage_offset, size, stride);
  self.unsafeGetTensorImpl()->set_storage_offset(storage_offset);
  const at::OptionalIntArrayRef stride_opt =
      stride.data() != nullptr ? at::OptionalIntArrayRef(stride) : std::nullopt;
  set_sizes_and_grow_storage(self.unsafeGetTensorImpl(), size, stride_opt);
  return self;
}

// set_() with no source: point `self` at a fresh empty storage on its device.
at::Tensor& set_empty(at::Tensor& self) {
  const c10::DeviceGuard guard(self.device());
  c10::Storage storage(
      c10::Storage::use_byte_size_t(),
      0,
      &device_allocator,
      /*resizable=*/true);
  return self.set_(storage, 0, {0}, {});
}

at::Tensor& fill_scalar(at::Tensor& self, const at::Scalar& value) {
  const HostAccess host_access;
  if (self.numel() > 0) {
    host_alias(self).fill_(value);
  }
  return self;
}

at::Tensor& zero_(at::Tensor& self) {
  const HostAccess host_access;
  return fill_scalar(self, 0);
}

at::Scalar local_scalar_dense(const at::Tensor& self) {
  const HostAccess host_access;
  return at::_local_scalar_dense(host_alias(self));
}

// native_dropout has no generator argument, so the CPU kernel would draw from
// the CPU generator; drawing the mask with bernoulli_ (which goes through the
// fallback with this device's generator) keeps dropout seeded by the device.
std::tuple<at::Tensor, at::Tensor> native_dropout(
    const at::Tensor& input,
    double p,
    std::optional<bool> train) {
  const HostAccess host_access;
  if (!train.value_or(true) || p == 0) {
    return {
        input.clone(), at::ones_like(input, input.options().dtype(at::kBool))};
  }
  TORCH_CHECK(
      input.is_floating_point(),
      "dropout only supports floating point tensors, got ",
      input.scalar_type());
  const double keep = 1 - p;
  auto mask = at::empty_like(input, input.options().dtype(at::kBool));
  mask.bernoulli_(keep);
  const double scale = keep == 0 ? 0 : 1 / keep;
  return {input.mul(mask).mul_(scale), mask};
}

// native_batch_norm's schema does not declare that it updates the running
// statistics, so the CPU fallback would drop the update; its
// _native_batch_norm_legit variants have accurate schemas.
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm(
    const at::Tensor& input,
    const std::optional<at::Tensor>& weight,
    const std::optional<at::Tensor>& bias,
    const std::optional<at::Tensor>& running_mean,
    const std::optional<at::Tensor>& running_var,
    bool training,
    double momentum,
    double eps) {
  const HostAccess host_access;
  const bool has_mean = running_mean.has_value() && running_mean->defined();
  const bool has_var = running_var.has_value() && running_var->defined();
  TORCH_CHECK(
      has_mean == has_var,
      "running_mean and running_var must both be None or both be defined");
  if (!has_mean) {
    return at::_native_batch_norm_legit(
        input, weight, bias, training, momentum, eps);
  }
  // The running statistics are updated in place.
  auto mean = *running_mean;
  auto var = *running_var;
  return at::_native_batch_norm_legit(
      input, weight, bias, mean, var, training, momentum, eps);
}

void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack);

// The CPU kernel, through the fallback, except for what it returns in eval
// mode: empty saved statistics, where PyTorch's meta function and
// decomposition for any device but the CPU give the running mean and the
// inverse standard deviation (as CUDA's kernel does).
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm_legit(
    const at::Tensor& input,
    const std::optional<at::Tensor>& weight,
    const std::optional<at::Tensor>& bias,
    at::Tensor& running_mean,
    at::Tensor& running_var,
    bool training,
    double momentum,
    double eps) {
  auto result = at::native::
      call_fallback_fn<&cpu_fallback, ATEN_OP(_native_batch_norm_legit)>::call(
          input,
          weight,
          bias,
          running_mean,
          running_var,
          training,
          momentum,
          eps);
  if (!training) {
    const auto dtype =
        at::toAccumulateType(input.scalar_type(), /*is_cuda=*/true);
    std::get<1>(result) = running_mean.to(dtype, /*non_blocking=*/false, true);
    std::get<2>(result) = running_var.to(dtype).add(eps).rsqrt();
  }
  return result;
}

// Backends outside PyTorch's convolution backends receive convolutions as
// convolution_overrideable (whose default implementation throws) rather
// than through a kernel the CPU fallback could reach.  Run them on the CPU
// like the fallback does, with contiguous results: the memory format PyTorch
// assumes for such a backend when it computes the output's strides.
at::Tensor convolution_overrideable(
    const at::Tensor& input,
    const at::Tensor& weight,
    const std::optional<at::Tensor>& bias,
    c10::IntArrayRef stride,
    c10::IntArrayRef padding,
    c10::IntArrayRef dilation,
    bool transposed,
    c10::IntArrayRef output_padding,
    int64_t groups) {
  const HostAccess host_access;
  const auto cpu_bias = bias.has_value() && bias->defined()
      ? std::optional<at::Tensor>(bias->cpu())
      : std::nullopt;
  return at::convolution(
             input.cpu(),
             weight.cpu(),
             cpu_bias,
             stride,
             padding,
             dilation,
             transposed,
             output_padding,
             groups)
      .contiguous()
      .to(input.device());
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward_overrideable(
    const at::Tensor& grad_output,
    const at::Tensor& input,
    const at::Tensor& weight,
    c10::IntArrayRef stride,
    c10::IntArrayRef padding,
    c10::IntArrayRef dilation,
    bool transposed,
    c10::IntArrayRef output_padding,
    int64_t groups,
    std::array<bool, 3> output_mask) {
  const HostAccess host_access;
  const int64_t output_channels = grad_output.size(1);
  auto [grad_input, grad_weight, grad_bias] = at::convolution_backward(
      grad_output.cpu(),
      input.cpu(),
      weight.cpu(),
      c10::IntArrayRef(output_channels),
      stride,
      padding,
      dilation,
      transposed,
      output_padding,
      groups,
      output_mask);
  const auto to_device = [&](const at::Tensor& tensor) {
    return tensor.defined() ? tensor.contiguous().to(input.device()) : tensor;
  };
  return {to_device(grad_input), to_device(grad_weight), to_device(grad_bias)};
}

// Fused attention.  scaled_dot_product_attention asks the device's
// _fused_sdp_choice_stub which kernel to run: this device picks the
// overrideable kernel, which a backend implements itself, for what that
// kernel supports (4-d inputs, as many key/value heads as query heads, no
// dropout) unless torch.nn.attention.sdpa_kernel() disabled it, and the math
// decomposition otherwise.  The kernel computes on the host in float and
// counts its calls, so that tests see which kernel ran.
std::atomic<int64_t> fused_attention_calls{0};
std::atomic<int64_t> fused_attention_backward_calls{0};

int64_t fused_sdp_choice(
    const at::Tensor& query,
    const at::Tensor& key,
    const at::Tensor& value,
    const std::optional<at::Tensor>& attn_mask,
    double dropout_p,
    bool is_causal,
    std::optional<double> scale,
    bool enable_gqa) {
  const bool supported = at::globalContext().userEnabledOverrideableSDP() &&
      query.dim() == 4 && key.dim() == 4 && value.dim() == 4 &&
      query.is_floating_point() && dropout_p == 0.0 &&
      key.size(1) == query.size(1) && value.size(1) == query.size(1);
  return static_cast<int64_t>(
      supported ? at::SDPBackend::overrideable : at::SDPBackend::math);
}

// The attention scores of query and key on the host, in float: scaled,
// biased and causally masked (the upper triangle, as the math kernel does).
at::Tensor attention_scores(
    const at::Tensor& query,
    const at::Tensor& key,
    const std::optional<at::Tensor>& attn_bias,
    bool is_causal,
    double scale) {
  auto scores = at::matmul(query, key.transpose(-2, -1)).mul_(scale);
  if (attn_bias.has_value() && attn_bias->defined()) {
    scores.add_(attn_bias->cpu().to(at::kFloat));
  }
  if (is_causal) {
    const auto masked =
        at::ones({query.size(-2), key.size(-2)}, at::kBool).triu(1);
    scores.masked_fill_(masked, -std::numeric_limits<float>::infinity());
  }
  return scores;
}

double attention_scale(const at::Tensor& query, std::optional<double> scale) {
  return scale.has_value() ? *scale
                           : 1.0 / std::sqrt(static_cast<double>(query.size(-1)));
}

// A device tensor of `sizes` laid out in the dimension order of `query`'s
// strides, as the meta function of the kernel allocates its output.
at::Tensor empty_like_query_layout(
    const at::Tensor& query,
    c10::IntArrayRef sizes) {
  if (query.sizes() == sizes) {
    return at::empty_like(query);
  }
  std::vector<int64_t> order(query.dim());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return query.stride(a) > query.stride(b);
  });
  std::vector<int64_t> strides(query.dim());
  int64_t stride = 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    strides[*it] = stride;
    stride *= sizes[*it];
  }
  return at::empty_strided(sizes, strides, query.options());
}

std::tuple<
    at::Tensor,
    at::Tensor,
    at::Tensor,
    at::Tensor,
    c10::SymInt,
    c10::SymInt,
    at::Tensor,
    at::Tensor,
    at::Tensor>
fused_attention(
    const at::Tensor& query,
    const at::Tensor& key,
    const at::Tensor& value,
    const std::optional<at::Tensor>& attn_bias,
    double dropout_p,
    bool is_causal,
    bool return_debug_mask,
    std::optional<double> scale) {
  const HostAccess host_access;
  TORCH_CHECK(
      dropout_p == 0.0,
      c10::get_privateuse1_backend(),
      "'s fused attention does not support dropout");
  fused_attention_calls++;
  const auto q = query.cpu().to(at::kFloat);
  const auto v = value.cpu().to(at::kFloat);
  const auto scores = attention_scores(
      q, key.cpu().to(at::kFloat), attn_bias, is_causal,
      attention_scale(query, scale));
  const auto logsumexp = scores.logsumexp(-1);
  const auto output = at::matmul(scores.sub(logsumexp.unsqueeze(-1)).exp(), v);
  auto out = empty_like_query_layout(query, output.sizes());
  out.copy_(output);
  const auto options = query.options().dtype(at::kLong);
  return {
      out,
      logsumexp.to(query.device()),
      at::Tensor(),
      at::Tensor(),
      c10::SymInt(query.size(-2)),
      c10::SymInt(key.size(-2)),
      at::empty({}, options),
      at::empty({}, options),
      at::Tensor()};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor>
fused_attention_backward(
    const at::Tensor& grad_out,
    const at::Tensor& query,
    const at::Tensor& key,
    const at::Tensor& value,
    const at::Tensor& attn_bias,
    std::array<bool, 4> grad_input_mask,
    const at::Tensor& out,
    const at::Tensor& logsumexp,
    const at::Tensor& cum_seq_q,
    const at::Tensor& cum_seq_k,
    c10::SymInt max_q,
    c10::SymInt max_k,
    double dropout_p,
    bool is_causal,
    const at::Tensor& philox_seed,
    const at::Tensor& philox_offset,
    std::optional<double> scale) {
  const HostAccess host_access;
  fused_attention_backward_calls++;
  const double factor = attention_scale(query, scale);
  const auto q = query.cpu().to(at::kFloat);
  const auto k = key.cpu().to(at::kFloat);
  const auto v = value.cpu().to(at::kFloat);
  const auto d_out = grad_out.cpu().to(at::kFloat);
  const auto probs =
      attention_scores(q, k, attn_bias, is_causal, factor)
          .sub_(logsumexp.cpu().unsqueeze(-1))
          .exp_();
  // dS = P * (dP - rowsum(dO * O)), the softmax backward.
  const auto d_scores = probs.mul(
      at::matmul(d_out, v.transpose(-2, -1))
          .sub_(d_out.mul(out.cpu().to(at::kFloat)).sum(-1, true)));
  const auto to_device = [](const at::Tensor& like, const at::Tensor& grad) {
    auto result = at::empty_like(like);
    result.copy_(grad);
    return result;
  };
  return {
      grad_input_mask[0]
          ? to_device(query, at::matmul(d_scores, k).mul_(factor))
          : at::Tensor(),
      grad_input_mask[1]
          ? to_device(key, at::matmul(d_scores.transpose(-2, -1), q).mul_(factor))
          : at::Tensor(),
      grad_input_mask[2]
          ? to_device(value, at::matmul(probs.transpose(-2, -1), d_out))
          : at::Tensor(),
      grad_input_mask[3] && attn_bias.defined()
          ? to_device(attn_bias, at::sum_to(d_scores, attn_bias.sizes()))
          : at::Tensor()};
}

// Memory goes back to the host allocator as soon as it is freed and no stream
// ever has pending work, so there is no deferred reuse to guard against: the
// stream only needs to be one of this device's.
void record_stream(at::Tensor& self, c10::Stream stream) {
  check_stream(stream);
  TORCH_CHECK(
      self.device().type() == kDeviceType,
      "record_stream expects a ",
      c10::get_privateuse1_backend(),
      " tensor");
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  // Allocation and copies.
  m.impl("empty.memory_format", empty_memory_format);
  m.impl("empty_strided", empty_strided);
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
  m.impl("resize_", resize_);
  m.impl("set_.source_Storage", at::native::set_);
  m.impl("set_.source_Storage_storage_offset", set_storage);
  m.impl("set_.source_Tensor", at::native::set_tensor_);
  m.impl("set_", set_empty);
  m.impl("is_set_to", at::native::is_set_to);
  m.impl("fill_.Scalar", fill_scalar);
  m.impl("zero_", zero_);
  m.impl("_local_scalar_dense", local_scalar_dense);
  m.impl("record_stream", record_stream);

  // Compute kernels that the CPU fallback cannot handle correctly.
  m.impl("native_dropout", native_dropout);
  m.impl("native_batch_norm", native_batch_norm);
  m.impl("_native_batch_norm_legit", native_batch_norm_legit);
  m.impl("convolution_overrideable", convolution_overrideable);
  m.impl(
      "convolution_backward_overrideable", convolution_backward_overrideable);
  m.impl("_fused_sdp_choice", fused_sdp_choice);
  m.impl(
      "_scaled_dot_product_fused_attention_overrideable", fused_attention);
  m.impl(
      "_scaled_dot_product_fused_attention_overrideable_backward",
      fused_attention_backward);

  // Views must share storage, so they cannot go through the CPU fallback.
  // The generic strided implementations only touch tensor metadata.
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("view", at::native::view);
  m.impl("_reshape_alias", at::native::_reshape_alias);
  m.impl("unfold", at::native::unfold);
  m.impl("view_as_real", at::native::view_as_real);
  m.impl("view_as_complex", at::native::view_as_complex);
}

// copy_ hands tensors of this device to _copy_from with their conjugate and
// negative bits unresolved.  The Conjugate/Negative fallbacks would resolve
// them by cloning, which calls copy_ and hence _copy_from again, recursing
// forever; copy_from() resolves both bits itself, so let it see them.
TORCH_LIBRARY_IMPL(aten, Conjugate, m) {
  m.impl("_copy_from", torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(aten, Negative, m) {
  m.impl("_copy_from", torch::CppFunction::makeFallthrough());
}

// Autocast uses the same per-op cast policies as CUDA.  The op lists spell
// signatures with unqualified ATen types.
using at::IntArrayRef;
using at::Scalar;
using at::ScalarType;
using at::Tensor;

#define AUTOCAST_LOWER_PRECISION_FP(...) \
  KERNEL_PRIVATEUSEONE(__VA_ARGS__, lower_precision_fp)
#define AUTOCAST_FP32(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32)
#define AUTOCAST_FP32_SET_OPT_DTYPE(...) \
  KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32_set_opt_dtype)
#define AUTOCAST_PROMOTE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, promote)

// clang-format off
TORCH_LIBRARY_IMPL(aten, AutocastPrivateUse1, m) {
  AT_FORALL_LOWER_PRECISION_FP(AUTOCAST_LOWER_PRECISION_FP)
  AT_FORALL_FP32(AUTOCAST_FP32)
  AT_FORALL_FP32_SET_OPT_DTYPE(AUTOCAST_FP32_SET_OPT_DTYPE)
  AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE(
      KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE)
  AT_FORALL_PROMOTE(AUTOCAST_PROMOTE)
}
// clang-format on

#undef AUTOCAST_LOWER_PRECISION_FP
#undef AUTOCAST_FP32
#undef AUTOCAST_FP32_SET_OPT_DTYPE
#undef AUTOCAST_PROMOTE

// Operators without an autocast policy run unchanged.
TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

// ---------------------------------------------------------------------------
// 7. Boxed CPU fallback
// ---------------------------------------------------------------------------

bool is_generator_argument(const c10::Argument& argument) {
  auto type = argument.type();
  if (auto optional = type->cast<c10::OptionalType>()) {
    type = optional->getElementType();
  }
  return type->kind() == c10::TypeKind::GeneratorType;
}

// The device index an operator runs on: that of its tensors on this device,
// else that of its `device=` argument, else the current device.  Like the
// device checks of CUDA kernels, tensors on two different devices of this
// backend are rejected.
c10::DeviceIndex operator_device_index(c10::ArrayRef<c10::IValue> arguments) {
  std::optional<c10::Device> tensor_device;
  std::optional<c10::DeviceIndex> device_argument;
  const auto visit_tensor = [&](const at::Tensor& tensor) {
    if (!tensor.defined() || tensor.device().type() != kDeviceType) {
      return;
    }
    if (!tensor_device.has_value()) {
      tensor_device = tensor.device();
    }
    TORCH_CHECK(
        *tensor_device == tensor.device(),
        "Expected all tensors to be on the same device, but found at least "
        "two devices, ",
        *tensor_device,
        " and ",
        tensor.device(),
        "!");
  };
  for (const auto& argument : arguments) {
    if (argument.isTensor()) {
      visit_tensor(argument.toTensor());
    } else if (argument.isTensorList()) {
      for (const at::Tensor& tensor : argument.toTensorList()) {
        visit_tensor(tensor);
      }
    } else if (
        argument.isDevice() && argument.toDevice().type() == kDeviceType) {
      device_argument = argument.toDevice().index();
    }
  }
  if (tensor_device.has_value()) {
    return tensor_device->index();
  }
  return resolve_device_index(device_argument.value_or(-1));
}

// Runs an operator without a native kernel on the CPU, after checking that
// its tensors share one device.  Random operators get the host engine of the
// device generator (the default generator of the operator's device when none
// is given), so that seeding this device makes its random numbers
// reproducible.
void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const HostAccess host_access;
  const auto& schema_arguments = op.schema().arguments();
  const auto first = stack->size() - schema_arguments.size();
  const auto device_index =
      operator_device_index(c10::ArrayRef<c10::IValue>(*stack).slice(first));
  for (const auto i : c10::irange(schema_arguments.size())) {
    if (!is_generator_argument(schema_arguments[i])) {
      continue;
    }
    auto& value = (*stack)[first + i];
    const at::Generator generator =
        value.isNone() ? default_generator(device_index) : value.toGenerator();
    TORCH_CHECK(
        generator.device().type() == kDeviceType,
        "Expected a '",
        c10::get_privateuse1_backend(),
        "' device type for generator but found '",
        generator.device().type(),
        "'");
    value = generator.get<DeviceGenerator>()->engine();
  }
  at::native::cpu_fallback(op, stack);
}

// extension_device::set_access, the op generated C++ code calls through the
// dispatcher (the wrapper header's set_access) to flip protected memory.
TORCH_LIBRARY(extension_device, m) {
  m.def("set_access(Tensor[] tensors, bool accessible) -> ()", &set_access);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
}

// Operators whose ATen definition has a CompositeImplicitAutograd kernel
// beside the CPU one: the dispatcher prefers that decomposition to a backend
// fallback, so without a kernel of this device they would decompose there and
// compiled code would differ from CPU's.  They take the CPU fallback, by name.
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  for (const char* name :
       {"silu_backward", "mish_backward", "native_channel_shuffle"}) {
    m.impl(name, torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
  }
}

// ---------------------------------------------------------------------------
// 8. Python bindings
// ---------------------------------------------------------------------------

// Streams cross the boundary as (stream_id, device_index, device_type), the
// triple `torch.Stream(stream_id=..., device_index=..., device_type=...)`
// takes.
std::tuple<int64_t, int64_t, int64_t> pack_stream(const c10::Stream& stream) {
  return {
      stream.id(),
      stream.device_index(),
      static_cast<int64_t>(stream.device_type())};
}

// The event behind a torch.Event (or subclass) of this device.
const c10::Event& unwrap_event(py::handle event) {
  TORCH_CHECK_TYPE(THPEvent_Check(event.ptr()), "Expected a torch.Event");
  const auto& torch_event = reinterpret_cast<THPEvent*>(event.ptr())->event;
  TORCH_CHECK(
      torch_event.device_type() == kDeviceType,
      "Expected a ",
      c10::get_privateuse1_backend(),
      " event, got one of ",
      torch_event.device_type());
  return torch_event;
}

const GuardImpl& guard_impl() {
  static const GuardImpl impl;
  return impl;
}

} // namespace
} // namespace extension_device

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(
    _fused_sdp_choice_stub,
    &extension_device::fused_sdp_choice);
} // namespace at::native

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  namespace ed = extension_device;
  m.doc() = "Runtime of the in-tree fake PrivateUse1 device";

  m.def(
      "backend_name",
      [] { return c10::get_privateuse1_backend(); },
      "The name PrivateUse1 is currently registered under.");
  m.def("set_memory_protection", [](bool on) {
    ed::protect_new_allocations.store(on);
  });
  m.def("device_count", [] { return static_cast<int>(ed::kDeviceCount); });
  m.def("init", [] { at::globalContext().lazyInitDevice(ed::kDeviceType); });
  m.def("is_initialized", [] { return ed::runtime_initialized.load(); });
  m.def(
      "current_device", [] { return static_cast<int>(ed::current_device()); });
  m.def("set_device", [](int index) {
    ed::set_current_device(ed::resolve_device_index(index));
  });
  m.def(
      "exchange_device",
      [](int index) {
        return static_cast<int>(
            ed::exchange_device(ed::resolve_device_index(index)));
      },
      "Make `index` the current device and return the previous one.");
  m.def("synchronize", [](int index) {
    ed::guard_impl().synchronizeDevice(ed::resolve_device_index(index));
  });

  m.def("current_stream", [](int index) {
    return ed::pack_stream(ed::guard_impl().getStream(
        ed::make_device(ed::resolve_device_index(index))));
  });
  m.def("default_stream", [](int index) {
    return ed::pack_stream(ed::guard_impl().getDefaultStream(
        ed::make_device(ed::resolve_device_index(index))));
  });
  m.def(
      "set_stream",
      [](const c10::Stream& stream) {
        ed::check_stream(stream);
        ed::set_current_device(stream.device_index());
        ed::guard_impl().exchangeStream(stream);
      },
      "Make `stream` current on its device and make that device current.");
  m.def(
      "recorded_stream",
      [](py::handle event)
          -> std::optional<std::tuple<int64_t, int64_t, int64_t>> {
        auto* device_event =
            static_cast<ed::DeviceEvent*>(ed::unwrap_event(event).eventId());
        if (device_event == nullptr) {
          return std::nullopt;
        }
        return ed::pack_stream(device_event->stream);
      },
      "The stream `event` was last recorded on, or None.");
  m.def(
      "elapsed_time",
      [](py::handle start, py::handle end) {
        return ed::unwrap_event(start).elapsedTime(ed::unwrap_event(end));
      },
      "Milliseconds between the records of two timing events.");

  m.def("default_generators", [] {
    // THPGenerator_initDefaultGenerator must run once per generator: the
    // tuple is built on first use and then kept for the process lifetime.
    static PyObject* generators = [] {
      PyObject* tuple = PyTuple_New(ed::kDeviceCount);
      for (const auto i : c10::irange(ed::kDeviceCount)) {
        PyTuple_SET_ITEM(
            tuple,
            i,
            THPGenerator_initDefaultGenerator(ed::default_generator(i)));
      }
      return tuple;
    }();
    return py::reinterpret_borrow<py::tuple>(generators);
  });

  m.def("device_properties", [](int index) {
    ed::check_device_index(index);
    py::dict properties;
    properties["name"] = "Extension Device (host memory)";
    properties["total_memory"] = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) *
        static_cast<int64_t>(sysconf(_SC_PAGE_SIZE));
    properties["multi_processor_count"] =
        std::max(1u, std::thread::hardware_concurrency());
    properties["major"] = 1;
    properties["minor"] = 0;
    return properties;
  });

  m.def("memory_allocated", [](int index) {
    return ed::device_allocations()
        .stats(ed::make_device(ed::resolve_device_index(index)))
        .allocated_bytes;
  });
  m.def("max_memory_allocated", [](int index) {
    return ed::device_allocations()
        .stats(ed::make_device(ed::resolve_device_index(index)))
        .peak_allocated_bytes;
  });
  m.def(
      "fused_attention_calls",
      [] {
        return std::make_tuple(
            ed::fused_attention_calls.load(),
            ed::fused_attention_backward_calls.load());
      },
      "Calls of the fused attention kernel so far: (forward, backward).");
  m.def("reset_peak_memory_stats", [](int index) {
    ed::device_allocations().reset_peak(
        ed::make_device(ed::resolve_device_index(index)));
  });
}
