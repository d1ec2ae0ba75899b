"""What the long commands (``match``, ``positions``, ``analyze``) share: their
progress bar on stderr, drawn by ``rich``, and the options they spell alike.

``rich`` is imported when a bar is made, not with this module: every command
imports the command modules, and most never draw a bar.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from espadas.i18n import DEFAULT_LANG, LANGS

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress


def add_seed(parser: argparse.ArgumentParser, of: str) -> None:
    """``--seed N`` (default 1): the seed ``of`` what."""
    parser.add_argument("--seed", type=int, default=1, help=f"seed of {of} (default 1)")


def add_budget(parser: argparse.ArgumentParser) -> None:
    """``--budget-ms``: experto's time per decision, a ``cmd:`` robot's answer limit."""
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="time per decision of experto, answer limit of a cmd: robot",
    )


def add_output(parser: argparse.ArgumentParser, json_help: str = "print one JSON object") -> None:
    """``--json`` and ``--lang es|en``."""
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default es)")


class Bar:
    """A bar on ``stream``: the ``before`` text columns, the bar, the ``after``
    columns and the time left (``rich`` format strings, with ``{task.completed}``,
    ``{task.total}``, ``{task.description}`` and ``{task.fields[NAME]}``).

    Drawn from the first :meth:`advance` (or at once with ``start=True``), redrawn
    at most ``rate`` times a second on a terminal and written once, as it ends,
    elsewhere; :meth:`finish` stops it."""

    def __init__(
        self,
        stream: TextIO,
        total: int,
        after: Sequence[str],
        before: Sequence[str] = (),
        rate: float = 10.0,
        start: bool = False,
        **fields: Any,
    ) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self.console = Console(file=stream, highlight=False)
        columns = [
            *(TextColumn(text) for text in before),
            BarColumn(bar_width=20),
            *(TextColumn(text) for text in after),
            TimeRemainingColumn(),
        ]
        self.bar: RichProgress = RichProgress(
            *columns, console=self.console, refresh_per_second=rate
        )
        self.total = total
        self.task = self.bar.add_task("", total=total, **fields)
        self.started = False
        if start:
            self._start()

    def _start(self) -> None:
        self.bar.start()
        self.started = True

    def advance(self, **fields: Any) -> None:
        """One more done; ``fields`` change the columns that show them."""
        if not self.started:
            self._start()
        self.bar.update(self.task, advance=1, **fields)

    def reset(self, description: str, **fields: Any) -> None:
        """Back to none done, under a new description."""
        self.bar.reset(self.task, total=self.total, description=description, **fields)

    def finish(self) -> None:
        if self.started:
            self.bar.stop()
