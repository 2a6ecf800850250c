// huge_pages.h - an allocator for large tables looked up at random (the host
// scoreboard): blocks of 2 MiB or more come from mmap with MADV_HUGEPAGE
// (transparent huge pages set to "madvise" otherwise gives 4 KiB pages, and
// a 28 MiB table is then 7,168 TLB entries); smaller ones from operator new.
// The advice is a hint: where the kernel refuses it, nothing changes.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>

namespace ssdvp {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHuge = size_t(2) << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHuge) return static_cast<T*>(::operator new(bytes));
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHuge)
      ::operator delete(p);
    else
      munmap(p, bytes);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const {
    return false;
  }
};

}  // namespace ssdvp
