/* spin.c - never waits and never exits: the watchdog must end it. */
int main(void) {
  for (volatile unsigned i = 0;; ++i) {
  }
}
