"""The package's sandbox launcher (``ginlab._sandbox_exec``), the command the
Python process's bots start through: what it starts cannot read a file
outside the folders its policy grants, while the same command without it
can (so the test can fail). Mirrors tests/it/sandbox.rs; needs Linux with
Landlock ABI 6 or later, and skips elsewhere with the reason."""

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import ginlab
import ginlab._ginlab as native

READER = "import sys; print(open(sys.argv[1]).read())"


def test_the_launcher_is_this_interpreter_running_the_package_module():
    assert native._sandbox_launcher() == [sys.executable, "-m", "ginlab._sandbox_exec"]


def test_a_sandboxed_program_cannot_read_outside_its_folders(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("hidden")
    reader = [sys.executable, "-c", READER, str(secret)]
    plain = subprocess.run(reader, capture_output=True, text=True, check=False)
    assert plain.stdout.strip() == "hidden", plain.stderr
    # The interpreter's own installation and the system's folders; not
    # tmp_path. `--require 6`: as `--sandbox strict`, refuse rather than
    # run unrestricted.
    grants = {"/usr", "/lib", "/lib64", "/bin", "/etc", sys.prefix, sys.base_prefix}
    grants.update(p for p in sys.path if p and not p.startswith(str(tmp_path)))
    policy = []
    for path in sorted(grants):
        policy += ["--read", path]
    launcher = native._sandbox_launcher()
    run = subprocess.run(
        launcher + ["__sandbox-exec"] + policy + ["--require", "6", "--"] + reader,
        capture_output=True,
        text=True,
        check=False,
    )
    if "is required (--sandbox strict)" in run.stderr:
        pytest.skip("no Landlock ABI 6 here: " + run.stderr.strip())
    assert "hidden" not in run.stdout, run.stdout
    assert run.returncode != 0
    assert "Permission denied" in run.stderr, run.stderr


ATTACK_BOT = Path(__file__).resolve().parents[2] / "tests" / "bots" / "attack_bot.py"


def _landlock_or_skip(tmp_path):
    """Skips unless the launcher can enforce Landlock ABI 6 here."""
    probe = subprocess.run(
        native._sandbox_launcher() + ["__sandbox-exec", "--read", "/", "--require", "6", "--", "true"],
        capture_output=True,
        text=True,
        check=False,
    )
    if "is required (--sandbox strict)" in probe.stderr:
        pytest.skip("no Landlock ABI 6 here: " + probe.stderr.strip())


def _attack(tmp_path, monkeypatch, sandbox):
    """Plays tests/bots/attack_bot.py against greedy from Python, with the
    run's checkpoint and a secret file beside it as its targets; returns the
    bot's log."""
    secret = tmp_path / "secret.txt"
    secret.write_text("hidden")
    out = tmp_path / "out"
    logs = tmp_path / "logs"
    profile = tmp_path / "attack.toml"
    lines = [
        'kind = "external"',
        'name = "attack"',
        "command = [%s, %s]" % (json.dumps(sys.executable), json.dumps(str(ATTACK_BOT))),
        "log_dir = %s" % json.dumps(str(logs)),
    ]
    if not sandbox:
        lines.append('sandbox = "off"')
    profile.write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("GINLAB_ATTACK_PORT", "9")
    # A UDP datagram to a port of this test's, which nothing reads.
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    monkeypatch.setenv("GINLAB_ATTACK_UDP", str(udp.getsockname()[1]))
    monkeypatch.setenv("GINLAB_ATTACK_FILES", "%s:%s" % (out / "checkpoint.json", secret))
    with udp:
        rows = ginlab.match(str(profile), "greedy", games=20, seed=7, threads=1, out=str(out))
    assert rows["summary"], rows
    return "".join(p.read_text() for p in sorted(logs.glob("*.log")))


def test_a_bot_played_from_python_runs_in_the_sandbox(tmp_path, monkeypatch):
    """A bot that ginlab.match starts goes through the package's launcher:
    it cannot read the run's checkpoint, a file beside it, or ginlab's
    command line, as from the CLI."""
    _landlock_or_skip(tmp_path)
    log = _attack(tmp_path, monkeypatch, sandbox=True)
    # A socket pair is allowed (runtimes use one); nothing else is learned.
    learned = [line for line in log.splitlines() if line.startswith("LEARNED")]
    assert all(line.startswith("LEARNED socketpair") for line in learned), log
    for attack in ["denied cmdline", "denied file0", "denied file1", "denied tcp", "denied udp"]:
        assert attack in log, log


def test_without_the_sandbox_the_same_bot_reads_them(tmp_path, monkeypatch):
    """The control: with the profile's `sandbox = "off"` the same bot reads
    the secret and ginlab's command line, so the test above can fail."""
    _landlock_or_skip(tmp_path)
    log = _attack(tmp_path, monkeypatch, sandbox=False)
    assert "LEARNED cmdline" in log, log
    assert "LEARNED file1" in log, log
    assert "LEARNED udp" in log, log
