"""Catalogue: the ``versions/`` tree (loader, codec), the database store of versions, diffs."""
