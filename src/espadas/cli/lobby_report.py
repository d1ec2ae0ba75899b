"""The lobby benchmark's people, checks and figures (``espadas loadtest --lobby``,
:mod:`espadas.cli.lobby_load`): what happened to each person, the checks on who
was seated where, the times by kind of table, and the report in a few lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from espadas.cli.figures import quantiles

GOAL_PEOPLE_P95_MS = 2000.0
"""The aim: tables of people only, 95 % of them seated within this after pressing."""
GOAL_EXCESS_MS = 1000.0
"""The aim: a table that robots fill, formed within this after the wait."""
GONE = "robot:replacing"
"""A seat whose person a robot replaced, in :attr:`Person.seats`."""


@dataclass
class Person:
    """One simulated person: where and when they arrive, what they press, and what
    happened to them (monotonic seconds)."""

    base: str
    name: str
    rules: str
    at: float
    headers: dict[str, str] = field(default_factory=dict)
    pressed: float | None = None
    seated: float | None = None
    table: str | None = None
    seat: int | None = None
    seats: tuple[str, ...] = ()
    """The seats of their table in their own view: names, ``robot:LEVEL``, ``-``, and
    :data:`GONE` for a person's seat given to a robot."""
    error: str | None = None
    queued: bool = False
    """Whether the server took their press (201)."""
    early: bool = False
    """Whether their table did not exist yet on their instance when they were told."""
    done: bool = False

    def waited(self) -> float:
        assert self.pressed is not None and self.seated is not None
        return self.seated - self.pressed


def seat_in_view(seat: dict[str, Any] | None, replaced: bool) -> str:
    """A seat of a view as :attr:`Person.seats` keeps it."""
    if seat is None:
        return "-"
    if replaced:
        return GONE
    if seat.get("robot"):
        return f"robot:{seat['robot']}"
    return str(seat["name"])


def checks(people: list[Person], tables_of: list[list[str]]) -> dict[str, Any]:
    """The three checks (see the module), the people whose seat went to a robot
    before they opened their table, and the tables by what seated them."""
    pressed = [p for p in people if p.queued]
    twice = sum(
        1 for p, listed in zip(people, tables_of, strict=True) if p.table and listed != [p.table]
    )
    lost = sum(1 for p in pressed if p.table is None)
    by_table: dict[str, list[Person]] = {}
    for person in people:
        if person.table is not None:
            by_table.setdefault(person.table, []).append(person)
    everyone = {p.name for p in people}
    split = [table for table, sent in by_table.items() if _split(sent, everyone)]
    gone = sum(1 for p in people if p.table and p.seat is None and GONE in p.seats)
    early = sorted({p.table for p in people if p.early and p.table})
    return {
        "pressed": len(pressed),
        "by_table": by_table,
        "seated_twice": twice,
        "lost": lost,
        "split_tables": split,
        "told_before_built": early,
        "seats_given_away": gone,
    }


def _split(sent: list[Person], everyone: set[str]) -> bool:
    """Whether the views of a table, each read by one of the people the lobby sent
    there on the instance they came to, disagree: a person not seated there (nor
    their seat given to a robot), someone seated who never pressed, or two views
    with different people in one seat."""
    views = [p.seats for p in sent if p.seats]  # no view: an error, counted as such
    for person in sent:
        if person.seats and person.seat is None and GONE not in person.seats:
            return True
    for seats in views:
        if any(s != "-" and not s.startswith("robot:") and s not in everyone for s in seats):
            return True
        for other in views:
            for mine, theirs in zip(seats, other, strict=False):
                if mine != theirs and GONE not in (mine, theirs):
                    return True
    return False


def figures(by_table: dict[str, list[Person]], wait: float) -> dict[str, Any]:
    """Press to seated for everyone, for tables of people only and for tables with
    robots; for each table of people only, the shortest of its times (the press
    that completed it: the server's part, without waiting for others to come); for
    each robot table, its excess over the wait (its longest time less the wait)."""
    only: list[float] = []
    robots: list[float] = []
    excess: list[float] = []
    last: list[float] = []
    rules: dict[str, list[int]] = {}
    for sent in by_table.values():
        with_robots = any(s.startswith("robot:") and s != GONE for s in sent[0].seats)
        waits = [p.waited() for p in sent]
        (robots if with_robots else only).extend(waits)
        if with_robots:
            excess.append(max(waits) - wait)
        else:
            last.append(min(waits))
        counts = rules.setdefault(sent[0].rules, [0, 0])
        counts[1 if with_robots else 0] += 1
    return {
        "tables": {
            "people_only": sum(c[0] for c in rules.values()),
            "with_robots": sum(c[1] for c in rules.values()),
            "by_rules": {k: {"people_only": c[0], "with_robots": c[1]} for k, c in rules.items()},
        },
        "press_to_seated_ms": quantiles(only + robots),
        "people_only_ms": quantiles(only),
        "people_only_last_ms": quantiles(last),
        "with_robots_ms": quantiles(robots),
        "robot_wait_excess_ms": quantiles(excess),
    }


def describe(report: dict[str, Any]) -> str:
    """The report in a few lines."""

    def q(figures: dict[str, Any]) -> str:
        return f"p50 {figures['p50']} ms, p95 {figures['p95']} ms, max {figures['max']} ms"

    tables, checked = report["tables"], report["checks"]
    return "\n".join(
        [
            f"{report['people']} people arriving over {report['arrivals_s']:g} s at"
            f" {report['instances']} instance(s), robots after {report['robot_wait_s']:g} s,"
            f" {report['duration_s']} s in all",
            f"seated {report['seated']} of {report['pressed']} who pressed, at"
            f" {tables['people_only'] + tables['with_robots']} tables"
            f" ({tables['people_only']} of people only, {tables['with_robots']} with robots)",
            f"press to seated: {q(report['press_to_seated_ms'])}",
            f"  people only:   {q(report['people_only_ms'])}",
            f"    the press that completed the table: {q(report['people_only_last_ms'])}",
            f"  with robots:   {q(report['with_robots_ms'])}",
            f"  robots after the wait ({report['robot_wait_s']:g} s), the excess:"
            f" {q(report['robot_wait_excess_ms'])}",
            f"checks: seated twice {checked['seated_twice']}, lost from a queue"
            f" {checked['lost']}, tables split across instances {checked['split_tables']},"
            f" tables named before they existed {checked['told_before_built']}",
            f"seats given to a robot before their person came: {report['seats_given_away']}",
            f"errors: {report['errors']}  {report['error_samples']}",
            f"goals (people only p95 <= {GOAL_PEOPLE_P95_MS:g} ms, robots the wait +"
            f" <= {GOAL_EXCESS_MS:g} ms): {'met' if report['goals']['met'] else 'missed'}",
            f"server memory (MB): before {report['server_rss_mb']['before']},"
            f" after {report['server_rss_mb']['after']}",
        ]
    )
