"""The ``vigueur`` command line: :mod:`api.cli.main` registers every command module."""
