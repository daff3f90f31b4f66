"""The Python half of the front-end matrix (issue 30 item 6; the CLI's is
tests/it/matrix.rs): every keyword of ``run``, ``match``, ``sweep`` and
``balance`` × every format (two players, three, partnerships) gives a
whole result or a Python exception with a message, never an empty or
partial result."""

import json

import pytest

import ginlab

FORMATS = ["two", "three", "partnership"]


class FirstLegal:
    name = "first-legal"

    def act(self, obs):
        return obs.legal_actions[0]


def players(fmt):
    """Positional and keyword players of `match` for a format."""
    return {
        "two": ((FirstLegal(), "simple"), {}),
        "three": (("greedy", FirstLegal(), "simple"), {}),
        "partnership": ((), {"teams": ["greedy", FirstLegal()], "vs": ["simple", "random"]}),
    }[fmt]


SPECS = {
    "two": 'seed = 1\ngames = 4\nplayers = ["greedy", "simple"]\n',
    "three": 'seed = 1\ngames = 3\nformat = "three"\nplayers = ["greedy", "simple", "random"]\n',
    "partnership": 'seed = 1\ngames = 2\nformat = "partnership"\nplayers = ["greedy", "simple", "simple", "random"]\n',
}


def keyword_values(tmp_path):
    """One value for each keyword, some of which a format must refuse."""
    return {
        "games": 4,
        "hands": 20,
        "rules": "hoyle",
        "rule": ["gin_bonus=30"],
        "seed": 7,
        "duplicate": False,
        "threads": 2,
        "out": str(tmp_path / "out"),
        "shard": "1/2",
        "resume": True,
        "record": str(tmp_path / "games.jsonl"),
        "sprt": "elo0=0,elo1=200",
        "budget_ms": 1.0,
        "objective": "points",
        "anchor": "simple",
        "players": {"simple": FirstLegal()},
    }


def check(call, *, out=None, tables=False):
    """Runs `call`: a refusal is a ValueError or RuntimeError with a
    message; a result has every row of its files, none empty."""
    try:
        result = call()
    except (ValueError, RuntimeError) as error:
        assert str(error).strip(), "an exception without a message"
        return "refused"
    assert isinstance(result, dict) and result["summary"], result
    for row in result["summary"]:
        assert row.get("games", 0) > 0 or row.get("hands", 0) > 0, row
    if tables:
        assert result["seats"], result
    if out is not None:
        written = (out / "summary.csv").read_text().splitlines()
        assert len(written) - 1 == len(result["summary"])
    return "played"


def amount(kwargs):
    return {} if "games" in kwargs or "hands" in kwargs else {"games": 4}


MATCH = ["games", "hands", "rules", "rule", "seed", "duplicate", "threads", "out", "shard", "resume", "record", "sprt", "budget_ms"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("keyword", MATCH)
def test_match(fmt, keyword, tmp_path):
    values = keyword_values(tmp_path)
    args, kwargs = players(fmt)
    kwargs = {**kwargs, keyword: values[keyword]}
    kwargs.update(amount(kwargs))
    out = tmp_path / "out" if keyword == "out" else None
    outcome = check(lambda: ginlab.match(*args, **kwargs), out=out, tables=fmt != "two")
    # What must play and what must be refused, whatever the format.
    if keyword in ("games", "rules", "rule", "seed", "duplicate", "threads", "out"):
        assert outcome == "played"
    if keyword in ("shard", "resume", "budget_ms"):
        assert outcome == "refused"  # no folder; no search player
    if fmt != "two" and keyword in ("hands", "sprt"):
        assert outcome == "refused"
    if keyword == "record":
        assert outcome == "played"
        check_records(tmp_path / "games.jsonl", fmt)


def check_records(path, fmt):
    """A record file of `fmt`: one JSON line per game, table lines with
    their format and the table's players."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines
    for line in lines:
        assert line["ginlab_record"] == 1
        assert line.get("format") == (None if fmt == "two" else fmt)
        if fmt != "two":
            assert len(line["players"]) == (3 if fmt == "three" else 4)
            assert line["end"]["type"] == "game_end"


@pytest.mark.parametrize("fmt", FORMATS)
def test_match_with_a_folder_shards_and_resumes(fmt, tmp_path):
    args, kwargs = players(fmt)
    out = tmp_path / "shard"
    assert check(lambda: ginlab.match(*args, **kwargs, games=16, out=str(out), shard="1/2"), out=out, tables=fmt != "two") == "played"
    resumed = tmp_path / "resumed"
    assert check(lambda: ginlab.match(*args, **kwargs, games=4, out=str(resumed), resume=True)) == "refused"
    budget = ("mc:samples=4",) + tuple(args[1:]) if args else args
    if args:
        assert check(lambda: ginlab.match(*budget, **kwargs, games=2, budget_ms=1.0), tables=fmt != "two") == "played"


RUN = ["players", "out", "threads", "shard", "resume", "record", "anchor"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("keyword", RUN)
def test_run(fmt, keyword, tmp_path):
    values = keyword_values(tmp_path)
    out = tmp_path / "out" if keyword == "out" else None
    outcome = check(lambda: ginlab.run(SPECS[fmt], **{keyword: values[keyword]}), out=out, tables=fmt != "two")
    if keyword in ("players", "out", "threads"):
        assert outcome == "played"
    if keyword in ("shard", "resume") or (keyword == "anchor" and fmt == "two"):
        assert outcome == "refused"
    if keyword == "record":
        assert outcome == "played"
        check_records(tmp_path / "games.jsonl", fmt)
    if fmt == "three" and keyword == "anchor":
        assert outcome == "played"  # a rating list of the three players


SWEEP = ["games", "hands", "rules", "rule", "seed", "duplicate", "threads", "out", "shard", "resume", "objective", "budget_ms"]


@pytest.mark.parametrize("keyword", SWEEP)
def test_sweep(keyword, tmp_path):
    kwargs = {keyword: keyword_values(tmp_path)[keyword]}
    kwargs.update(amount(kwargs))
    out = tmp_path / "out" if keyword == "out" else None
    outcome = check(lambda: ginlab.sweep("greedy", "knock_at", [5, 10], "simple", **kwargs), out=out)
    assert outcome == ("refused" if keyword in ("shard", "resume", "budget_ms") else "played")


BALANCE = ["games", "hands", "rules", "rule", "seed", "threads", "out", "shard", "resume", "budget_ms"]


@pytest.mark.parametrize("keyword", BALANCE)
def test_balance(keyword, tmp_path):
    kwargs = {keyword: keyword_values(tmp_path)[keyword]}
    kwargs.update(amount(kwargs))
    out = tmp_path / "out" if keyword == "out" else None
    outcome = check(lambda: ginlab.balance("simple", **kwargs), out=out)
    assert outcome == ("refused" if keyword in ("shard", "resume", "budget_ms") else "played")


def test_a_study_sweeps_and_balances_a_search_player_on_a_budget():
    swept = ginlab.sweep("mc:samples=4", "samples", [2, 4], "simple", hands=2, budget_ms=1.0)
    assert len(swept["sweep"]) == 2
    assert ginlab.balance("mc:samples=4", hands=2, budget_ms=1.0)["balance"]


def test_a_shard_of_no_deals_is_refused(tmp_path):
    # 4 partnership games are one deal of four rotations: shard 1/2 holds
    # none of it and would give a result of 0 games.
    with pytest.raises(ValueError, match=r"--shard 1/2: the shard holds none of the 1 deal "):
        ginlab.match(teams=["greedy", "simple"], vs=["random", "greedy"], games=4, out=str(tmp_path / "o"), shard="1/2")
    assert not (tmp_path / "o" / "summary.csv").exists()
    played = ginlab.match(teams=["greedy", "simple"], vs=["random", "greedy"], games=4, out=str(tmp_path / "o"), shard="2/2")
    assert played["summary"][0]["games"] == 4


DECK = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"


@pytest.mark.parametrize("fmt", FORMATS)
def test_match_takes_decks_for_two_players_and_tables_refuse_them(fmt, tmp_path):
    decks = tmp_path / "decks.txt"
    decks.write_text(f"# two hands\n{DECK}\n{DECK}\n")
    args, kwargs = players(fmt)
    call = lambda **extra: ginlab.match(*args, **kwargs, decks=str(decks), **extra)
    if fmt != "two":
        with pytest.raises(ValueError, match="--decks: a decks file deals single hands"):
            call()
        return
    played = call(dealer="a", out=str(tmp_path / "o"))
    # One hand per deck, played twice with duplicate deals.
    assert played["summary"][0]["hands"] == 4
    assert (tmp_path / "o" / "summary.csv").read_text().count("\n") == 2
    with pytest.raises(ValueError, match="dealer"):
        call(dealer="c")
    with pytest.raises(ValueError, match="exactly one of games=N, hands=N or decks=FILE"):
        call(games=2)
    bad = tmp_path / "bad.txt"
    bad.write_text("AC 2C\n")
    with pytest.raises(ValueError, match="bad.txt line 1"):
        ginlab.match(*args, decks=str(bad))


def test_tables_get_ratings_and_a_crosstable(tmp_path):
    three = ginlab.match("greedy", "simple", "random", games=30)
    assert sorted(r["player"] for r in three["ratings"]) == ["greedy", "random", "simple"]
    assert [r["note"] for r in three["ratings"] if r["player"] == "simple"] == ["anchor"]
    assert {r["player"] for r in three["crosstable"]} == {"greedy", "simple", "random"}
