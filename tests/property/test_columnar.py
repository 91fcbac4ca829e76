"""The columnar path == the row engine == the explained path, on the whole regression corpus and on generated
purchases of every version on file (whatever versions are on file when the test runs).

The columns run each version's own compiled calculator over whole arrays (legislation/columnar/symbolic.py);
what they cannot follow falls back to the row engine and must be reported (``fallback_reasons``), never
silently wrong: these tests compare every result, fallback or not, and check that each version on file is
either decided by the columns or named in the report.
"""

from __future__ import annotations

import gc
import random
import types
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pytest

from api.cases.files import load_cases
from api.catalogue.loader import load_catalogue
from api.purchase.render import to_purchase
from legislation import InvalidDates, Role
from legislation.calculators.kit import Outcome
from legislation.columnar import STATUSES, Columnar, ColumnarResult, ColumnError, compute
from legislation.columnar.columns import from_rows
from legislation.enums import Acquisition, Scheme, VehicleCategory
from legislation.errors import InvalidFacts
from legislation.fast import Engine, Row, explained_outcome
from legislation.fast.engine import Kernel
from tests.property.test_fast_path_bulk import Pools, purchase

CATALOGUE = load_catalogue()
CASES = load_cases([Path(__file__).resolve().parent.parent / "regression"])


def _columns(rows: list[Row]) -> dict[str, object]:
    columns: dict[str, object] = dict(from_rows(rows))
    columns["schemes"] = ["|".join(s.value for s in row.schemes) for row in rows]
    return columns


def _row_engine(engine: Engine, row: Row) -> list[Outcome] | str:
    try:
        return engine.outcomes(row)
    except InvalidFacts as exc:
        return f"{type(exc).__name__}: {exc}"


def _replaying(engine: Engine, first: list[Row], later: list[Row]) -> Columnar:
    """A columnar engine that traced every row of ``first`` then of ``later`` and recorded their paths: its next call
    on ``later`` replays every row (every recording replayed, however few its paths)."""
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path, runner.rows_per_recorded_path = 0, 0  # every row traced, every recording replayed
    runner.compute(_columns(first))
    runner.compute(_columns(later))
    return runner


def _columnar(result: ColumnarResult, i: int) -> list[Outcome] | str:
    error = result.errors.get(i)
    return f"{type(error).__name__}: {error}" if error is not None else result.outcomes(i)


def _explained(row: Row) -> list[Outcome] | str:
    try:
        return [explained_outcome(CATALOGUE, row, s) for s in row.schemes]
    except InvalidFacts as exc:
        return f"{type(exc).__name__}: {exc}"


def test_columnar_equals_row_engine_and_explained_path_on_the_corpus() -> None:
    rows = []
    for case in CASES:
        try:
            rows.append(Row.from_purchase(to_purchase(case.request)))  # type: ignore[attr-defined]
        except InvalidFacts:
            continue
    rows = [r for r in rows if r.exact]
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path = 0  # every row traced, however few rows share a path
    result = runner.compute(_columns(rows))
    for i, row in enumerate(rows):
        expected = _row_engine(engine, row)
        assert _columnar(result, i) == expected, (CASES[i].id if i < len(CASES) else i, row)
        assert _explained(row) == expected, row
    assert result.results > 250
    decided = result.requested & ~result.fallback
    assert decided.sum() > 0.8 * result.results, result.fallback_reasons


def _generated(seed: int, per_version: int) -> tuple[list[Row], list[str]]:
    """Purchases aimed at each amounts version's deep paragraphs (tests/property/test_fast_path_bulk.py)."""
    rng = random.Random(seed)
    versions = [v for v in CATALOGUE.versions.values() if v.role is Role.AMOUNTS]
    pools = {v.id: Pools(v) for v in versions}
    rows, aimed = [], []
    for version in versions:
        for _ in range(per_version):
            rows.append(Row.from_purchase(purchase(rng, version, pools[version.id])))
            aimed.append(version.id)
    return rows, aimed


def test_columnar_equals_row_engine_on_generated_purchases_of_every_version() -> None:
    rows, aimed = _generated(20261201, 400)
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path = 0  # every row traced, however few rows share a path
    result = runner.compute(_columns(rows))
    decided: Counter[str] = Counter()
    for i, row in enumerate(rows):
        expected = _row_engine(engine, row)
        assert _columnar(result, i) == expected, row
        if i % 7 == 0:
            assert _explained(row) == expected, row
        for k in np.flatnonzero(result.requested[:, i] & ~result.fallback[:, i]):
            version = int(result.version[k, i])
            if version >= 0:
                decided[result.version_ids[version]] += 1
    reported = " ".join(result.fallback_reasons)
    for vid in sorted(set(aimed)):  # every version on file: decided by the columns, or named in the report
        assert decided[vid] > 50 or vid in reported, (vid, decided[vid], result.fallback_reasons)
    assert result.fallback_count < 0.25 * result.results, result.fallback_reasons


def test_chunks_and_one_block_give_the_same_results() -> None:
    rows, _ = _generated(7, 30)
    one = Columnar(CATALOGUE)
    one.rows_per_path = 0
    whole = one.compute(_columns(rows))
    small = Columnar(CATALOGUE)
    small.chunk, small.rows_per_path = 17, 0
    chunked = small.compute(_columns(rows))
    assert [_columnar(whole, i) for i in range(len(rows))] == [_columnar(chunked, i) for i in range(len(rows))]


def test_a_later_call_replays_the_recorded_decisions_and_traces_the_paths_not_seen_before() -> None:
    """What the traces of a first call learnt about each version (its decisions and leaves) decides a later
    call's rows without a trace; the rows that take a side no earlier call took are traced then (and recorded):
    either way the outcomes are a fresh trace's and the row engine's."""
    first, _ = _generated(11, 40)
    later, _ = _generated(12, 120)
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path, runner.rows_per_recorded_path = 0, 0  # every row traced, every recording replayed
    runner.compute(_columns(first))
    result = runner.compute(_columns(later))
    fresh = Columnar(CATALOGUE, engine)
    fresh.rows_per_path, fresh.record = 0, False
    expected = fresh.compute(_columns(later))
    assert expected.replayed == 0
    assert result.replayed > 0  # rows decided by the recording of the first call
    assert result.paths > 0  # rows on paths the first call did not take: traced
    assert result.paths < expected.paths
    for i, row in enumerate(later):
        assert _columnar(result, i) == _columnar(expected, i) == _row_engine(engine, row), row
    again = runner.compute(_columns(later))  # every path of these rows is recorded now: nothing traced
    assert again.paths == 0, again.fallback_reasons
    for i in range(len(later)):
        assert _columnar(again, i) == _columnar(expected, i)


def test_the_versions_replayed_in_one_walk_give_each_versions_own_replay_and_the_row_engine() -> None:
    """Every version's recording replayed at once (legislation.columnar.recorded.combine / walk: one table, each
    decision computed on the rows of the versions that make it) decides each row as its version's recording
    replayed alone does, reports the same fallbacks, and equals the row engine."""
    first, _ = _generated(31, 40)
    later, _ = _generated(32, 60)
    engine = Engine(CATALOGUE)
    results = []
    for combined in (True, False):
        runner = Columnar(CATALOGUE, engine)
        runner.rows_per_path, runner.rows_per_recorded_path = 0, 0  # every row traced, every recording replayed
        runner.combined = combined
        runner.compute(_columns(first))
        runner.compute(_columns(later))  # the paths of ``later`` recorded: the next call replays every row
        result = runner.compute(_columns(later))
        assert result.paths == 0 and result.replayed > 0
        assert (runner.combined_blocks > 0) is combined
        results.append(result)
    walked, alone = results
    assert walked.fallback_reasons == alone.fallback_reasons
    assert np.array_equal(walked.fallback & walked.requested, alone.fallback & alone.requested)
    for i, row in enumerate(later):
        assert _columnar(walked, i) == _columnar(alone, i) == _row_engine(engine, row), row


def test_a_recorded_decision_the_whole_block_cannot_compute_leaves_its_rows_to_a_trace() -> None:
    """A decision the combined replay cannot compute (here: every computed value out of reach) sends the rows
    that reach it to a trace, whose outcomes are the row engine's."""
    rows, _ = _generated(33, 30)
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path, runner.rows_per_recorded_path = 0, 0
    runner.compute(_columns(rows))
    for recording in runner._recordings.values():  # every plain or computed value held: none any row has
        for r, (kind, _) in enumerate(recording.recipe_list):
            if kind in ("bool",):
                recording.recipe_list[r] = ("bool", ("col", "no_such_fact"))
        recording.recipes = {recipe: k for k, recipe in enumerate(recording.recipe_list)}
        recording.arrays = ()
    result = runner.compute(_columns(rows))
    assert runner.combined_blocks > 0
    assert result.paths > 0  # the rows that reach those decisions: traced
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(engine, row), row


def test_a_lease_whose_version_is_picked_by_another_event_is_decided_by_the_columns() -> None:
    """The leases dated before the end of décret 2007-1873's versions (picked by the lease's signature, not its
    first rent): their decisive day per scheme is the resolver's own version_for, then the columns compute them."""
    rows, _ = _generated(20261201, 200)
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path = 0
    result = runner.compute(_columns(rows))
    until = engine.eventful_until
    leases = [
        i
        for i, row in enumerate(rows)
        if row.acquisition is Acquisition.LEASE
        and any(d is not None and d < until for d in (row.first_rent_date, row.invoice_date, row.order_date))
    ]
    decided = [i for i in leases if not result.fallback[:, i].any()]
    assert len(decided) > 100, (len(leases), len(decided), result.fallback_reasons)
    for i in leases:
        assert _columnar(result, i) == _row_engine(engine, rows[i]), rows[i]


def test_a_calculator_the_columns_cannot_follow_falls_back_and_is_reported() -> None:
    """A kernel that formats a fact (as an explaining context would) cannot run on a column: its rows go to the
    row engine, the fallback is counted and its reason names the version — the results stay exact."""
    engine = Engine(CATALOGUE)
    plan = next(p for p in engine.schemes[next(iter(engine.schemes))].plans if p.version.role is Role.AMOUNTS)
    original: Kernel = plan.kernel

    def formatting(row: Row, branches: frozenset[str], day: date) -> Outcome:
        shown = f"{row.vehicle_co2_g_per_km}"  # what the columns cannot do
        return original(row, branches, day) if shown is not None else original(row, branches, day)

    plan.kernel = formatting
    rows = [r for r in _generated(3, 40)[0] if r.exact]
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path = 0
    result = runner.compute(_columns(rows))
    assert any(reason.startswith(plan.vid) for reason in result.fallback_reasons), result.fallback_reasons
    assert result.fallback_count > 0
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(engine, row)


def test_one_date_columns_from_arrays() -> None:
    """The columns a caller builds from arrays: codes or strings, cents, datetime64 — the row engine's results."""
    n = 6
    columns = {
        "acquisition": np.array(["purchase"] * n),
        "invoice_date": np.array(["2020-07-15"] * n, dtype="datetime64[D]"),
        "vehicle_category": np.array(["passenger_car", "passenger_car", "van", "passenger_car", "", "van"]),
        "vehicle_energy": np.array(["electric"] * n),
        "vehicle_co2_g_per_km": np.zeros(n, dtype=np.int64),
        # D. 251-7 (2020-06-01): 30 000 € → 27 % = 8 100 €, capped at 7 000 € (1°, natural person);
        # 10 000.50 € → 27 % = 2 700.135 € → 2 700.14 € (half up); 45 000 € van → 3 000 € (2°);
        # 10 000.01 € → 2 700.0027 € → 2 700.00 €; no category → missing fact; 70 000 € van → 3 000 € (3°)
        "vehicle_acquisition_cost": np.array([3_000_000, 1_000_050, 4_500_000, 1_000_001, 1_000_000, 7_000_000]),
        "vehicle_previously_registered": np.zeros(n, dtype=np.bool_),
        "buyer_person_kind": np.array(["natural_person"] * n),
    }
    result = compute(columns, CATALOGUE)
    bonus = result.schemes.index(next(s for s in result.schemes if s.value == "bonus"))
    amounts = [int(a) if k else None for a, k in zip(result.amount[bonus], result.amount_known[bonus], strict=True)]
    assert amounts == [700_000, 270_014, 300_000, 270_000, None, 300_000]
    assert result.fallback_count == 0, result.fallback_reasons


def test_a_column_not_of_its_form_is_named() -> None:
    with pytest.raises(ColumnError, match="vehicle_category"):
        compute({"acquisition": np.array(["purchase"]), "vehicle_category": np.array(["tank"])}, CATALOGUE)
    with pytest.raises(ColumnError, match="acquisition"):
        compute({"invoice_date": np.array(["2020-07-15"], dtype="datetime64[D]")}, CATALOGUE)
    with pytest.raises(ColumnError, match="vehicle_acquisition_cost"):
        compute({"acquisition": np.array(["purchase"]), "vehicle_acquisition_cost": np.array([1.5])}, CATALOGUE)


def test_a_chunk_with_too_many_paths_per_row_goes_to_the_row_engine_and_is_reported() -> None:
    rows, _ = _generated(11, 20)
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.path_limit = 3  # past 3 paths in a chunk: its other rows to the row engine
    result = runner.compute(_columns(rows))
    assert any("more than 3 paths" in reason for reason in result.fallback_reasons), result.fallback_reasons
    decided = result.requested & ~result.fallback
    assert 0 < decided.sum() < result.results  # the 3 paths found are kept, the rest is computed row by row
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(engine, row)


def test_the_rows_per_path_ratio_leaves_rows_to_the_row_engine_only_when_the_paths_are_not_recorded() -> None:
    """A recorded path is traced once and replayed after (and `vigueur batch` keeps it for its later runs): the ratio
    of rows per path that hands a chunk's other rows to the row engine is for traces not recorded."""
    rows, _ = _generated(11, 20)
    engine = Engine(CATALOGUE)
    recorded, forgetful = Columnar(CATALOGUE, engine), Columnar(CATALOGUE, engine)
    recorded.min_paths = forgetful.min_paths = 1  # the ratio alone: one path per 6 rows of a chunk
    forgetful.record = False
    kept, lost = recorded.compute(_columns(rows)), forgetful.compute(_columns(rows))
    assert not any("paths" in reason for reason in kept.fallback_reasons), kept.fallback_reasons
    assert any("more than" in reason for reason in lost.fallback_reasons), lost.fallback_reasons
    for i, row in enumerate(rows):
        assert _columnar(kept, i) == _row_engine(engine, row) == _columnar(lost, i)


def test_a_chunk_on_one_path_whose_amount_is_a_column() -> None:
    """Every row of the chunk on one path (its rows: every row, no split), ending on an amount computed from a
    column: D. 251-7, 1° (2020-06-01), « 27 % du coût d'acquisition toutes taxes comprises [...] dans la limite de
    7 000 euros si le véhicule est acquis [...] par une personne physique » — costs under 7 000 / 0.27 = 25 925.93 €,
    so no row reaches the cap. (A path's rows became indices when few, 2026-12-07; a leaf of every row, amount a
    column, then failed the whole block, which the batch read again row by row.)"""
    from legislation.enums import Energy, PersonKind

    costs = (10_000_00, 12_345_67, 20_000_00)  # cents
    rows = [
        Row(
            acquisition=Acquisition.PURCHASE,
            invoice_date=date(2020, 7, 15),
            schemes=(Scheme.BONUS,),
            vehicle_category=VehicleCategory.PASSENGER_CAR,
            vehicle_energy=Energy.ELECTRIC,
            vehicle_co2_g_per_km=0,
            vehicle_acquisition_cost=cost,
            vehicle_previously_registered=False,
            buyer_person_kind=PersonKind.NATURAL_PERSON,
        )
        for cost in costs
    ]
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    result = runner.compute(_columns(rows))
    assert result.fallback_count == 0, result.fallback_reasons
    bonus = result.schemes.index(Scheme.BONUS)
    # 27 % of each cost: 10 000.00 € → 2 700.00 €; 12 345.67 € → 3 333.3309 → 3 333.33 €; 20 000.00 € → 5 400.00 €
    assert result.amount[bonus].tolist() == [2_700_00, 3_333_33, 5_400_00]
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(engine, row)


def test_invalid_dates_are_errors_of_their_row() -> None:
    columns = {
        "acquisition": np.array(["purchase", "purchase"]),
        "order_date": np.array(["2020-08-01", "2020-06-01"], dtype="datetime64[D]"),
        "invoice_date": np.array(["2020-07-15", "2020-07-15"], dtype="datetime64[D]"),
    }
    result = compute(columns, CATALOGUE)
    assert isinstance(result.errors[0], InvalidDates) and 1 not in result.errors


def test_without_a_scrapped_vehicle_column_a_row_that_gives_no_scrapped_fact_has_none() -> None:
    """No ``scrapped_vehicle`` column: a row with a ``scrapped_*`` fact has a scrapped vehicle, a row whose cells of
    those columns are empty has none (« not given » is not « scrapped », whatever the column's form)."""
    n = 4
    columns = {
        "acquisition": np.array(["purchase"] * n),
        "invoice_date": np.array(["2022-09-01"] * n, dtype="datetime64[D]"),
        "vehicle_category": np.array(["passenger_car"] * n),
        "scrapped_category": np.array(["passenger_car", "", "", ""]),  # an enum: « not given » is a code, not a mask
        "scrapped_destruction_date": np.array(["NaT", "2022-08-20", "NaT", "NaT"], dtype="datetime64[D]"),
        "scrapped_energy": np.ma.MaskedArray(np.array([0, 0, 0, 0], dtype=np.int8), mask=[True, True, True, False]),
        "schemes": np.array(["conversion_premium"] * n),
    }
    result = compute(columns, CATALOGUE)
    premium = result.schemes.index(next(s for s in result.schemes if s.value == "conversion_premium"))
    # conversion_premium_2022_07_31 (D. 251-8 from 2022-07-31, amounts not on file): a scrapped vehicle → « not
    # covered », amount unknown; no scrapped vehicle → refused, 0 €, not eligible
    statuses = [STATUSES[int(c)] for c in result.status[premium]]
    assert statuses == ["not_covered_on_file", "not_covered_on_file", "computed", "not_covered_on_file"]
    assert int(result.amount[premium, 2]) == 0 and int(result.eligible[premium, 2]) == 0
    assert not result.amount_known[premium, [0, 1, 3]].any()
    engine = Engine(CATALOGUE)
    no_scrap = Row(
        acquisition=Acquisition.PURCHASE,
        invoice_date=date(2022, 9, 1),
        vehicle_category=VehicleCategory.PASSENGER_CAR,
        schemes=(Scheme.CONVERSION_PREMIUM,),
    )
    assert result.outcomes(2) == engine.outcomes(no_scrap)


def test_a_calendar_helper_on_a_date_column_is_computed_per_date_not_per_path() -> None:
    """D. 251-1-1 (used electric car, bonus of D. 251-7 from 2020-12-09): 1 000 € when first registered at least
    two years (``add_months(first, 24)``) before the invoice. About 1 000 different registration dates — more than the
    512 plain values a path may split into — are decided by the columns in two paths (the rule's two sides):
    ``add_months`` is called once per date, not once per path."""
    firsts = [d for d in (date(2018, 1, 1) + timedelta(days=i) for i in range(1080)) if d.day <= 28]
    firsts = [d for d in firsts if d < date(2020, 12, 15)]
    n = len(firsts)
    columns = {
        "acquisition": np.array(["purchase"] * n),
        "invoice_date": np.array(["2020-12-15"] * n, dtype="datetime64[D]"),
        "vehicle_category": np.array(["passenger_car"] * n),
        "vehicle_energy": np.array(["electric"] * n),
        "vehicle_co2_g_per_km": np.zeros(n, dtype=np.int64),
        "vehicle_acquisition_cost": np.full(n, 2_000_000),
        "vehicle_previously_registered": np.ones(n, dtype=np.bool_),
        "vehicle_first_registration_date": np.array(firsts, dtype="datetime64[D]"),
        "buyer_person_kind": np.array(["natural_person"] * n),
        "schemes": np.array(["bonus"] * n),
    }
    result = compute(columns, CATALOGUE)
    bonus = result.schemes.index(Scheme.BONUS)
    # days 1–28: two years later is the same day number, no month-end clamp
    expected = [100_000 if date(d.year + 2, d.month, d.day) <= date(2020, 12, 15) else 0 for d in firsts]
    assert [int(a) for a in result.amount[bonus]] == expected
    assert 100_000 in expected and 0 in expected and len(set(firsts)) > 512
    assert result.fallback_count == 0, result.fallback_reasons
    assert result.paths <= 4


def test_the_version_of_each_day_is_numpys_search_of_the_start_days() -> None:
    """``engine._version_at`` reads the version of a day from a table of days: the same as ``numpy.searchsorted``
    (the last version started on or before the day, -1 before the first), whatever the day, near or far."""
    from legislation.columnar.engine import _version_at

    rng = np.random.default_rng(7)
    starts = np.sort(rng.choice(np.arange(733_000, 740_000), size=25, replace=False)).astype(np.int64)
    days = np.concatenate(
        [
            rng.integers(730_000, 742_000, 5_000),
            starts,
            starts - 1,
            starts + 1,
            [1, 3_652_059, int(starts[0]) - 1_000_000],
        ]
    ).astype(np.int64)
    expected = np.searchsorted(starts, days, side="right") - 1
    assert np.array_equal(_version_at(starts, days), expected)
    assert np.array_equal(_version_at(starts, days.astype(np.int32)), expected)
    wide = np.array([0, 5_000_000], dtype=np.int64)  # a range too long for a table: the search itself
    assert np.array_equal(_version_at(wide, days), np.searchsorted(wide, days, side="right") - 1)


def test_a_failure_without_a_message_is_reported_with_the_line_that_raised_it() -> None:
    """« StopIteration » alone says nothing: a fallback whose exception has no message names the file, line and
    function of the calculator's code that raised it — the rows still get the row engine's exact results."""
    engine = Engine(CATALOGUE)
    plan = next(p for p in engine.schemes[next(iter(engine.schemes))].plans if p.version.role is Role.AMOUNTS)
    original: Kernel = plan.kernel

    def running_out(row: Row, branches: frozenset[str], day: date) -> Outcome:
        if row.vehicle_co2_g_per_km is None or isinstance(row.vehicle_co2_g_per_km, int):  # a row; a column raises
            return original(row, branches, day)
        return next(iter(()))  # raises StopIteration() — no message

    plan.kernel = running_out
    rows = [r for r in _generated(3, 40)[0] if r.exact]
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path = 0
    result = runner.compute(_columns(rows))
    line = running_out.__code__.co_firstlineno + 3  # the `return next(iter(()))` line
    expected = f"StopIteration in tests/property/test_columnar.py:{line} (running_out)"
    assert any(expected in reason for reason in result.fallback_reasons), result.fallback_reasons
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(engine, row)


def _left_to_the_collector(work: Callable[[], object]) -> Counter[str]:
    """What ``work`` leaves in reference cycles (objects only the cyclic collector would free), by type: the objects of
    legislation's classes, exceptions, and the frames of legislation's code."""
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        work()
        gc.collect()
        found = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if collecting:
            gc.enable()
    ours: Counter[str] = Counter()
    for obj in found:
        kind = type(obj)
        if kind.__module__.startswith("legislation") or isinstance(obj, BaseException):
            ours[kind.__qualname__] += 1
        elif isinstance(obj, types.FrameType) and "legislation" in obj.f_code.co_filename:
            ours[f"frame of {obj.f_code.co_name}"] += 1
    return ours


def test_a_call_leaves_nothing_to_the_cyclic_collector() -> None:
    """A result and the call's traces go when their last reference does: the traces' values name their trace (closed
    when stored), the exceptions kept for a row's error or caught from a calculator keep no frames (one frame of
    ``_all_met`` held the missing fact it raised again). Measured before: a million mixed rows left ~200 MB a call to
    the collector, which the engine pauses while computing, and the next call paid fresh pages for all of it."""
    rows, _ = _generated(5, 20)
    invalid = replace(rows[0], order_date=date(2020, 8, 1), invoice_date=date(2020, 7, 15), first_rent_date=None)
    rows.append(replace(invalid, acquisition=Acquisition.PURCHASE))
    columns = _columns(rows)
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.path_limit = 3  # a chunk's paths past 3: its other rows to the row engine

    def call() -> None:
        runner.compute(columns)  # the result dropped at once

    assert _left_to_the_collector(call) == Counter()  # traced (and recorded)
    assert _left_to_the_collector(call) == Counter()  # replayed
    kept = runner.compute(columns)  # what the calls went through
    assert isinstance(kept.errors[len(rows) - 1], InvalidDates)
    assert any("more than 3 paths" in reason for reason in kept.fallback_reasons), kept.fallback_reasons
