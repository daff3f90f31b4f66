"""Information hygiene: an observation shows the engine's view and nothing
more. Two games that differ only in cards a player cannot see give that
player identical observations."""

import ginlab

# A deck, top first: non-dealer (A) gets cards 0, 2, ..., 18; the dealer
# (B) gets 1, 3, ..., 19; card 20 is the upcard; the rest is the stock.
BASE = [ginlab.card_name(i) for i in range(52)]


def swapped(deck, i, j):
    deck = list(deck)
    deck[i], deck[j] = deck[j], deck[i]
    return deck


def script(game, hidden):
    """Both players pass the upcard, draw from the stock and discard the
    card they drew, never one of `hidden`; yields each step's
    observations of seat 0 (the non-dealer) and seat 1."""
    for _ in range(20):
        obs = game.observation()
        yield game.observation(0), game.observation(1)
        if obs.phase == "upcard":
            action = ginlab.PASS_UPCARD
        elif obs.phase == "draw":
            action = ginlab.DRAW_STOCK
        else:
            drawn = [c for c in obs.hand if c not in previous[obs.seat]]
            assert drawn and drawn[0] not in hidden
            action = ginlab.card_id(drawn[0])
        previous[obs.seat] = game.observation().hand
        game.step(action)


previous = {}


def run(deck, hidden):
    previous.clear()
    game = ginlab.Game(deck=" ".join(deck), dealer=1, episode="hand")
    previous[0] = game.observation(0).hand
    previous[1] = game.observation(1).hand
    return list(script(game, hidden))


def test_the_opponents_hidden_card_is_not_observed():
    # Swap a card of B's hand (deck index 1) with the bottom card of the
    # stock (index 51): A's view must not change at any step.
    deck_a = BASE
    deck_b = swapped(BASE, 1, 51)
    hidden = {BASE[1], BASE[51]}
    one, two = run(deck_a, hidden), run(deck_b, hidden)
    assert len(one) == len(two) == 20
    for (a1, b1), (a2, b2) in zip(one, two):
        assert a1 == a2
        assert a1.to_dict() == a2.to_dict()
        for key, value in a1.arrays().items():
            assert (value == a2.arrays()[key]).all(), key
    # The check can fail: B, who holds the swapped card, sees it.
    assert any(b1 != b2 for (_, b1), (_, b2) in zip(one, two))


def test_the_stock_order_is_not_observed():
    # Swap two stock cards deep down (indices 45 and 50): nobody has drawn
    # them within the scripted steps, so neither player's view changes.
    hidden = {BASE[45], BASE[50]}
    one = run(BASE, hidden)
    two = run(swapped(BASE, 45, 50), hidden)
    for (a1, b1), (a2, b2) in zip(one, two):
        assert a1 == a2 and b1 == b2
        assert a1.arrays()["cards"].tolist() == a2.arrays()["cards"].tolist()


# --- The fair environment: everything an agent can reach ---------------

import types  # noqa: E402

import numpy as np  # noqa: E402

from ginlab.envs import GinEnv  # noqa: E402

LEAVES = (str, bytes, int, float, bool, type(None), np.ndarray, np.generic)


def reachable(root, depth=6):
    """Every (path, value) reachable from `root` through attributes (private
    ones too, properties read), dict and sequence items, and each ginlab
    object's no-argument queries (`observation()`, `render()`, ...)."""
    seen, out, stack = set(), [], [("env", root, 0)]
    while stack:
        path, obj, d = stack.pop()
        if id(obj) in seen or d > depth:
            continue
        seen.add(id(obj))
        out.append((path, obj))
        if isinstance(obj, LEAVES) or isinstance(obj, (types.ModuleType, type)):
            continue
        if isinstance(obj, np.random.Generator):  # its state is all it holds
            out.append((path + ".state", obj.bit_generator.state))
            continue
        if isinstance(obj, dict):
            children = [(f"{path}[{k!r}]", v) for k, v in obj.items()]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            children = [(f"{path}[{i}]", v) for i, v in enumerate(obj)]
        elif isinstance(obj, (types.BuiltinMethodType, types.MethodType, types.FunctionType)):
            continue
        else:
            children = []
            for name in dir(obj):
                if name.startswith("__"):
                    continue
                try:
                    value = getattr(obj, name)
                except Exception:  # a property that refuses (full_information_game)
                    continue
                if callable(value) and type(obj).__module__.startswith("ginlab"):
                    if name in QUERIES:
                        try:
                            children.append((f"{path}.{name}()", value()))
                        except Exception:
                            pass
                    continue
                children.append((f"{path}.{name}", value))
        stack.extend((p, v, d + 1) for p, v in children)
    return out


# The no-argument queries of ginlab's objects (the rest change the game or
# need arguments; `probe` plays the ones that reach further).
QUERIES = {"observation", "render", "action_masks", "to_dict", "arrays", "state", "clone"}


def probe(game):
    """What a Game in reach reveals: every seat's hand, and a copy played on
    by drawing from the stock (the attack a full-information agent has)."""
    seen = [game.observation(s).to_dict() for s in (0, 1)]
    seen.append(game.clone().observation(1 - game.current_player).hand)
    copy = game.clone()
    for _ in range(60):
        if copy.done:
            break
        legal = copy.legal_actions
        for a in (ginlab.DRAW_STOCK, ginlab.PASS_UPCARD):
            if a in legal:
                break
        else:
            a = legal[0]
        copy.step(a)
        seen.append(copy.observation(copy.current_player or 0).hand)
    return seen


def fingerprint(env, obs, info):
    rows = []
    for path, value in reachable({"env": env, "obs": obs, "info": info}):
        if isinstance(value, (ginlab.Game, ginlab.VecEnv)):
            rows.append((path, probe(value)))
        elif isinstance(value, ginlab.Observation):
            rows.append((path, value.to_dict()))
        elif isinstance(value, np.ndarray):
            rows.append((path, value.tolist()))
        elif isinstance(value, LEAVES) or path.endswith(".state"):
            rows.append((path, value))
    return sorted(rows, key=lambda r: r[0])


def agent_steps(deck, full_information, steps=4):
    env = GinEnv(opponent="simple", seed=0, render_mode="ansi", full_information=full_information)
    obs, info = env.reset(seed=0, options={"deck": " ".join(deck), "dealer": 1})
    env.action_space.seed(0)
    env.observation_space.seed(0)
    trace = []
    for _ in range(steps):
        trace.append(fingerprint(env, obs, info))
        legal = np.flatnonzero(obs["mask"])
        # Draw from the stock, pass the upcard, else discard the highest id.
        action = next(
            (a for a in (ginlab.DRAW_STOCK, ginlab.PASS_UPCARD) if a in legal), legal[-1]
        )
        obs, _, terminated, _, info = env.step(int(action))
        assert not terminated
    return trace


def test_a_fair_env_reaches_no_game_and_no_other_seats_view():
    env = GinEnv(seed=1, render_mode="ansi")
    obs, info = env.reset()
    found = reachable({"env": env, "obs": obs, "info": info})
    assert len(found) > 50
    kinds = {type(v) for _, v in found}
    assert ginlab.AgentGame in kinds and ginlab.Observation in kinds
    assert ginlab.Game not in kinds and ginlab.VecEnv not in kinds
    for path, value in found:
        if isinstance(value, ginlab.Observation):
            assert value.seat == env.seat, path
    # The same walk finds the whole game when it is asked for.
    full = GinEnv(seed=1, full_information=True)
    full.reset()
    assert any(isinstance(v, ginlab.Game) for _, v in reachable(full))


def test_nothing_a_fair_agent_reaches_shows_the_stock_order():
    # Two decks differing in two stock cards (indices 24 and 25, the 4th
    # and 5th from the top, not drawn in these steps): everything the fair
    # agent can reach is the same at every step. With the full game in
    # reach, a copy drawn on shows the difference, so the check can fail.
    other = swapped(BASE, 24, 25)
    assert agent_steps(BASE, False) == agent_steps(other, False)
    assert agent_steps(BASE, True, steps=1) != agent_steps(other, True, steps=1)
