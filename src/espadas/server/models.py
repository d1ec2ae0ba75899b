"""The bodies and path values the JSON API accepts (pydantic models): anything
else is refused with 422 before a route runs; :class:`Error`, the body of every
refusal; and the bodies the routes answer (``...Out``), as the OpenAPI document
describes them (their top level; a view's game is described in the README).

>>> ActionIn.model_validate({"type": "bid", "value": 3}).value
3
>>> TableIn().preset
'estandar'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

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

from espadas.tables.chat import RAW_MAX
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
    hints: StrictBool = False
    """Whether the seated people may ask for hints (``GET .../hint``)."""
    rated: StrictBool = True
    """Whether the game counts for the club's ratings (``/api/club``)."""
    absent: Literal["claim", "robot"] = "claim"
    """What a person's turn past the turn limit allows: ``claim``, the other side
    may close the game (the side that waited loses); ``robot``, the creator or the
    other side may put a robot in that seat (action ``replace``) and play goes on."""


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
    seat), ``next_hand``, ``confirm_end``, ``abandon``, ``claim`` or, at a table
    whose ``absent`` option is ``robot``, ``replace`` (value: the robot's level, or
    none for the table's robot level or ``experto``; the creator may too); or of the
    chat (seated people and signed-in spectators): ``say`` with a ``text`` (at
    most 200 characters once trimmed) or a ``phrase`` (``well_played``,
    ``sorry``, ``thanks_partner``, ``one_moment``), and the creator's
    ``chat_spectators`` (value: "on" or "off")."""

    model_config = ConfigDict(extra="forbid")
    type: Literal[
        "look",
        "bid",
        "play",
        "accuse",
        "next_hand",
        "confirm_end",
        "abandon",
        "claim",
        "replace",
        "say",
        "chat_spectators",
    ]
    value: StrictInt | Annotated[StrictStr, StringConstraints(max_length=12)] | None = None
    text: Annotated[StrictStr, StringConstraints(max_length=RAW_MAX)] | None = None
    phrase: Annotated[StrictStr, StringConstraints(max_length=20)] | None = None


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


class Error(BaseModel):
    """A refusal: ``error`` is a stable code (``not_your_turn``, ``no_session``,
    ``bad_request``...), ``message`` says it in the request's language."""

    error: str = Field(examples=["not_your_turn"])
    message: str = Field(examples=["No es tu turno: le toca a Luis."])


SUBSCRIPTION_BODY = {
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "title": "SubscriptionIn",
                "description": "A browser's PushSubscription.toJSON().",
                "type": "object",
                "required": ["endpoint", "keys"],
                "properties": {
                    "endpoint": {"type": "string", "maxLength": 1000},
                    "expirationTime": {"type": ["number", "null"]},
                    "keys": {
                        "type": "object",
                        "required": ["p256dh", "auth"],
                        "properties": {"p256dh": {"type": "string"}, "auth": {"type": "string"}},
                    },
                },
            }
        }
    },
}
"""The body of ``POST /api/push/subscriptions`` (read by the route itself, so
described here for the OpenAPI document)."""


class SessionOut(BaseModel):
    name: str | None
    csrf: str | None


class ResumeLinkOut(BaseModel):
    url: str
    token: str


class ResumedOut(BaseModel):
    name: str
    switched: bool


class ResumeUse(BaseModel):
    at: str
    browser: str
    system: str


class ResumeUsesOut(BaseModel):
    active: int
    uses: list[ResumeUse]


class RevokedOut(BaseModel):
    revoked: int


class PresetsOut(BaseModel):
    presets: dict[str, dict[str, Any]]
    targets: dict[str, list[int]]
    robots: list[str]


class SeatOut(BaseModel):
    seat: int
    name: str
    robot: str | None
    human: bool


class MessageOut(BaseModel):
    """A chat message: a ``text`` or a quick ``phrase`` (said in the reader's
    language); ``author`` is a pseudonym (to mute someone), ``seat`` ``null``
    for a spectator."""

    seq: int
    at: str
    author: str
    name: str
    seat: int | None
    spectator: bool
    text: str | None = None
    phrase: str | None = None


class ChatOut(BaseModel):
    """The table's chat: whether spectators may write, how many messages the
    table has, and the latest of them (oldest first)."""

    spectators: bool
    count: int
    messages: list[MessageOut]


class ViewOut(BaseModel):
    """A table as the person asking may see it; ``you`` is their seat."""

    id: str
    version: int
    status: str
    seats: list[SeatOut | None]
    you: int | None
    creator: bool
    claim_at: str | None
    replace_at: str | None
    """When you may put a robot in the seat of the person the table waits for."""
    game: dict[str, Any] | None
    rules: dict[str, Any]
    options: dict[str, Any]
    players: int
    deals: list[dict[str, Any]]
    sheet: Any
    updated_at: str | None
    commitment: str | None
    faults: int
    rematch: str | None
    rematch_of: str | None
    review: Any
    chat: ChatOut
    hints: bool
    rated: bool
    absent: str
    replaced: list[int]


class OpenedOut(BaseModel):
    """A table just opened: its id, its invitation link and your view."""

    id: str
    invite: str
    view: ViewOut


class TableRowOut(BaseModel):
    """One of your tables (:func:`espadas.tables.listing.table_line`)."""

    id: str
    status: str
    version: int
    updated_at: str | None
    players: list[str | None] = []
    """Each seat's name (``robot:LEVEL`` for a robot, ``null`` when empty)."""
    you: int | None = None
    sides: list[str] = []
    scores: list[int] | None = None
    """Each side's points (in ``sides``' order), ``null`` before the start."""
    hand: int = 0
    your_turn: bool = False
    winner: str | None = None
    kind: str = "table"
    """``table``, ``event`` (an event's table) or ``challenge`` (a daily challenge's)."""


class TablesOut(BaseModel):
    tables: list[TableRowOut]


class ReplayOut(BaseModel):
    id: str
    players: Any
    rules: dict[str, Any]
    steps: list[Any]
    checks: list[dict[str, Any]]
    sheet: Any
    result: Any


class ContactOut(BaseModel):
    email: str | None
    confirmed: bool
    lang: str
    mail: bool


class ModeOut(BaseModel):
    mode: Literal["on", "off", "digest"]


class PushKeyOut(BaseModel):
    key: str


class OkOut(BaseModel):
    ok: bool
