#!/usr/bin/env python3
"""A bot that plays legally but tries to learn what the sandbox hides, for
ginlab's tests (tests/it/bots.rs, the sandbox tests).

Usage: attack_bot.py, with GINLAB_ATTACK_PORT and GINLAB_ATTACK_FILES
(paths joined by ':') in its environment: the targets are not on its
command line, where ginlab would take them for the bot's own files. At
each decision it tries, until one
succeeds: to read its parent's command line (/proc/PPID/cmdline, which
names ginlab's --out folder), each FILE (the run's checkpoint, a file of the
repository, the home folder), to list the home folder, and to open a TCP
connection to 127.0.0.1:PORT; with GINLAB_ATTACK_UDP (a port) and
GINLAB_ATTACK_UNIX (a socket's path), to send a UDP datagram to
127.0.0.1:UDP and to connect to the unix socket and write to it; with
GINLAB_ATTACK_FORKS (a number N), to have N processes running at once
(it forks N children that wait, then ends them). On stderr (its log) it writes `LEARNED NAME`
with what it read the first time an attack works, and `denied NAME: WHY`
the first time one fails. It plays the first legal move.
"""

import json
import os
import signal
import socket
import sys
import time


def attacks(port, files):
    def read(path):
        with open(path, "rb") as f:
            return f.read(4096)

    yield "cmdline", lambda: read("/proc/%d/cmdline" % os.getppid())
    for i, path in enumerate(files):
        yield "file%d %s" % (i, path), lambda path=path: read(path)
    home = os.path.expanduser("~")
    yield "home " + home, lambda: ",".join(sorted(os.listdir(home))[:20]).encode()

    def connect():
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"hello from a bot\n")
        return b"connected"

    yield "tcp", connect
    udp = os.environ.get("GINLAB_ATTACK_UDP")
    if udp:

        def datagram():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.sendto(b"hello from a bot\n", ("127.0.0.1", int(udp)))
            return b"sent"

        yield "udp", datagram
    unix = os.environ.get("GINLAB_ATTACK_UNIX")
    if unix:

        def unix_connect():
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(unix)
                s.sendall(b"hello from a bot\n")
            return b"connected"

        yield "unix", unix_connect
    forks = int(os.environ.get("GINLAB_ATTACK_FORKS", "0"))
    if forks:

        def fork_many():
            children = []
            try:
                for _ in range(forks):
                    pid = os.fork()
                    if pid == 0:
                        time.sleep(30)
                        os._exit(0)
                    children.append(pid)
            finally:
                for pid in children:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
            return b"%d processes" % len(children)

        yield "forks", fork_many
    # A socket pair stays allowed (runtimes talk to themselves with one).

    def pair():
        a, b = socket.socketpair()
        with a, b:
            a.sendall(b"x")
            return b.recv(1)

    yield "socketpair", pair


def main():
    port = int(os.environ["GINLAB_ATTACK_PORT"])
    files = [f for f in os.environ["GINLAB_ATTACK_FILES"].split(":") if f]
    learned = set()
    denied = set()

    def attack():
        for name, how in attacks(port, files):
            if name in learned:
                continue
            try:
                what = how()
            except Exception as e:  # noqa: BLE001 - any failure is a denial
                if name not in denied:
                    denied.add(name)
                    sys.stderr.write("denied %s: %r\n" % (name, e))
                continue
            learned.add(name)
            sys.stderr.write("LEARNED %s: %r\n" % (name, what[:1000]))
        sys.stderr.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            reply = {"type": "hello", "protocol": 1, "name": "attack"}
        elif kind == "decide":
            attack()
            reply = {"type": "move", "id": msg["id"], "move": msg["legal"][0]}
        elif kind == "quit":
            return
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
