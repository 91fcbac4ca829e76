"""Audit: receipts of computations (what was answered, with which catalogue) and their replay."""
