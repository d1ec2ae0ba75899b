"""What the rule-based robot reads from its view before choosing a card: a
:class:`Situation` (the trick so far, who plays later, whose Nil still stands,
the odds of who holds what) and the seat's aim for the tricks (win, duck or set).

>>> import random
>>> from espadas.engine import Game, Rules, Bid
>>> game = Game.new(Rules.from_preset("pagat"), seed=5)
>>> while game.phase == "bidding":
...     game.apply(Bid(3))
>>> sit = situation(game.view_for(game.to_act), random.Random(1))
>>> sit.led, sit.mode, sit.partner
(-1, 'win', 1)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from espadas.engine import BLIND_NIL, BidValue, PlayerView
from espadas.engine.cardset import SUIT_MASKS
from espadas.robots.knowledge import Knowledge, bits, holding_odds
from espadas.robots.tricks import beats

SET_SPARE = 2
"""Contract made: go for the set when the opponents can spare at most this many
of the tricks left."""


def is_nil(bid: BidValue | None) -> bool:
    """Whether a bid is Nil (blind or not)."""
    return bid == 0 or bid == BLIND_NIL


@dataclass(slots=True)
class Situation:
    """Everything the play decision uses, computed once from the view."""

    view: PlayerView
    k: Knowledge
    odds: list[list[float]]
    me: int
    n: int
    partner: int | None
    plays: list[int]
    """The proper plays, lowest first."""
    led: int
    """The suit led to the trick, -1 when this seat leads."""
    best: int
    """The card winning the trick so far, -1 when this seat leads."""
    best_seat: int
    played: tuple[int, ...]
    """Seats that have played to this trick."""
    later: tuple[int, ...]
    """Seats that play after this one in this trick, in order."""
    nil_alive: tuple[bool, ...]
    """Seats that bid Nil and have taken no trick yet."""
    mode: str
    """``win`` (tricks needed), ``duck`` (contract made: avoid bags) or ``set``
    (take tricks to make the opponents fail)."""
    bust_ok: bool
    """Whether to try to bust an opponent's Nil."""
    rng: random.Random

    def mate(self, seat: int) -> bool:
        """Whether ``seat`` is this seat or its partner."""
        return seat == self.me or seat == self.partner

    def threats(self, seats: tuple[int, ...] | list[int]) -> list[int]:
        """The opponents among ``seats`` that try to win tricks (not Nil bidders)."""
        return [s for s in seats if not self.mate(s) and not self.nil_alive[s]]

    def others(self) -> tuple[int, ...]:
        """The other seats, in playing order after this one."""
        return tuple((self.me + i) % self.n for i in range(1, self.n))

    def mine(self, suit: int) -> list[int]:
        """This seat's cards of ``suit``, lowest first."""
        return bits(self.k.hand & SUIT_MASKS[suit])


def _side_contract(view: PlayerView, side: int) -> tuple[int, int]:
    """(contract, tricks taken by the side's non-Nil bidders)."""
    contract = taken = 0
    for s in view.rules.seats_of(side):
        b = view.bids[s]
        if isinstance(b, int) and b > 0:
            contract += b
            taken += view.tricks_taken[s]
    return contract, taken


def _rivals(view: PlayerView, side: int) -> list[tuple[int, int]]:
    """(contract, tricks taken) of every other side."""
    return [_side_contract(view, o) for o in range(view.rules.sides) if o != side]


def wants_every_trick(view: PlayerView, me: int, mode: str) -> bool:
    """Whether ``me``'s side needs every trick left: for its contract (``win``) or to
    set an opponent that needs only one more (``set``)."""
    remaining = view.rules.hand_size - sum(view.tricks_taken)
    side = view.rules.side_of(me)
    if mode == "win":
        contract, taken = _side_contract(view, side)
        return contract - taken >= remaining
    if mode == "set":
        return any(c > 0 and c - t == 1 for c, t in _rivals(view, side))
    return False


def _mode(view: PlayerView, me: int, nil_alive: tuple[bool, ...]) -> tuple[str, bool]:
    """The seat's aim for the tricks (see :attr:`Situation.mode`) and whether to
    go after an opponent's Nil."""
    rules = view.rules
    side = rules.side_of(me)
    remaining = rules.hand_size - sum(view.tricks_taken)
    contract, taken = _side_contract(view, side)
    need = contract - taken
    failed_nil = is_nil(view.bids[me]) and not nil_alive[me]
    lost = need > remaining  # out of reach: its tricks no longer count for it
    mode = "win" if need > 0 and not failed_nil and not lost else "duck"
    if lost and any(0 < c - t <= remaining for c, t in _rivals(view, side)):
        mode = "set"  # a side already set takes no bags: every trick it takes is free
    if mode == "duck":
        # Set the opponents when they can spare at most SET_SPARE more tricks and the
        # tricks it takes cost us less than their failure costs them.
        over = max(0, taken - contract) + sum(
            view.tricks_taken[s] for s in rules.seats_of(side) if is_nil(view.bids[s])
        )
        for other in range(rules.sides):
            if other == side:
                continue
            c_o, t_o = _side_contract(view, other)
            need_o = c_o - t_o
            if c_o <= 0 or need_o <= 0 or remaining - need_o > SET_SPARE:
                continue
            take = remaining - need_o + 1
            if rules.quicksand:
                cost = 10 * take
            elif view.bags[side] + over + take >= 10:
                cost = 100
            else:
                cost = 2 * take
            if 20 * c_o > cost:
                mode = "set"
                break
    rival_nil = any(nil_alive[s] and rules.side_of(s) != side for s in range(rules.players))
    bust_ok = rival_nil and not (mode == "win" and need >= remaining)
    return mode, bust_ok


def situation(view: PlayerView, rng: random.Random) -> Situation:
    """Reads the view once for :func:`choose_play`."""
    rules = view.rules
    n = rules.players
    me = view.seat
    k = Knowledge(view)
    trick = view.trick
    cards = [int(c) for c in trick.cards] if trick is not None else []
    if cards and trick is not None:
        led = cards[0] // 13
        best = cards[0]
        best_seat = trick.leader
        for i, c in enumerate(cards[1:], 1):
            if beats(c, best, led):
                best, best_seat = c, (trick.leader + i) % n
        played = tuple((trick.leader + i) % n for i in range(len(cards)))
    else:
        led = best = best_seat = -1
        played = ()
    later = tuple((me + i) % n for i in range(1, n - len(cards)))
    nil_alive = tuple(is_nil(view.bids[s]) and view.tricks_taken[s] == 0 for s in range(n))
    mode, bust_ok = _mode(view, me, nil_alive)
    return Situation(
        view=view,
        k=k,
        odds=holding_odds(k),
        me=me,
        n=n,
        partner=rules.partner_of(me),
        plays=bits(view.proper_plays),
        led=led,
        best=best,
        best_seat=best_seat,
        played=played,
        later=later,
        nil_alive=nil_alive,
        mode=mode,
        bust_ok=bust_ok,
        rng=rng,
    )
