"""A consistent copy of the database, and putting one back: WIMS's whole state lives there.

SQLite: the online backup API (``sqlite3.Connection.backup``) copies the database page by page under a read
transaction, so a backup taken while the workers write is consistent (a plain file copy of a WAL database is
not). PostgreSQL: ``pg_dump --format=custom`` (one snapshot of the whole database) and ``pg_restore --clean``.
A restore is followed by ``migrate``: a backup of an earlier release is upgraded on the spot.

Redis holds no state to back up (messages and the feed cache; the sweep sends lost work again), but the
environment file does (``SECRET_KEY`` signs sessions and the unsubscribe links already sent): docs/operations.md.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.utils import timezone

#: tables whose rows say the database holds a WIMS installation's data (a restore over them asks first)
DATA_TABLES = ("monitor_site", "classifier_rule", "classifier_folder", "auth_user")


class BackupError(RuntimeError):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Written:
    path: Path
    size: int
    vendor: str


def default_path(vendor: str | None = None) -> Path:
    vendor = vendor or connection.vendor
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    suffix = "sqlite3" if vendor == "sqlite" else "pgdump"
    return Path(settings.VAR_DIR) / "backups" / f"wims-{stamp}.{suffix}"


def backup(path: Path | None = None) -> Written:
    """Write a consistent copy of the default database to ``path`` (default: var/backups/wims-<time>.<kind>)."""
    vendor = connection.vendor
    path = Path(path or default_path(vendor))
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        raise BackupError(f"{path} exists: choose another file (a backup never overwrites one)")
    if vendor == "sqlite":
        connection.ensure_connection()
        target = sqlite3.connect(path)
        try:
            with target:
                connection.connection.backup(target)
        finally:
            target.close()
    elif vendor == "postgresql":
        _run(["pg_dump", "--format=custom", "--no-owner", f"--file={path}", *_pg_target()])
    else:
        raise BackupError(f"no backup for the {vendor} database")
    return Written(path, path.stat().st_size, vendor)


def holds_data() -> bool:
    """Whether the database has a WIMS installation's data (sites, rules, folders or users)."""
    tables = set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for table in DATA_TABLES:
            if table in tables:
                cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")  # noqa: S608 - ours
                if cursor.fetchone():
                    return True
    return False


def restore(path: Path) -> str:
    """Replace the default database's content with the backup at ``path``; returns what was restored.

    Stop WIMS first (`make run`, the workers and the beat): they would write into a database being replaced.
    The caller runs ``migrate`` afterwards (an older backup's schema is upgraded)."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path}: no such backup file")
    vendor = connection.vendor
    if vendor == "sqlite":
        with path.open("rb") as head:
            if head.read(16) != b"SQLite format 3\x00":
                raise BackupError(f"{path} is not a SQLite backup (pg_restore reads PostgreSQL's)")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            connection.ensure_connection()
            source.backup(connection.connection)
        finally:
            source.close()
        connection.close()  # the next query opens the restored database afresh
    elif vendor == "postgresql":
        with path.open("rb") as head:
            if head.read(5) != b"PGDMP":
                raise BackupError(f"{path} is not a pg_dump custom-format backup")
        connection.close()
        _run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", *_pg_target(), str(path)])
    else:
        raise BackupError(f"no restore for the {vendor} database")
    return f"{vendor} database restored from {path}"


def _pg_target() -> list[str]:
    db = settings.DATABASES["default"]
    given = (("--host", db.get("HOST")), ("--port", db.get("PORT")), ("--username", db.get("USER")))
    return [f"--dbname={db['NAME']}", *(f"{option}={value}" for option, value in given if value)]


def _run(command: list[str]) -> None:
    if shutil.which(command[0]) is None:
        raise BackupError(f"{command[0]} is not installed: install PostgreSQL's client tools (postgresql-client)")
    env = dict(os.environ)
    password = settings.DATABASES["default"].get("PASSWORD")
    if password:
        env["PGPASSWORD"] = str(password)  # never on the command line, where ps shows it
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)  # noqa: S603 - fixed args
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
