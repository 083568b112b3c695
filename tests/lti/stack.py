"""The tool and the test platform, each its own process, registered with each other.

`lti_stack(directory)` starts `backprop-animator serve` on a SQLite file in `directory`,
then the platform (tests/lti/platform.py, on the lti1p3platform package) pointed at it,
and registers the platform with the tool's own CLI, as an administrator would.

`login`, `deep_link` and `add_activity` drive a launch over HTTP as a browser would.

Example: `with lti_stack(tmp) as stack: httpx.get(stack.tool + "/lti/jwks")`.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from tests.support.harness import live_server

CLIENT_ID = "backprop-animator-test"
DEPLOYMENT_ID = "deployment-1"


@dataclass(frozen=True)
class Stack:
    tool: str
    platform: str
    database_url: str

    @property
    def env(self) -> dict[str, str]:
        return {"BACKPROP_DATABASE_URL": self.database_url}

    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """`backprop-animator ARGS` on the tool's database."""
        import os

        return subprocess.run(
            [sys.executable, "-m", "backprop_animator", *args],
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            check=check,
            timeout=60,
        )

    def register(self) -> subprocess.CompletedProcess[str]:
        return self.cli(
            "lti",
            "add-platform",
            "--issuer",
            self.platform,
            "--client-id",
            CLIENT_ID,
            "--deployment-id",
            DEPLOYMENT_ID,
            "--auth-login-url",
            f"{self.platform}/authorize",
            "--auth-token-url",
            f"{self.platform}/token",
            "--jwks-url",
            f"{self.platform}/jwks",
            "--tool-url",
            self.tool,
        )


@contextlib.contextmanager
def lti_stack(directory: Path, *, register: bool = True) -> Iterator[Stack]:
    database_url = f"sqlite:///{directory / 'lti.sqlite3'}"
    env = {"BACKPROP_DATABASE_URL": database_url}
    serve = (sys.executable, "-m", "backprop_animator", "serve")
    with live_server(serve, env=env) as tool:
        platform_command = (sys.executable, "-m", "tests.lti.platform", "--tool", tool)
        with live_server(platform_command) as platform:
            stack = Stack(tool, platform, database_url)
            if register:
                stack.register()
            yield stack


# --- the LMS's side of a launch, driven over HTTP as a browser would -----------------


def login(
    stack: Stack, client: httpx.Client, kind: str, user: str, resource: str | None = None
) -> dict[str, Any]:
    """The OIDC login, up to the platform's answer: {action, id_token, state, nonce}."""
    params = {"kind": kind, **({"resource": resource} if resource else {})}
    hint = client.get(f"{stack.platform}/message-hint", params=params).json()
    response = client.get(
        f"{stack.tool}/lti/login",
        params={
            "iss": stack.platform,
            "login_hint": user,
            "target_link_uri": f"{stack.tool}/lti/launch",
            "lti_message_hint": hint["lti_message_hint"],
            "client_id": CLIENT_ID,
            "lti_deployment_id": DEPLOYMENT_ID,
        },
    )
    assert response.status_code == 302, response.text
    location = response.headers["location"]
    assert location.startswith(f"{stack.platform}/authorize?")
    sent = {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}
    assert sent["scope"] == "openid"
    assert sent["response_type"] == "id_token"
    assert sent["response_mode"] == "form_post"
    assert sent["prompt"] == "none"
    assert sent["redirect_uri"] == f"{stack.tool}/lti/launch"
    answer = client.get(location + "&format=json")
    assert answer.status_code == 200, answer.text
    return {**answer.json(), "nonce": sent["nonce"]}


def post_launch(client: httpx.Client, action: str, id_token: str, state: str) -> httpx.Response:
    return client.post(action, data={"id_token": id_token, "state": state})


def deep_link(
    stack: Stack, client: httpx.Client, fields: dict[str, str]
) -> tuple[httpx.Response, str]:
    """A teacher's Deep Linking launch and the picker's form: the tool's return page."""
    answer = login(stack, client, "deeplink", "teacher")
    picker = post_launch(client, answer["action"], answer["id_token"], answer["state"])
    assert picker.status_code == 200, picker.text
    session = re.search(r'name="session" value="([^"]+)"', picker.text)
    assert session is not None
    returned = client.post(
        f"{stack.tool}/lti/deep-link", data={"session": session.group(1), **fields}
    )
    return returned, session.group(1)


def add_activity(stack: Stack, client: httpx.Client, fields: dict[str, str]) -> dict[str, Any]:
    """Deep-link an activity and hand the response to the platform; its resource link."""
    returned, _ = deep_link(stack, client, fields)
    assert returned.status_code == 200, returned.text
    action = re.search(r'<form[^>]*action="([^"]+)"', returned.text)
    token = re.search(r'name="JWT" value="([^"]+)"', returned.text)
    assert action is not None and token is not None
    assert action.group(1) == f"{stack.platform}/deeplink/return"
    accepted = client.post(action.group(1), data={"JWT": token.group(1)})
    assert accepted.status_code == 200, accepted.text
    links = client.get(f"{stack.platform}/state").json()["resource_links"]
    link: dict[str, Any] = links[-1]
    return link
