"""External robots: any program that speaks ``espadas-robot/1`` (FORMATS.md section 3).

:class:`ExternalRobot` runs the program, sends it one request line per decision
and reads one answer line, waiting at most ``timeout`` seconds. A bad program
can never stop a game: every fault (an answer that is not JSON, of the wrong
shape or type, not legal, late; a program that will not start, exits, crashes
or closes its pipe) is counted in :attr:`ExternalRobot.faults`, noted in
:attr:`ExternalRobot.fault_log` as a short ``"kind: message"`` line, and the
robot plays a legal action itself: the lowest proper card, or the lowest legal
bid of 1 or more (the first legal bid if there is none).

Fault kinds: ``start`` (could not start), ``crash`` (exited or closed its
output), ``pipe`` (the request could not be written), ``late``, ``json``,
``shape``, ``type``, ``illegal``, ``error`` (it answered ``{"error": ...}``),
``gave up`` (a decision after the program stopped for good).

Details:

- The program starts on the first decision and answers request after request,
  like a UCI engine, until :meth:`ExternalRobot.close`. The first answer after a
  start may take ``start_grace`` seconds more than ``timeout`` (time to load).
- A program that stops is started again on the next decision, at most
  :data:`MAX_RESTARTS` times; after that the robot answers every decision
  itself, each one still counted as a fault (``gave up``).
  :meth:`ExternalRobot.restart` stops it at once (the next decision starts a
  fresh one); :meth:`ExternalRobot.new_hand` makes the allowance of restarts full
  again for a robot kept for another hand (the arena keeps one robot per seat for
  a whole match: ``lasting = True``, see :mod:`espadas.robots.roster`).
- A late answer is never taken for the answer to a later request: the robot
  keeps count of the requests still unanswered and drops that many lines
  before it reads the next answer. A program more than :data:`MAX_BEHIND`
  answers behind is stopped and started again (a restart like any other).
- Blind nil: when the view offers ``Look`` (the hand is still face down) and
  the program answers a number, :meth:`ExternalRobot.act` returns
  ``Look(seat)`` and, on the next call for that seat, the bid (see
  :mod:`espadas.robots.protocol`).
- Requests are complete: the program needs no memory between them.

>>> import sys
>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> answer_nil = "import sys\\nfor line in sys.stdin: print('{\\"bid\\": 0}', flush=True)"
>>> with ExternalRobot([sys.executable, "-c", answer_nil], timeout=5) as robot:
...     robot.act(game.view_for(game.to_act)), robot.faults
(Bid(value=0), 0)
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import subprocess
import threading
import time
from types import TracebackType
from typing import IO, Any

from espadas.engine import Action, Bid, PlayerView
from espadas.robots.base import fallback
from espadas.robots.protocol import (
    QUIT,
    ProtocolFault,
    actions_for,
    parse_line,
    request_for,
)

MAX_RESTARTS = 3
"""How many times a program that stopped is started again in one robot's life."""
MAX_BEHIND = 3
"""How many late answers may be pending before the program is restarted."""
CLOSE_WAIT = 1.0
"""Seconds :meth:`ExternalRobot.close` waits for the program to quit."""
LOG_WIDTH = 160
"""Longest entry of :attr:`ExternalRobot.fault_log`."""


class _Program:
    """One run of the program: the process and the queue its reader thread fills."""

    def __init__(self, argv: list[str], stderr: IO[str] | int) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        assert self.proc.stdin is not None
        self.stdin_fd = self.proc.stdin.fileno()
        os.set_blocking(self.stdin_fd, False)  # a program that stops reading cannot block us
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.behind = 0  # requests sent whose answers are still to come (late ones)
        self.asked = False  # whether a request was sent yet (start grace)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        try:
            for line in out:
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)
            with contextlib.suppress(OSError, ValueError):
                out.close()

    def send(self, line: str, deadline: float) -> None:
        """Writes ``line`` and a newline before ``deadline`` (``time.monotonic()``).
        Raises ``TimeoutError`` when the program does not take it in time, ``OSError``
        (``BrokenPipeError``) when it has closed its input."""
        data = memoryview((line + "\n").encode("utf-8"))
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the program does not read its input")
            _, ready, _ = select.select([], [self.stdin_fd], [], remaining)
            if ready:
                with contextlib.suppress(BlockingIOError):
                    data = data[os.write(self.stdin_fd, data) :]

    def stop(self, wait: float = 0.0) -> None:
        """Asks it to quit (when ``wait`` > 0), then kills it if it is still running."""
        proc = self.proc
        if wait > 0 and proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                self.send(json.dumps(QUIT), time.monotonic() + min(wait, 0.2))
            with contextlib.suppress(OSError, ValueError):
                assert proc.stdin is not None
                proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(wait)
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(1.0)
        if proc.stdin is not None:  # stdout is closed by the reader thread
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()

    def status(self) -> str:
        code = self.proc.poll()
        if code is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(0.2)
        if code is None:
            return "closed its output"
        return f"exited with status {code}"


class ExternalRobot:
    """A robot played by an external program (``argv``), ``timeout`` seconds per
    answer. See the module's documentation for faults and restarts.

    ``stderr`` is where the program's standard error goes: an open text file, or
    ``subprocess.DEVNULL`` (the default).
    """

    lasting = True
    """The arena keeps one such robot (one program) per seat for a whole match."""

    def __init__(
        self,
        argv: list[str],
        timeout: float,
        *,
        start_grace: float = 2.0,
        stderr: IO[str] | int = subprocess.DEVNULL,
    ) -> None:
        if not argv:
            raise ValueError("an external robot needs a program to run")
        if timeout <= 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout}")
        self.argv = list(argv)
        self.timeout = timeout
        self.start_grace = start_grace
        self.stderr = stderr
        self.faults = 0
        self.fault_log: list[str] = []
        self.starts = 0
        """How many times the program has been started (restarts are ``starts - 1``)."""
        self.answers = 0
        """How many answers of the program were taken."""
        self._program: _Program | None = None
        self._pending: tuple[int, Bid] | None = None
        self._allowance_from = 0  # starts before this hand's allowance of restarts

    # context manager ------------------------------------------------------
    def __enter__(self) -> ExternalRobot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # faults ----------------------------------------------------------------
    def _fault(self, kind: str, message: str) -> None:
        self.faults += 1
        entry = f"{kind}: {message}"
        if len(entry) > LOG_WIDTH:
            entry = entry[: LOG_WIDTH - 3] + "..."
        self.fault_log.append(entry)

    def _drop(self) -> None:
        """Stops the current run of the program (it will be restarted if allowed)."""
        if self._program is not None:
            self._program.stop()
            self._program = None

    @property
    def gave_up(self) -> bool:
        """True once the program has stopped for good (after :data:`MAX_RESTARTS`)."""
        return self._program is None and self.starts - self._allowance_from > MAX_RESTARTS

    def restart(self) -> None:
        """Stops the program now (after a fault): the next decision starts a fresh
        one, a restart like any other."""
        self._drop()

    def new_hand(self) -> None:
        """A new hand for a robot that is kept: :data:`MAX_RESTARTS` restarts are
        allowed again, as for a fresh robot, and a robot that gave up tries again.
        A running program keeps running."""
        self._pending = None
        self._allowance_from = self.starts - (1 if self._program is not None else 0)

    def _running(self) -> _Program | None:
        """The program, started or restarted as needed; ``None`` after faults that
        leave no program to ask this time (each one counted)."""
        program = self._program
        if program is not None and program.proc.poll() is not None:
            self._fault("crash", f"the program {program.status()}")
            self._drop()
            program = None
        if program is not None:
            return program
        if self.starts - self._allowance_from > MAX_RESTARTS:
            self._fault("gave up", f"the program stopped; no restart after {MAX_RESTARTS}")
            return None
        self.starts += 1
        try:
            self._program = _Program(self.argv, self.stderr)
        except (OSError, ValueError) as e:
            self._fault("start", f"cannot run {self.argv[0]!r}: {e}")
            return None
        return self._program

    # deciding ---------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        """Asks the program for the seat's bid or card; on any fault, a legal action
        of the robot's own. Outside bidding and play, the first legal action."""
        pending, self._pending = self._pending, None
        if (
            pending is not None
            and pending[0] == view.seat
            and view.phase == "bidding"
            and pending[1] in view.legal
        ):
            return pending[1]
        if view.to_act != view.seat or view.phase not in ("bidding", "playing"):
            return fallback(view)
        request = request_for(view)
        action = self._ask(request)
        if action is None:
            action = fallback(view)
        steps = actions_for(view, action)
        if len(steps) > 1:
            assert isinstance(steps[1], Bid)
            self._pending = (view.seat, steps[1])
        return steps[0]

    def _ask(self, request: dict[str, Any]) -> Action | None:
        """The program's answer to ``request``, or ``None`` after a fault."""
        program = self._running()
        if program is None:
            return None
        wait = self.timeout + (self.start_grace if not program.asked else 0.0)
        program.asked = True
        deadline = time.monotonic() + wait
        try:
            program.send(json.dumps(request), deadline)
        except TimeoutError:
            self._fault("late", f"the program took no request for {wait:g} s; restarting it")
            self._drop()
            return None
        except (OSError, ValueError) as e:
            what = "broken pipe" if isinstance(e, BrokenPipeError) else str(e)
            self._fault("pipe", f"cannot send the request ({what}); the program {program.status()}")
            self._drop()
            return None
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                line = program.lines.get(timeout=remaining)
            except queue.Empty:
                program.behind += 1
                if program.behind > MAX_BEHIND:
                    self._fault(
                        "late",
                        f"no answer within {wait:g} s, {program.behind} answers behind;"
                        " restarting the program",
                    )
                    self._drop()
                else:
                    self._fault("late", f"no answer within {wait:g} s")
                return None
            if line is None:
                self._fault("crash", f"the program {program.status()}")
                self._drop()
                return None
            if not line.strip():
                continue  # blank lines are not answers
            if program.behind:
                program.behind -= 1  # the late answer to an earlier request
                continue
            break
        try:
            action = parse_line(line, request)
        except ProtocolFault as e:
            self._fault(e.kind, str(e))
            return None
        self.answers += 1
        return action

    def close(self) -> None:
        """Sends ``{"quit": true}``, waits briefly, kills the program if needed.
        A later :meth:`act` starts the program again (a restart like any other)."""
        if self._program is not None:
            self._program.stop(wait=CLOSE_WAIT)
            self._program = None

    def __del__(self) -> None:
        program = getattr(self, "_program", None)
        if program is not None:
            with contextlib.suppress(Exception):
                program.proc.kill()

    def __repr__(self) -> str:
        return f"<ExternalRobot {' '.join(self.argv)!r} faults {self.faults}>"
