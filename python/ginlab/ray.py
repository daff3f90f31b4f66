"""ginlab jobs on a Ray cluster: a job's shards as Ray tasks, merged by the
job layer's merge into what one run writes, byte for byte.

``ginlab.ray.run(spec, shards=N)`` sends the spec's text to N Ray tasks;
task K runs ``ginlab.run(spec, shard="K/N", out=...)`` in a scratch folder
on whichever node Ray picks and returns that folder's files (a few
kilobytes of tallies, whatever the number of games). The driver lays them
out as shard folders and merges them with ``ginlab.merge``, which checks
that they are shards of one run covering every deal once. A deal's cards
and every choice depend only on (seed, deal index), so the result does not
depend on N, on the nodes or on their thread counts.

Every node needs the ginlab package (the same version: merge refuses
shards of different builds) and, when the spec names them, the same rules
and profile files at the same paths relative to the working directory.

Needs the optional extra: ``pip install "./python[ray]"``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Dict, Optional, Union

import ginlab

try:
    import ray as _ray
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError(
        'ginlab.ray needs Ray: pip install "ginlab[ray]" (or pip install ray)'
    ) from error

_PathLike = Union[str, "os.PathLike[str]"]


def _spec_text(spec: str) -> str:
    """The spec's TOML text: `spec` itself, or the file it names."""
    if "\n" not in spec and spec.rstrip().endswith(".toml"):
        return Path(spec).read_text(encoding="utf-8")
    return spec


def _files(folder: Path) -> Dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _shard(text: str, k: int, n: int, threads: int) -> Dict[str, bytes]:
    """Task body: plays shard `k` of `n` of the spec `text` in a scratch
    folder and returns the folder's files."""
    with tempfile.TemporaryDirectory(prefix="ginlab-shard-") as scratch:
        out = Path(scratch) / "shard"
        ginlab.run(text, out=str(out), shard=f"{k}/{n}", threads=threads)
        return _files(out)


def run(
    spec: str,
    shards: int,
    *,
    out: Optional[_PathLike] = None,
    threads: int = 0,
    num_cpus: Optional[float] = None,
) -> Dict[str, Any]:
    """Runs the experiment `spec` (TOML text, or the path of a .toml file)
    as `shards` Ray tasks and merges them; returns the rows of the files,
    as ``ginlab.run`` does. With `out`, the merged folder is written there
    (the files a single ``ginlab run --out`` writes, byte for byte; the
    manifest says it was merged). `threads` is each task's thread count
    (0: every core of its node); `num_cpus` the CPUs Ray reserves per task
    (default: Ray's, one). Ray must be initialised (``ray.init(...)``), or
    Ray starts a local instance. A failed task raises its error; nothing
    is written to `out` then.
    """
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1:
        raise ValueError(f"shards={shards!r}: give a whole number of shards, 1 or more")
    text = _spec_text(spec)
    task = _ray.remote(_shard)
    if num_cpus is not None:
        task = task.options(num_cpus=num_cpus)
    futures = [task.remote(text, k, shards, threads) for k in range(1, shards + 1)]
    results = _ray.get(futures)
    with tempfile.TemporaryDirectory(prefix="ginlab-ray-") as scratch:
        folders = []
        for k, files in enumerate(results, start=1):
            folder = Path(scratch) / f"shard-{k}"
            folder.mkdir()
            for name, data in files.items():
                (folder / name).write_bytes(data)
            folders.append(str(folder))
        target = Path(out) if out is not None else Path(scratch) / "merged"
        return ginlab.merge(folders, out=str(target))


__all__ = ["run"]
