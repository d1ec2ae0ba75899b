"""SQLite checkpoints off the path of a move.

In WAL mode every commit appends the pages it changed to the write-ahead log,
and by default the commit that takes the log past 1,000 pages (4 MB) also
copies the log back into the database file and waits for the disk
(``fsync``) before it returns: a *checkpoint*. At 500 tables and 2,000 people
the server wrote about 14 MB a second (log and database file together), so the
writer stopped for a checkpoint every second or so, and every move waiting
behind it waited too.

The appends' connection therefore never checkpoints (``wal_autocheckpoint =
0``); a :class:`Checkpointer` runs ``PRAGMA wal_checkpoint(PASSIVE)`` on a
connection and a thread of its own at most once every :data:`EVERY_S` seconds
after a batch of appends. A passive checkpoint copies what it can without
waiting for readers or writers, and the writer goes on appending meanwhile.
Durability is unchanged: a move is durable once its commit is in the log; the
checkpoint only moves it into the database file. The other connections keep
an automatic checkpoint at :data:`SAFETY_PAGES` pages, in case the appends stop
while other writes go on.

>>> import sqlite3, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.db")
>>> conn = sqlite3.connect(path, isolation_level=None)
>>> conn.execute("PRAGMA journal_mode=WAL").fetchone()
('wal',)
>>> _ = conn.execute("CREATE TABLE t (x)")
>>> checkpointer = Checkpointer(path)
>>> checkpointer.run()
True
>>> checkpointer.close(); conn.close()
"""

from __future__ import annotations

import sqlite3
import time
from concurrent.futures import Future, ThreadPoolExecutor

EVERY_S = 1.0
"""The shortest time between two checkpoints."""
SAFETY_PAGES = 10_000
"""The automatic checkpoint of the connections other than the appends' (40 MB)."""


class Checkpointer:
    """Passive checkpoints of one SQLite file, in a thread of their own."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="espadas-checkpoint")
        self._running: Future[bool] | None = None
        self._last = 0.0

    def due(self) -> None:
        """Starts a checkpoint unless one is running or the last began less than
        :data:`EVERY_S` ago; returns at once."""
        now = time.monotonic()
        if now - self._last < EVERY_S or (self._running is not None and not self._running.done()):
            return
        self._last = now
        self._running = self._thread.submit(self.run)

    def run(self) -> bool:
        """One passive checkpoint, here and now; True when the whole log was copied."""
        if self._conn is None:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA busy_timeout=10000")
        _busy, log, copied = self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return bool(log == copied)

    def close(self) -> None:
        """Waits for a running checkpoint and closes the connection."""
        self._thread.shutdown()  # waits; starts no thread when none ever ran
        if self._conn is not None:
            self._conn.close()
            self._conn = None
