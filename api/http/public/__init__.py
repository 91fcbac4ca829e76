"""Pydantic models of the HTTP contract that only document or check bodies (with their examples)."""
