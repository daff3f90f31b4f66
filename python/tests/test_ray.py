"""ginlab.ray (issue 34 item 5): a job's shards as Ray tasks on a local Ray
instance, merged byte for byte into what one run writes. Skipped when Ray
is not installed (the optional extra ``ginlab[ray]``)."""

from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

import ginlab  # noqa: E402
import ginlab.ray  # noqa: E402

SPECS = {
    "two": 'seed = 11\ngames = 300\nplayers = ["greedy", "simple", "random"]\npairing = "round_robin"\n',
    "three": 'seed = 14\ngames = 90\nduplicate = false\nformat = "three"\nplayers = ["greedy", "greedy", "greedy"]\n',
}


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("name", sorted(SPECS))
def test_ray_shards_merge_byte_for_byte(name, local_ray, tmp_path):
    whole = tmp_path / "whole"
    expected = ginlab.run(SPECS[name], out=str(whole))
    merged = tmp_path / "merged"
    rows = ginlab.ray.run(SPECS[name], shards=3, out=str(merged), threads=1)
    assert rows == expected
    for path in sorted(whole.iterdir()):
        if path.name != "manifest.toml":
            assert (merged / path.name).read_bytes() == path.read_bytes(), path.name
    manifest = (merged / "manifest.toml").read_text()
    assert manifest.startswith("# Merged by `python: ginlab.merge ") and "from 3 shards" in manifest


def test_ray_refuses_bad_input(local_ray):
    with pytest.raises(ValueError, match="shards=0"):
        ginlab.ray.run(SPECS["two"], shards=0)
    with pytest.raises(Exception, match="experiment"):
        ginlab.ray.run("seed = 1\n", shards=2)


def test_ray_remakes_a_cli_folder_in_place(local_ray, tmp_path):
    # A folder one run made is re-made by the merged shards unchanged,
    # manifest included (it records the same tallies).
    whole = tmp_path / "whole"
    ginlab.run(SPECS["two"], out=str(whole))
    before = {p.name: p.read_bytes() for p in whole.iterdir()}
    ginlab.ray.run(SPECS["two"], shards=2, out=str(whole), threads=1)
    assert {p.name: p.read_bytes() for p in Path(whole).iterdir()} == before
