"""The records' tables (SQLAlchemy Core): one schema for SQLite and PostgreSQL.

The truth of a match is its setup and its engine events, in order (``events``):
replayed through the engine they give every count, score and verdict again
(:mod:`controller.recorder.replay`). The other tables are what the events say,
kept for looking things up without a replay: the games of a match (cribbage's
games to 121; one for the other games), its deals, every card played, and what
the referee said besides the events (alerts, notes, refused commands).

The schema is created and changed only by the migrations under ``migrations/``
(Alembic); :data:`SCHEMA_VERSION` is the newest one's revision.
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa

__all__ = ["SCHEMA_VERSION", "deals", "events", "games", "matches", "metadata", "plays", "said"]

SCHEMA_VERSION: Final = "0001"

metadata = sa.MetaData()

#: One match at one table: from its setup (the first state the recorder saw, or a
#: ``new_match``) until the next match there.
matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False, index=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("setup", sa.JSON, nullable=False),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("ended_at", sa.Float),
    #: engine events received (the next index expected)
    sa.Column("events", sa.Integer, nullable=False, server_default="0"),
    #: the referee's last retained state of this match, as it was sent
    sa.Column("state", sa.JSON),
    sa.Column("updated_at", sa.Float, nullable=False),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("first_event", sa.Integer, nullable=False),
)

deals = sa.Table(
    "deals",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("game", sa.Integer, nullable=False),
    sa.Column("first_event", sa.Integer, nullable=False),
    sa.Column("dealer", sa.Integer),
    #: the deal's result where the game settles one (Skat, Frog), as the referee sent it
    sa.Column("result", sa.JSON),
    #: cribbage: by side ("0", "1"…), the points counted in the deal and the score after
    #: them: ``{"0": {"points": 11, "score": 11}}``
    sa.Column("pegged", sa.JSON),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    #: the engine event's JSON (rules/events.py)
    sa.Column("event", sa.JSON, nullable=False),
    #: what the referee said it did: pegged, verdicts (proved), notes, result
    sa.Column("outcome", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

plays = sa.Table(
    "plays",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("deal", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    #: as corrected (a ``correct`` event later in the match changes it here)
    sa.Column("card", sa.String(3), nullable=False),
)

#: What the referee said besides the events: alerts raised and cleared, notes,
#: refused commands, recounts, errors; each message once (its id).
said = sa.Table(
    "said",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("type", sa.String(16), nullable=False),
    sa.Column("body", sa.JSON, nullable=False),
)

#: Every referee message the recorder has stored (its id): one delivered again
#: (QoS 1, a resumed session) is stored once.
messages = sa.Table(
    "messages",
    metadata,
    sa.Column("message_id", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
