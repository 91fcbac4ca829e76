"""`vigueur load --history`: the catalogue's own history, replayed from the repository's git log.

Each commit that changed ``versions/`` becomes a recorded load at its commit time, oldest first: its tree is
read with ``git archive`` into a temporary folder and loaded by today's strict loader, then recorded as a load
whose ``origin`` is ``git:<commit> <path>``. So « what did the catalogue hold on Y » has an answer from the first
start, not only from the first local load.

Knowledge time only moves forward: a commit whose time is not after the database's latest load is not recorded
(the database already knew something later; history is never rewritten). Replaying twice records nothing new.
A commit whose tree today's loader rejects (older rules) is skipped and reported with the reason.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from api.catalogue.db import create_tables, write_lock
from api.catalogue.loader import DEFAULT_VERSIONS_DIR, load_catalogue
from api.catalogue.store import catalogue_gaps, latest_load, record_catalogue
from api.catalogue.tables import LoadRow
from legislation.errors import CatalogueError


class HistoryUnavailable(Exception):
    """git is not installed, or the versions folder is not in a git repository (no .git folder)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Commit:
    sha: str
    committed_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Replayed:
    commit: str
    committed_at: datetime
    outcome: str  # recorded, unchanged, already_recorded, not_after_latest_load, rejected
    load_id: int | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "commit": self.commit,
            "committed_at": self.committed_at.isoformat(),
            "outcome": self.outcome,
            "load_id": self.load_id,
            "reason": self.reason,
        }


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False, timeout=120)
    except FileNotFoundError:
        raise HistoryUnavailable("git is not installed: the catalogue's history cannot be read") from None
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise HistoryUnavailable(f"git {args[0]} failed in {cwd}: {message[0] if message else done.returncode}")
    return done.stdout


def repository(versions_dir: Path) -> tuple[Path, str]:
    """The repository holding ``versions_dir`` and the folder's path inside it."""
    if not versions_dir.is_dir():
        raise HistoryUnavailable(f"{versions_dir} is not a folder")
    try:
        top = _git(["rev-parse", "--show-toplevel"], versions_dir).decode().strip()
    except HistoryUnavailable as exc:
        raise HistoryUnavailable(
            f"{versions_dir} is not in a git repository (no .git folder?): its history cannot be replayed ({exc})"
        ) from None
    root = Path(top).resolve()
    return root, versions_dir.resolve().relative_to(root).as_posix()


def catalogue_commits(versions_dir: Path) -> list[Commit]:
    """Every commit that changed the versions folder, oldest first, with its commit time."""
    root, relative = repository(versions_dir)
    out = _git(["log", "--reverse", "--format=%H %cI", "--", relative], root).decode()
    commits = []
    for line in out.splitlines():
        sha, when = line.split(" ", 1)
        commits.append(Commit(sha=sha, committed_at=datetime.fromisoformat(when).astimezone(UTC)))
    return commits


def extract(root: Path, commit: str, relative: str, into: Path) -> Path:
    """The versions folder as ``commit`` left it, written under ``into``; its path there."""
    archive = _git(["archive", "--format=tar", commit, "--", relative], root)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / relative


def replay(engine: Engine, versions_dir: Path | None = None) -> list[Replayed]:
    """Record every commit of the versions folder not known yet, oldest first, at its commit time."""
    versions_dir = versions_dir or DEFAULT_VERSIONS_DIR
    root, relative = repository(versions_dir)
    create_tables(engine)
    return [_replay_one(engine, root, relative, c) for c in catalogue_commits(versions_dir)]


def _replay_one(engine: Engine, root: Path, relative: str, commit: Commit) -> Replayed:
    origin = f"git:{commit.sha} {relative}"
    with Session(engine) as session:
        write_lock(session.connection())
        if session.exec(select(LoadRow.id).where(col(LoadRow.origin) == origin)).first() is not None:
            return _outcome(commit, "already_recorded")
        latest = latest_load(session)
        if latest is not None and latest.recorded_at.astimezone(UTC) >= commit.committed_at:
            later = latest.recorded_at.isoformat()
            return _outcome(
                commit, "not_after_latest_load", reason=f"the database knew a later load ({later}): time only moves on"
            )
        with tempfile.TemporaryDirectory(prefix="vigueur-history-") as tmp:
            try:
                catalogue = load_catalogue(extract(root, commit.sha, relative, Path(tmp)))
            except CatalogueError as exc:
                return _outcome(commit, "rejected", reason=str(exc).replace(tmp, commit.sha[:12]))
        versions, gaps = list(catalogue.versions.values()), catalogue_gaps(catalogue)
        report = record_catalogue(session, versions, gaps, origin=origin, now=commit.committed_at)
        session.commit()
    return _outcome(commit, "recorded" if report.load_id is not None else "unchanged", load_id=report.load_id)


def _outcome(commit: Commit, outcome: str, *, load_id: int | None = None, reason: str | None = None) -> Replayed:
    return Replayed(
        commit=commit.sha, committed_at=commit.committed_at, outcome=outcome, load_id=load_id, reason=reason
    )
