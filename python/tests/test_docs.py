"""The documentation against the package: every ```python block of
README.md and docs/*.md runs (doctest-style, each in a fresh namespace, from
the repository's root; one that needs an optional extra where it is
installed), and docs/PYTHON.md quotes what
examples/python/learn.py prints."""

import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks():
    for doc in DOCS:
        for i, found in enumerate(BLOCK.finditer(doc.read_text(encoding="utf-8"))):
            yield pytest.param(found.group(1), id=f"{doc.name}:{i + 1}")


def test_the_docs_have_python_blocks():
    names = {p.id.split(":")[0] for p in python_blocks()}
    assert {"README.md", "PYTHON.md"} <= names


# A block that uses an optional extra runs where the extra is installed.
EXTRAS = {"ginlab.rllib": "ray.rllib.env.multi_agent_env", "ginlab.ray": "ray"}


@pytest.mark.parametrize("code", list(python_blocks()))
def test_a_python_block_runs(code, monkeypatch):
    for module, needs in EXTRAS.items():
        if module in code:
            pytest.importorskip(needs)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "<python block>", "exec"), {"__name__": "__docs__"})


def test_learn_py_prints_what_the_docs_quote():
    text = (ROOT / "docs" / "PYTHON.md").read_text(encoding="utf-8")
    quoted = re.search(r"examples/python/learn\.py`.*?```text\n(.*?)```", text, re.S)
    assert quoted, "docs/PYTHON.md quotes learn.py's output in a text block"
    printed = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "python" / "learn.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed == quoted.group(1)
