"""The `vigueur` command line. Its JSON output is the contract the HTTP API reuses byte for byte.

Every command module is registered here, explicitly; no command module imports this one.

Exit codes: 0 success; 2 invalid request or arguments (a problem document names the field);
3 the catalogue in ``versions/`` is invalid; 4 unknown version, no version on file, or nothing known then;
5 cannot connect to the database; 6 a store integrity check failed; 7 the database holds no catalogue;
8 `load --history` without git.
Problem documents (the API's, same ``type``) go to standard error; results to standard output: JSON when piped
or with ``--json``, tables on a terminal. Shell completion: ``vigueur --install-completion``.
"""

from __future__ import annotations

import typer

from api.cli import batch, browse, cache, cases, catalogue, parameters, purchase, timeline

app = typer.Typer(
    name="vigueur",
    help="Which version of the French clean-vehicle aid decrees applied to a purchase, and what it gave.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)
app.add_typer(cases.cases_app, name="cases")
app.add_typer(cache.cache_app, name="cache")
app.command()(catalogue.load)
app.command()(catalogue.serve)
app.add_typer(catalogue.db_app, name="db")
app.add_typer(catalogue.receipts_app, name="receipts")
app.command()(purchase.calculate)
app.command()(purchase.resolve)
app.command()(browse.versions)
app.command()(browse.coverage)
app.command()(browse.show)
app.command()(browse.schema)
app.command()(batch.batch)
app.command()(timeline.timeline)
app.command()(parameters.parameter)


def main() -> None:
    """The `vigueur` console script: :data:`app`, except that a finished `vigueur batch` ends its process at once
    (:data:`api.cli.batch.END_AT_ONCE`): its output written, closed and flushed, without the interpreter's teardown of
    the run's objects (catalogue, engines, recorded paths: ~0.04 s of a 2 s run). Tests call :data:`app`."""
    batch.END_AT_ONCE = True
    app()
