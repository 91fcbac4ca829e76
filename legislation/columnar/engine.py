"""The columnar engine: whole columns of purchases in, arrays of outcomes out (see :func:`compute`)."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np
import numpy.typing as npt

from legislation.calculators.kit import Outcome
from legislation.columnar import recorded
from legislation.columnar.columns import DEFAULTS, ColumnError, normalise, rows_at
from legislation.columnar.recorded import (
    Combined,
    Decisions,
    Recording,
    Registry,
    Stale,
    codes,
    combine,
    decide,
    decisions,
    expression,
    leaf_value,
    replay,
    signature,
    take,
    walk,
)
from legislation.columnar.symbolic import (
    Column,
    Fallback,
    SymRow,
    TooManyPaths,
    Trace,
    Unvectorisable,
    lift_table,
    rows_count,
)
from legislation.enums import Acquisition, Scheme
from legislation.errors import InvalidFacts
from legislation.fast.engine import NO_BRANCHES, Engine, VersionPlan
from legislation.resolver import (
    COMPUTED,
    ENDED,
    KEPT_NOT_ON_FILE,
    MISSING_FACTS,
    NO_VERSION,
    NOT_COVERED,
    version_for,
)
from legislation.row import ALL_SCHEMES, SCHEME_TUPLES, shared_schemes
from legislation.timeline import Catalogue

# Status codes of :attr:`ColumnarResult.status`: the index in this tuple (« invalid »: the row's facts were
# refused, :attr:`ColumnarResult.errors` says why).
STATUSES: tuple[str, ...] = (COMPUTED, MISSING_FACTS, NO_VERSION, KEPT_NOT_ON_FILE, NOT_COVERED, "invalid", ENDED)
INVALID = STATUSES.index("invalid")
_STATUS = {s: i for i, s in enumerate(STATUSES)}

# rows of one version traced together (bounded memory: a few arrays of this size per operation). 2**20 rather than
# 2**18: a million one-date rows' paths replayed once, not four times (76 -> 63 ms a million rows, alternated; the
# trace's peak 83 -> 117 MB); the batch's blocks (~71 000 rows) are below either
CHUNK = 1 << 20
PATH_LIMIT = 4096  # paths explored in one chunk before the chunk is left to the row engine
# a chunk of fewer rows per path than this (past 64 paths) is faster by the row engine — when what a trace finds is
# not recorded (Columnar.record False): see Columnar._explore
ROWS_PER_PATH, MIN_PATHS = 6, 64
# a recording is replayed when its paths are at least one per this many rows of the chunk: its index splits cost
# ~depth gathers per row, a trace ~40 µs of Python per path plus a few mask passes over the chunk per decision (a
# chunk of few paths — one date, one version — is traced faster than replayed)
ROWS_PER_RECORDED_PATH = 512
LEASE_CODE = tuple(Acquisition).index(Acquisition.LEASE)

I64 = npt.NDArray[np.int64]
RecordingKey = tuple[int, str, tuple[str, ...]]  # scheme's index, version id, the facts given (sorted)


class Numbering:
    """Texts (paragraphs cited in full) numbered in the order first met: :meth:`number` is a text's index in
    ``texts``, -1 for none — how the result arrays cite a paragraph (here and in ``vigueur batch``'s tables)."""

    __slots__ = ("texts", "_index")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._index: dict[str, int] = {}

    def number(self, text: str | None) -> int:
        if text is None:
            return -1
        found = self._index.get(text)
        if found is None:
            found = self._index[text] = len(self.texts)
            self.texts.append(text)
        return found


@dataclass(slots=True, eq=False)
class ColumnarResult:
    """What :func:`compute` gives: for scheme ``k`` (``schemes[k]``) and row ``i``, element ``[k, i]`` of each array.

    - ``status``: int8, the index in :data:`STATUSES`;
    - ``amount``: int64 **cents**, meaningful where ``amount_known`` (else 0);
    - ``eligible``: int8, 1 / 0 / -1 (not decided);
    - ``version``: int16, the index in ``version_ids`` of the version in force (-1: none);
    - ``kept``: int16, the index in ``version_ids`` of the version whose amount an open transitional clause kept
      (-1: none);
    - ``paragraph``: int32, the index in ``paragraphs`` of the paragraph cited in full (-1: none);
    - ``fallback``: bool, computed by the row engine (:class:`legislation.fast.Engine`), not by the columns —
      ``fallback_reasons`` counts why, by version.

    A row whose facts the row engine refuses (dates that contradict each other, a missing decisive date) has
    status « invalid » for every scheme and its error in ``errors`` (row index → the :class:`InvalidFacts`).
    """

    schemes: tuple[Scheme, ...]  # the schemes of the arrays' first axis: every scheme, in Scheme order
    row_schemes: npt.NDArray[np.int8]  # each row's schemes, in its order: the index in SCHEME_TUPLES
    requested: npt.NDArray[np.bool_]  # [k, i]: row i asks for scheme k (the other elements mean nothing)
    status: npt.NDArray[np.int8]
    amount: I64
    amount_known: npt.NDArray[np.bool_]
    eligible: npt.NDArray[np.int8]
    version: npt.NDArray[np.int16]
    kept: npt.NDArray[np.int16]
    paragraph: npt.NDArray[np.int32]
    fallback: npt.NDArray[np.bool_]
    version_ids: tuple[str, ...]
    paragraphs: list[str]
    errors: dict[int, InvalidFacts] = field(default_factory=dict)
    fallback_reasons: Counter[str] = field(default_factory=Counter)
    paths: int = 0  # paths the traces ran (each a replay of a calculator in Python: what a batch's time goes to)
    replayed: int = 0  # rows (of a version's chunk) decided by a recorded decision tree, without a trace
    # per scheme whose versions are picked by other events (décret 2007-1873's): each row's decisive day ordinal, as
    # the resolver's version_for picks it for a lease (the first rent or invoice for the others); meaningful where
    # the result is not a fallback
    decisive: dict[int, I64] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return int(self.status.shape[1])

    @property
    def results(self) -> int:
        """Results (scheme × row) asked for."""
        return int(self.requested.sum())

    @property
    def fallback_count(self) -> int:
        """Results (scheme × row) computed by the row engine."""
        return int((self.fallback & self.requested).sum())

    def outcome(self, k: int, i: int) -> Outcome:
        """The row engine's :data:`Outcome` tuple for scheme ``k`` of row ``i`` (what a test compares)."""
        status = STATUSES[int(self.status[k, i])]
        eligible = int(self.eligible[k, i])
        version, kept, paragraph = int(self.version[k, i]), int(self.kept[k, i]), int(self.paragraph[k, i])
        return (
            self.schemes[k].value,
            status,
            int(self.amount[k, i]) if self.amount_known[k, i] else None,
            None if eligible < 0 else bool(eligible),
            self.version_ids[version] if version >= 0 else None,
            self.paragraphs[paragraph] if paragraph >= 0 else None,
            self.version_ids[kept] if kept >= 0 else None,
        )

    def outcomes(self, i: int) -> list[Outcome]:
        """Every scheme of row ``i``, as :meth:`legislation.fast.Engine.outcomes` gives them (in its order)."""
        return [self.outcome(_SCHEME_INDEX[s], i) for s in SCHEME_TUPLES[int(self.row_schemes[i])]]


class Columnar:
    """The catalogue ready for columns: one row engine (whose compiled kernels the columns run) and its tables."""

    def __init__(self, catalogue: Catalogue, engine: Engine | None = None) -> None:
        self.catalogue = catalogue
        self.engine = engine or Engine(catalogue)
        self.version_ids: tuple[str, ...] = tuple(sorted(catalogue.versions))
        self._version_index = {v: i for i, v in enumerate(self.version_ids)}
        self._paragraphs = Numbering()
        self.paragraphs: list[str] = self._paragraphs.texts
        self.chunk = CHUNK
        self.path_limit = PATH_LIMIT
        self.rows_per_path = ROWS_PER_PATH  # 0: trace whatever the paths per row (the tests: every row traced)
        self.min_paths = MIN_PATHS
        # what the traces learnt, per scheme, version and facts given (see legislation.columnar.recorded): a later
        # chunk or call replays it instead of tracing (False: every chunk traced afresh)
        self.record = True
        self.rows_per_recorded_path = ROWS_PER_RECORDED_PATH  # 0: always replayed (the tests)
        self._recordings: dict[RecordingKey, Recording] = {}
        self._lift_memo: dict[Any, dict[int, tuple[int, str | None]]] = {}  # the lifted functions' results
        self._lift_tables: dict[Any, Any] = {}  # the same as sorted arrays (Trace.lift_tables)
        # per scheme and facts given: its versions' recordings in one table (recorded.combine), rebuilt when one grows
        self._combined: dict[tuple[int, tuple[str, ...]], Combined] = {}
        self._registries: dict[tuple[int, tuple[str, ...]], Registry] = {}  # their decisions, numbered
        self.combined = True  # False: each version's rows replayed on their own (recorded.replay)
        self.combined_blocks = 0  # blocks of a scheme replayed through the combined table (what the tests check)
        # per scheme whose versions are picked by other events: the field version_for chose per pattern of dates
        self._eventful_memo: dict[Scheme, dict[tuple[int, ...], int]] = {}

    def take_learned(self) -> dict[RecordingKey, tuple[frozenset[str], dict[str, Any], dict[Any, Any]]]:
        """What the traces found since the last call, per recording (scheme, version, facts given): its facts read
        plainly, its new paths (plain data: decisions, outcome, amount's key) and its lifted functions — for another
        :class:`Columnar` of the same catalogue (:meth:`learn`): another process of a batch, a later run."""
        found = {}
        for key, recording in self._recordings.items():
            fresh = recording.take_fresh()
            if fresh is not None:
                found[key] = (recording.concrete, fresh, dict(recording.lifts))
        return found

    def recordings(self) -> dict[RecordingKey, dict[str, Any]]:
        """Every recording as plain data (:meth:`Recording.state`), to be given to :meth:`restore` later."""
        return {key: recording.state() for key, recording in self._recordings.items() if recording.leaves}

    def restore(self, states: Mapping[RecordingKey, Mapping[str, Any]]) -> None:
        """Recordings of :meth:`recordings` (another process, an earlier run: the same catalogue and code), in place
        of any this engine has. Raises ValueError for one that does not fit together (none is then restored)."""
        restored = {key: Recording.from_state(state) for key, state in states.items()}
        self._recordings.update(restored)

    def lifted_results(self) -> dict[Any, dict[int, tuple[int, str | None]]]:
        """The lifted calendar helpers' results computed so far (pure functions: by expression and value)."""
        return self._lift_memo

    def learn_lifted_results(self, results: Mapping[Any, Mapping[int, tuple[int, str | None]]]) -> None:
        """Results of :meth:`lifted_results` (another process, an earlier run), added to this engine's."""
        for key, found in results.items():
            self._lift_memo.setdefault(key, {}).update(found)

    def index_lifted_results(self) -> None:
        """The look-up table of each lifted function's results known so far made now
        (:func:`~legislation.columnar.symbolic.lift_table`), as a trace makes it after computing them: a batch's
        workers, forked after their set-up, inherit them rather than each making them in its first block from a call
        per distinct value (measured on 1 000 000 rows, 2 workers: ~0.1 CPU-s less in each worker's first block, ~0.02
        s more in the set-up)."""
        for key, memo in self._lift_memo.items():
            table = lift_table(memo)
            if table is not None:
                self._lift_tables[key] = table

    def learn(self, learned: Mapping[RecordingKey, tuple[frozenset[str], Mapping[str, Any], dict[Any, Any]]]) -> None:
        """Paths found by another :class:`Columnar` of the same catalogue (:meth:`take_learned`), replayed from now
        on as if traced here. The calculators are deterministic: a path is the same whoever traced it."""
        for key, (concrete, paths, lifts) in learned.items():  # paths: Recording.take_fresh's
            recording = self._recordings.get(key)
            if recording is None:
                recording = self._recordings[key] = Recording(frozenset(concrete))
            if recording.concrete != concrete:
                continue
            recording.lifts.update(lifts)
            recording.learn(paths)

    def compute(self, columns: Mapping[str, Any], schemes: tuple[Scheme, ...] = ALL_SCHEMES) -> ColumnarResult:
        """See :func:`compute`."""
        # The traces allocate many small objects (paths, masks, outcome tuples) that all live until their chunk
        # ends: the cyclic collector's passes over them (and over the caller's heap) cost ~20 % of a mixed batch
        # and free nothing. It is paused while computing (and back on after, if it was on).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._compute(columns, schemes)
        finally:
            if collecting:
                gc.enable()

    def _compute(self, columns: Mapping[str, Any], schemes: tuple[Scheme, ...]) -> ColumnarResult:
        n, facts = normalise(columns)
        row_schemes = _row_schemes(columns.get("schemes"), n, shared_schemes(tuple(schemes)))
        k = len(ALL_SCHEMES)
        requested = np.zeros((k, n), dtype=np.bool_)
        if "schemes" not in columns:
            for scheme in shared_schemes(tuple(schemes)):
                requested[_SCHEME_INDEX[scheme]] = True
        else:
            for t, found in enumerate(SCHEME_TUPLES):
                for scheme in found:
                    requested[_SCHEME_INDEX[scheme]] |= row_schemes == t
        result = ColumnarResult(
            schemes=ALL_SCHEMES,
            row_schemes=row_schemes,
            requested=requested,
            status=np.zeros((k, n), dtype=np.int8),
            amount=np.zeros((k, n), dtype=np.int64),
            amount_known=np.zeros((k, n), dtype=np.bool_),
            # every requested element is written: a traced row by its leaf, a gap by _scheme, a fallback by _store
            eligible=np.empty((k, n), dtype=np.int8),
            version=np.empty((k, n), dtype=np.int16),
            kept=np.empty((k, n), dtype=np.int16),
            paragraph=np.empty((k, n), dtype=np.int32),
            fallback=np.zeros((k, n), dtype=np.bool_),
            version_ids=self.version_ids,
            paragraphs=self.paragraphs,
        )
        day, row_fallback, days = self._decisive(n, facts)
        result.decisive = {_SCHEME_INDEX[scheme]: found for scheme, found in days.items()}
        for s, scheme in enumerate(ALL_SCHEMES):
            if requested[s].any():
                self._scheme(result, s, scheme, facts, days.get(scheme, day), row_fallback | ~requested[s])
        self._fall_back(result, facts, row_fallback)
        return result

    # -- the resolver's first two steps, on columns ------------------------------------------------------------

    def _decisive(
        self, n: int, facts: Mapping[str, Column]
    ) -> tuple[I64, npt.NDArray[np.bool_], dict[Scheme, I64]]:
        """Each row's decisive day (ordinal), the rows left to the row engine (:func:`decisive_day` raises for
        them), and the schemes whose versions are picked by other events (décret 2007-1873's): their decisive day
        for each row, where a lease's differs (:func:`legislation.resolver.version_for`)."""
        acquisition = facts["acquisition"].values
        invoice_only = "order_date" not in facts and "first_rent_date" not in facts and "invoice_date" in facts
        if invoice_only and acquisition.size and int(acquisition.min()) >= 0 and not (acquisition == LEASE_CODE).any():
            only = facts["invoice_date"]  # purchases decided by their invoice, no other date: nothing to check
            return only.values, (only.null if only.null is not None else np.zeros(n, dtype=np.bool_)), {}
        lease = acquisition == LEASE_CODE
        unsure = acquisition < 0  # no acquisition: the row engine says why
        none = np.zeros(n, dtype=np.int64)
        dates = {name: facts.get(name) for name in ("order_date", "invoice_date", "first_rent_date")}

        def values(name: str) -> tuple[I64, npt.NDArray[np.bool_]]:
            column = dates[name]
            if column is None:
                return none, np.ones(n, dtype=np.bool_)
            null = column.null if column.null is not None else np.zeros(n, dtype=np.bool_)
            return column.values, null

        (invoice, no_invoice), (rent, no_rent), (order, no_order) = (
            values("invoice_date"),
            values("first_rent_date"),
            values("order_date"),
        )
        day = np.where(lease, rent, invoice)
        unsure |= np.where(lease, no_rent, no_invoice)  # decisive_day raises: no decisive date
        unsure |= ~no_order & ((~no_invoice & (invoice < order)) | (~no_rent & (rent < order)))
        days: dict[Scheme, I64] = {}
        if self.engine.eventful:  # resolver.version_for: a lease dated before the end of those versions
            until = self.engine.eventful_until.toordinal()
            early = (~no_rent & (rent < until)) | (~no_invoice & (invoice < until)) | (~no_order & (order < until))
            eventful = np.flatnonzero(lease & early & ~unsure)
            if len(eventful):
                days = self._eventful_days(facts, day, unsure, eventful)
        return day, unsure, days

    def _eventful_days(
        self, facts: Mapping[str, Column], day: I64, unsure: npt.NDArray[np.bool_], rows: npt.NDArray[np.intp]
    ) -> dict[Scheme, I64]:
        """The decisive day of each lease in ``rows`` for each scheme whose versions are picked by other events,
        by the resolver's own :func:`~legislation.resolver.version_for` (as the row engine's ``resolved``). That
        function reads the row's event dates only through the timeline's ``find`` (the version each date falls in,
        or none) and whether each is given, and answers with one of those dates (or refuses): it is called once per
        distinct such pattern — a row of each — and the field it chose is read for every row of the pattern. (The
        version each date falls in: ``searchsorted`` on the versions' periods, as the resolver's step that picks a
        version; the rows whose order follows their invoice or first rent, which ``decisive_day`` refuses, are
        ``unsure`` already.) A pattern it refuses (:class:`InvalidFacts`) is left to the row engine (``unsure``,
        updated)."""
        read = {name: facts[name] for name in _VERSION_FACTS if name in facts}
        fields = [name for name in _VERSION_FACTS if name != "acquisition"]
        values = {name: read[name].values[rows] for name in fields if name in read}
        days: dict[Scheme, I64] = {}
        for scheme in sorted(self.engine.eventful, key=_SCHEME_INDEX.__getitem__):
            timeline = self.catalogue.timeline(scheme)
            starts = np.array([v.valid_from.toordinal() for v in timeline.versions], dtype=np.int64)
            ends = np.array(
                [v.valid_until.toordinal() if v.valid_until else date.max.toordinal() + 1 for v in timeline.versions],
                dtype=np.int64,
            )
            pattern = [read["acquisition"].values[rows].astype(np.int64)]
            for name in fields:
                if name not in values:
                    pattern.append(np.full(len(rows), -2, dtype=np.int64))  # not given
                    continue
                at = np.searchsorted(starts, values[name], side="right") - 1
                found = np.where((at >= 0) & (values[name] < ends[np.maximum(at, 0)]), at, -1)
                null = read[name].null
                pattern.append(found if null is None else np.where(null[rows], -2, found))
            stacked = np.stack(pattern, axis=1)
            if len(timeline.versions) < 60 and len(Acquisition) < 60:  # each row's pattern as one number: one sort
                packed = np.zeros(len(rows), dtype=np.int64)
                for column in pattern:  # each value in -2 … 61: a digit in base 64
                    packed <<= 6
                    packed += column + 2
                _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
                patterns = stacked[first]
            else:
                patterns, first, inverse = np.unique(stacked, axis=0, return_index=True, return_inverse=True)
            # the field each pattern's decisive day comes from (-1: refused), asked once per pattern and kept (the
            # answer depends on the pattern only)
            memo = self._eventful_memo.setdefault(scheme, {})
            keys = [tuple(p) for p in patterns.tolist()]
            chosen = np.array([memo.get(k, -2) for k in keys], dtype=np.int64)
            asked = np.flatnonzero(chosen == -2)
            if len(asked):
                samples = rows_at(read, rows[first[asked]], [ALL_SCHEMES] * len(asked))
                for k, row in zip(asked.tolist(), samples, strict=True):
                    try:
                        chosen[k] = fields.index(version_for(timeline, row)[2])
                    except InvalidFacts:
                        chosen[k] = -1
                    if len(memo) < 1 << 16:
                        memo[keys[k]] = int(chosen[k])
            which = chosen[inverse.reshape(-1)]
            ordinals = np.full(len(rows), -1, dtype=np.int64)
            for f, name in enumerate(fields):
                mine = which == f
                if name in values and mine.any():
                    ordinals[mine] = values[name][mine]
            unsure[rows[ordinals < 0]] = True
            scheme_day = days[scheme] = day.copy()
            scheme_day[rows] = np.where(ordinals < 0, day[rows], ordinals)
        return days

    def _scheme(
        self,
        result: ColumnarResult,
        s: int,
        scheme: Scheme,
        facts: Mapping[str, Column],
        day: I64,
        row_fallback: npt.NDArray[np.bool_],
    ) -> None:
        plan = self.engine.schemes[scheme]
        starts = np.array([p.version.valid_from.toordinal() for p in plan.plans], dtype=np.int64)
        ends = np.array(
            [
                p.version.valid_until.toordinal() if p.version.valid_until else date.max.toordinal() + 1
                for p in plan.plans
            ],
            dtype=np.int64,
        )
        decided = day if not row_fallback.any() else day[~row_fallback]  # a fallback row's day may be a filler
        first, last = (int(decided.min()), int(decided.max())) if len(decided) else (0, 0)
        low = int(np.searchsorted(starts, first, side="right")) - 1
        groups: list[tuple[int, Any]] = []  # each version's rows (an index array, or a slice: a view)
        if low >= 0 and low == int(np.searchsorted(starts, last, side="right")) - 1 and last < ends[low]:
            # one version in force on every day (one date, or dates within one version): no search, no gathering
            groups.append((low, slice(None) if not row_fallback.any() else np.flatnonzero(~row_fallback)))
        else:
            which = _version_at(starts, day)
            in_force = (which >= 0) & (day < ends[np.maximum(which, 0)])
            # int8 (int16 past 127 versions): a radix sort below, one pass a byte
            which = np.where(in_force & ~row_fallback, which, -1).astype(np.int8 if len(plan.plans) < 127 else np.int16)
            gap = ~in_force & ~row_fallback
            if gap.any():
                result.status[s, gap] = _STATUS[NO_VERSION]
                for array in (result.eligible, result.version, result.kept, result.paragraph):
                    array[s, gap] = -1
            low, high = int(which.min()), int(which.max())
            if low == high:  # every row in one version
                if low >= 0:
                    groups.append((low, slice(None)))
            else:
                order = np.argsort(which, kind="stable")
                bounds = np.searchsorted(which[order], np.arange(len(plan.plans) + 1))
                groups.extend(
                    (v, order[bounds[v] : bounds[v + 1]]) for v in range(len(plan.plans)) if bounds[v + 1] > bounds[v]
                )
        others = groups
        if self.record and self.combined and len(day) <= self.chunk:
            others = self._replay_combined(result, s, plan, facts, day, groups)
        for v, rows in others:
            count = len(range(len(day))[rows]) if isinstance(rows, slice) else len(rows)
            for start in range(0, count, self.chunk):
                part = slice(start, start + self.chunk) if isinstance(rows, slice) else rows[start : start + self.chunk]
                self._trace(result, s, plan.plans[v], facts, day, part)

    def _replay_combined(
        self,
        result: ColumnarResult,
        s: int,
        plan: Any,
        facts: Mapping[str, Column],
        day: I64,
        groups: list[tuple[int, Any]],
    ) -> list[tuple[int, Any]]:
        """The versions' rows that earlier chunks recorded, replayed at once (:func:`recorded.walk`, through the
        scheme's recordings in one table); the groups left (no recording, or too few paths for their rows, or a
        decision that cannot be computed on the whole block) are returned, to be traced or replayed one by one."""
        facts_key = tuple(sorted(facts))
        recordings: list[Recording] = []
        index: dict[int, int] = {}  # a version's place among the recordings combined
        for v, version_plan in enumerate(plan.plans):
            recording = self._recordings.get((s, version_plan.vid, facts_key))
            if recording is not None and recording.leaves:
                index[v] = len(recordings)
                recordings.append(recording)
        n = len(day)
        parts: list[tuple[int, Any]] = []
        others: list[tuple[int, Any]] = []
        for v, rows in groups:
            size = n if isinstance(rows, slice) else len(rows)
            recording = recordings[index[v]] if v in index else None
            few = self.rows_per_recorded_path and recording is not None
            if few:  # fewer recorded paths than one per rows_per_recorded_path rows: traced
                few = recording.leaves * self.rows_per_recorded_path < size  # type: ignore[union-attr]
            if recording is None or few:
                others.append((v, rows))
            else:
                parts.append((v, np.arange(n, dtype=np.intp) if isinstance(rows, slice) else rows))
        if not parts:
            return others
        key = (s, facts_key)
        combined = self._combined.get(key)
        if combined is None or combined.signature != signature(recordings):
            registry = self._registries.setdefault(key, Registry())
            combined = self._combined[key] = combine(recordings, registry)
        compiled = decisions(combined) if recorded.FAST_DECIDE is not None else None
        traces: list[tuple[list[int], Trace, int, int]] = []
        if compiled is not None:
            # each decision computed in C for the rows that reach it (recorded.decide): the rows in the block's order,
            # no column gathered but for the amounts' expressions (a few)
            start_of = np.full(n, -1, dtype=np.intp)
            for v, part_rows in parts:
                start_of[part_rows] = combined.base[index[v]] + 1
            rows = np.flatnonzero(start_of >= 0)
            start = start_of[rows]
            everything = len(rows) == n
        else:
            # the rows replayed, by version (each version's rows in order): a version's rows are a slice of the
            # block's columns gathered once in that order, and each decision is computed on the slice of the versions
            # that make it
            rows = np.concatenate([r for _, r in parts]) if len(parts) > 1 else parts[0][1]
            counts = [len(r) for _, r in parts]
            stops = np.cumsum(counts)
            starts = stops - counts
            start = np.repeat(np.array([combined.base[index[v]] + 1 for v, _ in parts], dtype=np.intp), counts)
            everything = len(rows) == n and bool((rows[1:] > rows[:-1]).all()) if len(rows) else False
        whole = _Chunk(facts, None if everything else rows)
        whole.taken["_day"] = Column("_day", "date", day if everything else day[rows], None)
        if compiled is None:
            uses = combined.users[:, [index[v] for v, _ in parts]]
            needed = np.flatnonzero(uses.any(axis=1))
            first = np.argmax(uses[needed], axis=1)
            last = uses.shape[1] - 1 - np.argmax(uses[needed, ::-1], axis=1)
            spans: dict[tuple[int, int], list[int]] = {}
            for r, lo, hi in zip(needed.tolist(), starts[first].tolist(), stops[last].tolist(), strict=True):
                spans.setdefault((lo, hi), []).append(r)
            for (lo, hi), recipes in spans.items():
                evaluator = Trace(_Chunk(whole, slice(lo, hi)), DEFAULTS, hi - lo, 0)
                evaluator.lift_memo, evaluator.lift_tables = self._lift_memo, self._lift_tables
                traces.append((recipes, evaluator, lo, hi))
        try:
            with np.errstate(all="ignore"):
                if compiled is not None:
                    block = _WithDay(facts, Column("_day", "date", day, None))
                    leaf = decide(combined, compiled, block, rows, start, self._lift_memo, self._lift_tables)
                    if compiled.lifts and (leaf < 0).any():
                        leaf = self._with_lifted(combined, compiled, block, rows, start, leaf)
                else:
                    leaf = walk(combined, codes(combined, len(rows), traces), np.arange(len(rows)), start)
                vids = [plan.plans[v].vid for v in sorted(index, key=index.__getitem__)]
                found = self._combined_leaves(combined, recordings, vids, self._registries[key])
                columns, constants, fallback, value_of, reasons, keys = found
                where = np.maximum(leaf, 0)
                amount = np.take(constants, where)
                if keys:
                    value = np.take(value_of, where)
                    evaluator = Trace(whole, DEFAULTS, len(rows), 0)
                    evaluator.lift_memo, evaluator.lift_tables = self._lift_memo, self._lift_tables
                    traces.append(([], evaluator, 0, 0))  # closed with the others
                    for k, value_key in enumerate(keys):
                        at = np.flatnonzero(value == k)
                        if len(at):
                            amount[at] = expression(evaluator, value_key, combined.lifts)[at]
        except Exception:  # noqa: BLE001 - a decision or an amount the whole block cannot compute: one by one
            return groups
        finally:
            for _, trace, _, _ in traces:
                trace.close()
        _leaf_codes(result, s, rows, columns, where)
        result.amount[s, rows] = amount
        known = leaf >= 0
        if fallback.any():
            fell = fallback[where] & known
            if fell.any():
                result.fallback[s, rows] = fell
                tally = np.bincount(leaf[fell], minlength=len(fallback))
                for j in np.flatnonzero(tally).tolist():
                    result.fallback_reasons[reasons[j]] += int(tally[j])
        decided = int(np.count_nonzero(known))
        result.replayed += decided
        self.combined_blocks += 1
        if decided < len(rows):  # rows that reach a decision side no earlier chunk took: traced (and recorded)
            known_of = np.zeros(n, dtype=np.bool_)
            known_of[rows] = known
            for v, part in parts:
                unknown = ~known_of[part]
                if unknown.any():
                    fresh = part[unknown]
                    result.fallback[s, fresh] = False
                    version_plan = plan.plans[v]
                    recording = recordings[index[v]]
                    key_of = (s, version_plan.vid, facts_key)
                    self._explore(result, s, version_plan, facts, day, fresh, key_of, recording)
        return others

    def _with_lifted(
        self, combined: Combined, compiled: Decisions, block: Mapping[str, Column], rows: Any, start: Any, leaf: Any
    ) -> Any:
        """The rows no recorded path decided, decided again once the lifted functions their decisions read have been
        computed for their values (the C decisions only look them up: a value never met is « not held »): by the
        trace's own :meth:`~legislation.columnar.symbolic.Trace.lift`, as the codes computed by numpy do."""
        unknown = np.flatnonzero(leaf < 0)
        trace = Trace(_Chunk(block, rows[unknown]), DEFAULTS, len(unknown), 0)
        trace.lift_memo, trace.lift_tables = self._lift_memo, self._lift_tables
        try:
            with np.errstate(all="ignore"):
                for key in compiled.lifts:
                    try:
                        expression(trace, key, combined.lifts)
                    except (Stale, Unvectorisable):
                        continue  # (not computable on these rows: they are traced)
        finally:
            trace.close()
        leaf = leaf.copy()
        leaf[unknown] = decide(
            combined, compiled, block, rows[unknown], start[unknown], self._lift_memo, self._lift_tables
        )
        return leaf

    def _combined_leaves(
        self, combined: Combined, recordings: list[Recording], vids: list[str], registry: Registry
    ) -> tuple[I64, I64, npt.NDArray[np.bool_], I64, list[str], list[Any]]:
        """The recordings' leaf tables (:meth:`_leaf_tables`) side by side: per leaf across them, the six codes, its
        amount when a number, whether it falls back, its amount's expression (an index in the keys, -1: a number),
        the fallback reason as reported; and the amounts' expressions. Kept with the combined table (and each
        recording's part with the recording, while it does not grow)."""
        found = combined.extra.get("leaves")
        if found is not None:
            return found  # type: ignore[no-any-return]
        columns, constants, fallback, value_of = [], [], [], []
        reasons: list[str] = []
        keys = registry.values
        for recording, vid in zip(recordings, vids, strict=True):
            part = recording.extra.get("combined leaves")
            if part is None or part[0] != recording.leaves or part[1] is not registry:
                codes_of, falls, values = self._leaf_tables(recording)
                slot_key = np.array(
                    [-1, *(keys.setdefault(recording.leaf_list[j].value, len(keys)) for j in values)], dtype=np.int64
                )
                why = [
                    f"{vid}: {leaf.outcome.reason}" if isinstance(leaf.outcome, Fallback) else ""
                    for leaf in recording.leaf_list
                ]
                part = (recording.leaves, registry, (codes_of[:6], codes_of[6], falls, slot_key[codes_of[7]], why))
                recording.extra["combined leaves"] = part
            six, constant, falls, value, why = part[2]
            columns.append(six)
            constants.append(constant)
            fallback.append(falls)
            value_of.append(value)
            reasons.extend(why)
        found = (
            np.concatenate(columns, axis=1),
            np.concatenate(constants),
            np.concatenate(fallback),
            np.concatenate(value_of),
            reasons,
            list(keys),
        )
        combined.extra["leaves"] = found
        return found

    # -- the versions' rules, traced ---------------------------------------------------------------------------

    def _trace(
        self,
        result: ColumnarResult,
        s: int,
        plan: VersionPlan,
        facts: Mapping[str, Column],
        day: I64,
        rows: Any,
    ) -> None:
        """One version over some rows (an index array, or a slice: a view of the columns): by the decision tree
        earlier chunks recorded where it decides them, else traced."""
        key = (s, plan.vid, tuple(sorted(facts)))
        recording = self._recordings.get(key) if self.record else None
        few = self.rows_per_recorded_path and recording is not None
        if few:  # fewer recorded paths than one per rows_per_recorded_path rows: traced
            size = len(range(len(day))[rows]) if isinstance(rows, slice) else len(rows)
            few = recording.leaves * self.rows_per_recorded_path < size  # type: ignore[union-attr]
        if recording is None or not recording.leaves or few:
            self._explore(result, s, plan, facts, day, rows, key, recording)
            return
        everything = isinstance(rows, slice) and rows.start == 0 and (rows.stop or 0) >= len(day)
        chunk_day = day if everything else day[rows]
        chunk = _Chunk(facts, None if everything else rows)
        chunk.taken["_day"] = Column("_day", "date", chunk_day, None)
        evaluator = Trace(chunk, DEFAULTS, len(chunk_day), 0)
        evaluator.concrete = set(recording.concrete)
        evaluator.lift_memo, evaluator.lift_tables = self._lift_memo, self._lift_tables
        try:
            leaf = replay(recording, evaluator)
            unknown = np.flatnonzero(leaf < 0)
            if len(unknown) < len(leaf):
                self._assemble_replayed(result, s, plan, leaf, evaluator, recording, rows, everything)
        except (Stale, Unvectorisable):
            self._explore(result, s, plan, facts, day, rows, key, recording)
            return
        finally:
            evaluator.close()
        result.replayed += len(chunk_day) - len(unknown)
        if len(unknown):  # rows that reach a decision side no earlier chunk took: traced (and recorded)
            positions = np.arange(len(day))[rows] if isinstance(rows, slice) else rows
            fresh = positions[np.sort(unknown)]
            result.fallback[s, fresh] = False
            self._explore(result, s, plan, facts, day, fresh, key, recording)

    def _explore(
        self,
        result: ColumnarResult,
        s: int,
        plan: VersionPlan,
        facts: Mapping[str, Column],
        day: I64,
        rows: Any,
        key: tuple[int, str, tuple[str, ...]],
        recording: Recording | None,
    ) -> None:
        """Trace one version over some rows, and record what the trace found."""
        everything = isinstance(rows, slice) and rows.start == 0 and (rows.stop or 0) >= len(day)
        chunk_day = day if everything else day[rows]
        chunk = _Chunk(facts, None if everything else rows)
        chunk.taken["_day"] = Column("_day", "date", chunk_day, None)
        # a trace pays ~40-100 µs of Python per path, the row engine ~20 µs per row: when the paths are not recorded,
        # past one path per ROWS_PER_PATH rows of the chunk the rows of the paths not explored yet are left to the row
        # engine (and counted). Recorded, a path is traced once and replayed by every later chunk and call (and kept
        # by `vigueur batch` for its later runs): only PATH_LIMIT bounds it. (Measured, `vigueur batch` of 1 000 000
        # mixed rows with an empty cache: the ratio applied to its first blocks' 70 000 rows left 1.9 % of the results
        # to the row engine and their paths untraced, which the next run traced and kept again — 6.58 s then 2.61 s,
        # the runs after 1.96 s; recorded without the ratio, 6.36 s then 1.93 s.)
        limit = self.path_limit
        if self.rows_per_path and not self.record:
            limit = min(limit, max(self.min_paths, len(chunk_day) // self.rows_per_path))
        trace = Trace(chunk, {**DEFAULTS, "schemes": (plan.version.scheme,)}, len(chunk_day), limit)
        if recording is not None:
            trace.concrete = set(recording.concrete)  # the recording's decisions: the same facts read plainly
        trace.lift_memo, trace.lift_tables = self._lift_memo, self._lift_tables
        engine = self.engine
        dispatch = (plan.kernel, plan.deadline, plan.order_until, plan)

        def resolve(trace: Trace) -> Outcome:
            row = SymRow(trace)
            decisive = trace.read("_day")
            order = row.order_date
            if order is None:
                return plan.kernel(row, NO_BRANCHES, decisive)  # type: ignore[arg-type]
            return engine._dispatched(row, decisive, order, dispatch)  # type: ignore[arg-type]

        try:
            try:
                leaves = trace.explore(resolve)
            except TooManyPaths as exc:
                result.fallback[s, rows] = True
                result.fallback_reasons[f"{plan.vid}: {exc}"] += len(chunk_day)
                return
            finally:
                result.paths += trace.paths
            if self.record:
                if recording is None:
                    recording = self._recordings[key] = Recording(frozenset(trace.concrete))
                if recording.concrete == trace.concrete:
                    recording.add(trace)
            self._assemble(result, s, plan, leaves, rows, everything)
        finally:
            trace.close()

    def _assemble_replayed(
        self,
        result: ColumnarResult,
        s: int,
        plan: VersionPlan,
        leaf: npt.NDArray[np.int32],
        trace: Trace,
        recording: Recording,
        rows: Any,
        everything: bool,
    ) -> None:
        """Each replayed row's leaf outcome into the result's arrays (a row no leaf decides, -1, is written with the
        first leaf's values and traced after: its outcome overwrites them)."""
        codes, fallback, values = self._leaf_tables(recording)
        where = np.maximum(leaf, 0)
        target_rows: Any = slice(None) if everything else rows
        _leaf_codes(result, s, target_rows, codes[:6], where)
        amount = np.take(codes[6], where)
        if values:
            slot = np.take(codes[7], where)
            for k, j in enumerate(values, start=1):
                at = slot == k
                if at.any():
                    found = leaf_value(recording, j, trace)
                    amount[at] = found[at]
        result.amount[s, target_rows] = amount
        if fallback.any():
            fell = fallback[where] & (leaf >= 0)
            if fell.any():
                result.fallback[s, target_rows] = fell
                counts = np.bincount(leaf[fell], minlength=len(recording.leaf_list))
                for j in np.flatnonzero(counts).tolist():
                    reason = recording.leaf_list[j].outcome.reason
                    result.fallback_reasons[f"{plan.vid}: {reason}"] += int(counts[j])

    def _leaf_tables(self, recording: Recording) -> tuple[I64, npt.NDArray[np.bool_], list[int]]:
        """Per leaf of the recording: status, known, eligible, version, kept, paragraph, its amount when a number,
        and the slot of its amount's expression (0: a number); which leaves fall back; the leaf of each slot (1, 2…).
        Kept with the recording, extended as it grows."""
        extra = recording.extra
        leaves = recording.leaf_list
        made = extra.get("arrays")
        if made is not None and len(made[1]) == len(leaves):
            return made  # type: ignore[no-any-return]
        if "columns" not in extra:
            extra.update(columns=[], fallback=[], slots={}, values=[], arrays=None)
        elif extra["columns"] is None:  # given as the arrays alone (api.batch.learned): as lists, to grow
            codes, fell, made_values = extra["arrays"]
            slots_of = {leaves[j].value: k for k, j in enumerate(made_values, start=1)}
            extra.update(columns=codes.T.tolist(), fallback=fell.tolist(), slots=slots_of, values=list(made_values))
        columns, fallback, slots, values = extra["columns"], extra["fallback"], extra["slots"], extra["values"]
        for j in range(len(columns), len(leaves)):
            found = leaves[j]
            outcome = found.outcome
            if isinstance(outcome, Fallback):
                fallback.append(True)
                columns.append((0, 0, 0, 0, 0, 0, 0, 0))
                continue
            fallback.append(False)
            value = outcome[2]
            slot = 0
            if found.value is not None:
                slot = slots.get(found.value, 0)
                if not slot:
                    values.append(j)
                    slot = slots[found.value] = len(values)
            columns.append((*self._codes(outcome), value if isinstance(value, int) else 0, slot))
        arrays = (
            np.array(columns, dtype=np.int64).reshape(-1, 8).T.copy(),
            np.array(fallback, dtype=np.bool_),
            list(values),
        )
        extra["arrays"] = arrays
        return arrays

    def _assemble(
        self,
        result: ColumnarResult,
        s: int,
        plan: VersionPlan,
        leaves: list[tuple[Any, Any]],
        rows: Any,
        everything: bool,
    ) -> None:
        """Each leaf's outcome into the result's arrays: a leaf number per row, then one small table per array."""
        size = len(range(len(result.status[s]))[rows]) if isinstance(rows, slice) else len(rows)
        small = len(leaves) < 256
        leaf: npt.NDArray[np.integer[Any]] = np.zeros(size, dtype=np.uint8 if small else np.int32)
        tables = np.zeros((7, len(leaves)), dtype=np.int64)  # status, known, eligible, version, kept, paragraph, amount
        fallback = np.zeros(len(leaves), dtype=np.bool_)
        # the leaves whose amount is a column, by column: several leaves often end on the same one (the same rate,
        # reached by paths split on an enum), so that their rows are added once (their masks joined, their indices
        # put together: _amounts)
        columns: dict[int, list[Any]] = {}
        for j, (at, outcome) in enumerate(leaves):  # each leaf's rows (symbolic.Rows: None, a mask or indices)
            if j and at is None:
                leaf.fill(j)
            elif j and at.dtype != np.bool_:
                leaf[at] = j
            elif j:  # the masks are disjoint: a leaf number is a sum
                if small:
                    np.add(leaf, at.view(np.uint8) * np.uint8(j), out=leaf)
                else:
                    np.copyto(leaf, j, where=at)
            if isinstance(outcome, Fallback):
                fallback[j] = True
                result.fallback_reasons[f"{plan.vid}: {outcome.reason}"] += rows_count(at, size)
                continue
            value = outcome[2]
            if value is not None and not isinstance(value, int):
                found = columns.get(id(value))
                if found is None:
                    columns[id(value)] = [value, None if at is None else [at]]
                elif found[1] is not None:
                    found[1] = None if at is None else [*found[1], at]
                value_code = 0
            else:
                value_code = value or 0
            tables[:, j] = (*self._codes(outcome), value_code)
        where: Any = slice(None) if everything else rows
        contiguous = isinstance(where, slice)
        if contiguous:  # straight into the result (a view of it, zeros: each row is traced once)
            _amounts(columns, tables[6], leaf, result.amount[s, where])
        else:
            result.amount[s, where] = _amounts(columns, tables[6], leaf, np.zeros(size, dtype=np.int64))
        targets: tuple[np.ndarray[Any, Any], ...] = (
            result.status,
            result.amount_known,
            result.eligible,
            result.version,
            result.kept,
            result.paragraph,
        )
        for target, table in zip(targets, tables, strict=False):
            if (table == table[0]).all():  # the same for every leaf (the version, often the status…)
                target[s, where] = table[0]
            elif contiguous:  # straight into the result (a view of it)
                take(table, leaf, target[s, where])
            else:
                target[s, where] = take(table, leaf, np.empty(size, dtype=target.dtype))
        if fallback.any():
            result.fallback[s, where] = fallback[leaf]

    # -- what the columns do not decide: the row engine ----------------------------------------------------------

    def _fall_back(
        self, result: ColumnarResult, facts: Mapping[str, Column], row_fallback: npt.NDArray[np.bool_]
    ) -> None:
        items: list[tuple[int, tuple[Scheme, ...]]] = []
        if row_fallback.any():  # (most calls: none — no pass over the result arrays)
            result.fallback[:, row_fallback] = True
            result.fallback_reasons["the resolver's dates (a missing or contradicted date)"] += (
                int((result.requested[:, row_fallback]).sum())
            )
            fallen = np.flatnonzero(row_fallback)
            items = [
                (i, SCHEME_TUPLES[t]) for i, t in zip(fallen.tolist(), result.row_schemes[fallen].tolist(), strict=True)
            ]
        for s, scheme in enumerate(ALL_SCHEMES):
            if not result.fallback[s].any():
                continue
            alone = shared_schemes((scheme,))
            items.extend(
                (j, alone) for j in np.flatnonzero(result.fallback[s] & result.requested[s] & ~row_fallback).tolist()
            )
        if not items:
            return
        rows = rows_at(facts, np.array([i for i, _ in items], dtype=np.intp), [t for _, t in items])
        outcomes = self.engine.outcomes
        for (i, schemes), row in zip(items, rows, strict=True):
            try:
                found = outcomes(row)
            except InvalidFacts as exc:
                # kept without its traceback: its frames (this one's caller holds the result) would make a reference
                # cycle, and the result's arrays would wait for the cyclic collector instead of going with the result
                result.errors[i] = exc.with_traceback(None)
                result.status[:, i] = INVALID
                result.amount_known[:, i] = False
                result.fallback[:, i] = True
                continue
            for scheme, outcome in zip(schemes, found, strict=True):
                self._store(result, _SCHEME_INDEX[scheme], i, outcome)

    def _store(self, result: ColumnarResult, s: int, i: int, outcome: Outcome) -> None:
        codes = self._codes(outcome)
        for target, code in zip(_TARGETS, codes, strict=True):
            getattr(result, target)[s, i] = code
        result.amount[s, i] = outcome[2] or 0

    def _codes(self, outcome: Any) -> tuple[int, int, int, int, int, int]:
        """An outcome as the result arrays' codes: status, amount known, eligible, version, kept version, paragraph
        (in the order of :data:`_TARGETS`)."""
        _, status, value, eligible, vid, paragraph, kept = outcome
        return (
            _STATUS[status],
            value is not None,
            -1 if eligible is None else int(eligible),
            self._version_index[vid] if vid is not None else -1,
            self._version_index[kept] if kept is not None else -1,
            self._paragraphs.number(paragraph),
        )


_VERSION_TABLES: dict[bytes, tuple[int, npt.NDArray[np.intp]]] = {}


def _version_at(starts: I64, day: I64) -> npt.NDArray[np.intp]:
    """``searchsorted(starts, day, side="right") - 1``: the last version started on or before each day (-1: none) —
    by a table of the days from the first start to the last (one look-up a row, no binary search)."""
    if not len(starts) or int(starts[-1]) - int(starts[0]) >= 1 << 20:
        return np.searchsorted(starts, day, side="right") - 1
    key = starts.tobytes()
    found = _VERSION_TABLES.get(key)
    if found is None:
        first = int(starts[0])
        table = np.searchsorted(starts, np.arange(first, int(starts[-1]) + 1), side="right") - 1
        found = _VERSION_TABLES[key] = (first, table)
        if len(_VERSION_TABLES) > 64:
            _VERSION_TABLES.clear()
            _VERSION_TABLES[key] = found
    first, table = found
    at = day.astype(np.int64) - first
    np.clip(at, 0, len(table) - 1, out=at)
    which = table[at]
    which[day < first] = -1
    return which


def _leaf_codes(result: ColumnarResult, s: int, rows: Any, tables: Any, where: Any) -> None:
    """The six codes of each row's leaf (status, amount known, eligible, version, kept, paragraph: ``tables``, one
    array per code, by leaf) into the result's arrays of scheme ``s`` at ``rows`` (``where``: each row's leaf)."""
    targets: tuple[Any, ...] = (
        result.status, result.amount_known, result.eligible, result.version, result.kept, result.paragraph
    )
    for target, table in zip(targets, tables, strict=True):
        if (table == table[0]).all():
            target[s, rows] = table[0]
        else:
            target[s, rows] = np.take(table.astype(target.dtype), where)


def _amounts(columns: dict[int, list[Any]], constants: I64, leaf: Any, out: I64) -> I64:
    """Each row's amount into ``out`` (int64 zeros): its leaf's number, plus its leaf's column (0 where not known)."""
    if constants.any():  # the leaves whose amount is a number: one table
        take(constants, leaf, out)
    for value, parts in columns.values():  # each leaf's rows (symbolic.Rows), disjoint: no row added twice
        values = value.value
        if parts is None:
            np.add(out, values, out=out)
            continue
        masks = [p for p in parts if p.dtype == np.bool_]
        if masks:
            mask = masks[0] if len(masks) == 1 else np.logical_or.reduce(masks)
            np.add(out, np.multiply(values, mask, dtype=values.dtype), out=out)
        indices = [p for p in parts if p.dtype != np.bool_]
        if indices:
            at = indices[0] if len(indices) == 1 else np.concatenate(indices)
            out[at] += values[at] if np.ndim(values) else values
    return out


_SCHEME_INDEX = {s: k for k, s in enumerate(ALL_SCHEMES)}
_TARGETS = ("status", "amount_known", "eligible", "version", "kept", "paragraph")  # ColumnarResult's, by code
_VERSION_FACTS = ("acquisition", "invoice_date", "order_date", "first_rent_date")  # what version_for reads
_TUPLE_INDEX = {t: k for k, t in enumerate(SCHEME_TUPLES)}
_SCHEME_NAMES = {s.value: s for s in Scheme}


def _row_schemes(column: Any, n: int, default: tuple[Scheme, ...]) -> npt.NDArray[np.int8]:
    """Each row's schemes as an index in SCHEME_TUPLES: from ``bonus|conversion_premium`` texts (empty: the
    default), tuples of :class:`Scheme`, or those indices."""
    if column is None:
        return np.full(n, _TUPLE_INDEX[default], dtype=np.int8)
    items = list(column) if not isinstance(column, np.ndarray) or column.ndim != 1 else column
    array = np.asarray(items) if not isinstance(items, np.ndarray) and items and isinstance(items[0], int) else items
    if isinstance(array, np.ndarray) and array.dtype.kind in "iu":
        if ((array < 0) | (array >= len(SCHEME_TUPLES))).any():
            raise ColumnError("schemes", f"codes are 0–{len(SCHEME_TUPLES) - 1} (legislation.row.SCHEME_TUPLES)")
        return array.astype(np.int8)
    values = array.tolist() if isinstance(array, np.ndarray) else array
    seen: dict[Any, int] = {}  # each distinct text or tuple numbered in one pass (no sort of Python objects)
    try:  # texts or tuples: numbered by dictionary look-ups in C
        seen = {x: j for j, x in enumerate(dict.fromkeys(values))}
        inverse = np.fromiter(map(seen.__getitem__, values), dtype=np.int32, count=n)
    except TypeError:  # a list among them (not hashable): each made a tuple
        seen = {}
        inverse = np.fromiter(
            (seen.setdefault(x if type(x) is str else tuple(x), len(seen)) for x in values), dtype=np.int32, count=n
        )
    texts = [x if isinstance(x, str) else "|".join(x) for x in seen]
    table = np.empty(len(texts), dtype=np.int8)
    for j, text in enumerate(texts):
        try:
            found = tuple(dict.fromkeys(_SCHEME_NAMES[s] for s in text.split("|"))) if text else default
        except KeyError:
            raise ColumnError("schemes", f"{text!r}: schemes are bonus or conversion_premium, separated by |") from None
        table[j] = _TUPLE_INDEX[shared_schemes(found)]
    return table[inverse.reshape(-1)]


class _Chunk(Mapping[str, Column]):
    """The columns of some rows, each gathered when the trace first reads it (a calculator reads a few facts)."""

    def __init__(self, facts: Mapping[str, Column], rows: Any) -> None:
        self.facts, self.rows = facts, rows
        self.taken: dict[str, Column] = {}

    def __getitem__(self, name: str) -> Column:
        found: Column | None = self.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def get(self, name: str, default: Any = None) -> Any:
        found = self.taken.get(name)
        if found is None:
            column = self.facts.get(name)
            if column is None:
                return default
            found = self.taken[name] = column if self.rows is None else _take(column, self.rows)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter({**self.facts, **self.taken})

    def __len__(self) -> int:
        return len({**self.facts, **self.taken})


class _WithDay(Mapping[str, Column]):
    """A block's facts and the rows' decisive day (``_day``), read by name without copying the facts."""

    def __init__(self, facts: Mapping[str, Column], day: Column) -> None:
        self.facts, self.day = facts, day

    def __getitem__(self, name: str) -> Column:
        return self.day if name == "_day" else self.facts[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.day if name == "_day" else self.facts.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(("_day", *(name for name in self.facts if name != "_day")))

    def __len__(self) -> int:
        return len(self.facts) + ("_day" not in self.facts)


def _take(column: Column, rows: Any) -> Column:
    if isinstance(rows, slice):
        null = None if column.null is None else column.null[rows]
        return Column(column.name, column.kind, column.values[rows], null, column.members, column.limits())
    null = None if column.null is None else np.take(column.null, rows)
    return Column(column.name, column.kind, np.take(column.values, rows), null, column.members, column.limits())


_ENGINES: dict[int, tuple[Catalogue, Columnar]] = {}


def columnar_for(catalogue: Catalogue) -> Columnar:
    """The :class:`Columnar` of a catalogue, built once per catalogue object (its compiled kernels are reused)."""
    found = _ENGINES.get(id(catalogue))
    if found is None or found[0] is not catalogue:
        if len(_ENGINES) > 8:
            _ENGINES.clear()
        found = _ENGINES[id(catalogue)] = (catalogue, Columnar(catalogue))
    return found[1]


def compute(
    columns: Mapping[str, Any], catalogue: Catalogue, schemes: tuple[Scheme, ...] = ALL_SCHEMES
) -> ColumnarResult:
    """Every scheme of every row, from columns — the outcomes :meth:`legislation.fast.Engine.outcomes` gives.

    ``columns``: one numpy array per fact, named as the fields of :class:`~legislation.row.Row` (the CSV columns
    of ``vigueur batch``; see :mod:`legislation.columnar.columns` for each fact's dtype: dates ``datetime64[D]``,
    enums as their values or codes, money int64 cents, quantities int64 thousandths, masked arrays for « not
    given »); ``acquisition`` is required. ``schemes``: the schemes computed for every row (both by default), in
    that order. :class:`~legislation.columnar.columns.ColumnError` names a column that is not of its form.

    Each version's rows are traced through the version's own compiled calculator and the resolver's clause and
    keep rules (:mod:`legislation.columnar.symbolic`): nothing of a rule is written here. The version is picked
    per row by ``numpy.searchsorted`` on the versions' start days. Whatever the columns do not decide — a date
    the resolver refuses, a lease decided by another event, a path the trace cannot follow exactly — is
    computed by the row engine, row by row, and reported: ``fallback`` (which results), ``fallback_count``,
    ``fallback_reasons``.

    Returns a :class:`ColumnarResult`; ``result.outcomes(i)`` gives row ``i`` as the row engine's tuples.
    """
    return columnar_for(catalogue).compute(columns, schemes)


def iter_outcomes(result: ColumnarResult) -> Iterator[list[Outcome]]:
    """Each row's outcomes in order (a convenience for tests and small batches; slow for big ones)."""
    for i in range(result.rows):
        yield result.outcomes(i)
