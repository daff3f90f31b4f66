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
    builtin = ginlab.match("greedy", "random", games=6, seed=3)
    player = Delegate("greedy")
    python = ginlab.match(player, "random", games=6, seed=3)
    assert player.hands == builtin["hands"]
    assert python["player_a"] == "py-greedy"
    for key in KEYS:
        assert python[key] == builtin[key], key


def test_match_is_reproducible_and_summarised():
    one = ginlab.match("simple", "random", hands=200, seed=5, duplicate=True)
    two = ginlab.match("simple", "random", hands=200, seed=5, duplicate=True, threads=1)
    assert one == two
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
    rows = ginlab.run(spec)
    assert [(r["player_a"], r["player_b"]) for r in rows] == [
        ("greedy", "simple"),
        ("greedy", "random"),
    ]
    assert all(r["hands"] == 40 for r in rows)
    rows = ginlab.sweep("greedy", "knock_at", [0, 5, 10], "simple", hands=20)
    assert [r["player_a"] for r in rows] == [
        "greedy:knock_at=0",
        "greedy:knock_at=5",
        "greedy:knock_at=10",
    ]
    rows = ginlab.balance("simple", hands=30, rules=["standard", "hoyle"])
    assert [r["variant"] for r in rows] == ["standard", "hoyle"]
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
    rows = ginlab.run(spec, players={"mine": mine})
    builtin = ginlab.run(spec.replace('"mine"', '"greedy"'))
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
