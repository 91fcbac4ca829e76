"""The ``vigueur`` command line: :mod:`api.cli.main` registers every command module.

Two settings of the native libraries, read when they load (before numpy and pyarrow are first imported), each unless
the environment already says otherwise:

- OpenBLAS to one thread: it keeps one per core, which spins after a run of linear algebra. vigueur does no linear
  algebra; in `vigueur batch` the main process's idle BLAS thread took ~1 % of the run's CPU (perf, 2026-12-04) from
  the workers computing.
- Arrow's allocator (mimalloc) without transparent huge pages: with them, the first touch of each 2 MB of its memory
  in a process clears the whole 2 MB (perf: ``clear_page_erms`` under ``mi_page_free_list_extend``, ~10 % of a
  Parquet batch's CPU, in the main process and in each fresh worker). Measured on 1 000 000 rows, runs alternated,
  2026-12-07, CSV → CSV: 2.165 -> 2.015 s (median of 10; CPU 3.74 -> 3.44 s), 2.21 -> 2.075 s (median of 8),
  2.0 -> 1.91 s (median of 10; CPU 3.51 -> 3.28 s), and set here 2.225 -> 2.095 s (median of 10; once no difference,
  2.26 / 2.255 s); Parquet → Parquet the same within the noise (2.035 / 2.02 s, 2.285 / 2.29 s).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MIMALLOC_ALLOW_THP", "0")
