"""The first schema: matches, games, deals, events, plays, what was said, messages.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False, index=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float),
        sa.Column("events", sa.Integer, nullable=False, server_default="0"),
        sa.Column("state", sa.JSON),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("first_event", sa.Integer, nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("first_event", sa.Integer, nullable=False),
        sa.Column("dealer", sa.Integer),
        sa.Column("result", sa.JSON),
        sa.Column("pegged", sa.JSON),
    )
    op.create_table(
        "events",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("event", sa.JSON, nullable=False),
        sa.Column("outcome", sa.JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "plays",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("card", sa.String(3), nullable=False),
    )
    op.create_table(
        "said",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("type", sa.String(16), nullable=False),
        sa.Column("body", sa.JSON, nullable=False),
    )
    op.create_index("ix_said_match_id", "said", ["match_id"])
    op.create_table(
        "messages",
        sa.Column("message_id", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("messages", "said", "plays", "events", "deals", "games", "matches"):
        op.drop_table(name)
