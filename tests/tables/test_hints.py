"""A table's hints option: in its first event only when on, kept by a rebuild
from the log and by the rematch, and in everyone's view."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from espadas.engine import Rules
from espadas.tables.table import Table
from espadas.tables.view import table_view

AT = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.mark.parametrize("hints", [False, True])
def test_hints_live_in_the_log_and_the_rematch(hints: bool) -> None:
    table, events = Table.create("t1", Rules.from_preset("estandar"), "ana", "Ana", AT, hints)
    assert ("hints" in events[0].data) is hints  # old logs (no key) read as off
    events += table.add_robots("ana", "normal", AT)
    events += table.start("ana", AT)
    again = Table.rebuild("t1", events)
    assert again.hints is table.hints is hints
    assert table_view(again, "ana")["hints"] is hints
    assert table_view(again, None)["hints"] is hints  # spectators see the rule too
    rematch, _ = Table.rematch_from(again, "t2", AT)
    assert rematch.hints is hints
