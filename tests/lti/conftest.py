"""Fixtures of the LTI tests: the tool's database on SQLite and on PostgreSQL.

`database_url` runs a test once on each: a SQLite file of its own, and a database of
its own in one PostgreSQL server started for the session (tests/support/postgres.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from backprop_animator.app.lti.db import close_databases
from tests.support.postgres import postgres_server


@pytest.fixture(autouse=True)
def _close_databases() -> Iterator[None]:
    yield
    close_databases()


@pytest.fixture
def engines() -> Iterator[list[Engine]]:
    """Engines a test opens itself, closed after it."""
    opened: list[Engine] = []
    yield opened
    for engine in opened:
        engine.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def fresh_postgres_database(server_url: str) -> str:
    name = f"lti_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return server_url.replace("/postgres?", f"/{name}?", 1)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lti.sqlite3'}"
    server: str = request.getfixturevalue("postgres_url")
    return fresh_postgres_database(server)
