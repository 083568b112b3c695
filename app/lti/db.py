"""The LTI tool's database: its tables, where it lives, and its migrations.

SQLite in a file by default, PostgreSQL when `BACKPROP_DATABASE_URL` names one (so
replicas behind a load balancer share registrations, keys and launch state). The
schema is made and upgraded by Alembic (`app/lti/migrations/`), on the first use in
each process and by `backprop-animator lti migrate`; two processes starting at once
take turns (a file lock beside a SQLite file, an advisory lock on PostgreSQL).

Times are whole seconds since the epoch (`now()`), so both databases compare them
the same way; an answer also keeps its microsecond (`now_us()`), which orders a
learner's answers given within one second. Nothing here is needed unless an `/lti`
route or `lti` command runs: the rest of the app keeps no state and never opens the
database.

Example: `database().engine` is a SQLAlchemy engine on the default SQLite file,
`~/.local/share/backprop-animator/lti.sqlite3`, with every table made.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import NoSuchModuleError

metadata = MetaData()

platforms = Table(
    "lti_platforms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("issuer", String(500), nullable=False),
    Column("client_id", String(255), nullable=False),
    Column("auth_login_url", Text, nullable=False),
    Column("auth_token_url", Text, nullable=False),
    Column("jwks_url", Text, nullable=False),
    # Origins allowed to frame the player besides the issuer's and the login URL's
    # (Canvas frames tools from the school's own host), space-separated.
    Column("frame_origins", Text, nullable=False, server_default=""),
    Column("created_at", BigInteger, nullable=False),
    UniqueConstraint("issuer", "client_id", name="uq_lti_platforms_issuer_client"),
)

deployments = Table(
    "lti_deployments",
    metadata,
    Column(
        "platform_id",
        Integer,
        ForeignKey("lti_platforms.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("deployment_id", String(255), primary_key=True),
)

tool_keys = Table(
    "lti_tool_keys",
    metadata,
    Column("kid", String(64), primary_key=True),
    Column("private_pem", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    # Set when a newer key took over: the key still verifies (it stays in the JWKS)
    # until `retired_at + keep`, then `lti keys` deletes it.
    Column("retired_at", BigInteger, nullable=True),
)

login_states = Table(
    "lti_login_states",
    metadata,
    Column("state", String(64), primary_key=True),
    Column("nonce", String(64), nullable=False),
    Column(
        "platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False
    ),
    Column("expires_at", BigInteger, nullable=False, index=True),
)

activities = Table(
    "lti_activities",
    metadata,
    Column("id", String(64), primary_key=True),
    Column(
        "platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False
    ),
    # The program and the player's options, as JSON (app.lti.activity.Activity).
    Column("program", Text, nullable=False),
    # Each quiz question's right answer, in order, as JSON.
    Column("expected", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

deep_links = Table(
    "lti_deep_links",
    metadata,
    Column("id", String(64), primary_key=True),
    Column(
        "platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False
    ),
    Column("deployment_id", String(255), nullable=False),
    Column("return_url", Text, nullable=False),
    # The tool's launch URL as the platform named it (target_link_uri): the URL of
    # the resource link the picker makes, right behind any proxy.
    Column("launch_url", Text, nullable=False),
    Column("data", Text, nullable=True),
    Column("expires_at", BigInteger, nullable=False, index=True),
)

launches = Table(
    "lti_launches",
    metadata,
    Column("id", String(64), primary_key=True),
    Column(
        "platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False
    ),
    Column("deployment_id", String(255), nullable=False),
    Column("subject", String(255), nullable=False),
    Column("instructor", Boolean, nullable=False),
    Column("resource_link_id", String(255), nullable=False),
    Column("program", Text, nullable=False),
    Column("expected", Text, nullable=False),
    # The line item scores go to, and the AGS scopes the platform granted; null: no AGS.
    Column("lineitem", Text, nullable=True),
    Column("expires_at", BigInteger, nullable=False, index=True),
)

answers = Table(
    "lti_answers",
    metadata,
    Column(
        "launch_id",
        String(64),
        ForeignKey("lti_launches.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("question", Integer, primary_key=True),
    Column("answer", Float, nullable=True),
    Column("right", Boolean, nullable=False),
    Column("answered_at", BigInteger, nullable=False),
    # Which of two answers to one question came first, across a learner's launches: the
    # first counts, and a relaunch may answer within the second of the first answer.
    Column("answered_us", BigInteger, nullable=False, server_default="0"),
)

access_tokens = Table(
    "lti_access_tokens",
    metadata,
    Column(
        "platform_id",
        Integer,
        ForeignKey("lti_platforms.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("scope", String(500), primary_key=True),
    Column("token", Text, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")
# Any 64-bit number of our own: the key of PostgreSQL's advisory lock for migrations.
MIGRATION_LOCK = 0x62_61_63_6B_70_72_6F_70


def now() -> int:
    """Seconds since the epoch, the unit of every time in the database."""
    return int(time.time())


def now_us() -> int:
    """Microseconds since the epoch: the order of a learner's answers."""
    return time.time_ns() // 1_000


def default_database_url(environ: Mapping[str, str] | None = None) -> str:
    """`BACKPROP_DATABASE_URL`, or a SQLite file in the user's data directory.

    `postgresql://...` means the psycopg 3 driver (`pip install
    'backprop-animator[postgres]'`), which is the one the project installs.

    Example: `{"BACKPROP_DATABASE_URL": "postgresql://lti@db/lti"}` ->
    `"postgresql+psycopg://lti@db/lti"`; `{}` -> `"sqlite:////home/me/.local/share/..."`.
    """
    environ = os.environ if environ is None else environ
    url = environ.get("BACKPROP_DATABASE_URL", "").strip()
    if url:
        for plain in ("postgresql://", "postgres://"):
            if url.startswith(plain):
                return "postgresql+psycopg://" + url[len(plain) :]
        return url
    data_home = environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(data_home) / 'backprop-animator' / 'lti.sqlite3'}"


@dataclass(frozen=True)
class Database:
    url: str
    engine: Engine

    @contextlib.contextmanager
    def begin(self) -> Iterator[object]:
        with self.engine.begin() as connection:
            yield connection


_databases: dict[str, Database] = {}
_databases_lock = threading.Lock()


def database(url: str | None = None) -> Database:
    """The database at `url` (default: `default_database_url()`), migrated to the newest
    schema; one engine per URL and process."""
    url = url or default_database_url()
    with _databases_lock:
        found = _databases.get(url)
        if found is None:
            engine = open_engine(url)
            upgrade(engine)
            found = _databases[url] = Database(url, engine)
        return found


def close_databases() -> None:
    """Close every engine `database()` opened (tests; a process exiting needs nothing)."""
    with _databases_lock:
        for found in _databases.values():
            found.engine.dispose()
        _databases.clear()


def open_engine(url: str) -> Engine:
    """An engine on `url`; a SQLite file's directory is made, and its foreign keys on.

    Raises ValueError with a sentence for a URL SQLAlchemy cannot read or whose driver
    is not installed.
    """
    try:
        parsed = make_url(url)
    except Exception as error:  # sqlalchemy.exc.ArgumentError, with the URL in it
        raise ValueError(f"BACKPROP_DATABASE_URL is not a database URL: {error}") from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(parsed, connect_args={"timeout": 15})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    try:
        return create_engine(parsed, pool_pre_ping=True)
    except NoSuchModuleError:
        raise ValueError(
            f"BACKPROP_DATABASE_URL names a database this tool cannot use: "
            f"{parsed.drivername!r} (SQLite and PostgreSQL are supported)"
        ) from None
    except ModuleNotFoundError as error:
        raise ValueError(
            f"the database driver {error.name!r} is not installed; for PostgreSQL run "
            "pip install 'backprop-animator[postgres]'"
        ) from None


def _sqlite_pragmas(connection: object, _record: object) -> None:
    cursor = connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run Alembic's migrations up to `revision`, one process at a time."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with _migration_lock(engine), engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@contextlib.contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """An exclusive lock on `<file>.lock` beside a SQLite file; nothing elsewhere."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        yield
        return
    with open(f"{path}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def current_revision(engine: Engine) -> str | None:
    """The schema's Alembic revision, or None before the first migration."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
