"""Every recorded load (a ``versions/`` tree or a correction) is announced, so that the serving processes read
the catalogue again at once instead of asking the database on every request (issue 15).

* PostgreSQL: ``NOTIFY vigueur_catalogue, '<load id>'`` in the load's own transaction: delivered when it
  commits, never when it rolls back. Each serving process LISTENs on a connection of its own
  (:class:`NotifyWatch`).
* SQLite (a file): a stamp file next to the database, ``<database>-catalogue-stamp``, replaced (a new file
  renamed over it: a new inode) just after the commit. Each serving process compares its ``stat`` with the
  one it saw when it last read the catalogue (:class:`StampWatch`), a system call per request.

A watch that cannot watch (no stamp file yet, the listening connection lost or not yet made) says so
(``signature() is None``), and the process asks the database at most every ``check_seconds`` as before.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from pathlib import Path
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

CHANNEL = "vigueur_catalogue"
STAMP_SUFFIX = "-catalogue-stamp"
_STAMP_KEY = "vigueur.catalogue_stamp"
RECONNECT_SECONDS = 1.0
log = logging.getLogger("vigueur.catalogue")


def stamp_path(url: sa.URL) -> Path | None:
    """The stamp file of a SQLite database file (None: another backend, or an in-memory database)."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    database = str(url.database)
    if database.startswith("file:"):  # a URI filename: no plain path to put a stamp beside
        return None
    return Path(database + STAMP_SUFFIX)


def announce(session: Session, load_id: int) -> None:
    """Called in the transaction that records load ``load_id``: the other processes learn of it on commit."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(sa.text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": str(load_id)})
        return
    stamp = stamp_path(bind.engine.url if isinstance(bind, sa.Connection) else bind.url)
    if stamp is None:
        return
    session.info[_STAMP_KEY] = (stamp, load_id)
    if not sa.event.contains(session, "after_commit", _after_commit):
        sa.event.listen(session, "after_commit", _after_commit)
        sa.event.listen(session, "after_rollback", _after_rollback)


def _after_commit(session: Session) -> None:
    pending = session.info.pop(_STAMP_KEY, None)
    if pending is not None:
        write_stamp(*pending)


def _after_rollback(session: Session) -> None:
    session.info.pop(_STAMP_KEY, None)


def write_stamp(stamp: Path, load_id: int) -> None:
    """Replace the stamp file (a new inode, whatever the file system's time resolution)."""
    temporary = stamp.with_name(f"{stamp.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        temporary.write_text(f"{load_id} {time.time_ns()} {os.getpid()}\n", encoding="ascii")
        os.replace(temporary, stamp)
    except OSError as exc:  # a read-only folder: the others see the load by their periodic check
        log.warning("cannot write the catalogue stamp %s (%s): other processes see the load later", stamp, exc)
        with contextlib.suppress(OSError):
            temporary.unlink()


class Watch(Protocol):
    def signature(self) -> object | None:
        """What changes when a load is recorded; None: not watching now (ask the database periodically)."""

    def close(self) -> None: ...


class StampWatch:
    """The stamp file of a SQLite database: its inode, modification time and size."""

    def __init__(self, stamp: Path) -> None:
        self.stamp = stamp

    def signature(self) -> object | None:
        try:
            st = os.stat(self.stamp)
        except OSError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def close(self) -> None:
        return None


class NotifyWatch:
    """A thread LISTENing on a PostgreSQL connection of its own: each notification (and each new connection,
    which may have missed some) makes a new generation."""

    def __init__(self, url: sa.URL) -> None:
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._generation = 0
        self._connected = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vigueur-listen", daemon=True)
        self._thread.start()

    def signature(self) -> object | None:
        return self._generation if self._connected else None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(RECONNECT_SECONDS + 2)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self._conninfo, autocommit=True, connect_timeout=3, keepalives=1, keepalives_idle=5,
                    keepalives_interval=2, keepalives_count=2,
                ) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._generation += 1
                    self._connected = True
                    while not self._stop.is_set():
                        for _ in connection.notifies(timeout=RECONNECT_SECONDS):
                            self._generation += 1
            except psycopg.Error as exc:
                if self._connected:
                    log.warning("catalogue notifications lost (%s): asking the database periodically", exc)
            finally:
                self._connected = False
            self._stop.wait(RECONNECT_SECONDS)


def watch_for(engine: Engine) -> Watch | None:
    """The watch of ``engine``'s database: notifications (PostgreSQL), a stamp file (SQLite file), else None."""
    url = engine.url
    if url.get_backend_name() == "postgresql":
        return NotifyWatch(url)
    stamp = stamp_path(url)
    return StampWatch(stamp) if stamp is not None else None

