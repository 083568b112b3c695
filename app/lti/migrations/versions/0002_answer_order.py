"""Answers keep their microsecond: two answers to one question given within the same
second (the first in one launch, the next in a relaunch) are ordered by it, so the first
answer is the one that counts. Answers made before this keep their second's order.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "lti_answers",
        sa.Column("answered_us", sa.BigInteger(), server_default="0", nullable=False),
    )
    op.execute("UPDATE lti_answers SET answered_us = answered_at * 1000000")


def downgrade() -> None:
    with op.batch_alter_table("lti_answers") as batch:
        batch.drop_column("answered_us")
