"""The parts of a hand's points (the hand summary) add up to score_hand's points."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from espadas.engine import Rules, explain_hand, score_hand
from espadas.engine.rules import PRESETS


@st.composite
def hands(draw: st.DrawFn) -> tuple[Rules, list[int], list[bool], list[int], list[int]]:
    players = draw(st.sampled_from([3, 4, 5, 6]))
    preset = draw(st.sampled_from(sorted(PRESETS)))
    quicksand = draw(st.booleans())
    alone = {} if players == 4 else {"partnerships": False, "renege": "prevented"}
    rules = Rules.from_preset(preset, players=players, quicksand=quicksand, **alone)
    size = rules.hand_size
    cuts = sorted(draw(st.lists(st.integers(0, size), min_size=players - 1, max_size=players - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, size], strict=True)]
    bids = draw(st.lists(st.integers(0, size), min_size=players, max_size=players))
    blind = [b == 0 and draw(st.booleans()) for b in bids]
    bags = draw(st.lists(st.integers(0, 9), min_size=rules.sides, max_size=rules.sides))
    return rules, bids, blind, tricks, bags


@given(hands())
def test_the_parts_add_up_to_the_points(
    hand: tuple[Rules, list[int], list[bool], list[int], list[int]],
) -> None:
    rules, bids, blind, tricks, bags = hand
    score = score_hand(rules, bids, blind, tricks, bags)
    parts = explain_hand(rules, bids, blind, tricks, bags)
    for side, p in enumerate(parts):
        total = p.contract_points + sum(n[3] for n in p.nils) + p.bonus - p.penalty
        assert total == score.points[side]
        assert p.penalty == score.penalties[side]
        if p.penalty == 0:
            assert bags[side] + p.new_bags == score.bags[side]
        if p.contract == 0:
            assert p.contract_points == 0
        elif p.tricks < p.contract:
            lost = p.contract - p.tricks if rules.quicksand else p.contract
            assert p.contract_points == -10 * lost
        else:
            over = p.tricks - p.contract
            assert p.contract_points == 10 * p.contract + (-10 * over if rules.quicksand else over)
        for seat, was_blind, made, points in p.nils:
            assert bids[seat] == 0 and was_blind == blind[seat] and made == (tricks[seat] == 0)
            value = 200 if was_blind else 100
            extra = 0 if quicksand_or_made(rules, made) else tricks[seat]
            assert points == (value if made else extra - value)


def quicksand_or_made(rules: Rules, made: bool) -> bool:
    return made or rules.quicksand
