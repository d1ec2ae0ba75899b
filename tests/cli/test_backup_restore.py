"""Backups and restores as ``docs/host.md`` writes them, on a club with accounts,
ratings and a game in progress: ``espadas backup`` while the server runs, then a
new data folder (SQLite) or a new database (PostgreSQL, ``pg_restore``) with the
same keys, a server started on it, the same views, profiles and leaderboard, the
same cookies signing the same people in, and the game playing on."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from host_club import espadas, make_club, need, serving
from server_helpers import fresh_postgres


def test_sqlite_backup_while_serving_and_restore(tmp_path: Path) -> None:
    data, backup = tmp_path / "espadas-data", tmp_path / "backups" / "monday"
    with serving(data) as base:
        club = make_club(base)
        before = club.state()
        club.check(before)
        made = espadas("backup", str(backup), "--data", str(data))
        assert made.returncode == 0, made.stderr
        assert "espadas.db (migration 0" in made.stdout
        assert sorted(p.name for p in backup.iterdir()) == ["espadas.db", "secret.key", "vapid.pem"]
        after_backup = club.play_on()  # the backup keeps the state it copied
        again = espadas("backup", str(backup), "--data", str(data))
        assert again.returncode == 2 and "not an empty folder" in again.stderr
    restored = tmp_path / "restored"
    shutil.copytree(backup, restored)  # cp -a backups/monday espadas-data
    with serving(restored) as base:
        club.move(base)
        assert club.state() == before
        assert club.play_on() == after_backup
    club.close()


def test_postgresql_backup_with_pg_dump_and_pg_restore(tmp_path: Path) -> None:
    need("pg_dump")
    pg_restore = need("pg_restore")
    data, backup = tmp_path / "espadas-data", tmp_path / "backups" / "monday"
    with fresh_postgres() as old, fresh_postgres() as new:
        with serving(data, "--db", old) as base:
            club = make_club(base)
            before = club.state()
            club.check(before)
            made = espadas("backup", str(backup), "--data", str(data), "--db", old)
            assert made.returncode == 0, made.stderr
            assert sorted(p.name for p in backup.iterdir()) == [
                "espadas.dump",
                "secret.key",
                "vapid.pem",
            ]
            after_backup = club.play_on()
        command = [pg_restore, "--no-owner", "--exit-on-error", "--dbname", new]
        restore = subprocess.run(
            [*command, str(backup / "espadas.dump")], capture_output=True, text=True, check=False
        )
        assert restore.returncode == 0, restore.stderr
        keys = tmp_path / "srv-espadas"
        keys.mkdir()
        for key in ("secret.key", "vapid.pem"):
            shutil.copy2(backup / key, keys / key)
        with serving(keys, "--db", new) as base:
            club.move(base)
            assert club.state() == before
            assert club.play_on() == after_backup
        club.close()


def test_what_backup_refuses(tmp_path: Path) -> None:
    missing = espadas("backup", str(tmp_path / "b"), "--data", str(tmp_path / "none"))
    assert missing.returncode == 2 and "no data folder" in missing.stderr
    (tmp_path / "empty").mkdir()
    no_db = espadas("backup", str(tmp_path / "b"), "--data", str(tmp_path / "empty"))
    assert no_db.returncode == 2 and "no SQLite database" in no_db.stderr
    odd = espadas("backup", str(tmp_path / "b"), "--data", str(tmp_path), "--db", "mysql://x")
    assert odd.returncode == 2 and "sqlite:///FILE or postgresql://" in odd.stderr
    assert not (tmp_path / "b").exists()
