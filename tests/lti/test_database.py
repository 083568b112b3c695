"""The LTI tool's database on SQLite and on PostgreSQL: migrations, platforms, keys and
launch state, through the same functions the routes and the CLI use."""

from __future__ import annotations

import threading

import jwt
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, func, insert, inspect, select, update

from backprop_animator.app.lti import db as lti_db
from backprop_animator.app.lti import keys
from backprop_animator.app.lti.db import (
    current_revision,
    database,
    default_database_url,
    launches,
    login_states,
    metadata,
    now,
    open_engine,
    tool_keys,
    upgrade,
)
from backprop_animator.app.lti.platforms import (
    Registration,
    add_platform,
    find_platform,
    list_platforms,
    remove_platform,
)

HEAD_REVISION = "0002"  # the newest migration
ISSUER = "https://lms.example.edu"


def registration(deployment: str = "1", **changes: object) -> Registration:
    values: dict[str, object] = {
        "issuer": ISSUER,
        "client_id": "client-1",
        "deployment_id": deployment,
        "auth_login_url": f"{ISSUER}/auth",
        "auth_token_url": f"{ISSUER}/token",
        "jwks_url": f"{ISSUER}/jwks",
    }
    values.update(changes)
    return Registration(**values)  # type: ignore[arg-type]


def test_the_migrations_make_exactly_the_tables_the_code_declares(database_url: str) -> None:
    found = database(database_url)
    assert current_revision(found.engine) == HEAD_REVISION
    with found.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    tables = set(inspect(found.engine).get_table_names())
    assert set(metadata.tables) <= tables
    upgrade(found.engine)  # again: nothing to do
    assert current_revision(found.engine) == HEAD_REVISION


def test_downgrade_to_nothing_and_back(database_url: str, engines: list[Engine]) -> None:
    engine = open_engine(database_url)
    engines.append(engine)
    upgrade(engine)
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(lti_db.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert not set(metadata.tables) & set(inspect(engine).get_table_names())
    upgrade(engine)
    assert set(metadata.tables) <= set(inspect(engine).get_table_names())


def test_the_answers_microsecond_comes_and_goes_with_its_migration(
    database_url: str, engines: list[Engine]
) -> None:
    engine = open_engine(database_url)
    engines.append(engine)
    upgrade(engine)
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(lti_db.MIGRATIONS))
    columns = lambda: {c["name"] for c in inspect(engine).get_columns("lti_answers")}  # noqa: E731
    assert "answered_us" in columns()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    assert "answered_us" not in columns()
    upgrade(engine)
    assert "answered_us" in columns()
    assert current_revision(engine) == HEAD_REVISION


def test_two_processes_starting_at_once_migrate_once(
    database_url: str, engines: list[Engine]
) -> None:
    errors: list[BaseException] = []

    def start() -> None:
        engine = open_engine(database_url)
        engines.append(engine)
        try:
            upgrade(engine)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert current_revision(engines[0]) == HEAD_REVISION


def test_a_platform_is_registered_and_a_second_deployment_added(database_url: str) -> None:
    found = database(database_url)
    platform, new = add_platform(found, registration("1"))
    assert new and platform.deployment_ids == ("1",)
    platform, new = add_platform(found, registration("2", jwks_url=f"{ISSUER}/keys"))
    assert not new
    assert platform.deployment_ids == ("1", "2")
    assert platform.jwks_url == f"{ISSUER}/keys"
    assert [p.issuer for p in list_platforms(found)] == [ISSUER]
    assert find_platform(found, ISSUER, None) == platform
    assert find_platform(found, ISSUER, "someone-else") is None


def test_an_issuer_with_two_clients_needs_the_client_id(database_url: str) -> None:
    found = database(database_url)
    add_platform(found, registration())
    add_platform(found, registration(client_id="client-2"))
    assert find_platform(found, ISSUER, None) is None
    platform = find_platform(found, ISSUER, "client-2")
    assert platform is not None and platform.client_id == "client-2"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"issuer": "lms example"}, "no spaces"),
        ({"issuer": ""}, "1 to 255"),
        ({"jwks_url": "ftp://lms.example.edu/jwks"}, "absolute https URL"),
        ({"auth_login_url": "https://user:pw@lms.example.edu/"}, "password"),
        ({"jwks_url": "https://lms.example.edu;script-src/jwks"}, "host"),
        ({"client_id": ""}, "1 to 255"),
        ({"deployment_id": "x\n"}, "printable"),
    ],
)
def test_a_bad_registration_is_refused_with_a_sentence(
    database_url: str, changes: dict[str, str], message: str
) -> None:
    found = database(database_url)
    with pytest.raises(ValueError, match=message):
        add_platform(found, registration(**changes))
    assert list_platforms(found) == []


def test_an_issuer_is_an_identifier_and_frames_only_as_an_https_origin(database_url: str) -> None:
    found = database(database_url)
    platform, _ = add_platform(found, registration(issuer="http://lms.example.edu"))
    assert platform.issuer == "http://lms.example.edu"
    assert "http://lms.example.edu" not in platform.framing_origins()
    assert platform.framing_origins() == ["https://lms.example.edu"]  # its login URL's


def test_http_is_allowed_on_loopback_only(database_url: str) -> None:
    found = database(database_url)
    loopback = "http://127.0.0.1:9000"
    platform, _ = add_platform(
        found,
        registration(
            issuer=loopback,
            auth_login_url=f"{loopback}/a",
            auth_token_url=f"{loopback}/t",
            jwks_url=f"{loopback}/k",
        ),
    )
    assert platform.framing_origins() == [loopback]


def test_removing_a_platform_removes_its_launch_state(database_url: str) -> None:
    found = database(database_url)
    platform, _ = add_platform(found, registration())
    with found.engine.begin() as connection:
        connection.execute(
            insert(login_states).values(
                state="s", nonce="n", platform_id=platform.id, expires_at=now() + 60
            )
        )
        connection.execute(
            insert(launches).values(
                id="l",
                platform_id=platform.id,
                deployment_id="1",
                subject="u",
                instructor=False,
                resource_link_id="r",
                program="{}",
                expected="[]",
                expires_at=now() + 60,
            )
        )
    assert remove_platform(found, ISSUER, "client-1")
    assert not remove_platform(found, ISSUER, "client-1")
    with found.engine.connect() as connection:
        for table in (login_states, launches):
            assert connection.execute(select(func.count()).select_from(table)).scalar() == 0


def test_keys_are_made_on_first_use_and_rotated_keeping_the_old_one(database_url: str) -> None:
    found = database(database_url)
    first = keys.signing_key(found)
    assert keys.signing_key(found) == first
    assert [k["kid"] for k in keys.jwks(found)["keys"]] == [first.kid]
    second = keys.rotate(found)
    published = [k["kid"] for k in keys.jwks(found)["keys"]]
    assert published == [second.kid, first.kid]
    assert keys.signing_key(found).kid == second.kid
    # What the old key signed still verifies with the published key set.
    token = jwt.encode({"x": 1}, first.private_key(), "RS256", headers={"kid": first.kid})
    key_set = jwt.PyJWKSet.from_dict(keys.jwks(found))
    public = next(k for k in key_set.keys if k.key_id == first.kid)
    assert jwt.decode(token, public.key, algorithms=["RS256"]) == {"x": 1}
    # Retired long enough ago: gone at the next rotation.
    with found.engine.begin() as connection:
        connection.execute(
            update(tool_keys)
            .where(tool_keys.c.kid == first.kid)
            .values(retired_at=now() - 8 * 86400)
        )
    third = keys.rotate(found)
    assert [k["kid"] for k in keys.jwks(found)["keys"]] == [third.kid, second.kid]


def test_a_public_key_set_has_no_private_part(database_url: str) -> None:
    found = database(database_url)
    (key,) = keys.jwks(found)["keys"]
    assert set(key) == {"kty", "n", "e", "kid", "alg", "use"}
    assert key["alg"] == "RS256" and key["use"] == "sig"


def test_the_default_database_is_a_sqlite_file_in_the_data_directory() -> None:
    assert default_database_url({"XDG_DATA_HOME": "/data"}) == (
        "sqlite:////data/backprop-animator/lti.sqlite3"
    )
    assert default_database_url({"BACKPROP_DATABASE_URL": "postgresql://u@h/db"}) == (
        "postgresql+psycopg://u@h/db"
    )
    assert default_database_url({"BACKPROP_DATABASE_URL": "postgres://u@h/db"}) == (
        "postgresql+psycopg://u@h/db"
    )


def test_a_bad_database_url_is_a_sentence() -> None:
    with pytest.raises(ValueError, match="not a database URL"):
        open_engine("no such thing")
    with pytest.raises(ValueError, match="cannot use"):
        open_engine("mysql+nosuchdriver://u@h/db")
