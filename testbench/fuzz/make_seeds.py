#!/usr/bin/env python3
"""Writes the binary seed inputs of the nvme_decode, accel_regs and nbd_request
harnesses (corpus/nvme_decode, corpus/accel_regs, corpus/nbd_request). The text seeds (trace, config) are
copies of test fixtures and configs. Run from anywhere; the files are in the
tree, so this is only needed to change them."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))


def sqe(opc, nsid=1, prp1=0, cdw10=0, cdw11=0, cdw12=0, cdw13=0):
    # cdw0 (CID filled in by the harness), nsid, cdw2, cdw3, mptr, prp1, prp2, cdw10..15
    return struct.pack('<IIIIQQQIIIIII', opc, nsid, 0, 0, 0, prp1, 0, cdw10, cdw11, cdw12, cdw13, 0, 0)


def rec(cmd, admin=False, drain=False):
    return bytes([(1 if admin else 0) | (2 if drain else 0)]) + cmd


def rw(opc, slba, nlb, prp=0x100):
    return sqe(opc, prp1=prp, cdw10=slba & 0xffffffff, cdw11=slba >> 32, cdw12=nlb - 1)


WRITE, READ, FLUSH, DSM = 0x01, 0x02, 0x00, 0x09
host = b''.join(struct.pack('<I', 0x1000 + i) for i in range(64))
dsm_ranges = struct.pack('<IIQ', 0, 16, 100) + struct.pack('<IIQ', 0, 8, 2990)  # attributes, nlb, slba
nvme = {
    'write_read_flush': rec(rw(WRITE, 0, 8)) + rec(rw(READ, 0, 8), drain=True) + rec(sqe(FLUSH)) + host,
    'dsm': rec(rw(WRITE, 100, 16)) + rec(sqe(DSM, prp1=0, cdw10=1, cdw11=4), drain=True) + rec(rw(READ, 100, 16)) +
    dsm_ranges,
    'bad_commands': rec(sqe(0x42)) + rec(rw(READ, 3000, 1)) + rec(rw(WRITE, 0, 65)) + rec(sqe(WRITE, nsid=2)) +
    rec(rw(WRITE, 0, 1, prp=1 << 40)),
    'streams_write': rec(sqe(WRITE, prp1=0x100, cdw12=(1 << 20) | 3, cdw13=1 << 16)) + host,
    'admin': rec(sqe(0x1a, nsid=1, prp1=0x100, cdw10=1023, cdw11=0x0001), admin=True) +  # directive receive
    rec(sqe(0x19, nsid=1, cdw11=0x0001, cdw12=0x101), admin=True) +  # directive send: enable streams
    rec(sqe(0x0c), admin=True) + rec(sqe(0x09, cdw10=0xc0), admin=True) + rec(sqe(0x7f), admin=True),
    'fill_gc': b''.join(rec(rw(WRITE, (i * 64) % 2944, 64), drain=(i % 4 == 0)) for i in range(120)),
}


def step(act, sel, value, wait=0):
    return bytes([act | (wait << 2), sel]) + struct.pack('<I', value & 0xffffffff)


W = 0
regs = {'CTRL': 0x00, 'STATUS': 0x04, 'N': 0x08, 'K': 0x0c, 'MAX_ITER': 0x10, 'SRC': 0x14, 'DST': 0x18}


def program(n, k, it, src, dst, ctrl=3, wait=5):
    return (step(W, regs['N'] // 4, n) + step(W, regs['K'] // 4, k) + step(W, regs['MAX_ITER'] // 4, it) +
            step(W, regs['SRC'] // 4, src) + step(W, regs['DST'] // 4, dst) +
            step(W, regs['CTRL'] // 4, ctrl, wait=wait) + step(1, regs['STATUS'] // 4, 0, wait=7))


accel = {
    'job': program(100, 4, 20, 0x80000000, 0x80008000),
    'job_large': program(2048, 8, 50, 0x80000000, 0x8000e000),
    'bad_n': program(0, 4, 20, 0x80000000, 0x80008000) + step(W, 0, 4) + program(5000, 4, 20, 0x80000000, 0x80008000),
    'bad_addr': program(100, 4, 20, 0x80100000, 0x80008000) + program(100, 4, 20, 0x10000000, 3),
    'busy_start': program(2048, 8, 200, 0x80000000, 0x80008000, wait=1) + step(W, 0, 1, wait=1),
    'bad_point': step(2, 0, 0xffff0000) + program(300, 2, 10, 0x80000000, 0x80008000),
}



def nbd_req(typ, offset, length, flags=0, cookie=7, magic=0x25609513, limits=0, export=1 << 30):
    # limits byte, export size, then the request header as on the wire (big-endian)
    return bytes([limits]) + struct.pack('>Q', export) + struct.pack('>IHHQQI', magic, flags, typ, cookie, offset, length)


nbd = {
    'read': nbd_req(0, 4096, 4096),
    'write_fua': nbd_req(1, 0, 512, flags=1, limits=1),
    'flush': nbd_req(3, 0, 0),
    'disc': nbd_req(2, 0, 0),
    'trim': nbd_req(4, 1 << 20, 1 << 20, limits=2),
    'write_zeroes': nbd_req(6, 0, 8192, flags=3),
    'zero_length': nbd_req(0, 0, 0),
    'past_end': nbd_req(1, (1 << 30) - 512, 1024, limits=1),
    'unaligned': nbd_req(0, 100, 4096, limits=2),
    'too_big': nbd_req(0, 0, 8192, limits=4),
    'bad_flags': nbd_req(0, 0, 512, flags=1),
    'unknown': nbd_req(7, 0, 512),
    'bad_magic': nbd_req(0, 0, 512, magic=0x12345678),
    'short': nbd_req(0, 0, 512)[:20],
}

for name, blobs in (('nvme_decode', nvme), ('accel_regs', accel), ('nbd_request', nbd)):
    d = os.path.join(here, 'corpus', name)
    os.makedirs(d, exist_ok=True)
    for k, v in blobs.items():
        with open(os.path.join(d, k), 'wb') as f:
            f.write(v)
