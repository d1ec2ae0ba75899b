"""Property tests over random games of every preset with random option overrides.

A random player drives ``Game.new(rules, seed)`` with actions taken from
``legal_actions()`` (and now and then an accusation, an abandon or a timeout).
At every step and at the end, the game is checked against the independent
rules of ``engine_helpers``: legal bids and plays, cards, tricks, scores, bags,
the end of the game, the record and its replay, and the views.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from engine_helpers import (
    OPTION_VALUES,
    RUNNING,
    Log,
    apply_actions,
    expected_accepted,
    expected_bids,
    expected_proper,
    expected_score,
    forced_first_card,
    full_deck_mask,
    hand_size_for,
    n_sides,
    play_random,
    reneges_in,
    rule_sets,
    seat_side,
    seats_of_plays,
    side_seats,
    trick_winner,
    views,
)
from espadas.engine import (
    BLIND_NIL,
    OPTIONS,
    PRESETS,
    BidValue,
    Card,
    CardSet,
    ConfirmEnd,
    Deal,
    Game,
    Look,
    RuleError,
    Rules,
)
from espadas.engine.record import game_record, load_record, rebuild
from profile_helpers import examples

SETTINGS = settings(
    max_examples=examples(250),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
seeds = st.integers(0, 2**32 - 1)

# --------------------------------------------------------------------------
# Checks at every step


def check_step(game: Game) -> None:
    rules = game.rules
    n = rules.players
    if game.phase in RUNNING:
        assert game.legal_actions(), f"no legal action in phase {game.phase}"
    if not game.hands:
        return
    hand = game.hand
    # cards: what a seat holds plus what it played is what it was dealt
    played = [0] * n
    for seat, c in seats_of_plays(hand.leaders, hand.plays, n):
        assert not played[seat] & (1 << c)
        played[seat] |= 1 << c
    for seat in range(n):
        assert hand.held[seat] & played[seat] == 0
        assert hand.held[seat] | played[seat] == hand.deal[seat]
    to_act = game.to_act
    if game.phase == "bidding":
        assert to_act is not None
        want = expected_bids(rules, hand.bids, to_act, hand.looked[to_act])
        assert game.legal_bids() == want
    elif game.phase == "playing":
        assert to_act is not None
        current = hand.current_trick()
        assert current is not None
        trick = current[1]
        held = CardSet(hand.held[to_act])
        proper = expected_proper(rules, held, hand.plays, trick)
        accepted = expected_accepted(rules, held, hand.plays, trick)
        assert set(hand.proper_plays()) == proper
        assert set(game.legal_plays()) == accepted
        assert (current[0] + len(trick)) % n == to_act
    # views: a seat sees its own cards once it has looked, and its own choices only
    public = game.public_view()
    for seat, view in enumerate(views(game)):
        looked = hand.looked[seat]
        assert view.held == (CardSet(hand.held[seat]) if looked else None)
        if seat == to_act or game.phase == "hand_end":
            # closing a finished hand (NextHand / ConfirmEnd) is open to every seat
            assert list(view.legal) == game.legal_actions()
        else:
            assert view.legal == ()
        if seat == to_act and game.phase == "playing":
            assert view.proper_plays == hand.proper_plays() == game.proper_plays()
        else:
            assert not view.proper_plays
        for name in public.__dataclass_fields__:
            assert getattr(view, name) == getattr(public, name), name
    assert public.cards_left == tuple(CardSet(m).__len__() for m in hand.held)
    assert public.scores == tuple(game.scores)
    assert public.to_act == to_act


# --------------------------------------------------------------------------
# Checks of a whole game


def check_game(log: Log) -> None:
    game = log.game
    rules = game.rules
    n = rules.players
    size = hand_size_for(n)
    sides = n_sides(rules)
    assert rules.hand_size == size
    assert n * size == {3: 51, 4: 52, 5: 50, 6: 48}[n]
    totals = [0] * sides
    bags = [0] * sides
    decisive = False
    reached = False
    leaders_top: list[int] = []
    last = len(game.hands) - 1
    assert len(game.scored) in (len(game.hands), len(game.hands) - 1)
    for i, hand in enumerate(game.hands):
        assert hand.dealer == (log.first_dealer + i) % n
        # the deal covers the deck exactly
        union = 0
        for m in hand.deal:
            assert CardSet(m).__len__() == size
            assert union & m == 0
            union |= m
        assert union == full_deck_mask(n)
        # bids: in order from the dealer's left
        bids: list[BidValue] = [0] * n
        for k, b in enumerate(hand.bid_order):
            seat = (hand.dealer + 1 + k) % n
            bids[seat] = b
            assert hand.bids[seat] == (0 if b == BLIND_NIL else b)
            assert hand.blind[seat] == (b == BLIND_NIL)
        if hand.plays:
            assert len(hand.bid_order) == n
        # tricks: one card per seat, from the leader on; the winner leads next
        forced = forced_first_card(rules)
        if forced is not None:
            leader = next(s for s in range(n) if hand.deal[s] & forced.bit)
            if hand.plays:
                assert hand.plays[0] == forced
        else:
            leader = (hand.dealer + 1) % n
        tricks = [0] * n
        winners: list[int] = []
        for t in range(len(hand.plays) // n):
            assert hand.leaders[t] == leader
            cards = hand.plays[t * n : (t + 1) * n]
            for j, c in enumerate(cards):
                assert hand.deal[(leader + j) % n] & (1 << c)
            leader = trick_winner(leader, cards, n)
            winners.append(leader)
            tricks[leader] += 1
        assert len(set(hand.plays)) == len(hand.plays)
        assert hand.winners == winners
        assert hand.tricks == tricks
        # reneges: recorded exactly when a player failed to follow while able
        with_seats = seats_of_plays(hand.leaders, hand.plays, n)
        assert hand.reneges == reneges_in(hand.deal, with_seats, n)
        if rules.renege != "allowed":
            assert hand.reneges == []
        complete = len(hand.plays) == n * size
        if not complete:
            assert i == last
            assert len(game.scored) == i
            continue
        assert sum(tricks) == size
        assert hand.phase == "hand_end"
        # scoring, from bids and tricks only
        fin = game.scored[i]
        want = expected_score(rules, bids, tricks, bags)
        assert fin.score.points == want.points, (bids, tricks, bags)
        assert fin.score.bags == want.bags
        bags = want.bags
        totals = [a + b for a, b in zip(totals, want.points, strict=True)]
        assert list(fin.totals) == totals
        boston = [s for s in range(sides) if sum(tricks[x] for x in side_seats(rules, s)) == size]
        assert fin.boston == (boston[0] if boston else None)
        # the end of the game
        reached = any(t >= rules.target for t in totals)
        fell = rules.mercy is not None and any(t <= rules.mercy for t in totals)
        top = max(totals)
        leaders_top = [s for s in range(sides) if totals[s] == top]
        decisive = (reached or fell) and len(leaders_top) == 1
        if i < last:
            assert not decisive, "the game went on after it was decided"
    assert game.scores == totals
    assert game.bags == bags
    for h in game.accusations:
        assert h == last
    result = game.result
    acc = game.accusations.get(last)
    if game.end_outside is not None:
        reason, loser = game.end_outside
        assert result is not None
        assert reason in ("abandon", "timeout")
        assert result.reason == reason and result.loser == loser
        assert acc is None
        if len(game.scored) == len(game.hands):
            assert not decisive
        others = sorted((s for s in range(sides) if s != loser), key=lambda s: (-totals[s], s))
        assert result.winner == others[0]
        assert result.ranking == (*others, loser)
    elif acc is not None:
        assert result is not None
        hand = game.hands[last]
        with_seats = seats_of_plays(hand.leaders, hand.plays, n)
        assert acc.after_play == len(hand.plays)
        truth = any(seat == acc.against for _, seat in reneges_in(hand.deal, with_seats, n))
        assert acc.true == truth
        assert seat_side(rules, acc.by) != seat_side(rules, acc.against)
        loser = seat_side(rules, acc.against if truth else acc.by)
        assert (result.winner, result.loser) == (1 - loser, loser)
        assert result.reason == ("renege" if truth else "false_accusation")
        assert game.phase == "game_over"
    elif decisive and len(game.scored) == len(game.hands):
        assert result is not None
        assert result.winner == leaders_top[0]
        assert result.reason == ("target" if reached else "mercy")
        assert game.phase in ("hand_end", "game_over")
    else:
        assert result is None
        assert game.phase in RUNNING


def comparable(original: Game, again: Game) -> Game:
    """Brings a replayed game level with the original for what a record does not
    carry: who looked at their cards during the bidding, and whether the end was
    confirmed (FORMATS.md: a record does not say when players looked)."""
    if again.phase in ("bidding", "playing"):
        for seat, looked in enumerate(original.hand.looked):
            if looked and not again.hand.looked[seat]:
                again.apply(Look(seat))
    if original.phase == "game_over" and again.phase == "hand_end":
        again.apply(ConfirmEnd())
    return again


def check_replay(log: Log) -> None:
    game = log.game
    record = game_record(game)
    text = json.dumps(record)
    again = rebuild(json.loads(text))
    assert game_record(again) == record
    assert game_record(rebuild(load_record(text))) == record
    assert again.scores == game.scores
    assert again.bags == game.bags
    assert again.result == game.result
    assert again.scored == game.scored
    assert [h.deal for h in again.hands] == [h.deal for h in game.hands]
    assert [h.plays for h in again.hands] == [h.plays for h in game.hands]
    assert [h.reneges for h in again.hands] == [h.reneges for h in game.hands]
    comparable(game, again)
    assert again.phase == game.phase
    if again.hands and again.hand.looked != game.hand.looked:
        # ended during a blind-nil bidding: the looks (not in a record) cannot be redone
        assert game.phase == "game_over"
        for mine, theirs in zip(views(again), views(game), strict=True):
            if mine.looked[mine.seat] and theirs.looked[mine.seat]:
                assert mine.held == theirs.held
            assert replace(mine, looked=(), held=None) == replace(theirs, looked=(), held=None)
        assert replace(again.public_view(), looked=()) == replace(game.public_view(), looked=())
    else:
        assert views(again) == views(game)
        assert again.public_view() == game.public_view()
    assert again.legal_actions() == game.legal_actions()
    # the log of every action, deals included, rebuilds the very same game
    same = apply_actions(game.rules, log.first_dealer, log.actions)
    assert views(same) == views(game)
    assert same.public_view() == game.public_view()
    assert game_record(same) == record
    assert same.phase == game.phase
    assert (same.scores, same.bags, same.result) == (game.scores, game.bags, game.result)
    assert same.legal_actions() == game.legal_actions()


# --------------------------------------------------------------------------
# Random games


def run_game(rules: Rules, seed: int, max_hands: int) -> Log:
    log = play_random(rules, seed, max_hands=max_hands, check=check_step)
    check_game(log)
    check_replay(log)
    game = log.game
    event(f"ended by {game.result.reason if game.result else None}")
    event(f"hands played: {len(game.hands)}")
    return log


@SETTINGS
@given(rules=rule_sets(), seed=seeds)
def test_random_games(rules: Rules, seed: int) -> None:
    run_game(rules, seed, max_hands=5)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds)
def test_random_games_per_preset(data: st.DataObject, seed: int) -> None:
    for preset in PRESETS:
        rules = data.draw(rule_sets(presets=[preset], repair=True), label=preset)
        run_game(rules, seed, max_hands=3)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds)
def test_random_games_per_option(data: st.DataObject, seed: int) -> None:
    """Every value of every option, each time with the rest drawn at random."""
    for name in OPTIONS:
        for value in OPTION_VALUES[name]:
            rules = data.draw(rule_sets(force={name: value}, repair=True), label=f"{name}={value}")
            assert getattr(rules, name) == value
            run_game(rules, seed, max_hands=2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rule_sets(force={"target": 100}),
    seed=seeds,
)
def test_games_play_to_the_end(rules: Rules, seed: int) -> None:
    """With a low target, games are played to their end (or a hand cap)."""
    log = run_game(rules, seed, max_hands=40)
    game = log.game
    if game.result is not None and game.end_outside is None and not game.accusations:
        assert game.result.reason in ("target", "mercy")
        assert game.phase == "game_over"  # the random player confirms the end


# --------------------------------------------------------------------------
# Views do not depend on the cards a seat cannot see


def redeal_hidden(game: Game, seat: int, rng: random.Random, keep_suits: bool) -> tuple[int, ...]:
    """The current deal with the unplayed cards the seat cannot see shuffled among
    their holders (each keeping its count; with ``keep_suits``, its count per suit)."""
    rules = game.rules
    hand = game.hand
    n = rules.players
    hidden = [s for s in range(n) if s != seat or not hand.looked[seat]]
    pinned = 0
    forced = forced_first_card(rules)
    if forced is not None and game.phase == "playing" and not hand.plays:
        pinned = forced.bit  # the first lead shows who holds it
    new = list(hand.deal)
    groups: list[int] = [0x1FFF << (13 * s) for s in range(4)] if keep_suits else [(1 << 52) - 1]
    for group in groups:
        parts = {s: hand.held[s] & group & ~pinned for s in hidden}
        pool = [c for s in hidden for c in CardSet(parts[s])]
        rng.shuffle(pool)
        for s in hidden:
            k = CardSet(parts[s]).__len__()
            chosen, pool = pool[:k], pool[k:]
            new[s] = new[s] & ~parts[s]
            for c in chosen:
                new[s] |= 1 << c
    return tuple(new)


def replace_last_deal(log: Log, deal: tuple[int, ...]) -> list[Any]:
    actions = list(log.actions)
    last = max(i for i, a in enumerate(actions) if isinstance(a, Deal))
    actions[last] = Deal(deal)
    return actions


def check_view_invariance(rules: Rules, seed: int, steps: int, pick: int, keep_suits: bool) -> None:
    log = play_random(
        rules, seed, max_steps=steps, max_hands=50, outside_end=False, accusations=False
    )
    game = log.game
    assume(game.phase in ("bidding", "playing"))
    seat = pick % rules.players
    deal = redeal_hidden(game, seat, random.Random(pick), keep_suits)
    actions = replace_last_deal(log, deal)
    try:
        other = apply_actions(rules, log.first_dealer, actions)
    except RuleError:
        assume(False)
        return  # pragma: no cover
    assert other.hand.deal == deal
    assert other.view_for(seat) == game.view_for(seat)
    assert other.public_view() == game.public_view()
    # the same through the records
    record = game_record(game)
    hands = record["hands"]
    assert isinstance(hands, list)
    hands[-1]["deal"] = [str(CardSet(m)) for m in deal]
    from_record = rebuild(record)
    assert from_record.view_for(seat) == rebuild(game_record(game)).view_for(seat)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rule_sets(force={"renege": "allowed", "players": 4, "partnerships": True}),
    seed=seeds,
    steps=st.integers(0, 160),
    pick=st.integers(0, 2**16),
)
def test_views_ignore_hidden_cards_renege_allowed(
    rules: Rules, seed: int, steps: int, pick: int
) -> None:
    """Any re-deal of the hidden cards (reneges included): the view is the same."""
    check_view_invariance(rules, seed, steps, pick, keep_suits=False)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=seeds, steps=st.integers(0, 160), pick=st.integers(0, 2**16))
def test_views_ignore_hidden_cards(rules: Rules, seed: int, steps: int, pick: int) -> None:
    """Every preset and option: a re-deal of the hidden cards that keeps each hidden
    hand's suit lengths (so every past play stays legal) changes no view."""
    check_view_invariance(rules, seed, steps, pick, keep_suits=True)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=seeds, steps=st.integers(0, 160), pick=st.integers(0, 2**16))
def test_views_ignore_hidden_cards_any_redeal(
    rules: Rules, seed: int, steps: int, pick: int
) -> None:
    """Every preset and option, any re-deal; when the actions become illegal the
    example is dropped."""
    check_view_invariance(rules, seed, steps, pick, keep_suits=False)


# --------------------------------------------------------------------------
# Smaller properties


@settings(max_examples=50, deadline=None)
@given(rules=rule_sets(), seed=seeds)
def test_rules_round_trip(rules: Rules, seed: int) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    game = Game.new(rules, seed=seed)
    hand = game.hand
    assert (
        sum(CardSet(m).__len__() for m in hand.deal) == {3: 51, 4: 52, 5: 50, 6: 48}[rules.players]
    )
    assert all(not (m & Card.parse("2C").bit) for m in hand.deal) == (rules.players != 4)


@settings(max_examples=50, deadline=None)
@given(rules=rule_sets(), seed=seeds, value=st.one_of(st.integers(-3, 20), st.just(BLIND_NIL)))
def test_bids_are_accepted_exactly_when_legal(rules: Rules, seed: int, value: BidValue) -> None:
    game = Game.new(rules, seed=seed)
    legal = game.legal_bids()
    before = game_record(game)
    try:
        game.bid(value)
    except RuleError:
        assert value not in legal
        assert game_record(game) == before
    else:
        assert value in legal


@settings(max_examples=50, deadline=None)
@given(rules=rule_sets(), seed=seeds, steps=st.integers(0, 60), card=st.integers(0, 51))
def test_plays_are_accepted_exactly_when_legal(
    rules: Rules, seed: int, steps: int, card: int
) -> None:
    log = play_random(rules, seed, max_steps=steps, outside_end=False, accusations=False)
    game = log.game
    assume(game.phase == "playing")
    legal = game.legal_plays()
    before = (game_record(game), views(game))
    try:
        game.play(Card(card))
    except RuleError:
        assert Card(card) not in legal
        assert (game_record(game), views(game)) == before
    else:
        assert Card(card) in legal
