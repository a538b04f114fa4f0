#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A trace-cmd collector that misbehaves, for record-tests.sh: it listens
# on 127.0.0.1:PORT, speaks trace-cmd listen's handshake and then, by
# MODE: "badrinit" answers TINIT with a port that is not a number;
# "double" answers the header's end with two NOT_SUPP (the answer of a
# collector that had stopped taking the header).  It serves one session
# and exits.
# Usage: fake-collector.py PORT MODE
import socket
import struct
import sys
import time

port, mode = int(sys.argv[1]), sys.argv[2]
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port))
srv.listen(4)
data = socket.socket()
data.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
data.bind(("127.0.0.1", 0))
data.listen(4)
dport = data.getsockname()[1]


def recv_exact(c, n):
    b = b""
    while len(b) < n:
        k = c.recv(n - len(b))
        if not k:
            raise EOFError
        b += k
    return b


def msg(cmd, fixed=b"", payload=b""):
    return struct.pack(">III", 12 + len(fixed) + len(payload), cmd,
                       len(fixed)) + fixed + payload


def recv_msg(c):
    size, cmd, _ = struct.unpack(">III", recv_exact(c, 12))
    return cmd, recv_exact(c, size - 12)


while True:
    c, _ = srv.accept()
    c.sendall(b"tracecmd")
    try:
        hello = c.recv(5)
    except OSError:
        hello = b""
    if hello != b"-1V3\0":
        c.close()       # the probe: it only reads the greeting
        continue
    break
c.sendall(b"V3\0")
recv_exact(c, 8)
c.sendall(b"OK")
cmd, body = recv_msg(c)
cpus = struct.unpack(">I", body[:4])[0]
ports = b"x1\0" if mode == "badrinit" else \
    b"".join(b"%d\0" % dport for _ in range(cpus))
c.sendall(msg(2, struct.pack(">I", cpus), ports))
if mode == "badrinit":
    time.sleep(1)
    sys.exit(0)
while True:
    cmd, body = recv_msg(c)
    if cmd == 11:       # CONT after FIN_DATA
        break
c.sendall(msg(5))
if mode == "double":
    c.sendall(msg(5))
data.settimeout(5)
try:
    while True:
        d, _ = data.accept()
        while d.recv(65536):
            pass
        d.close()
except socket.timeout:
    pass
