// Linked into every target of a sanitized build (SSDVP_SANITIZE, see
// CMakeLists.txt); compiles to nothing otherwise.
//
// SystemC 2.3.4 (Debian) annotates its coroutine switches for AddressSanitizer
// (__sanitizer_start_switch_fiber) but passes a null stack when it switches
// back to the main coroutine, the one running sc_main and the kernel. From the
// first such switch on, ASan takes the main thread's stack to be [0, 0): it
// then ignores __asan_handle_no_return ("ASan is ignoring requested
// __asan_handle_no_return", google/sanitizers#189), so an exception thrown in
// sc_main after simulation has started leaves stale redzones on the stack and
// ASan reports a stack-buffer-overflow that is not there (found with an
// error thrown at boot in cpu.mode iss). This interposes the annotation and
// gives ASan the main thread's real stack instead of the null one.
#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <pthread.h>

#include <cstddef>

namespace {

struct MainStack {
  const void* bottom = nullptr;
  size_t size = 0;
  MainStack() {  // static initialisation: on the main thread
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) != 0) return;
    void* addr = nullptr;
    size_t sz = 0;
    if (pthread_attr_getstack(&a, &addr, &sz) == 0) {
      bottom = addr;
      size = sz;
    }
    pthread_attr_destroy(&a);
  }
};
const MainStack g_main_stack;

using StartSwitchFiber = void (*)(void**, const void*, size_t);

}  // namespace

extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size) {
  static const auto real = reinterpret_cast<StartSwitchFiber>(dlsym(RTLD_NEXT, "__sanitizer_start_switch_fiber"));
  if (!bottom && !size) {
    bottom = g_main_stack.bottom;
    size = g_main_stack.size;
  }
  if (real) real(fake_stack_save, bottom, size);
}
#endif
