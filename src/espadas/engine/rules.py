"""The rule options of a game and the named presets.

>>> rules = Rules.from_preset("estandar", target=250)
>>> rules.target, rules.renege, rules.partnerships
(250, 'allowed', True)
>>> Rules.from_dict({"preset": "sala", "players": 5}).partnerships
False
>>> Rules.from_preset("estandar", players=7)
Traceback (most recent call last):
...
espadas.engine.errors.InvalidRules: players must be one of 3, 4, 5, 6, not 7
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from espadas.engine.errors import InvalidRules

PRESETS = ("estandar", "pagat", "cien", "sala")

# Allowed values of each option, as FORMATS.md fixes them (None: any integer).
CHOICES: dict[str, tuple[Any, ...] | None] = {
    "target": None,
    "mercy": None,
    "first_dealer": ("creator", "random"),
    "blind_nil": (True, False),
    "bags_reset": (True, False),
    "first_lead": ("any", "two_of_clubs"),
    "spades_in_first_trick": ("allowed", "forbidden"),
    "renege": ("allowed", "prevented"),
    "players": (3, 4, 5, 6),
    "partnerships": (True, False),
    "no_hell": (True, False),
    "suicide": (True, False),
    "quicksand": (True, False),
    "bonuses": (True, False),
}
OPTIONS = tuple(CHOICES)


@dataclass(frozen=True)
class Rules:
    """Every option of RULES.md. Build one with :meth:`from_preset` or :meth:`from_dict`."""

    preset: str = "estandar"
    target: int = 500
    mercy: int | None = -200
    first_dealer: str = "creator"
    blind_nil: bool = False
    bags_reset: bool = False
    first_lead: str = "any"
    spades_in_first_trick: str = "allowed"
    renege: str = "allowed"
    players: int = 4
    partnerships: bool = True
    no_hell: bool = False
    suicide: bool = False
    quicksand: bool = False
    bonuses: bool = False
    # derived, not options
    hand_size: int = field(init=False, repr=False, compare=False)
    removed: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _validate(self)
        removed = {3: 1 << 0, 4: 0, 5: (1 << 0) | (1 << 13), 6: 0x1 | 1 << 13 | 1 << 26 | 1 << 39}
        object.__setattr__(self, "removed", removed[self.players])
        object.__setattr__(self, "hand_size", (52 - self.removed.bit_count()) // self.players)

    # construction ---------------------------------------------------------
    @classmethod
    def from_preset(cls, preset: str = "estandar", **options: Any) -> Rules:
        """A preset with some options changed. With ``players`` other than 4 and no
        ``partnerships`` given, the game is individual."""
        if preset not in PRESETS:
            raise InvalidRules(
                "unknown_preset",
                f"unknown preset {preset!r}; the presets are {', '.join(PRESETS)}",
                preset=preset,
            )
        for name, value in options.items():
            check_option(name, value)
        base = PRESET_VALUES[preset]
        if options.get("players", 4) != 4 and "partnerships" not in options:
            options["partnerships"] = False
        return dataclasses.replace(base, preset=preset, **options)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Reads the ``rules`` object of a record: a preset plus option overrides."""
        if not isinstance(data, Mapping):
            raise InvalidRules("rules_type", 'rules must be an object such as {"preset": "sala"}')
        options = dict(data)
        preset = options.pop("preset", "estandar")
        return cls.from_preset(preset, **options)

    def to_dict(self) -> dict[str, Any]:
        """The preset name and the options that differ from it."""
        base = PRESET_VALUES[self.preset]
        out: dict[str, Any] = {"preset": self.preset}
        for name in OPTIONS:
            if getattr(self, name) != getattr(base, name):
                out[name] = getattr(self, name)
        return out

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed, checked like any other."""
        for name, value in options.items():
            check_option(name, value)
        return dataclasses.replace(self, **options)

    # derived --------------------------------------------------------------
    @property
    def sides(self) -> int:
        """2 with partnerships, else one side per player."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def partner_of(self, seat: int) -> int | None:
        """The seat opposite ``seat`` with partnerships, else ``None`` (no partner).

        >>> Rules().partner_of(1), Rules.from_preset("sala", players=5).partner_of(1)
        (3, None)
        """
        return (seat + 2) % 4 if self.partnerships else None

    def side_name(self, side: int) -> str:
        """``ns``/``ew`` with partnerships, ``"0"``, ``"1"``, … otherwise."""
        return ("ns", "ew")[side] if self.partnerships else str(side)

    def side_names(self) -> list[str]:
        return [self.side_name(s) for s in range(self.sides)]

    def side_index(self, name: str) -> int:
        names = self.side_names()
        if name not in names:
            raise InvalidRules(
                "unknown_side", f"unknown side {name!r}; sides are {', '.join(names)}", side=name
            )
        return names.index(name)

    def seats_of(self, side: int) -> tuple[int, ...]:
        if self.partnerships:
            return (side, side + 2)
        return (side,)


def check_option(name: str, value: Any) -> None:
    """Raises :class:`InvalidRules` for an unknown option or a value it cannot take."""
    if name not in CHOICES:
        raise InvalidRules(
            "unknown_option",
            f"unknown option {name!r}; the options are {', '.join(OPTIONS)}",
            option=name,
        )
    allowed = CHOICES[name]
    if allowed is None:
        ok = (isinstance(value, int) and not isinstance(value, bool)) or (
            name == "mercy" and value is None
        )
        if not ok:
            what = "an integer or null" if name == "mercy" else "an integer"
            raise InvalidRules(
                "option_value", f"{name} must be {what}, not {value!r}", option=name, value=value
            )
        return
    if not any(value is a or (type(value) is type(a) and value == a) for a in allowed):
        shown = ", ".join(_show(a) for a in allowed)
        raise InvalidRules(
            "option_value",
            f"{name} must be one of {shown}, not {_show(value)}",
            option=name,
            value=value,
        )


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _validate(r: Rules) -> None:
    for name in OPTIONS:
        check_option(name, getattr(r, name))
    if r.players not in (3, 4, 5, 6):
        raise InvalidRules(
            "players", f"players must be 3, 4, 5 or 6, not {r.players}", players=r.players
        )
    if r.target <= 0:
        raise InvalidRules(
            "target", f"target must be a positive number of points, not {r.target}", target=r.target
        )
    if r.mercy is not None and r.mercy >= 0:
        raise InvalidRules(
            "mercy", f"mercy must be a negative floor or null, not {r.mercy}", mercy=r.mercy
        )
    if r.partnerships and r.players != 4:
        raise InvalidRules(
            "partnerships",
            f"partnerships need 4 players; with {r.players} players set partnerships=false",
            players=r.players,
        )
    if r.suicide and not r.partnerships:
        raise InvalidRules("suicide", "suicide needs partnerships (4 players, partnerships=true)")
    if r.suicide and r.no_hell:
        raise InvalidRules("suicide_no_hell", "suicide and no_hell cannot both be on; choose one")
    if r.renege == "allowed" and not r.partnerships:
        raise InvalidRules(
            "renege_individual",
            "renege=allowed needs partnerships; individual games use renege=prevented",
        )


PRESET_VALUES: dict[str, Rules] = {
    "estandar": Rules(),
    "pagat": Rules(preset="pagat", mercy=None, first_dealer="random", renege="prevented"),
    "cien": Rules(
        preset="cien",
        target=100,
        mercy=None,
        first_dealer="random",
        blind_nil=True,
        bags_reset=True,
        spades_in_first_trick="forbidden",
        renege="prevented",
    ),
    "sala": Rules(
        preset="sala", mercy=None, first_dealer="random", renege="prevented", bonuses=True
    ),
}
