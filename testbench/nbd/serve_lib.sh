# serve_lib.sh - sourced by the NBD client and guest tests: start_serve SSDVP
# CONFIG starts `ssdvp serve` (persistent, recording session.iolog, outputs in
# out/) on a Unix socket in the current directory and waits for it; sets
# sock, uri, pid; fail MSG stops it and exits 1; stop_serve ends it cleanly.
start_serve() {
  sock=$PWD/nbd.sock
  uri="nbd+unix:///ssdvp?socket=$sock"
  "$1" serve -c "$2" --set nbd.persistent=true --listen "unix:$sock" -o out --record session.iolog \
    >serve.out 2>serve.err &
  pid=$!
  trap 'kill -9 $pid 2>/dev/null' EXIT
  for _ in $(seq 600); do [ -S "$sock" ] && break; sleep 0.05; done
  [ -S "$sock" ] || fail "no socket"
}
fail() { echo "FAIL: $*"; kill -TERM $pid 2>/dev/null; wait $pid; tail -5 serve.err; exit 1; }
stop_serve() {
  kill -TERM $pid
  wait $pid
  local rc=$?
  trap - EXIT
  [ $rc -eq 0 ] || { tail -5 serve.err; echo "FAIL: ssdvp serve exited $rc"; exit 1; }
}
