"""Alembic migrations of the records' schema (run by :class:`RecordStore` on open)."""
