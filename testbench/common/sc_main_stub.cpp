// libsystemc.so references sc_main (declared extern "C" by SystemC); the test
// binaries use GoogleTest's main and call sc_start() themselves.
extern "C" int sc_main(int, char*[]) { return 1; }
