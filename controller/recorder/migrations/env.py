"""Alembic's environment: run on the connection :class:`RecordStore` hands in."""

from __future__ import annotations

from alembic import context


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file with its context set up; imported otherwise (pytest's doctest
# collection) it does nothing.
if getattr(context, "config", None) is not None:
    run()
