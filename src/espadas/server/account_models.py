"""The bodies the account routes accept and answer (see
:mod:`espadas.server.account_api` and :mod:`espadas.server.passkey_api`).

>>> SigninIn.model_validate({"email": " ana@example.org "}).email
'ana@example.org'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, StrictBool, StringConstraints

from espadas.server.models import Name


class RenameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class NameOut(BaseModel):
    name: str


class SigninIn(BaseModel):
    """The address to send a sign-in link to, and the language of the mail."""

    model_config = ConfigDict(extra="forbid")
    email: Annotated[str, StringConstraints(strip_whitespace=True, max_length=254)]
    lang: Literal["es", "en"] = "es"


class SigninSentOut(BaseModel):
    """The same answer whether or not the address belongs to anyone."""

    sent: bool
    message: str


class SigninUseIn(BaseModel):
    """A sign-in link's token; ``confirm`` says yes to leaving the person this
    device is signed in as, when the link is someone else's."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, StringConstraints(max_length=100)]
    confirm: StrictBool = False


class SignedInOut(BaseModel):
    name: str
    switched: bool


class AccountOut(BaseModel):
    name: str
    email: str | None
    confirmed: bool
    mail: bool
    """Whether this server sends e-mail (sign-in links need it)."""
    passkeys: int


class DeviceOut(BaseModel):
    id: str
    current: bool
    created_at: str
    seen_at: str
    browser: str
    system: str
    how: Literal["name", "resume", "email", "passkey"]


class DevicesOut(BaseModel):
    devices: list[DeviceOut]


class SignedOutOut(BaseModel):
    signed_out: int


class DeleteIn(BaseModel):
    """``confirm`` must be true: deleting cannot be undone."""

    model_config = ConfigDict(extra="forbid")
    confirm: Literal[True]


class DeletedOut(BaseModel):
    deleted: bool
    tables: int
    """Tables whose logs now say "former player" for you."""


class ExportOut(BaseModel):
    """``espadas-account/1``: everything kept about you (no secrets)."""

    format: Literal["espadas-account/1"]
    player: dict[str, Any]
    names: list[str]
    contacts: list[dict[str, Any]]
    push_subscriptions: list[dict[str, Any]]
    devices: list[dict[str, Any]]
    resume_uses: list[dict[str, Any]]
    passkeys: list[dict[str, Any]]
    tables: list[dict[str, Any]]
