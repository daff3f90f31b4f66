"""The harness from Python: matches with built-in and Python players,
experiment specs, sweeps, balance, and the meld solver."""

import numpy as np
import pytest

import ginlab


class Delegate:
    """A Python player that answers as a built-in strategy does."""

    def __init__(self, profile):
        self.inner = ginlab.strategy(profile)
        self.name = "py-" + profile
        self.hands = 0

    def start_hand(self, obs):
        self.hands += 1

    def act(self, obs):
        return self.inner.act(obs)


KEYS = ["hands", "games", "a_hand_wins", "b_hand_wins", "voids", "a_game_wins", "a_points_per_hand"]


def test_a_python_player_plays_in_process_like_the_builtin():
    # greedy is deterministic, so a Python object asking it must give the
    # very same match as the built-in, deal for deal.
    builtin = ginlab.match("greedy", "random", games=6, seed=3)["summary"][0]
    player = Delegate("greedy")
    python = ginlab.match(player, "random", games=6, seed=3)["summary"][0]
    assert player.hands == builtin["hands"]
    assert python["player_a"] == "py-greedy"
    for key in KEYS:
        assert python[key] == builtin[key], key


def test_match_is_reproducible_and_summarised():
    one = ginlab.match("simple", "random", hands=200, seed=5, duplicate=True)
    two = ginlab.match("simple", "random", hands=200, seed=5, duplicate=True, threads=1)
    assert one == two
    assert list(one) == ["summary"]
    one = one["summary"][0]
    assert one["hands"] == 200 and one["a_hand_win_lo"] <= one["a_hand_win_rate"] <= one["a_hand_win_hi"]
    assert list(one)[:3] == ["variant", "player_a", "player_b"]


def test_a_thread_count_past_the_cap_is_refused():
    # The CLI's cap (1024): a pool of a million threads never starts.
    with pytest.raises(ValueError, match="threads are 0 \\(one per core\\) to 1024"):
        ginlab.match("simple", "random", hands=2, threads=10**6)
    with pytest.raises(ValueError, match="to 1024"):
        ginlab.balance("simple", hands=2, threads=2000)


def test_python_errors_stop_the_match():
    class Broken:
        def act(self, obs):
            raise KeyError("boom")

    class Illegal:
        def act(self, obs):
            return 999

    with pytest.raises(KeyError, match="boom"):
        ginlab.match(Broken(), "random", games=2)
    with pytest.raises(ValueError, match="not legal now"):
        ginlab.match(Illegal(), "random", hands=2)
    with pytest.raises(ValueError, match="act\\(observation\\)"):
        ginlab.match(object(), "random", hands=2)
    with pytest.raises(ValueError, match="exactly one of games"):
        ginlab.match("random", "random")


def test_builtin_strategies_answer_observations():
    game = ginlab.Game(seed=12)
    for profile in ["random", "simple", "greedy", "tracker", "mc:samples=8"]:
        s = ginlab.strategy(profile, seed=1)
        assert s.act(game.observation()) in game.legal_actions
    game.step(game.legal_actions[0])
    with pytest.raises(ValueError, match="not at a decision"):
        ginlab.strategy("greedy").act(game.observation(1 - game.current_player))


def test_run_sweep_balance_give_records():
    spec = 'seed = 3\nhands = 40\nplayers = ["greedy", "simple", "random"]\npairing = "gauntlet"\n'
    result = ginlab.run(spec)
    rows = result["summary"]
    assert [(r["player_a"], r["player_b"]) for r in rows] == [
        ("greedy", "simple"),
        ("greedy", "random"),
    ]
    assert all(r["hands"] == 40 for r in rows)
    # Three players make a rating list and a crosstable, as the CLI's files.
    assert [r["player"] for r in result["ratings"]] and len(result["crosstable"]) == 3
    assert result["crosstable"][0]["greedy"] is None
    swept = ginlab.sweep("greedy", "knock_at", [0, 5, 10], "simple", hands=20)
    assert [r["value"] for r in swept["sweep"]] == ["0", "5", "10"]
    rows = swept["summary"]
    assert [r["player_a"] for r in rows] == [
        "greedy:knock_at=0",
        "greedy:knock_at=5",
        "greedy:knock_at=10",
    ]
    balanced = ginlab.balance("simple", hands=30, rules=["standard", "hoyle"])
    assert [r["variant"] for r in balanced["summary"]] == ["standard", "hoyle"]
    assert [r["variant"] for r in balanced["balance"]] == ["standard", "hoyle"]
    with pytest.raises(ValueError, match="experiment"):
        ginlab.run("seed = 1\n")


def test_solve_and_solve_batch_agree():
    hand = "AS 2S 3S 4S 7H 7D 7C KC QC 5H"
    solved = ginlab.solve(hand)
    assert solved["deadwood"] == 25
    assert sorted(map(sorted, solved["melds"])) == sorted(
        [sorted(["AS", "2S", "3S", "4S"]), sorted(["7H", "7D", "7C"])]
    )
    assert ginlab.solve(hand.split()) == solved
    rng = np.random.default_rng(0)
    hands = np.zeros((200, 52), dtype=np.uint8)
    for row in hands:
        row[rng.choice(52, size=10, replace=False)] = 1
    deadwood, melded = ginlab.solve_batch(hands)
    for i in range(0, 200, 17):
        names = [ginlab.card_name(c) for c in np.flatnonzero(hands[i])]
        one = ginlab.solve(names)
        assert deadwood[i] == one["deadwood"]
        assert sorted(ginlab.card_name(c) for c in np.flatnonzero(melded[i])) == sorted(
            c for m in one["melds"] for c in m
        )
    with pytest.raises(ValueError, match="cards"):
        ginlab.solve("AS ZZ")
    with pytest.raises(ValueError, match="52"):
        ginlab.solve_batch(np.zeros((3, 10), dtype=np.uint8))


def test_python_players_play_in_experiment_runs():
    spec = 'seed = 4\ngames = 4\nplayers = ["mine", "random"]\n'
    mine = Delegate("greedy")
    rows = ginlab.run(spec, players={"mine": mine})["summary"]
    builtin = ginlab.run(spec.replace('"mine"', '"greedy"'))["summary"]
    assert mine.hands == rows[0]["hands"] > 0
    for key in KEYS:
        assert rows[0][key] == builtin[0][key], key


def test_solve_refuses_more_than_eleven_cards():
    # 52 cards used to run for ever; the CLI's limit, with a clear message.
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    with pytest.raises(ValueError, match="at most 11 cards"):
        ginlab.solve(deck)
    with pytest.raises(ValueError, match="at most 11 cards"):
        ginlab.solve(deck[:12])
    assert ginlab.solve(deck[:11])["deadwood"] >= 0
    hands = np.zeros((3, 52), dtype=np.uint8)
    hands[1, :] = 1
    with pytest.raises(ValueError, match="row 1 has 52 cards"):
        ginlab.solve_batch(hands)
    hands[1, 11:] = 0
    hands[2, [0, 13]] = 1
    deadwood, _ = ginlab.solve_batch(hands)
    # Nothing; the ace to the jack of clubs, one run; two aces.
    assert list(deadwood) == [0, 0, 2]


def test_three_players_and_partnerships_play_from_python():
    three = ginlab.match("greedy", "simple", "random", games=6, seed=2)
    assert [r["side"] for r in three["summary"]] == ["greedy", "simple", "random"]
    assert [r["side"] for r in three["seats"]] == ["first_dealer", "first_upcard", "second_upcard"]
    teams = ginlab.match(teams=["greedy", Delegate("simple")], vs=["simple", "random"], games=4, seed=2)
    assert len(teams["summary"]) == 2 and all(r["games"] == 4 for r in teams["summary"])


def test_rules_files_and_knobs_take_the_cli_messages(tmp_path):
    rules = tmp_path / "mine.toml"
    rules.write_text('preset = "standard"\ngin_bonus = 30\n')
    by_file = ginlab.match("greedy", "simple", hands=50, rules=str(rules), seed=1)["summary"][0]
    by_knob = ginlab.match("greedy", "simple", hands=50, rule=["gin_bonus=30"], seed=1)["summary"][0]
    assert by_file["variant"] == "mine" and by_knob["variant"] == "standard+gin_bonus=30"
    assert {k: v for k, v in by_file.items() if k != "variant"} == {
        k: v for k, v in by_knob.items() if k != "variant"
    }
    with pytest.raises(ValueError, match="did you mean `hoyle`"):
        ginlab.match("greedy", "simple", hands=2, rules="hoyel")
    with pytest.raises(ValueError, match="--rule gin_bonnus=3"):
        ginlab.match("greedy", "simple", hands=2, rule=["gin_bonnus=3"])
    with pytest.raises(ValueError, match="strategy A: `gredy` is not a built-in kind"):
        ginlab.match("gredy", "simple", hands=2)


def test_budget_sprt_and_record(tmp_path):
    budgeted = ginlab.match("mc:samples=4", "simple", hands=4, budget_ms=0.5, seed=1)
    assert budgeted["summary"][0]["player_a"].startswith("mc:")
    with pytest.raises(ValueError, match="--budget-ms: none of"):
        ginlab.match("greedy", "simple", hands=2, budget_ms=1)
    stopped = ginlab.match("greedy", "random", hands=4000, sprt="elo0=0,elo1=200", seed=1)
    assert stopped["sprt"]["decision"] in ("H0", "H1", "accept_h1", "accept_h0") or stopped["sprt"]
    assert stopped["summary"][0]["hands"] < 4000
    record = tmp_path / "games.jsonl"
    ginlab.match("greedy", "simple", hands=6, seed=1, record=str(record))
    assert len(record.read_text().splitlines()) == 6
    with pytest.raises(ValueError, match="--sprt: a sequential test compares two players"):
        ginlab.match("greedy", "simple", "random", games=2, sprt="elo0=0,elo1=10")


def test_recorded_shards_merge_to_the_one_run_record(tmp_path):
    # Two shards, each recording its part; merge joins the parts into the
    # record (and the folder) one unsharded run writes, byte for byte.
    whole = tmp_path / "whole.jsonl"
    ginlab.match("greedy", "simple", games=12, seed=5, out=str(tmp_path / "one"), record=str(whole))
    shards = []
    for k in (1, 2):
        shard = tmp_path / f"shard{k}"
        ginlab.match("greedy", "simple", games=12, seed=5, out=str(shard), shard=f"{k}/2", record=str(shard / "part.jsonl"))
        shards.append(str(shard))
    merged = tmp_path / "merged.jsonl"
    rows = ginlab.merge(list(reversed(shards)), out=str(tmp_path / "m"), record=str(merged))
    assert rows["summary"][0]["games"] == 12
    assert merged.read_bytes() == whole.read_bytes()
    assert (tmp_path / "m" / "tallies.json").read_bytes() == (tmp_path / "one" / "tallies.json").read_bytes()
    # A shard folder without its part is refused, naming it, and nothing is written.
    (tmp_path / "shard2" / "part.jsonl").unlink()
    with pytest.raises(ValueError, match="part.jsonl"):
        ginlab.merge(shards, out=str(tmp_path / "m2"), record=str(tmp_path / "m2.jsonl"))
    assert not (tmp_path / "m2.jsonl").exists()
