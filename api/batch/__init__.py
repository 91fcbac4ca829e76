"""Batch: many purchases in (CSV or JSON Lines), computed by the fast path, one result per scheme out."""
