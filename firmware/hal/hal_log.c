/* hal_log.c - formatted logging on top of the back-end's log callback. */
#include <stdarg.h>
#include <stdio.h>

#include "hal.h"

void hal_logf(struct hal *h, int level, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  h->ops->log(h->ctx, level, buf);
}
