/* fbp - Filebench's fileserver, varmail and webserver personalities, for the
 * recorded workloads (scripts/workloads/jobs/filebench-*.sh; Filebench is not
 * packaged in Debian). Follows the published workload files of Filebench 1.5
 * (workloads/fileserver.f, varmail.f, webserver.f): the same fileset (entries,
 * mean directory width, a gamma file-size distribution of the given mean and
 * shape 1.5, the share preallocated), the same threads and the same flowop
 * sequence per thread loop, with the same I/O sizes and fsync points:
 *
 *   fileserver (50 threads, 10,000 files of mean 128 KiB, dirwidth 20,
 *     prealloc 80 %): createfile, writewholefile (1 MiB I/Os), close,
 *     open, appendfilerand (mean 16 KiB), close, open, readwholefile, close,
 *     deletefile, statfile
 *   varmail (16 threads, 1,000 files of mean 16 KiB, one directory,
 *     prealloc 80 %): deletefile; createfile, appendfilerand, fsync, close;
 *     open, readwholefile, appendfilerand, fsync, close; open,
 *     readwholefile, close
 *   webserver (100 threads, 1,000 files of mean 16 KiB, dirwidth 20,
 *     prealloc 100 %, read-only; one log file): 10 x (open, readwholefile,
 *     close), appendfilerand to the log (mean 16 KiB)
 *
 * Differences from Filebench, which docs/results/workloads.md restates: a run
 * is a number of thread loops (loops=N in all), not a duration; files, sizes
 * and choices come from one seeded generator per thread (seed=S), not
 * Filebench's; appendfilerand appends a uniform 1..2x-mean amount (Filebench:
 * uniform up to iosize); the fileset is laid out once and kept between runs
 * (a second run picks up the files on disk); there is no directory pre-creation
 * beyond what the files need. Prints "fbp: PERSONALITY ops N bytes_written B
 * seconds S" and exits non-zero on any I/O error.
 *
 * Usage: fbp fileserver|varmail|webserver DIR [nfiles=N] [meansize=B]
 *            [threads=N] [loops=N] [seed=S] [dirwidth=N]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { FILESERVER, VARMAIL, WEBSERVER };
static int kind;
static const char *dir;
static long nfiles = 10000, meansize = 128 * 1024, dirwidth = 20, nthreads = 50, loops = 1000;
static long appendsize = 16 * 1024, iosize = 1 << 20, prealloc = 80;
static unsigned long seed = 1;
static unsigned char *exists; /* per fileset entry */
static long nexist;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long long written;
static long ops;

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static double unif(uint64_t *s) { return (rnd(s) >> 11) * (1.0 / 9007199254740992.0); }
static double normal(uint64_t *s) {
  double u = unif(s) + 1e-300, v = unif(s);
  return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}
/* Gamma(shape 1.5, scale mean/1.5): Marsaglia and Tsang. */
static long gamma_size(uint64_t *s, long mean) {
  const double k = 1.5, d = k - 1.0 / 3, c = 1 / sqrt(9 * d);
  for (;;) {
    double x = normal(s), v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    double u = unif(s);
    if (log(u) < 0.5 * x * x + d - d * v + d * log(v)) {
      long b = (long)(d * v * mean / k);
      return b < 1 ? 1 : b;
    }
  }
}
static void path(char *buf, size_t n, long i) {
  if (kind == VARMAIL)
    snprintf(buf, n, "%s/00000001/%08ld", dir, i + 1);
  else /* a two-level tree of dirwidth entries per directory, as Filebench's */
    snprintf(buf, n, "%s/%08ld/%08ld/%08ld", dir, i / (dirwidth * dirwidth) + 1, (i / dirwidth) % dirwidth + 1, i + 1);
}
static void mkparents(const char *p) {
  char b[512];
  snprintf(b, sizeof b, "%s", p);
  for (char *q = b + strlen(dir) + 1; (q = strchr(q, '/')); q++) {
    *q = 0;
    mkdir(b, 0755);
    *q = '/';
  }
}
static void die(const char *what, const char *p) {
  fprintf(stderr, "fbp: %s %s: %s\n", what, p, strerror(errno));
  exit(1);
}
static void add_written(long b) {
  pthread_mutex_lock(&mu);
  written += b;
  pthread_mutex_unlock(&mu);
}
static void write_all(int fd, long size, const char *p) {
  static char buf[1 << 20];
  for (long off = 0; off < size;) {
    long n = size - off < iosize ? size - off : iosize;
    if (write(fd, buf, n) != n) die("write", p);
    off += n;
  }
  add_written(size);
}
static void append_rand(int fd, uint64_t *s, const char *p) {
  static char buf[256 * 1024];
  long n = 1 + (long)(unif(s) * 2 * appendsize);
  if (lseek(fd, 0, SEEK_END) < 0) die("lseek", p);
  if (write(fd, buf, n) != n) die("append", p);
  add_written(n);
}
static void read_whole(const char *p) {
  static __thread char buf[1 << 20];
  int fd = open(p, O_RDONLY);
  if (fd < 0) die("open", p);
  while (read(fd, buf, sizeof buf) > 0) {
  }
  close(fd);
}
/* An entry that exists (want=1) or does not (want=0) and no other thread is
 * using (Filebench's busy flag), marked busy until release(). */
static unsigned char *busy;
static long nbusy[2];
static long pick(uint64_t *s, int want) {
  pthread_mutex_lock(&mu);
  long i = -1, have = want ? nexist : nfiles - nexist;
  if (have - nbusy[want] > 0)
    for (;;) {
      i = (long)(unif(s) * nfiles);
      if (exists[i] == want && !busy[i]) break;
    }
  if (i >= 0) busy[i] = 1, nbusy[want]++;
  pthread_mutex_unlock(&mu);
  return i;
}
/* Done with entry i, which now exists (e=1) or not. */
static void mark(long i, int e) {
  pthread_mutex_lock(&mu);
  if (busy[i]) busy[i] = 0, nbusy[exists[i]]--;
  if (exists[i] != e) nexist += e ? 1 : -1;
  exists[i] = (unsigned char)e;
  pthread_mutex_unlock(&mu);
}
static void create_file(long i, long size, uint64_t *s, int fs) {
  char p[512];
  path(p, sizeof p, i);
  mkparents(p);
  int fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  if (fd < 0) die("create", p);
  if (size) write_all(fd, size, p);
  if (fs) append_rand(fd, s, p);
  if (fs && fsync(fd)) die("fsync", p);
  close(fd);
  mark(i, 1);
}
static void *thread(void *arg) {
  uint64_t s = seed * 1000003 + (uint64_t)(intptr_t)arg;
  char p[512], log[512];
  snprintf(log, sizeof log, "%s/log/logfile", dir);
  for (long l = 0; l < loops; l++) {
    long i;
    if (kind == FILESERVER) {
      if ((i = pick(&s, 0)) >= 0) create_file(i, gamma_size(&s, meansize), &s, 0);
      if ((i = pick(&s, 1)) >= 0) {
        path(p, sizeof p, i);
        int fd = open(p, O_WRONLY);
        if (fd < 0) die("open", p);
        append_rand(fd, &s, p);
        close(fd);
        mark(i, 1);
      }
      if ((i = pick(&s, 1)) >= 0) path(p, sizeof p, i), read_whole(p), mark(i, 1);
      if ((i = pick(&s, 1)) >= 0) {
        path(p, sizeof p, i);
        if (unlink(p)) die("unlink", p);
        mark(i, 0);
      }
      struct stat st;
      if ((i = pick(&s, 1)) >= 0) path(p, sizeof p, i), stat(p, &st), mark(i, 1);
    } else if (kind == VARMAIL) {
      if ((i = pick(&s, 1)) >= 0) {
        path(p, sizeof p, i);
        if (unlink(p)) die("unlink", p);
        mark(i, 0);
      }
      if ((i = pick(&s, 0)) >= 0) create_file(i, 0, &s, 1);
      if ((i = pick(&s, 1)) >= 0) {
        path(p, sizeof p, i);
        read_whole(p);
        int fd = open(p, O_WRONLY);
        if (fd < 0) die("open", p);
        append_rand(fd, &s, p);
        if (fsync(fd)) die("fsync", p);
        close(fd);
        mark(i, 1);
      }
      if ((i = pick(&s, 1)) >= 0) path(p, sizeof p, i), read_whole(p), mark(i, 1);
    } else {
      for (int k = 0; k < 10; k++)
        if ((i = pick(&s, 1)) >= 0) path(p, sizeof p, i), read_whole(p), mark(i, 1);
      int fd = open(log, O_WRONLY | O_CREAT, 0644);
      if (fd < 0) die("open", log);
      append_rand(fd, &s, log);
      close(fd);
    }
    pthread_mutex_lock(&mu);
    ops++;
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}
int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: fbp fileserver|varmail|webserver DIR [key=value...]\n");
    return 2;
  }
  if (!strcmp(argv[1], "fileserver"))
    kind = FILESERVER;
  else if (!strcmp(argv[1], "varmail")) {
    kind = VARMAIL, nfiles = 1000, meansize = 16384, nthreads = 16, dirwidth = 1000000;
  } else if (!strcmp(argv[1], "webserver")) {
    kind = WEBSERVER, nfiles = 1000, meansize = 16384, nthreads = 100, prealloc = 100;
  } else {
    fprintf(stderr, "fbp: unknown personality %s\n", argv[1]);
    return 2;
  }
  dir = argv[2];
  for (int a = 3; a < argc; a++) {
    long v = atol(strchr(argv[a], '=') ? strchr(argv[a], '=') + 1 : "0");
    if (!strncmp(argv[a], "nfiles=", 7))
      nfiles = v;
    else if (!strncmp(argv[a], "meansize=", 9))
      meansize = v;
    else if (!strncmp(argv[a], "threads=", 8))
      nthreads = v;
    else if (!strncmp(argv[a], "loops=", 6))
      loops = v;
    else if (!strncmp(argv[a], "seed=", 5))
      seed = (unsigned long)v;
    else if (!strncmp(argv[a], "dirwidth=", 9))
      dirwidth = v;
    else {
      fprintf(stderr, "fbp: unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  exists = calloc((size_t)nfiles, 1);
  busy = calloc((size_t)nfiles, 1);
  mkdir(dir, 0755);
  /* The fileset: what a previous run left, else prealloc % of the entries. */
  uint64_t s = seed;
  char p[512];
  long found = 0;
  for (long i = 0; i < nfiles; i++) {
    struct stat st;
    path(p, sizeof p, i);
    if (!stat(p, &st)) exists[i] = 1, nexist++, found++;
  }
  if (!found)
    for (long i = 0; i < nfiles; i++)
      if (unif(&s) * 100 < prealloc) create_file(i, gamma_size(&s, meansize), &s, 0);
  if (kind == WEBSERVER) {
    snprintf(p, sizeof p, "%s/log/logfile", dir);
    mkparents(p);
  }
  sync();
  long long pre = written;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_t *th = calloc((size_t)nthreads, sizeof *th);
  for (long t = 0; t < nthreads; t++) pthread_create(&th[t], NULL, thread, (void *)(intptr_t)t);
  for (long t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("fbp: %s files %ld (laid out %lld bytes) ops %ld bytes_written %lld seconds %.1f ops/s %.0f\n", argv[1],
         nexist, pre, ops, written - pre, sec, ops / sec);
  return 0;
}
