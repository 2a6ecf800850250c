// libsystemc.so references sc_main; the tests use GoogleTest's main and call
// sc_start() from the tests, so this is never called.
#include <systemc>

int sc_main(int, char*[]) { return 1; }
