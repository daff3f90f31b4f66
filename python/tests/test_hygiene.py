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
