"""Python writes the CLI's result folders byte for byte (issue 30 item 3):
with ``out=``, ``ginlab.run``/``match``/``sweep``/``balance`` go through
the job layer, so a folder the CLI made is re-made unchanged, and a fresh
one holds the same bytes (its manifest names the Python call instead of
the command line)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import ginlab

ROOT = Path(__file__).resolve().parents[2]


def cli():
    """The ginlab binary (GINLAB_BIN, else target/release/ginlab, which CI
    builds before the Python tests)."""
    binary = Path(os.environ.get("GINLAB_BIN", ROOT / "target" / "release" / "ginlab"))
    if not binary.is_file():
        pytest.skip(f"no ginlab binary at {binary} (cargo build --release, or set GINLAB_BIN)")
    return str(binary)


def files(folder):
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()}


def without_provenance(manifest):
    """A manifest without the lines that name what made it (the command,
    the commit), which differ between a CLI and a Python run."""
    return b"\n".join(
        line for line in manifest.split(b"\n") if not line.startswith((b"command = ", b"git_commit = "))
    )


def assert_same_folder(made, expected, *, provenance=True):
    made, expected = files(made), files(expected)
    assert sorted(made) == sorted(expected)
    for name, data in expected.items():
        if name == "manifest.toml" and not provenance:
            assert without_provenance(made[name]) == without_provenance(data), name
        else:
            assert made[name] == data, name


def remake(folder, spec, tmp_path, monkeypatch):
    """Re-makes the committed results folder `folder` from `spec` through
    ``ginlab.run(out=)`` in a copy, and compares every committed file; the
    only other file may be distribution.csv, a view of the tallies that
    results/ does not keep (the CLI writes it too)."""
    monkeypatch.chdir(ROOT)
    copy = tmp_path / Path(folder).name
    shutil.copytree(ROOT / folder, copy)
    ginlab.run(spec, out=str(copy))
    made, committed = files(copy), files(ROOT / folder)
    assert set(made) - set(committed) <= {"distribution.csv"}
    for name, data in committed.items():
        assert made[name] == data, name


SHORT = {
    # results/quick's spec, 1000 games instead of 1,000,000.
    "quick": (
        'seed = 1\ngames = 1000\nplayers = ["greedy", "simple"]\npairing = "head_to_head"\n'
        '[[variant]]\nname = "standard"\n[[variant]]\nname = "hoyle"\n'
    ),
    # results/three-player-balance's spec, 300 games.
    "three": (
        'seed = 14\ngames = 300\nduplicate = false\nformat = "three"\n'
        'players = ["greedy", "greedy", "greedy"]\n[[variant]]\nname = "standard"\n'
        '[[variant]]\nname = "oklahoma"\n'
    ),
    "partnership": (
        'seed = 3\ngames = 40\nformat = "partnership"\n'
        'players = ["greedy", "simple", "simple", "greedy"]\n'
    ),
    "round-robin": (
        'seed = 2\nhands = 200\npairing = "round_robin"\nplayers = ["greedy", "simple", "random"]\n'
    ),
}


@pytest.mark.parametrize("name", sorted(SHORT))
def test_a_short_spec_writes_the_cli_folder(name, tmp_path):
    spec = tmp_path / f"{name}.toml"
    spec.write_text(SHORT[name])
    by_cli = tmp_path / "cli"
    subprocess.run([cli(), "run", str(spec), "--out", str(by_cli), "-q"], check=True, capture_output=True)
    # A fresh folder: the same files, the manifest but for what made it.
    fresh = tmp_path / "python"
    rows = ginlab.run(str(spec), out=str(fresh))
    assert_same_folder(fresh, by_cli, provenance=False)
    assert len(rows["summary"]) == (files(by_cli)["summary.csv"].count(b"\n") - 1)
    # Re-made in place: every byte, the manifest included, stays.
    again = tmp_path / "again"
    shutil.copytree(by_cli, again)
    ginlab.run(str(spec), out=str(again))
    assert_same_folder(again, by_cli)


def test_match_sweep_balance_write_the_cli_folders(tmp_path):
    jobs = [
        (["match", "greedy", "simple", "--games", "60", "--seed", "5"], lambda out: ginlab.match("greedy", "simple", games=60, seed=5, out=out)),
        (["match", "greedy", "simple", "random", "--games", "30", "--seed", "5"], lambda out: ginlab.match("greedy", "simple", "random", games=30, seed=5, out=out)),
        (["match", "--teams", "greedy,simple", "--vs", "simple,greedy", "--games", "8", "--seed", "5"], lambda out: ginlab.match(teams=["greedy", "simple"], vs=["simple", "greedy"], games=8, seed=5, out=out)),
        (["match", "greedy", "simple", "--hands", "400", "--seed", "9", "--rule", "gin_bonus=30", "--sprt", "elo0=0,elo1=40"], lambda out: ginlab.match("greedy", "simple", hands=400, seed=9, rule=["gin_bonus=30"], sprt="elo0=0,elo1=40", out=out)),
        (["sweep", "greedy", "--param", "knock_at", "--values", "0,5,10", "--vs", "simple", "--hands", "100", "--rules", "standard", "--rules", "hoyle"], lambda out: ginlab.sweep("greedy", "knock_at", [0, 5, 10], "simple", hands=100, rules=["standard", "hoyle"], out=out)),
        (["balance", "simple", "--hands", "300", "--rules", "standard", "--rules", "oklahoma"], lambda out: ginlab.balance("simple", hands=300, rules=["standard", "oklahoma"], out=out)),
    ]
    for i, (args, python) in enumerate(jobs):
        by_cli = tmp_path / f"cli{i}"
        subprocess.run([cli(), *args, "--out", str(by_cli), "-q"], check=True, capture_output=True)
        by_python = tmp_path / f"python{i}"
        python(str(by_python))
        assert_same_folder(by_python, by_cli, provenance=False)


@pytest.mark.slow
def test_results_quick_remakes_byte_for_byte(tmp_path, monkeypatch):
    # 3,000,000 games: a few minutes on 2 cores (pytest -m slow).
    remake("results/quick", "experiments/quick.toml", tmp_path, monkeypatch)


@pytest.mark.slow
def test_results_three_player_balance_remakes_byte_for_byte(tmp_path, monkeypatch):
    # 4,000,000 three-player games (pytest -m slow).
    remake("results/three-player-balance", "experiments/three-player-balance.toml", tmp_path, monkeypatch)
