"""Adapters of vigueur: the strict loader of ``versions/``, the JSON contract, the CLI, the HTTP API and the store."""
