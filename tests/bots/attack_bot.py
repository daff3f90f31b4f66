#!/usr/bin/env python3
"""A bot that plays legally but tries to learn what the sandbox hides, for
ginlab's tests (tests/bots.rs, the sandbox tests).

Usage: attack_bot.py, with GINLAB_ATTACK_PORT and GINLAB_ATTACK_FILES
(paths joined by ':') in its environment: the targets are not on its
command line, where ginlab would take them for the bot's own files. At
each decision it tries, until one
succeeds: to read its parent's command line (/proc/PPID/cmdline, which
names ginlab's --out folder), each FILE (the run's checkpoint, a file of the
repository, the home folder), to list the home folder, and to open a TCP
connection to 127.0.0.1:PORT. On stderr (its log) it writes `LEARNED NAME`
with what it read the first time an attack works, and `denied NAME: WHY`
the first time one fails. It plays the first legal move.
"""

import json
import os
import socket
import sys


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
