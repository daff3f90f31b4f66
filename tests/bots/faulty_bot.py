#!/usr/bin/env python3
"""A bot that breaks the protocol on purpose, for ginlab's tests.

Usage: faulty_bot.py MODE [PIDFILE]. It plays the first legal move, except
that in games whose seed is even it misbehaves at its third decision:

  crash    exits with status 3 (after a line on stderr)
  hang     stops answering
  garbage  answers a line that is not JSON
  illegal  answers a move that is not among the legal ones
  wrongid  answers with another request's id
  nohello  (at start) answers hello with garbage
  slowhello (at start) never answers hello
  slowfirst never misbehaves; sleeps 1.5 s before its process's first
           answer to a decide only, as a fresh JVM loading a table does
  loose    answers every move with spaces and a tab around the legal string
  daemon   (at start) leaves a helper behind that double-forks, calls
           setsid() and sleeps; the helper's pid goes to PIDFILE
  busy     (at start) writes its pid to PIDFILE, then stops reading and
           sleeps, as a bot computing would
  slowquit never misbehaves; waits 1.2 s after quit before it exits, as a
           JVM on a busy machine may
  chatty   never misbehaves; writes 300,000 bytes to stderr at start
  spy      never misbehaves; appends every game_start and hand_start line
           it gets to the file SPYFILE (given instead of PIDFILE)
Deciding by the game's seed keeps the faults deterministic whatever process
plays the game. With PIDFILE it appends its process id to that file at start,
so a test can check that the process is gone afterwards.
"""

import json
import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "crash"
if len(sys.argv) > 2 and mode not in ("spy", "daemon"):
    with open(sys.argv[2], "a") as pidfile:
        pidfile.write("%d\n" % os.getpid())
if mode == "busy":
    time.sleep(600)
if mode == "chatty":
    sys.stderr.write("x" * 299999 + "\n")
    sys.stderr.flush()


def lines_in(path):
    try:
        with open(path) as f:
            return f.read().count("\n")
    except FileNotFoundError:
        return 0


helpers = lines_in(sys.argv[2]) if mode == "daemon" else 0
if mode == "daemon" and os.fork() == 0:
    # The classic daemon: fork, new session, fork again, parent exits.
    os.setsid()
    if os.fork() == 0:
        with open(sys.argv[2], "a") as pidfile:
            pidfile.write("%d\n" % os.getpid())
        # Let go of ginlab's pipes, as a daemon does.
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        time.sleep(600)
    os._exit(0)
if mode == "daemon":
    # Play only once the helper has written its pid: on a loaded machine
    # the games could otherwise end, and ginlab end the helper, before it
    # wrote it, and the test would find no helper to check.
    deadline = time.time() + 60
    while lines_in(sys.argv[2]) <= helpers and time.time() < deadline:
        time.sleep(0.01)
seed = 1
decisions = 0
answered = False


def send(message):
    sys.stdout.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if mode == "spy" and kind in ("game_start", "hand_start"):
        with open(sys.argv[2], "a") as spyfile:
            spyfile.write(line.strip() + "\n")
    if kind == "hello":
        if mode == "nohello":
            send("hello there")
        elif mode == "slowhello":
            time.sleep(60)
        else:
            send({"type": "hello", "protocol": 1, "name": "faulty-" + mode})
    elif kind == "game_start":
        seed = msg["seed"]
        decisions = 0
    elif kind == "decide":
        decisions += 1
        answer = {"type": "move", "id": msg["id"], "move": msg["legal"][0]}
        if mode == "loose":
            answer["move"] = "  " + msg["legal"][0].replace(" ", "   ") + "\t"
        if seed % 2 == 0 and decisions == 3 and mode not in ("spy", "slowquit", "chatty", "slowfirst"):
            sys.stderr.write("faulty: misbehaving on purpose (%s)\n" % mode)
            sys.stderr.flush()
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "garbage":
                answer = "{oops"
            if mode == "illegal":
                answer["move"] = "discard ZZ" if msg["decision"] != "upcard" else "stock"
            if mode == "wrongid":
                answer["id"] = msg["id"] + 7
        if mode == "slowfirst" and not answered:
            time.sleep(1.5)
        answered = True
        send(answer)
    elif kind == "quit":
        if mode == "slowquit":
            time.sleep(1.2)
        break
