"""`backprop-animator lti ...` on SQLite and PostgreSQL: what an administrator types."""

from __future__ import annotations

import json

import pytest

from backprop_animator.app.cli import main

PLATFORM = [
    "--issuer",
    "https://lms.example.edu",
    "--client-id",
    "client-1",
    "--auth-login-url",
    "https://lms.example.edu/auth",
    "--auth-token-url",
    "https://lms.example.edu/token",
    "--jwks-url",
    "https://lms.example.edu/jwks",
]


@pytest.fixture(autouse=True)
def _database(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACKPROP_DATABASE_URL", database_url)


def test_add_list_and_remove_a_platform(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lti", "add-platform", *PLATFORM, "--deployment-id", "1"]) == 0
    out = capsys.readouterr().out
    assert "registered https://lms.example.edu" in out
    assert "http://127.0.0.1:8000/lti/jwks" in out
    assert (
        main(
            [
                "lti",
                "add-platform",
                *PLATFORM,
                "--deployment-id",
                "2",
                "--frame-origin",
                "https://school.example.edu",
            ]
        )
        == 0
    )
    assert "updated" in capsys.readouterr().out
    assert main(["lti", "list-platforms", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["deployment_ids"] == ["1", "2"]
    assert listed["frame_origins"] == ["https://school.example.edu"]
    assert main(["lti", "list-platforms"]) == 0
    assert "deployments    1, 2" in capsys.readouterr().out
    assert (
        main(
            [
                "lti",
                "remove-platform",
                "--issuer",
                "https://lms.example.edu",
                "--client-id",
                "client-1",
            ]
        )
        == 0
    )
    assert main(["lti", "list-platforms"]) == 0
    assert "no platform is registered" in capsys.readouterr().out


def test_bad_registrations_exit_2_with_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    plain = [value.replace("https://", "http://") for value in PLATFORM]
    assert main(["lti", "add-platform", *plain, "--deployment-id", "1"]) == 2
    assert "must use https" in capsys.readouterr().err
    assert main(["lti", "remove-platform", "--issuer", "https://x.edu", "--client-id", "y"]) == 2
    assert "no platform" in capsys.readouterr().err


def test_keys_are_made_then_rotated(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lti", "keys"]) == 0
    assert "made: the signing key is " in capsys.readouterr().out
    assert main(["lti", "keys", "--keep-days", "3"]) == 0
    out = capsys.readouterr().out
    assert "rotated" in out and "retired, still in /lti/jwks" in out
    assert main(["lti", "keys", "--list"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 2
    assert main(["lti", "keys", "--keep-days", "-1"]) == 2


def test_migrate_says_the_revision(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lti", "migrate"]) == 0
    assert "revision 0002" in capsys.readouterr().out


def test_an_unusable_database_is_a_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BACKPROP_DATABASE_URL", "postgresql://nobody@/none?host=/nonexistent")
    assert main(["lti", "list-platforms"]) == 2
    assert "the database could not be used" in capsys.readouterr().err
