"""The notifier: sends due turn notices by e-mail and Web Push.

It polls the outbox (every ``notice_poll_s`` seconds, and at once after a
change), claims due notices, checks each one is still due (the same turn is
still waiting), and that the person wants it: notices on for that table, not
looking at the table right now, nothing sent for that table within
``notice_interval``. A person with a daily digest gets one mail a day instead.
A notice is claimed by one sender only.

One failing notice never stops the others: each is composed and sent inside
its own error handling. A notice that fails (its mail cannot be built or sent,
every push to the person failed, anything it needs raised) is put back with the
reason and tried again after :data:`BACKOFF` (1, 5, 30 minutes, then 2 hours);
after :data:`MAX_ATTEMPTS` attempts it is left ``failed`` for good. A notice
delivered by one channel (push, say) while the other failed counts as sent,
the failure noted in its ``detail``.

>>> [str(next_attempt(n, datetime(2026, 1, 1)))[11:16] for n in range(1, 5)]
['00:01', '00:05', '00:30', '02:00']
>>> next_attempt(MAX_ATTEMPTS, datetime(2026, 1, 1)) is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from espadas.engine import Card
from espadas.i18n import bid_name, translate
from espadas.server.mail import compose, send
from espadas.server.settings import Settings
from espadas.store.outbox import Due
from espadas.store.store import Store, UnknownTable
from espadas.tables.clock import limit
from espadas.tables.event import Event
from espadas.tables.names import shown_name
from espadas.tables.notice import Notice, plan_rest, still_due
from espadas.tables.table import Table

log = logging.getLogger("espadas.notices")

STALE = timedelta(minutes=5)
BACKOFF = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2))
"""The wait after the first, second, … failed attempt of a notice."""
MAX_ATTEMPTS = len(BACKOFF) + 1
"""Attempts in all (the first and its retries); then the notice is ``failed``."""


def next_attempt(failures: int, now: datetime) -> datetime | None:
    """When a notice that has failed ``failures`` times is tried again; ``None``
    when it is not tried again."""
    if failures >= MAX_ATTEMPTS:
        return None
    return now + BACKOFF[max(failures, 1) - 1]


class Notifier:
    """Sends notices for one server instance."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        load: Callable[[str], Any],
        looking: Callable[[str, str], bool],
        push: Any = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.load = load
        """``await load(table_id)``: the table as committed now."""
        self.looking = looking
        self.before_sending: Callable[[], Any] | None = None
        """``await before_sending()`` runs before each round (the hub's flush of
        what people have seen, so that mails say what is new)."""
        """``looking(player, table_id)``: whether the person has the table open."""
        self.push = push
        self.wake = asyncio.Event()
        self.base_url = settings.public_url or settings.local_url

    async def run(self) -> None:
        """Sends due notices until cancelled."""
        await self.store.outbox.requeue_stale(self.settings.clock.now() - STALE, MAX_ATTEMPTS)
        while True:
            try:
                await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception:  # the loop must go on; the notice is retried
                log.exception("sending notices failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.settings.notice_poll_s)
            await asyncio.sleep(0.05)  # a burst of changes makes one round, not many
            self.wake.clear()

    async def send_due(self) -> int:
        """Sends what is due now; returns how many notices were sent."""
        now = self.settings.clock.now()
        sent = 0
        claimed = await self.store.outbox.claim_due(now)
        if claimed and self.before_sending is not None:
            try:
                await self.before_sending()
            except asyncio.CancelledError:
                raise
            except Exception:  # the mails may say less of what is new; they still go
                log.exception("flushing what people have seen failed")
        ended: list[tuple[int, str, str]] = []
        outbox = self.store.outbox
        for due in claimed:
            try:
                state, detail = await self._one(due, now)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # this notice fails, the others go on
                log.exception("notice %s failed", due.notice.key)
                state, detail = "retry", _reason(exc)
            try:
                if state == "retry":
                    failures = due.attempts + 1
                    await outbox.retry(due.id, next_attempt(failures, now), detail)
                    log.warning(
                        "notice %s: attempt %d failed: %s", due.notice.key, failures, detail
                    )
                elif state == "sent":
                    # written at once: the interval rule of the next notice reads it
                    await outbox.finish(due.id, state, now, detail)
                    sent += 1
                else:
                    ended.append((due.id, state, detail))
            except asyncio.CancelledError:
                raise
            except Exception:  # left claimed: put back (an attempt) at the next start
                log.exception("recording notice %s failed", due.notice.key)
        await outbox.finish_many(ended, now)
        return sent

    async def _one(self, due: Due, now: datetime) -> tuple[str, str]:
        notice = due.notice
        outbox = self.store.outbox
        if notice.kind == "digest":
            return await self._digest(notice, now)
        try:
            table: Table = await self.load(notice.table)
        except UnknownTable:
            return "cancelled", "unknown table"
        if not still_due(table, notice):
            return "cancelled", "the turn moved on"
        if notice.kind == "turn":  # the turn lasts: its reminders and claim notices
            settings = self.settings
            await outbox.add(
                plan_rest(
                    table, limit(table.turn_seconds, settings.turn_limit), settings.notice_delay
                )
            )
        mode = await outbox.mode(notice.player, notice.table)
        if mode == "off":
            return "skipped", "notices off"
        if mode == "digest":
            await outbox.add([_digest_notice(notice.player, now, self.settings.digest_hour)])
            return "skipped", "in the daily digest"
        if self.looking(notice.player, notice.table):
            return "skipped", "looking at the table"
        last = await outbox.last_sent(notice.player, notice.table)
        if (
            last is not None
            and now - last < self.settings.notice_interval
            and notice.kind != "replaced"  # the last word on this table: always told
        ):
            return "skipped", "a notice was sent recently"
        return await self._deliver(notice, table, now)

    async def _deliver(self, notice: Notice, table: Table, now: datetime) -> tuple[str, str]:
        outbox = self.store.outbox
        contact = await outbox.contact(notice.player)
        lang = contact.lang if contact is not None else "es"
        channels = []
        problems = []
        subject = translate(f"mail.{_shown(notice, table)}.subject", lang, creator=_creator(table))
        if contact is not None and contact.email and contact.confirmed and self.settings.smtp_host:
            try:
                lines = await self._lines(notice, table, lang, contact.unsubscribe_token, now)
                message = compose(self.settings.mail_from, contact.email, subject, lines)
                await send(self.settings, message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the pushes still go out; retried if nothing did
                problems.append("mail: " + _reason(exc))
            else:
                channels.append("mail")
        if self.push is not None:
            payload = {
                "title": translate("mail.push.turn", lang) if notice.kind == "turn" else subject,
                "body": subject,
                "url": f"{self.base_url}/mesa/{table.id}",
                "tag": f"espadas-{table.id}",
                "table": table.id,
                "kind": notice.kind,
            }
            for subscription in await outbox.subscriptions(notice.player):
                problem = await self._push(subscription, payload)
                if problem is None:
                    channels.append("push")
                elif problem:
                    problems.append(problem)
        if channels:
            done = "+".join(sorted(set(channels)))
            return "sent", "; ".join([done, *problems])
        if problems:
            return "retry", "; ".join(problems)
        return "skipped", "no channel (no confirmed e-mail, no push)"

    async def _push(self, subscription: dict[str, Any], payload: dict[str, Any]) -> str | None:
        """Pushes ``payload`` to one browser: ``None`` when it went, ``""`` when the
        subscription is gone (and forgotten), else what went wrong."""
        from espadas.server.push import PushGone, PushRefused

        try:
            await asyncio.to_thread(self.push.send, subscription, payload)
        except PushRefused as exc:  # its endpoint no longer resolves to a public address
            log.warning("push to %s refused: %s", subscription.get("endpoint", "?")[:60], exc)
            await self.store.outbox.remove_subscription(subscription["endpoint"])
            return ""
        except PushGone:
            await self.store.outbox.remove_subscription(subscription["endpoint"])
            return ""
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # one failing browser must not stop the others
            log.warning("push to %s failed: %s", subscription.get("endpoint", "?")[:60], exc)
            return "push: " + _reason(exc)
        return None

    async def _lines(
        self, notice: Notice, table: Table, lang: str, unsubscribe: str, now: datetime
    ) -> list[str]:
        creator = _creator(table)
        game = table.game
        lines: list[str] = []
        if notice.kind == "turn":
            what = translate("mail.bid" if game and game.phase == "bidding" else "mail.play", lang)
            lines.append(translate("mail.turn.lead", lang, creator=creator, what=what))
        elif notice.kind == "reminder_half":
            hours = int((now - (table.turn_since or now)).total_seconds() // 3600)
            lines.append(translate("mail.reminder_half.lead", lang, creator=creator, hours=hours))
        elif notice.kind == "reminder_90":
            deadline = (table.turn_since or now) + limit(
                table.turn_seconds, self.settings.turn_limit
            )
            lines.append(
                translate(
                    "mail.reminder_90.robot"
                    if table.absent == "robot"
                    else "mail.reminder_90.lead",
                    lang,
                    deadline=deadline.strftime("%Y-%m-%d %H:%M UTC"),
                )
            )
        elif notice.kind == "replaced":
            lines.append(translate("mail.replaced.lead", lang, creator=creator))
        else:
            waiting = game.to_act if game is not None else None
            name = shown_name(table.players()[waiting]) if waiting is not None else "?"
            lead = "mail.replaceable.lead" if table.absent == "robot" else "mail.claimable.lead"
            lines.append(translate(lead, lang, name=name))
        seen = await self.store.outbox.seen_version(notice.player, table.id)
        news = _since(table, await self.store.events(table.id, after=seen), lang)
        if news:
            lines += ["", translate("mail.since", lang), *(f"- {line}" for line in news)]
        resume = await self.store.resume_link(notice.player, now)
        lines += [
            "",
            translate("mail.open", lang, url=f"{self.base_url}/mesa/{table.id}"),
            translate("mail.resume", lang, url=f"{self.base_url}/resume/{resume}"),
            "",
            translate(
                "mail.unsubscribe",
                lang,
                url=f"{self.base_url}/avisos/baja/{unsubscribe}?mesa={table.id}",
            ),
        ]
        return lines

    async def _digest(self, notice: Notice, now: datetime) -> tuple[str, str]:
        outbox = self.store.outbox
        contact = await outbox.contact(notice.player)
        if contact is None or not contact.email or not contact.confirmed:
            return "skipped", "no confirmed e-mail"
        if not self.settings.smtp_host:
            return "skipped", "no SMTP server"
        waiting = []
        for entry in await self.store.tables_of(notice.player, limit=200):
            if entry["status"] != "playing":
                continue
            table: Table = await self.load(entry["id"])
            game = table.game
            if game is None or game.to_act is None or game.result is not None:
                continue
            occupant = table.seats[game.to_act]
            mine = occupant is not None and occupant.player == notice.player
            if mine and await outbox.mode(notice.player, table.id) == "digest":
                waiting.append(table)
        if not waiting:
            return "skipped", "nothing waiting"
        lang = contact.lang
        lines = [translate("mail.digest.lead", lang), ""]
        lines += [f"- {_creator(t)}: {self.base_url}/mesa/{t.id}" for t in waiting]
        lines += [
            "",
            translate(
                "mail.unsubscribe",
                lang,
                url=f"{self.base_url}/avisos/baja/{contact.unsubscribe_token}",
            ),
        ]
        try:
            subject = translate("mail.digest.subject", lang)
            await send(
                self.settings, compose(self.settings.mail_from, contact.email, subject, lines)
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return "retry", "mail: " + _reason(exc)
        return "sent", f"digest of {len(waiting)}"


def _reason(exc: BaseException) -> str:
    """What went wrong, for a notice's ``detail``."""
    return f"{type(exc).__name__}: {exc}"[:250]


def _creator(table: Table) -> str:
    seat = table.seats[0]
    return shown_name(seat.name) if seat is not None else "?"


def _digest_notice(player: str, now: datetime, hour: int) -> Notice:
    due = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    if due <= now:
        due += timedelta(days=1)
    return Notice(f"digest:{player}:{due.date().isoformat()}", "", player, "digest", 0, due)


def _shown(notice: Notice, table: Table) -> str:
    """The kind a notice's subject is told as: a claim notice at a table whose absent
    players are replaced by robots says so (``replaceable``)."""
    if notice.kind == "claimable" and table.absent == "robot":
        return "replaceable"
    return notice.kind


def _since(table: Table, events: list[Event], lang: str) -> list[str]:
    """What ``events`` (those after what the person saw) did, in words (the last 20)."""
    names = [shown_name(name) for name in table.players()]
    lines = []
    for event in events:
        if event.type == "bid":
            bid = bid_name(event.data["value"], lang)
            lines.append(translate("mail.event.bid", lang, name=names[event.data["seat"]], bid=bid))
        elif event.type == "play":
            card = Card.parse(event.data["card"]).symbol
            lines.append(
                translate("mail.event.play", lang, name=names[event.data["seat"]], card=card)
            )
        elif event.type == "deal":
            lines.append(translate("mail.event.deal", lang))
    return lines[-20:]
