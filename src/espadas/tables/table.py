"""A table: seats, invitation, partner choice, robots, play, claims and rematch.

A table is an append-only log of events; its state is the replay of that log through
:meth:`Table.apply` (the engine checks every card and bid). A command (:meth:`Table.join`,
:meth:`Table.act`, ...) checks who asks, applies the new events to the table and returns
them: the caller stores them and, if storing fails, replays the log again.

>>> from datetime import UTC, datetime
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, events = Table.create("t1", Rules.from_preset("estandar"), "ana", "Ana", at)
>>> [e.type for e in table.join("luis", "Luis", at)]
['sit']
>>> _ = table.add_robots("ana", "normal", at)
>>> [e.type for e in table.start("ana", at)]
['start', 'deal']
>>> table.status, table.game.phase, table.seat_of("luis")
('playing', 'bidding', 1)
>>> Table.rebuild("t1", [*events, *table.events[1:]]).game.hands[0].deal == table.game.hands[0].deal
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from espadas.engine import (
    Abandon,
    Accuse,
    Action,
    Bid,
    BidValue,
    Card,
    CardSet,
    ConfirmEnd,
    Deal,
    Game,
    IllegalPlay,
    Look,
    NextHand,
    Play,
    Rules,
    Timeout,
)
from espadas.engine.record import game_record
from espadas.tables.absent import absent_option, claim
from espadas.tables.chat import Chat
from espadas.tables.clock import TURN_LIMIT
from espadas.tables.commitment import Revealed, commit, deal_text, fresh_deal
from espadas.tables.errors import BadCommand, NotAllowed, TableError
from espadas.tables.event import TURN_EVENTS, Event
from espadas.tables.ids import rematch_id
from espadas.tables.presence import Presence, away_until
from espadas.tables.seat import Seat
from espadas.tables.values import bid_value, card_value, seat_value

Dealer = Callable[[Rules, int], tuple[tuple[int, ...], str]]
"""Makes a deal: ``(rules, dealer) -> (one card mask per seat, salt)``."""

STATUSES = ("waiting", "playing", "finished")


@dataclass
class Table:
    """The state of one table (the replay of its log)."""

    id: str
    rules: Rules = field(default_factory=Rules)
    creator: str = ""
    seats: list[Seat | None] = field(default_factory=list)
    status: str = "waiting"
    game: Game | None = None
    deals: list[Revealed] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    """The log applied so far (empty if ``keep_events`` is off)."""
    version: int = 0
    """The sequence number of the last event (0 for an empty table)."""
    keep_events: bool = True  # events keeps the log (a server: off, the log is in the store)
    updated_at: datetime | None = None
    turn_since: datetime | None = None  # when the turn due now fell due (the limit counts)
    turn_version: int = 0
    """The sequence number of the event that made the current bid or play due."""
    rematch: str | None = None
    rematch_of: str | None = None
    rematch_partner: int | None = None  # a rematch's partner chosen anew (None: kept)
    faults: list[dict[str, Any]] = field(default_factory=list)
    chat: Chat = field(default_factory=Chat)  # messages: espadas.tables.chat
    presence: Presence = field(default_factory=Presence)  # espadas.tables.presence
    hints: bool = False  # the creator allows hints (espadas.robots.explain) at this table
    rated: bool = True  # the game counts for the club's ratings (espadas.tables.finish)
    absent: str = "claim"  # what a turn past the limit allows: espadas.tables.absent
    replaced: list[int] = field(default_factory=list)  # seats whose person a robot replaced
    organiser: str | None = None  # an event's organiser replaces in the creator's stead
    spare_robot: str | None = None  # the level that replaces an absent person (an event's)
    boards: int | None = None  # the game ends after that many hands (a daily challenge)
    turn_seconds: int | None = None  # its own turn limit (None: the club's): clock.limit

    # -- log ------------------------------------------------------------------
    @classmethod
    def rebuild(cls, table_id: str, events: Iterable[Event], keep_events: bool = True) -> Table:
        """The table that ``events`` (its whole log, in order) describe."""
        table = cls(table_id, keep_events=keep_events)
        for event in events:
            table.apply(event)
        return table

    def apply(self, event: Event) -> None:
        """Applies one event (the only way the state changes). Raises
        :class:`~espadas.engine.RuleError` (changing nothing) if the engine
        refuses it."""
        if event.seq != self.version + 1:
            raise TableError("bad_seq", f"event {event.seq} does not follow {self.version}")
        handler = getattr(self, "_on_" + event.type, None) or self.chat.handler(event)
        handler = handler or self.presence.handler(event)
        if handler is None:
            raise BadCommand("bad_event", f"unknown event type {event.type!r}")
        handler(**event.data)
        self.version = event.seq
        if self.keep_events:
            self.events.append(event)
        self.updated_at = event.at
        if event.type in TURN_EVENTS:
            self.turn_since = event.at
            self.turn_version = event.seq

    def _new(self, type_: str, at: datetime, **data: Any) -> Event:
        event = Event(self.version + 1, type_, data, at)
        self.apply(event)
        return event

    # -- event handlers -----------------------------------------------------------
    def _on_create(self, rules: dict[str, Any], creator: str, name: str, **options: Any) -> None:
        self.rules = Rules.from_dict(rules)
        self.hints = bool(options.get("hints", False))
        self.rated = bool(options.get("rated", True))
        self.absent = str(options.get("absent", "claim"))
        self.organiser, self.spare_robot = options.get("organiser"), options.get("robot")
        self.boards, self.turn_seconds = options.get("boards"), options.get("turn_limit")
        self.creator = creator
        self.seats = [None] * self.rules.players
        self.seats[0] = Seat(name, player=creator)
        self.rematch_of = options.get("rematch_of")
        self.rematch_partner = options.get("rematch_partner")

    def _on_sit(self, seat: int, player: str, name: str) -> None:
        self.seats[seat] = Seat(name, player=player)

    def _on_robot(self, seat: int, level: str) -> None:
        self.seats[seat] = Seat(f"robot:{level}", robot=level)

    def _on_replace(self, seat: int, level: str, **_who: str) -> None:
        self._on_robot(seat, level)
        self.replaced.append(seat)

    def _on_free(self, seat: int) -> None:
        self.seats[seat] = None

    def _on_partner(self, seat: int) -> None:
        self.seats[seat], self.seats[2] = self.seats[2], self.seats[seat]

    def _on_start(self, first_dealer: int) -> None:
        self.game = Game(self.rules, first_dealer=first_dealer, hand_limit=self.boards)
        self.status = "playing"

    def _on_deal(self, hands: list[str], salt: str, commitment: str) -> None:
        masks = tuple(int(CardSet.parse(h)) for h in hands)
        self._running().apply(Deal(masks))
        self.deals.append(Revealed(commitment, salt, list(hands)))

    def _on_look(self, seat: int) -> None:
        self._running().apply(Look(seat))

    def _on_bid(self, seat: int, value: BidValue) -> None:
        self._running().apply(Bid(value), by=seat)

    def _on_play(self, seat: int, card: str) -> None:
        self._running().apply(Play(Card.parse(card)), by=seat)
        self._settle()

    def _on_accuse(self, by: int, against: int) -> None:
        self._running().apply(Accuse(by, against))
        self._settle()

    def _on_next_hand(self, seat: int) -> None:
        self._running().apply(NextHand())

    def _on_confirm_end(self, seat: int) -> None:
        self._running().apply(ConfirmEnd())

    def _on_abandon(self, seat: int) -> None:
        self._running().apply(Abandon(seat))
        self._settle()

    def _on_claim(self, by: int, seat: int) -> None:
        self._running().apply(Timeout(seat))
        self._settle()

    def _on_fault(self, seat: int, message: str) -> None:
        self.faults.append({"seat": seat, "message": message})

    def _on_rematch(self, table: str) -> None:
        # "-" (written by a race of the old rematch route) names no table
        self.rematch = None if table == "-" else table

    def _running(self) -> Game:
        if self.game is None:
            raise TableError("not_started", "the game has not started yet")
        return self.game

    def _settle(self) -> None:
        if self.game is not None and self.game.result is not None:
            self.status = "finished"

    # -- who is who ---------------------------------------------------------------
    def seat_of(self, player: str | None) -> int | None:
        """The seat ``player`` holds, or ``None`` (a spectator)."""
        if player is None:
            return None
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.player == player:
                return i
        return None

    def _seated(self, player: str) -> int:
        seat = self.seat_of(player)
        if seat is None:
            raise NotAllowed("not_seated", "only the players seated at this table may do that")
        return seat

    def _creator_only(self, player: str) -> None:
        if player != self.creator:
            raise NotAllowed("not_creator", "only the table's creator may do that")

    def _waiting(self) -> None:
        if self.status != "waiting":
            raise TableError("already_started", "the game has already started")

    @property
    def robot_to_act(self) -> int | None:
        """The robot seat whose bid or play is due now, if any."""
        game = self.game
        if game is None or game.result is not None:
            return None
        seat = game.to_act
        if seat is None:
            return None
        occupant = self.seats[seat]
        return seat if occupant is not None and occupant.robot is not None else None

    def players(self) -> list[str]:
        """The names at the seats, as a record lists them (``robot:LEVEL`` for robots)."""
        return [s.name if s is not None else "" for s in self.seats]

    # -- commands -----------------------------------------------------------------
    @classmethod
    def create(
        cls,
        table_id: str,
        rules: Rules,
        creator: str,
        name: str,
        at: datetime,
        hints: bool = False,
        rated: bool = True,
        absent: str = "claim",
        **extra: str | int | None,
    ) -> tuple[Table, list[Event]]:
        """A new table with ``creator`` at seat 0 (``rematch_of``, ``rematch_partner``,
        an event's ``organiser`` and ``robot``: espadas.tables.absent; a challenge's
        ``boards``: the game ends after that many hands; ``turn_limit``: its own,
        in seconds, clock.limit); ``hints``: the creator allows hints (said only
        then); ``rated``: the game counts for the ratings (said only when it does
        not); ``absent``: ``claim`` or ``robot`` (said only when not ``claim``)."""
        table = cls(table_id)
        data: dict[str, Any] = {"rules": rules.to_dict(), "creator": creator, "name": name}
        data.update(({"hints": True} if hints else {}) | ({} if rated else {"rated": False}))
        data.update({} if absent == "claim" else {"absent": absent_option(absent)})
        data.update({key: value for key, value in extra.items() if value is not None})
        event = table._new("create", at, **data)
        return table, [event]

    @classmethod
    def rematch_from(
        cls, old: Table, table_id: str, at: datetime, partner: int | None = None
    ) -> tuple[Table, list[Event]]:
        """A new table for a rematch of ``old``: the same rules and the same people and
        robots in the same seats, partners kept (or ``partner`` chosen anew)."""
        first = old.seats[0]
        name = first.name if first is not None else "?"
        table, events = cls.create(
            table_id,
            old.rules,
            old.creator,
            name,
            at,
            old.hints,
            old.rated,
            old.absent,
            rematch_of=old.id,
            rematch_partner=partner,
        )
        for i, seat in enumerate(old.seats[1:], start=1):
            if seat is not None and seat.player is not None:
                events.append(table._new("sit", at, seat=i, player=seat.player, name=seat.name))
            elif seat is not None and seat.robot is not None:
                events.append(table._new("robot", at, seat=i, level=seat.robot))
        if partner is not None:
            events += table.choose_partner(old.creator, partner, at)
        return table, events

    def join(self, player: str, name: str, at: datetime) -> list[Event]:
        """``player`` opens the invitation: a free seat if the game has not started
        and they are not seated yet; otherwise nothing (they watch)."""
        if self.status != "waiting" or self.seat_of(player) is not None:
            return []
        for i, seat in enumerate(self.seats):
            if seat is None:
                return [self._new("sit", at, seat=i, player=player, name=name)]
        return []

    def choose_partner(self, player: str, seat: int, at: datetime) -> list[Event]:
        """The creator picks the seat of their partner, who moves opposite them."""
        self._creator_only(player)
        self._waiting()
        if not self.rules.partnerships:
            raise TableError("no_partners", "this is an individual game: there are no partners")
        if seat not in (1, 2, 3):
            raise BadCommand("bad_partner", "the partner is one of the seats 1, 2 or 3", seat=seat)
        if seat == 2:
            return []
        return [self._new("partner", at, seat=seat)]

    def add_robots(
        self,
        player: str,
        level: str,
        at: datetime,
        seats: Sequence[int] | None = None,
        levels: Sequence[str] = (),
    ) -> list[Event]:
        """The creator seats robots of ``level`` in the empty ``seats`` (all by default).
        ``levels`` lists what this server offers (its default: the robots' levels)."""
        from espadas.robots.registry import LEVELS

        self._creator_only(player)
        self._waiting()
        offered = tuple(levels) or LEVELS
        if level not in offered:
            raise BadCommand(
                "bad_robot", f"unknown robot {level!r}", level=level, levels=", ".join(offered)
            )
        empty = [i for i, s in enumerate(self.seats) if s is None]
        targets = empty if seats is None else list(seats)
        for seat in targets:
            if seat not in empty:
                raise TableError("seat_taken", f"seat {seat} is not empty", seat=seat)
        return [self._new("robot", at, seat=s, level=level) for s in targets]

    def free_seat(self, player: str, seat: int, at: datetime) -> list[Event]:
        """The creator takes a robot out of ``seat`` before the game starts."""
        self._creator_only(player)
        self._waiting()
        occupant = self.seats[seat] if 0 <= seat < len(self.seats) else None
        if occupant is None or occupant.robot is None:
            raise TableError("not_robot", "only a robot's seat can be freed", seat=seat)
        return [self._new("free", at, seat=seat)]

    def start(self, player: str, at: datetime, dealer: Dealer = fresh_deal) -> list[Event]:
        """The creator starts the game once every seat is taken."""
        self._creator_only(player)
        self._waiting()
        if any(s is None for s in self.seats):
            raise TableError("seats_empty", "fill the empty seats (invite or add robots) first")
        first = 0 if self.rules.first_dealer == "creator" else secrets.randbelow(len(self.seats))
        return [self._new("start", at, first_dealer=first), self._deal(at, dealer)]

    def _deal(self, at: datetime, dealer: Dealer) -> Event:
        game = self._running()
        masks, salt = dealer(self.rules, game.dealer)
        hands = deal_text(masks)
        return self._new("deal", at, hands=hands, salt=salt, commitment=commit(hands, salt))

    def act(
        self,
        player: str,
        kind: str,
        at: datetime,
        *,
        value: Any = None,
        dealer: Dealer = fresh_deal,
        turn_limit: timedelta = TURN_LIMIT,
    ) -> list[Event]:
        """A seated person's action: ``look``, ``bid`` (value), ``play`` (value: a
        card), ``accuse`` (value: a seat), ``next_hand``, ``confirm_end``,
        ``abandon`` or ``claim``."""
        seat = self._seated(player)
        if kind == "claim":
            return claim(self, seat, at, turn_limit)
        return self.act_seat(seat, kind, at, value=value, dealer=dealer)

    def act_seat(
        self, seat: int, kind: str, at: datetime, *, value: Any = None, dealer: Dealer = fresh_deal
    ) -> list[Event]:
        """The action ``kind`` by ``seat`` (a person's, or a robot's move)."""
        game = self._running()
        if kind == "look":
            if (
                not self.rules.blind_nil
                or game.phase not in ("bidding", "playing")
                or game.hand.looked[seat]
            ):
                raise TableError("no_look", "your cards are already face up")
            return [self._new("look", at, seat=seat)]
        if kind == "bid":
            return [self._new("bid", at, seat=seat, value=bid_value(value))]
        if kind == "play":
            return [self._new("play", at, seat=seat, card=str(card_value(value)))]
        if kind == "accuse":
            return [self._new("accuse", at, by=seat, against=seat_value(value))]
        if kind == "next_hand":
            events = [self._new("next_hand", at, seat=seat)]
            if game.phase == "dealing":
                events.append(self._deal(at, dealer))
            return events
        if kind == "confirm_end":
            return [self._new("confirm_end", at, seat=seat)]
        if kind == "abandon":
            return [self._new("abandon", at, seat=seat)]
        raise BadCommand("bad_action", f"unknown action {kind!r}", kind=str(kind)[:40])

    def claim_open_at(self, turn_limit: timedelta) -> datetime | None:
        """When the other side may close the game because a person has not acted."""
        game = self.game
        if game is None or game.result is not None or game.to_act is None:
            return None
        occupant = self.seats[game.to_act]
        if occupant is None or occupant.robot is not None or self.turn_since is None:
            return None
        opens = self.turn_since + turn_limit  # sooner for a dropped person (presence)
        return min(opens, away_until(self, game.to_act) or opens)

    def robot_move(self, seat: int, action: Action, at: datetime) -> list[Event]:
        """Applies a robot's chosen action for ``seat``."""
        if isinstance(action, Look):
            return [self._new("look", at, seat=seat)]
        if isinstance(action, Bid):
            return [self._new("bid", at, seat=seat, value=action.value)]
        if isinstance(action, Play):
            if action.card not in self._running().proper_plays():
                raise IllegalPlay("robot_renege", f"a robot may not renege ({action.card})")
            return [self._new("play", at, seat=seat, card=str(action.card))]
        raise BadCommand("bad_action", f"a robot may not {action!r}")

    def fault(self, seat: int, message: str, at: datetime) -> list[Event]:
        """Logs a robot's fault (the move made in its place follows)."""
        return [self._new("fault", at, seat=seat, message=message[:500])]

    def rematch_target(self, player: str) -> str:
        """The rematch's table (open, or else to open) for the creator, once it is over."""
        self._creator_only(player)
        if self.status != "finished":
            raise TableError("not_finished", "a rematch follows a finished game")
        return self.rematch or rematch_id(self.id)

    def mark_rematch(self, player: str, new_table: str, at: datetime) -> list[Event]:
        """The creator opens a rematch at ``new_table`` once the game is over.
        Marking the same table again adds nothing; another one is refused."""
        self.rematch_target(player)
        if self.rematch == new_table:
            return []
        if self.rematch is not None:
            raise TableError("rematch_exists", "the rematch is already open", table=self.rematch)
        return [self._new("rematch", at, table=new_table)]

    # -- the record ---------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The ``espadas-record/1`` of this table: the finished hands while the game
        runs, all of it once it is over. Each hand carries its commitment and salt."""
        game = self.game
        if game is None:
            return {
                "format": "espadas-record/1",
                "rules": self.rules.to_dict(),
                "players": self.players(),
                "hands": [],
                "table": self.id,
            }
        record = game_record(game, self.players())
        hands = record["hands"]
        if game.result is None:
            hands = hands[: len(game.scored)]
            record["hands"] = hands
        for entry, revealed in zip(hands, self.deals, strict=False):
            entry["commitment"] = revealed.commitment
            entry["salt"] = revealed.salt
        record["table"] = self.id
        return record
