"""The batch benchmark's Parquet inputs (benchmarks/run.py): the same rows in each layout, written as each layout
says (its codec; one row group where the writer's defaults give one)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from api.catalogue.loader import load_catalogue
from benchmarks.generate import write_csv
from benchmarks.run import PARQUET_LAYOUTS, _csv_to_parquet


def test_every_layout_holds_the_same_rows_as_it_says(tmp_path: Path) -> None:
    source = tmp_path / "rows.csv"
    write_csv(load_catalogue(), source, 3_000)
    tables, codecs, groups = {}, {}, {}
    for layout in PARQUET_LAYOUTS:
        target = tmp_path / f"{layout}.parquet"
        _csv_to_parquet(source, target, layout)
        tables[layout] = pq.read_table(target)
        metadata = pq.ParquetFile(target).metadata
        groups[layout] = metadata.num_row_groups
        codecs[layout] = {metadata.row_group(0).column(j).compression for j in range(metadata.num_columns)}
    first = tables["streamed"]
    assert first.num_rows == 3_000  # write_csv's rows, every one read (none skipped)
    assert all(table.equals(first) for table in tables.values())
    assert codecs == {"streamed": {"ZSTD"}, "row-groups-122880": {"SNAPPY"}, "one-row-group": {"SNAPPY"}}
    assert groups["one-row-group"] == groups["row-groups-122880"] == 1  # 3 000 rows: under either size
