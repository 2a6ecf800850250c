// libsystemc.so references sc_main (declared extern "C" by SystemC); these
// tests use GoogleTest's main.
extern "C" int sc_main(int, char*[]) { return 1; }
