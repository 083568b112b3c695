"""The LTI tool's first schema: platforms and their deployments, the tool's keys, and
launch state (login states, deep-linking sessions, launches, answers, access tokens).

Revision ID: 0001
Revises:
Create Date: 2026-12-03
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
        "lti_platforms",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("issuer", sa.String(length=500), nullable=False),
        sa.Column("client_id", sa.String(length=255), nullable=False),
        sa.Column("auth_login_url", sa.Text(), nullable=False),
        sa.Column("auth_token_url", sa.Text(), nullable=False),
        sa.Column("jwks_url", sa.Text(), nullable=False),
        sa.Column("frame_origins", sa.Text(), server_default="", nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("issuer", "client_id", name="uq_lti_platforms_issuer_client"),
    )
    op.create_table(
        "lti_tool_keys",
        sa.Column("kid", sa.String(length=64), nullable=False),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("retired_at", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("kid"),
    )
    op.create_table(
        "lti_access_tokens",
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=500), nullable=False),
        sa.Column("token", sa.Text(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["platform_id"], ["lti_platforms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("platform_id", "scope"),
    )
    op.create_table(
        "lti_activities",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("program", sa.Text(), nullable=False),
        sa.Column("expected", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["platform_id"], ["lti_platforms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "lti_deep_links",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("deployment_id", sa.String(length=255), nullable=False),
        sa.Column("return_url", sa.Text(), nullable=False),
        sa.Column("launch_url", sa.Text(), nullable=False),
        sa.Column("data", sa.Text(), nullable=True),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["platform_id"], ["lti_platforms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_lti_deep_links_expires_at"), "lti_deep_links", ["expires_at"], unique=False
    )
    op.create_table(
        "lti_deployments",
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("deployment_id", sa.String(length=255), nullable=False),
        sa.ForeignKeyConstraint(["platform_id"], ["lti_platforms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("platform_id", "deployment_id"),
    )
    op.create_table(
        "lti_launches",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("deployment_id", sa.String(length=255), nullable=False),
        sa.Column("subject", sa.String(length=255), nullable=False),
        sa.Column("instructor", sa.Boolean(), nullable=False),
        sa.Column("resource_link_id", sa.String(length=255), nullable=False),
        sa.Column("program", sa.Text(), nullable=False),
        sa.Column("expected", sa.Text(), nullable=False),
        sa.Column("lineitem", sa.Text(), nullable=True),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["platform_id"], ["lti_platforms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_lti_launches_expires_at"), "lti_launches", ["expires_at"], unique=False
    )
    op.create_table(
        "lti_login_states",
        sa.Column("state", sa.String(length=64), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["platform_id"], ["lti_platforms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("state"),
    )
    op.create_index(
        op.f("ix_lti_login_states_expires_at"), "lti_login_states", ["expires_at"], unique=False
    )
    op.create_table(
        "lti_answers",
        sa.Column("launch_id", sa.String(length=64), nullable=False),
        sa.Column("question", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Float(), nullable=True),
        sa.Column("right", sa.Boolean(), nullable=False),
        sa.Column("answered_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["launch_id"], ["lti_launches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("launch_id", "question"),
    )


def downgrade() -> None:
    op.drop_table("lti_answers")
    op.drop_index(op.f("ix_lti_login_states_expires_at"), table_name="lti_login_states")
    op.drop_table("lti_login_states")
    op.drop_index(op.f("ix_lti_launches_expires_at"), table_name="lti_launches")
    op.drop_table("lti_launches")
    op.drop_table("lti_deployments")
    op.drop_index(op.f("ix_lti_deep_links_expires_at"), table_name="lti_deep_links")
    op.drop_table("lti_deep_links")
    op.drop_table("lti_activities")
    op.drop_table("lti_access_tokens")
    op.drop_table("lti_tool_keys")
    op.drop_table("lti_platforms")
