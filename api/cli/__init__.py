"""The ``vigueur`` command line: :mod:`api.cli.main` registers every command module.

Before numpy is first imported: its OpenBLAS keeps one thread per core, which spins after a run of linear algebra.
vigueur does no linear algebra; in `vigueur batch` the main process's idle BLAS thread took ~1 % of the run's CPU
(perf, 2026-12-04) from the workers computing. One thread, unless the environment says otherwise.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
