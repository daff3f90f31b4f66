"""The package's sandbox launcher (``ginlab._sandbox_exec``), the command the
Python process's bots start through: what it starts cannot read a file
outside the folders its policy grants, while the same command without it
can (so the test can fail). Mirrors tests/sandbox.rs; needs Linux with
Landlock ABI 6 or later, and skips elsewhere with the reason."""

import subprocess
import sys

import pytest

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
