"""Duplicate events [torneos] among people: the domain (no I/O).

An **event** has a name, a rule set (a preset and options, renege allowed or
prevented), a number of boards split into rounds, pairs or individuals, who may
join, a start time (or a start by the organiser) and optionally a length in days.

- **Boards**: dealt once when the event is made (:func:`deal_boards`, committed
  as :mod:`espadas.tables.boards` commits; the set's commitment is public from
  creation). Round ``r`` plays boards ``(r-1)·k+1 … r·k`` (``k`` boards a round);
  within a round board ``i`` is dealt by seat ``(i-1) % players`` so each table,
  whose first dealer is seat 0, deals them in order
  (:func:`~espadas.tables.challenge.board_dealer`).
- **Pairs** (partnership rule sets): entrants pair off in the order they joined
  (an odd one out plays with a robot partner); a pair sits at seats 0 and 2 (North–
  South) or 1 and 3 (East–West). Each round half the pairs stay, the other half
  move one table on, and every other round the directions swap, so pairs meet
  new opponents and play both ways. A missing pair is a pair of robots.
- **Individuals** (3–6 player individual rule sets): each round every entrant
  moves one table and one seat on (:func:`seat_round`); robots fill the seats left.
- **Absent entrants**: the event's ``absent`` option (chosen at creation, default
  ``robot``) is its tables' (:mod:`espadas.tables.absent`): past the turn limit the
  organiser, or a person seated on the other side, puts a robot in the seat of the
  person keeping the table waiting, so one absent entrant does not stop a round;
  with ``claim`` the other side closes the game instead (the boards not played are
  not scored). An event stored before the option claims.
- **Scoring**: the same board in the same direction (pairs: the side; individuals:
  the seat) is compared between tables by :func:`espadas.tables.duplicate.score`,
  per round and overall. Entrants are named as the records name their seats (a
  pair ``"Ana & Bea"``); robots that only fill gaps are not ranked.

>>> spec = make_spec("Martes", boards=4, rounds=2)
>>> spec.mode, spec.per_round, spec.rules.renege
('pairs', 2, 'prevented')
>>> [[s.seats for s in seat_round(spec, ["a", "b", "c", "d"], r)] for r in (1, 2)]
[[('a', 'c', 'b', 'd')], [('c', 'a', 'd', 'b')]]
>>> [b.dealer for b in deal_boards(spec).boards]
[0, 1, 0, 1]
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from espadas.engine import Rules
from espadas.engine.errors import EspadasError
from espadas.robots.registry import LEVELS
from espadas.tables.absent import ABSENT
from espadas.tables.boards import Board, Boards
from espadas.tables.challenge import TARGET, board_dealer
from espadas.tables.commitment import fresh_deal
from espadas.tables.duplicate import Result, Table, record_results, score
from espadas.tables.errors import TableError
from espadas.tables.event import Event
from espadas.tables.table import Dealer
from espadas.tables.table import Table as GameTable

PREFIX = "torneo-"
"""The start of an event table's id: ``torneo-EVENT-`` and 144 random bits."""
_TABLE_ID = re.compile(r"^torneo-([A-Za-z0-9]{12})-[A-Za-z0-9_-]{24}$")
MAX_BOARDS = 100
MAX_ROUNDS = 12
MAX_DAYS = 60
MAX_INVITED = 200


class TournamentError(TableError):
    """An event that cannot be made or joined as asked."""

    status = 422


@dataclass(frozen=True)
class EventSpec:
    """What the organiser chose (see the module docstring)."""

    name: str
    rules: Rules
    boards: int
    rounds: int
    robot: str
    starts_at: datetime | None = None
    days: int | None = None
    invited: tuple[str, ...] | None = None
    """Who may join: ``None`` is anyone with the link; else player ids or names."""
    absent: str = "robot"
    """The tables' ``absent`` option (:mod:`espadas.tables.absent`)."""

    @property
    def mode(self) -> str:
        return "pairs" if self.rules.partnerships else "individual"

    @property
    def per_round(self) -> int:
        return self.boards // self.rounds

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": self.rules.to_dict(),
            "boards": self.boards,
            "rounds": self.rounds,
            "robot": self.robot,
            "starts_at": None if self.starts_at is None else self.starts_at.isoformat(),
            "days": self.days,
            "invited": None if self.invited is None else list(self.invited),
            "absent": self.absent,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventSpec:
        starts = data.get("starts_at")
        invited = data.get("invited")
        return cls(
            str(data["name"]),
            Rules.from_dict(data["rules"]),
            int(data["boards"]),
            int(data["rounds"]),
            str(data["robot"]),
            None if starts is None else datetime.fromisoformat(starts),
            data.get("days"),
            None if invited is None else tuple(str(i) for i in invited),
            str(data.get("absent", "claim")),  # stored before the option: claim
        )


def event_rules(preset: str, renege: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of an event's tables: the preset with ``options`` and ``renege``, the
    creator's seat dealing first, no target in reach and no mercy rule (the boards
    decide the end, as in the daily challenge)."""
    chosen = {k: v for k, v in (options or {}).items() if k not in _FIXED}
    try:
        return Rules.from_preset(
            preset, **chosen, renege=renege, target=TARGET, mercy=None, first_dealer="creator"
        )
    except EspadasError as exc:
        raise TournamentError("event_rules", exc.message) from None


_FIXED = ("target", "mercy", "first_dealer", "renege")


def make_spec(
    name: str,
    preset: str = "estandar",
    options: Mapping[str, Any] | None = None,
    renege: str = "prevented",
    boards: int = 8,
    rounds: int = 1,
    mode: str | None = None,
    robot: str = "experto",
    starts_at: datetime | None = None,
    days: int | None = None,
    invited: Sequence[str] | None = None,
    absent: str = "robot",
) -> EventSpec:
    """An event's choices, checked. Raises :class:`TournamentError`."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= 80:
        raise TournamentError("event_name", "an event's name is 1 to 80 characters")
    if renege not in ("allowed", "prevented"):
        raise TournamentError("event_rules", "renege is allowed or prevented")
    rules = event_rules(preset, renege, options)
    wanted = mode or ("pairs" if rules.partnerships else "individual")
    if wanted not in ("pairs", "individual") or (wanted == "pairs") != rules.partnerships:
        raise TournamentError(
            "event_mode", "pairs need a partnership rule set, individuals an individual one"
        )
    if not 1 <= rounds <= MAX_ROUNDS or not 1 <= boards <= MAX_BOARDS or boards % rounds:
        raise TournamentError(
            "event_boards", "1 to 100 boards, 1 to 12 rounds, the same boards in each round"
        )
    if robot not in LEVELS:
        raise TournamentError("event_robot", f"the robots are one of {', '.join(LEVELS)}")
    if starts_at is not None and starts_at.tzinfo is None:
        starts_at = starts_at.replace(tzinfo=UTC)  # a time without a zone is UTC
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise TournamentError("event_days", "an event is open 1 to 60 days")
    people = None
    if invited is not None:
        people = tuple(dict.fromkeys(p.strip() for p in invited if p.strip()))
        if not people or len(people) > MAX_INVITED:
            raise TournamentError("event_invited", "a list of 1 to 200 players")
    if absent not in ABSENT:
        raise TournamentError("event_absent", "an absent entrant is replaced or claimed against")
    return EventSpec(name, rules, boards, rounds, robot, starts_at, days, people, absent)


def may_join(spec: EventSpec, player_id: str, name: str) -> bool:
    """Whether the event's list (if it has one) names this player (by id or name,
    the name in any case)."""
    if spec.invited is None:
        return True
    folded = name.casefold()
    return any(p == player_id or p.casefold() == folded for p in spec.invited)


def ends_at(spec: EventSpec, started: datetime) -> datetime | None:
    """When an event started at ``started`` closes (``None``: when it is played)."""
    return None if spec.days is None else started + timedelta(days=spec.days)


# -- boards -----------------------------------------------------------------------
def deal_boards(spec: EventSpec) -> Boards:
    """The event's boards, from the cryptographic source: board ``i`` of a round is
    dealt by seat ``(i - 1) % players``."""
    out = []
    for i in range(spec.boards):
        dealer = (i % spec.per_round) % spec.rules.players
        deal, salt = fresh_deal(spec.rules, dealer)
        out.append(Board(i + 1, dealer, deal, salt))
    return Boards(spec.rules, tuple(out))


def round_range(spec: EventSpec, round_: int) -> range:
    """The numbers of the boards of round ``round_`` (from 1)."""
    first = (round_ - 1) * spec.per_round + 1
    return range(first, first + spec.per_round)


def round_boards(spec: EventSpec, boards: Boards, round_: int) -> Boards:
    """The boards round ``round_`` plays, as a set a table deals from its first hand."""
    numbers = round_range(spec, round_)
    return Boards(boards.rules, boards.boards[numbers.start - 1 : numbers.stop - 1])


def round_of(spec: EventSpec, board: int) -> int:
    return (board - 1) // spec.per_round + 1


# -- seating ----------------------------------------------------------------------
@dataclass(frozen=True)
class Seating:
    """One table of a round: the player id at each seat, ``None`` for a robot."""

    round: int
    number: int
    seats: tuple[str | None, ...]


def pairs_of(entrants: Sequence[str]) -> list[tuple[str, str | None]]:
    """Entrants paired off in order; the odd one out with a robot (``None``)."""
    out: list[tuple[str, str | None]] = []
    for i in range(0, len(entrants), 2):
        rest = entrants[i + 1] if i + 1 < len(entrants) else None
        out.append((entrants[i], rest))
    return out


def seat_round(spec: EventSpec, entrants: Sequence[str], round_: int) -> list[Seating]:
    """The tables of round ``round_`` (from 1) for ``entrants`` in the order they
    joined (see the module docstring for the movement); a table with nobody but
    robots is left out."""
    if not entrants:
        return []
    k = round_ - 1
    tables: list[list[str | None]] = []
    if spec.mode == "pairs":
        pairs: list[tuple[str | None, str | None]] = list(pairs_of(entrants))
        count = (len(pairs) + 1) // 2
        pairs += [(None, None)] * (2 * count - len(pairs))
        stay, move = pairs[:count], pairs[count:]
        for t in range(count):
            ns, ew = stay[t], move[(t + k) % count]
            if k % 2:
                ns, ew = ew, ns
            tables.append([ns[0], ew[0], ns[1], ew[1]])
    else:
        n = spec.rules.players
        count = -(-len(entrants) // n)
        slots = count * n
        tables = [[None] * n for _ in range(count)]
        for j, player in enumerate(entrants):
            q = (j + k * (count + 1)) % slots
            tables[q % count][q // count] = player
    return [
        Seating(round_, i + 1, tuple(seats))
        for i, seats in enumerate(tables)
        if any(s is not None for s in seats)
    ]


def two_tables_from(spec: EventSpec) -> int:
    """The fewest entrants that make two tables a round, so that each board is
    played at two tables and results can be compared: three pairs (five
    people), or one more person than a table seats.

    >>> two_tables_from(make_spec("x")), two_tables_from(make_spec("x", "sala"))
    (5, 5)
    >>> [len(seat_round(make_spec("x"), list("abcde"[:n]), 1)) for n in (4, 5)]
    [1, 2]
    """
    return 5 if spec.mode == "pairs" else spec.rules.players + 1


def table_id(event_id: str) -> str:
    """A fresh id for a table of event ``event_id`` (unguessable)."""
    return PREFIX + event_id + "-" + secrets.token_urlsafe(18)


def event_of_table(table: str) -> str | None:
    """The event id of an event table's id, or ``None`` for any other table."""
    if not table.startswith(PREFIX):
        return None
    found = _TABLE_ID.match(table)
    return None if found is None else found.group(1)


def open_table(
    table: str,
    spec: EventSpec,
    seating: Seating,
    names: Mapping[str, str],
    organiser: tuple[str, str],
    boards: Boards,
    at: datetime,
    replacer: str | None = None,
) -> tuple[GameTable, list[Event]]:
    """A table of the event, started: ``organiser`` is its creator (seated only if an
    entrant here), entrants and robots in their seats, the round's first board dealt;
    ``replacer`` (the event's organiser) may replace absent entrants there, by robots
    of the event's level. Its game ends with the round's last board (reason
    ``"boards"``): nothing is offered there that the event would refuse."""
    game, events = GameTable.create(
        table, spec.rules, organiser[0], organiser[1], at, rated=False, absent=spec.absent,
        organiser=replacer, robot=spec.robot, boards=spec.per_round,
    )  # fmt: skip
    if seating.seats[0] != organiser[0]:
        events.append(_raw(game, "free", at, seat=0))
    for seat, player in enumerate(seating.seats):
        if seat == 0 and player == organiser[0]:
            continue
        if player is None:
            events.append(_raw(game, "robot", at, seat=seat, level=spec.robot))
        else:
            events.append(_raw(game, "sit", at, seat=seat, player=player, name=names[player]))
    dealer = tournament_dealer(spec, boards, seating.round, game)
    events += game.start(organiser[0], at, dealer=dealer)
    return game, events


def _raw(game: GameTable, type_: str, at: datetime, **data: Any) -> Event:
    event = Event(game.version + 1, type_, data, at)
    game.apply(event)
    return event


def tournament_dealer(spec: EventSpec, boards: Boards, round_: int, game: GameTable) -> Dealer:
    """The dealer of a table of round ``round_``: its boards, one per hand."""
    return board_dealer(round_boards(spec, boards, round_), game)


def table_done(spec: EventSpec, game: GameTable) -> bool:
    """Whether a table has finished every board of its round, or its game is over
    before (closed by a claim, or abandoned: the boards left are not played)."""
    if game.game is None:
        return False
    return game.game.result is not None or len(game.game.scored) >= spec.per_round


# -- scoring ----------------------------------------------------------------------
def entrant_name(spec: EventSpec, players: Sequence[str], seat: int) -> str | None:
    """The entrant holding ``seat`` in a record's ``players`` (names): a pair is
    ``"North & South"`` by their seats; ``None`` for robots only."""
    if spec.mode == "pairs":
        first, second = players[seat % 2], players[seat % 2 + 2]
        if _robot(first) and _robot(second):
            return None
        return f"{first} & {second}"
    return None if _robot(players[seat]) else players[seat]


def _robot(name: str) -> bool:
    return name.startswith("robot:") or not name


def seat_entrants(seats: Sequence[str | None], names: Mapping[str, str]) -> list[str | None]:
    """The names of the entrants the event seated at a table (``None``: a robot
    filling a gap): a record's ``entrants`` (:func:`record_results_of`)."""
    return [None if p is None else names.get(p, "?") for p in seats]


def _seat_names(record: Mapping[str, Any]) -> list[str]:
    """A record's names at the seats, an entrant replaced by a robot named still
    (the record's ``entrants``, if given, for the seats the event gave a person)."""
    players = [str(p) for p in record["players"]]
    entrants = record.get("entrants")
    if not isinstance(entrants, list) or len(entrants) != len(players):
        return players
    return [
        str(e) if isinstance(e, str) and e else p for e, p in zip(entrants, players, strict=True)
    ]


def record_results_of(spec: EventSpec, round_: int, record: Mapping[str, Any]) -> list[Result]:
    """The results of one table's record: each finished board of its round, in each
    direction, for the entrants (not the robots filling gaps). With ``entrants``
    (:func:`seat_entrants`) a person replaced by a robot keeps their place: the
    robot's boards count for them (their pair's, for pairs)."""
    players = _seat_names(record)
    first = round_range(spec, round_).start
    directions = range(2) if spec.mode == "pairs" else range(spec.rules.players)
    out = []
    for direction in directions:
        entrant = entrant_name(spec, players, direction)
        if entrant is None:
            continue
        for played in record_results(dict(record), direction)[: spec.per_round]:
            board = first + played.board - 1
            out.append(Result(entrant, board, direction, played.points))
    return out


@dataclass(frozen=True)
class Standings:
    overall: Table
    rounds: dict[int, Table]


def standings(
    spec: EventSpec, records: Sequence[tuple[int, Mapping[str, Any]]], final: bool = True
) -> Standings:
    """Per round and overall, from ``(round, record)`` of each table. Before the end
    (``final`` false) a board counts only once every table of its round has played
    it: nobody learns a result of a board they have still to play."""
    results = []
    played: dict[int, list[int]] = {}
    for n, rec in records:
        own = record_results_of(spec, n, rec)
        results += own
        played.setdefault(n, []).append(len({r.board for r in own}))
    if not final:
        complete = {b for n, counts in played.items() for b in round_range(spec, n)[: min(counts)]}
        results = [r for r in results if r.board in complete]
    return standings_of(spec, results)


def standings_of(spec: EventSpec, results: Sequence[Result]) -> Standings:
    """Per round (the results of its boards) and overall (all of them), ranked by
    matchpoints, points above the field breaking ties."""
    by_round = {
        n: score([r for r in results if round_of(spec, r.board) == n], method="matchpoints")
        for n in range(1, spec.rounds + 1)
    }
    return Standings(score(results, method="matchpoints"), by_round)


def standings_json(table: Table) -> list[dict[str, Any]]:
    """A duplicate table as the API and the CLI write it."""
    return [
        {
            "rank": s.rank,
            "entrant": s.entrant,
            "boards": s.boards,
            "total": s.total,
            "matchpoints": s.matchpoints,
            "lines": [
                {
                    "board": line.result.board,
                    "direction": line.result.direction,
                    "points": line.result.points,
                    "field_size": line.field_size,
                    "field": line.field,
                    "above": round(line.above, 2),
                    "matchpoints": round(line.matchpoints, 2),
                }
                for line in table.lines[s.entrant]
            ],
        }
        for s in table.standings
    ]


def standings_body(event_id: str, final: bool, got: Standings) -> dict[str, Any]:
    """The standings as the API answers and ``espadas event standings --json`` prints."""
    return {
        "event": event_id,
        "final": final,
        "method": got.overall.method,
        "overall": standings_json(got.overall),
        "rounds": [
            {"round": n, "standings": standings_json(t)} for n, t in sorted(got.rounds.items())
        ],
    }
