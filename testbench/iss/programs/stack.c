/* stack.c - recursion far deeper than the 16 KiB stack: it overflows into
 * the guard page. */
#include <stdint.h>

int recurse(volatile uint32_t *prev, uint32_t depth);
int recurse(volatile uint32_t *prev, uint32_t depth) {
  volatile uint32_t frame[64];
  frame[0] = depth + (prev ? prev[0] : 0);
  if (depth >= 1000000u) return (int)frame[0];
  return recurse(frame, depth + 1) + (int)frame[0];
}

int main(void) { return recurse(0, 0); }
