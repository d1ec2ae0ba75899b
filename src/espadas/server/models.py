"""The bodies and path values the JSON API accepts (pydantic models): anything
else is refused with 422 before a route runs.

>>> ActionIn.model_validate({"type": "bid", "value": 3}).value
3
>>> TableIn().preset
'estandar'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    WithJsonSchema,
)

from espadas.tables.ids import TABLE_ID_CHARS, TABLE_ID_MAX, TABLE_ID_MIN
from espadas.tables.names import NAME_MAX, display_name

Name = Annotated[
    str,
    AfterValidator(display_name),
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": NAME_MAX,
            "description": "A display name, by the rule of espadas.tables.names: no control,"
            " invisible or direction-changing characters, something visible, not a robot's.",
        }
    ),
]
"""A display name as a person sends it, normalised by
:func:`~espadas.tables.names.display_name`; a name it refuses raises its
:class:`~espadas.tables.names.BadName` through validation, so it is answered
with its own code (422), not as malformed input."""
TableId = Annotated[
    str,
    StringConstraints(min_length=TABLE_ID_MIN, max_length=TABLE_ID_MAX, pattern=TABLE_ID_CHARS),
]
"""A table's id in a path (the rule of :mod:`espadas.tables.ids`)."""
OptionValue = StrictBool | StrictInt | Annotated[StrictStr, StringConstraints(max_length=20)] | None


class SessionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class TableIn(BaseModel):
    """A new table: preset, target, renege mode and other options (RULES.md)."""

    model_config = ConfigDict(extra="forbid")
    preset: Literal["estandar", "pagat", "cien", "sala"] = "estandar"
    target: StrictInt | None = Field(None, ge=1, le=100_000)
    renege: Literal["allowed", "prevented"] | None = None
    options: dict[Annotated[str, StringConstraints(max_length=30)], OptionValue] = Field(
        default_factory=dict, max_length=20
    )


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(ge=0, le=5)


class RobotsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Annotated[str, StringConstraints(max_length=40)]
    seats: list[Annotated[int, Field(ge=0, le=5)]] | None = Field(None, max_length=6)


class ActionIn(BaseModel):
    """An action of the seated person: ``look``, ``bid`` (value: 0-13, "nil",
    "blind_nil"), ``play`` (value: a card such as "QH"), ``accuse`` (value: a
    seat), ``next_hand``, ``confirm_end``, ``abandon`` or ``claim``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["look", "bid", "play", "accuse", "next_hand", "confirm_end", "abandon", "claim"]
    value: StrictInt | Annotated[StrictStr, StringConstraints(max_length=12)] | None = None


class RematchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    partner: StrictInt | None = Field(None, ge=1, le=3)


class ResumeIn(BaseModel):
    """A resume link's token; ``confirm`` says yes to leaving the person this
    device is signed in as, when the link is someone else's."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, StringConstraints(max_length=100)]
    confirm: StrictBool = False


class ResumeLinkIn(BaseModel):
    """``replace``: revoke your earlier resume links (those in mails too) first."""

    model_config = ConfigDict(extra="forbid")
    replace: StrictBool = False
