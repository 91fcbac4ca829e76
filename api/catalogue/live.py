"""The latest catalogue of a process, kept in memory, and the rule that keeps the request path from locking up.

Issue 10: a sync dependency read the catalogue with a pooled connection held until the response was sent,
while the sync endpoint needed another of AnyIO's 40 threads; with 40 requests waiting for one of the pool's
connections, the requests holding the connections waited for a thread, and nothing moved until the pool
timeout. The rule now: **a connection is never held while waiting for a thread.** Reads of the latest
catalogue need no connection (:class:`LiveCatalogue`); a thread-pool call that reads the database ends its
transaction (returning the connection) before it returns (:func:`released`); a request's session is closed
in threads of their own (:func:`close_session`), which never wait for anything but the database.

Issue 15: the latest catalogue is no longer asked of the database per request (or per second). Every load
and correction is announced (:mod:`api.catalogue.announce`: PostgreSQL NOTIFY in the load's transaction, a
stamp file beside a SQLite database), and a process serves what it holds in memory until its watch signals a
load: the next request reads the catalogue again. A load or a correction made by this process is seen at once
(:meth:`LiveCatalogue.invalidate`). When the watch cannot watch (no stamp file yet; the listening connection
lost), and after an error, the process asks the database at most every ``check_seconds``, as before; while
it watches, it still asks every ``SAFETY_SECONDS`` (a database restored from a backup under it, say).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from sqlalchemy import exc as sa_exc
from sqlmodel import Session

from api.catalogue import store
from api.catalogue.announce import Watch
from api.catalogue.tables import LoadRow

T = TypeVar("T")
CHECK_SECONDS = 1.0  # how stale another process's load may be seen by this one when its watch cannot watch
SAFETY_SECONDS = 30.0  # while watching: the database is asked anyway this often
# Set by `vigueur serve` in its server processes (api/http/server.py): after a new catalogue is read into memory,
# gc.freeze() moves every object then alive out of the cyclic collector's generations: a full collection then
# traverses what came after, not the ~140 000 objects of the application and its catalogue (measured: 50–150 ms
# each, the event loop stopped — those of the start-up; none was seen in 30 s of load after it, but one would
# stop every request of the worker as long). Cyclic garbage among frozen objects is never collected: a catalogue
# replaced by a load may stay in memory, once per load. Off elsewhere: a test process reads many catalogues.
FREEZE_AFTER_READ = False
MISSING_TABLE_SQLSTATE = "42P01"  # PostgreSQL: undefined_table
_CLOSERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="vigueur-close")


def is_missing_table(exc: BaseException) -> bool:
    """The database answers but has no catalogue table (created empty, or not migrated yet)."""
    orig = getattr(exc, "orig", None)
    if getattr(orig, "sqlstate", None) == MISSING_TABLE_SQLSTATE:
        return True
    return isinstance(exc, sa_exc.OperationalError) and "no such table" in str(orig or exc)


def not_loaded_instead(exc: BaseException) -> BaseException:
    """A missing table read as « no catalogue »: 503 « run `vigueur load` », never a 500."""
    if isinstance(exc, sa_exc.DBAPIError) and is_missing_table(exc):
        return store.CatalogueNotLoaded("the database holds no catalogue: run `vigueur load`")
    return exc


def released(session: Session, read: Callable[[Session], T]) -> T:
    """``read(session)`` in this thread, then the transaction ended: the connection is back in the pool
    before the thread is given back (a read-only transaction: its commit writes nothing)."""
    try:
        return read(session)
    except sa_exc.DBAPIError as exc:
        with contextlib.suppress(sa_exc.SQLAlchemyError):  # a dead connection: the pool discards it
            session.rollback()
        raise not_loaded_instead(exc) from exc
    finally:
        if session.in_transaction():
            session.commit()


async def close_session(session: Session) -> None:
    """Close a request's session; one holding a connection is closed in a thread of the closers' own pool
    (those threads wait for nothing but the database, so the connection always comes back)."""
    if session.get_transaction() is None:
        session.close()  # no connection: memory only
        return
    await asyncio.get_running_loop().run_in_executor(_CLOSERS, session.close)


def detached(load: LoadRow) -> LoadRow:
    """A copy of a load row bound to no session (its attributes never expire, never query)."""
    return LoadRow(**load.model_dump())


@dataclass(frozen=True, slots=True)
class _State:
    checked: float  # time.monotonic() of the check
    known: store.KnownCatalogue | None
    error: BaseException | None
    signature: object | None = None  # the watch's signature just before the check (None: not watching)


class LiveCatalogue:
    """The latest catalogue of one database: read again when ``watch`` signals a load, else checked at most
    every ``check_seconds`` (0: every request)."""

    def __init__(self, check_seconds: float = 0.0, watch: Watch | None = None) -> None:
        self.check_seconds = check_seconds
        self.watch = watch
        self._state: _State | None = None
        self._lock = threading.Lock()
        self._checking = False

    def invalidate(self) -> None:
        """This process changed the catalogue: the next request reads it again."""
        self._state = None

    def current(self) -> store.KnownCatalogue | None:
        """The latest catalogue from memory when it may be served as it is (no session needed), else None."""
        state = self._state
        if state is None or state.known is None or not self._fresh(state):
            return None
        return state.known

    async def latest(self, session: Session) -> store.KnownCatalogue:
        """The latest catalogue; from memory while fresh, else checked in a thread (one at a time; meanwhile
        the others get what is in memory)."""
        state = self._state
        if state is None or (not self._checking and not self._fresh(state)):
            state = await asyncio.get_running_loop().run_in_executor(None, self._check, session)
        if state.error is not None:
            raise state.error
        assert state.known is not None
        return state.known

    def check(self, session: Session) -> store.KnownCatalogue:
        """The latest catalogue, asked of the database now (a blocking call, for a thread: /readyz)."""
        state = self._check(session, force=True)
        if state.error is not None:
            raise state.error
        assert state.known is not None
        return state.known

    def _fresh(self, state: _State) -> bool:
        """``state`` may still be served: no load signalled (and not too old), or checked very recently."""
        age = time.monotonic() - state.checked
        if state.error is None and state.signature is not None and self.watch is not None:
            return age < SAFETY_SECONDS and self.watch.signature() == state.signature
        return age < self.check_seconds

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()

    def _check(self, session: Session, force: bool = False) -> _State:
        with self._lock:
            state = self._state
            if not force and state is not None and self._fresh(state):
                return state  # checked by another thread meanwhile
            self._checking = True
            try:
                state = self._read(session, state)
            finally:
                self._checking = False
            self._state = state
            return state

    def _read(self, session: Session, before: _State | None) -> _State:
        now = time.monotonic()
        signature = self.watch.signature() if self.watch is not None else None  # before the read: a load
        try:  # committed during it changes the signature again, and the next request reads again
            known = released(session, lambda s: self._known(s, before))
        except (store.CatalogueNotLoaded, sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
            return _State(now, None, exc)
        except sa_exc.TimeoutError as exc:
            return _State(now, None, exc)
        if FREEZE_AFTER_READ and (before is None or known is not before.known):
            gc.freeze()
        return _State(now, known, None, signature)

    @staticmethod
    def _known(session: Session, before: _State | None) -> store.KnownCatalogue:
        load = store.latest_load(session)
        if load is None:
            raise store.CatalogueNotLoaded("the database holds no catalogue: run `vigueur load`")
        known_before = before.known if before is not None else None
        if known_before is not None and _same(known_before.load, load):
            return known_before
        known = store.read_known(session, None)
        return store.KnownCatalogue(known.catalogue, detached(known.load), None)


def _same(a: LoadRow, b: LoadRow) -> bool:
    return (a.id, a.tree_hash) == (b.id, b.tree_hash)


def read_known_at(session: Session, known_at: datetime) -> store.KnownCatalogue:
    """The catalogue known at ``known_at`` (a thread-pool call: the connection is returned before it ends)."""

    def read(s: Session) -> store.KnownCatalogue:
        known = store.read_known(s, known_at)
        return store.KnownCatalogue(known.catalogue, detached(known.load), known_at)

    return released(session, read)
