"""The simulated people of ``espadas loadtest``: who they are and how they play.

Each person has their own name (cookie) and WebSocket, and plays a random
legal action when its view says it is their turn, over the socket or as a
``POST`` (``--via http``, through :class:`~espadas.cli.http_pool.ConnectionPool`).
They wait only for frames: no timer wakes anyone up.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from espadas.cli.http_pool import ConnectionPool

RUNNING: set[asyncio.Task[None]] = set()
"""Tasks in flight (kept referenced until done)."""


@dataclass
class Stats:
    actions: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """When the action that made each (table, version) was sent."""
    arrivals: list[tuple[str, int, float]] = field(default_factory=list)
    """Each (table, version, time) a person received a view of."""

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text[:200])

    def latencies(self, since: int = 0) -> list[float]:
        """Seconds from sending each action to each person's view of it (of the
        views received from the ``since``-th on)."""
        out = []
        for table, version, at in self.arrivals[since:]:
            started = self.sent.get((table, version))
            if started is not None:
                out.append(at - started)
        return out


@dataclass
class Person:
    base: str
    name: str
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""
    table: str = ""
    busy: bool = False
    started: float = 0.0
    """When this person's action in flight was sent (over the WebSocket)."""
    seen: int = 0
    acted: int = 0
    """The version this person last acted on (one action per view)."""
    skipped: tuple[dict[str, Any], int] | None = None
    """The latest view (and version) that came while an action was in flight."""
    inbox: asyncio.Queue[str | bytes] | None = None
    """The frames of this person's socket, read as they come."""

    def headers(self) -> dict[str, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"cookie": cookie, "x-csrf-token": self.csrf, "content-type": "application/json"}


async def _post(http: Any, person: Person, path: str, body: Any = None) -> Any:
    for attempt in range(20):
        response = await http.post(
            person.base + path,
            content=json.dumps(body if body is not None else {}),
            headers=person.headers(),
        )
        if response.status_code == 429:
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        return response
    return response


async def sign_in(http: Any, person: Person) -> None:
    for attempt in range(20):
        response = await http.post(
            person.base + "/api/session", json={"name": person.name}, headers={}
        )
        if response.status_code == 429:
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        response.raise_for_status()
        person.cookies = dict(response.cookies)
        person.csrf = response.json()["csrf"]
        return
    raise RuntimeError("the server keeps refusing (429): start it with a higher --rate")


async def open_table(http: Any, people: list[Person], seats: int) -> str:
    creator = people[0]
    response = await _post(http, creator, "/api/tables", {"renege": "prevented"})
    response.raise_for_status()
    table: str = response.json()["id"]
    for person in people[1:]:
        (await _post(http, person, f"/api/tables/{table}/join")).raise_for_status()
    if len(people) < seats:
        (await _post(http, creator, f"/api/tables/{table}/robots", {"level": "aleatorio"}))
    (await _post(http, creator, f"/api/tables/{table}/start")).raise_for_status()
    for person in people:
        person.table = table
    return table


def _choice(view: dict[str, Any]) -> dict[str, Any] | None:
    """A random legal action among those a person makes in a game."""
    choices = [
        a for a in view["game"]["legal"] if a["type"] in ("bid", "play", "next_hand", "confirm_end")
    ]
    if not choices:
        return None
    action = random.choice(choices)
    body = {"type": action["type"]}
    if "value" in action:
        body["value"] = action["value"]
    return body


async def _act_http(
    pools: dict[str, ConnectionPool],
    person: Person,
    view: dict[str, Any],
    stats: Stats,
    think: float,
) -> None:
    try:
        if think:
            await asyncio.sleep(think)
        body = _choice(view)
        if body is None:
            return
        started = time.monotonic()
        path = f"/api/tables/{person.table}/actions"
        data = json.dumps(body).encode()
        for attempt in range(20):
            response = await pools[person.base].post(path, data, person.headers())
            if response.status_code != 429:
                break
            await asyncio.sleep(0.2 * (attempt + 1))
        if response.status_code == 200:
            stats.actions += 1
            stats.sent[(person.table, response.json()["version"])] = started
        elif response.status_code == 409:
            stats.refused += 1  # someone else acted first (a race, not an error)
        else:
            stats.error(f"action {response.status_code}: {response.text}")
    except Exception as exc:  # counted, the person goes on
        stats.error(f"action: {type(exc).__name__}: {exc}")
    finally:
        person.busy = False
        if person.skipped is not None and person.inbox is not None:
            person.inbox.put_nowait(SKIPPED)  # a view came meanwhile: look at it now


async def _act_ws(socket: Any, person: Person, view: dict[str, Any], think: float) -> None:
    """Sends the action; its answer ("done" or "refused") comes on the socket."""
    try:
        if think:
            await asyncio.sleep(think)
        body = _choice(view)
        if body is None:
            person.busy = False
            return
        person.started = time.monotonic()
        await socket.send(json.dumps({"type": "act", "id": view["version"], "action": body}))
    except Exception:  # the socket closed: the reading side counts it and reconnects
        person.busy = False


def _answered(person: Person, frame: dict[str, Any], stats: Stats) -> None:
    """A "done" or "refused" answer to this person's action over the socket."""
    person.busy = False
    if frame["type"] == "done":
        stats.actions += 1
        stats.sent[(person.table, frame["version"])] = person.started
    elif frame.get("status") == 409:
        stats.refused += 1  # someone else acted first (a race, not an error)
    else:
        stats.error(f"action {frame.get('status')}: {frame.get('message')}")


SKIPPED = "skipped"
"""Put in a person's inbox when their HTTP action ends with a view left unseen."""

CLOSED = "closed"
"""Put in a person's inbox when their socket closes."""


async def _read(socket: Any, inbox: asyncio.Queue[str | bytes]) -> None:
    """Puts each frame of the socket in the inbox, then :data:`CLOSED`."""
    try:
        async for raw in socket:
            inbox.put_nowait(raw)
    except Exception:  # a dropped socket: the player sees CLOSED and reconnects
        pass
    finally:
        inbox.put_nowait(CLOSED)


async def play(
    http: Any,
    pools: dict[str, ConnectionPool],
    person: Person,
    stats: Stats,
    speed: str,
    via: str,
    rng: random.Random,
) -> None:
    """Plays until cancelled, reconnecting after a dropped socket. Nothing here
    wakes on a timer: a person waits for a frame, or for their own HTTP action
    to end when a view came while it was in flight."""
    from websockets.asyncio.client import connect

    while True:
        url = person.base.replace("http", "ws", 1) + f"/api/tables/{person.table}/live"
        inbox: asyncio.Queue[str | bytes] = asyncio.Queue()
        person.inbox = inbox
        try:
            async with connect(url, additional_headers=person.headers(), max_size=2**22) as socket:
                reader = asyncio.create_task(_read(socket, inbox))
                try:
                    if await _take_turns(
                        http, pools, socket, inbox, person, stats, speed, via, rng
                    ):
                        continue  # to the rematch's socket
                finally:
                    reader.cancel()
            raise ConnectionError("the socket closed")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a dropped socket: counted, then reconnect
            stats.error(f"socket: {type(exc).__name__}: {exc}")
            person.busy = False
            await asyncio.sleep(0.5)


async def _take_turns(
    http: Any,
    pools: dict[str, ConnectionPool],
    socket: Any,
    inbox: asyncio.Queue[str | bytes],
    person: Person,
    stats: Stats,
    speed: str,
    via: str,
    rng: random.Random,
) -> bool:
    """Acts on the views as they come; True when the table's rematch opens, False
    when the socket closes."""
    while True:
        raw = await inbox.get()
        if raw == CLOSED:
            return False
        if raw == SKIPPED:
            # a view that came while this person's HTTP action was in flight
            # (its answer can come after the socket's view)
            if person.busy or person.skipped is None:
                continue
            view, version = person.skipped
            person.skipped = None
        else:
            frame = json.loads(raw)
            if frame["type"] != "view":
                _answered(person, frame, stats)
                continue
            view = frame["view"]
            version = frame["version"]
            now = time.monotonic()
            for seen in range(person.seen + 1, version + 1):
                stats.arrivals.append((person.table, seen, now))
            person.seen = version
        game = view["game"]
        if view.get("rematch") and view["rematch"] != person.table:
            person.table, person.seen, person.acted = view["rematch"], 0, 0
            person.busy, person.skipped = False, None
            return True
        if game is None:
            continue
        if person.busy:
            person.skipped = (view, version)
            continue
        person.skipped = None
        if game["phase"] == "game_over" and view["creator"] and not view["rematch"]:
            await _rematch(http, person, stats)
            continue
        mine = game["to_act"] == view["you"] and game["to_act"] is not None
        closing = game["phase"] == "hand_end" and view["creator"]
        if (mine or closing) and person.acted < version:
            person.acted = version
            person.busy = True
            think = 0.0 if speed == "full" else rng.uniform(1.0, 4.0)
            act = (
                _act_ws(socket, person, view, think)
                if via == "ws"
                else _act_http(pools, person, view, stats, think)
            )
            task = asyncio.create_task(act)
            RUNNING.add(task)
            task.add_done_callback(RUNNING.discard)


async def _rematch(http: Any, person: Person, stats: Stats) -> None:
    response = await _post(http, person, f"/api/tables/{person.table}/rematch", {})
    if response.status_code != 201:
        stats.error(f"rematch {response.status_code}")
        return
    table = response.json()["id"]
    started = await _post(http, person, f"/api/tables/{table}/start")
    if started.status_code != 200:
        stats.error(f"start {started.status_code}")
