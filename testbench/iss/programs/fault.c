/* fault.c - executes an illegal instruction. */
int main(void) {
  __asm__ volatile(".word 0x00000000");
  return 1;
}
