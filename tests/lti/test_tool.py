"""The LTI 1.3 tool against an independent platform, each its own process (SPEC §17).

The platform (tests/lti/platform.py) runs the lti1p3platform package; the tool is
`backprop-animator serve` on a SQLite file, with the platform registered by the CLI.
These tests speak HTTP to both, as a browser would, without one: the OIDC login, the
launches (with real tokens, and with forged, replayed, expired and odd ones), Deep
Linking, and scores through AGS. tests/browser/test_lti.py runs the flow in Chromium.
"""

from __future__ import annotations

import base64
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest

from backprop_animator.engine import trace_source
from backprop_animator.engine.examples import NEURON
from tests.lti.stack import (
    CLIENT_ID,
    DEPLOYMENT_ID,
    Stack,
    add_activity,
    deep_link,
    login,
    lti_stack,
    post_launch,
)

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with lti_stack(tmp_path_factory.mktemp("lti")) as running:
        yield running


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=30, follow_redirects=False) as instance:
        yield instance


def count_rows(stack: Stack, table: str) -> int:
    path = stack.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        (count,) = connection.execute(f"SELECT count(*) FROM {table}").fetchone()
    return int(count)


def claims_of(token: str) -> dict[str, Any]:
    claims: dict[str, Any] = jwt.decode(token, options={"verify_signature": False})
    return claims


def signed(stack: Stack, client: httpx.Client, claims: dict[str, Any], key: str = "") -> str:
    params = {"key": key} if key else {}
    response = client.post(f"{stack.platform}/sign", json=claims, params=params)
    assert response.status_code == 200, response.text
    token: str = response.json()["jwt"]
    return token


def launch_id_of(page: httpx.Response) -> str:
    found = re.search(r'"id":\s*"([^"]+)"', page.text)
    assert found is not None, page.text
    return found.group(1)


NEURON_FIELDS = {"source": NEURON, "title": "The neuron", "quiz": "1", "show": "code"}


def answers_of(source: str) -> list[float]:
    trace = trace_source(source)
    return [
        c["after"]
        for frame in trace["frames"]
        if frame["phase"] == "backward"
        for c in frame.get("contributions") or ()
    ]


# --- registration and keys --------------------------------------------------------------


def test_the_cli_registers_the_platform_and_the_tool_publishes_its_keys(
    stack: Stack, client: httpx.Client
) -> None:
    listed = stack.cli("lti", "list-platforms", "--json").stdout
    assert f'"issuer": "{stack.platform}"' in listed
    assert DEPLOYMENT_ID in listed
    keys = client.get(f"{stack.tool}/lti/jwks").json()["keys"]
    assert keys and all(k["kty"] == "RSA" and k["alg"] == "RS256" and k["kid"] for k in keys)
    assert all("d" not in k and "p" not in k for k in keys)


def test_an_unknown_issuer_gets_a_page_and_no_state(stack: Stack, client: httpx.Client) -> None:
    before = count_rows(stack, "lti_login_states")
    response = client.get(
        f"{stack.tool}/lti/login",
        params={
            "iss": "https://lms.elsewhere.edu",
            "login_hint": "x",
            "target_link_uri": f"{stack.tool}/lti/launch",
        },
    )
    assert response.status_code == 400
    assert "text/html" in response.headers["content-type"]
    assert "not registered" in response.text
    assert count_rows(stack, "lti_login_states") == before


def test_a_login_without_its_parameters_is_refused(stack: Stack, client: httpx.Client) -> None:
    response = client.post(f"{stack.tool}/lti/login", data={"iss": stack.platform})
    assert response.status_code == 400
    assert "login_hint" in response.text


# --- Deep Linking and a graded launch ----------------------------------------------------


def test_a_teacher_deep_links_a_quiz_and_a_learner_is_graded(
    stack: Stack, client: httpx.Client
) -> None:
    link = add_activity(stack, client, NEURON_FIELDS)
    assert link["title"] == "The neuron"
    assert link["custom"]["source"] == NEURON
    assert link["custom"]["quiz"] == "1"
    assert link["lineitem"], "a quiz asks the platform for a gradebook column"
    items = client.get(f"{stack.platform}/state").json()["line_items"]
    expected = answers_of(NEURON)
    assert len(expected) == 9
    assert any(item["scoreMaximum"] == 9 for item in items)

    answer = login(stack, client, "resource", "learner", link["id"])
    response = post_launch(client, answer["action"], answer["id_token"], answer["state"])
    assert response.status_code == 303, response.text
    page = client.get(f"{stack.tool}{response.headers['location']}")
    assert page.status_code == 200
    policy = page.headers["content-security-policy"]
    assert f"frame-ancestors 'self' {stack.platform}" in policy
    assert "quiz=1" in page.text
    launch = launch_id_of(page)

    replies = []
    for index, value in enumerate(expected):
        given = value + 1.0 if index == 2 else value  # one wrong answer
        reply = client.post(
            f"{stack.tool}/lti/score", json={"launch": launch, "question": index, "answer": given}
        )
        assert reply.status_code == 200, reply.text
        replies.append(reply.json())
    assert replies[0] == {
        "right": 1,
        "asked": 1,
        "total": 9,
        "posted": True,
        "message": "Score sent to the course: 1 / 9.",
    }
    assert replies[-1]["right"] == 8 and replies[-1]["asked"] == 9

    state = client.get(f"{stack.platform}/state").json()
    score = state["scores"][link["lineitem"]]["learner"]
    assert score["scoreGiven"] == 8
    assert score["scoreMaximum"] == 9
    assert score["activityProgress"] == "Completed"
    assert score["gradingProgress"] == "FullyGraded"
    assert state["tokens_issued"] >= 1

    # A second answer to a question changes nothing: the first one counts.
    again = client.post(
        f"{stack.tool}/lti/score", json={"launch": launch, "question": 2, "answer": expected[2]}
    )
    assert again.json()["right"] == 8

    # Opening the activity again does not lower the grade: the first answers still count.
    answer = login(stack, client, "resource", "learner", link["id"])
    response = post_launch(client, answer["action"], answer["id_token"], answer["state"])
    relaunch = launch_id_of(client.get(f"{stack.tool}{response.headers['location']}"))
    assert relaunch != launch
    reply = client.post(
        f"{stack.tool}/lti/score", json={"launch": relaunch, "question": 0, "answer": 1e6}
    ).json()
    assert (reply["right"], reply["asked"]) == (8, 9)
    score = client.get(f"{stack.platform}/state").json()["scores"][link["lineitem"]]["learner"]
    assert score["scoreGiven"] == 8 and score["activityProgress"] == "Completed"


def test_a_refused_program_comes_back_to_the_picker_with_its_place(
    stack: Stack, client: httpx.Client
) -> None:
    returned, session = deep_link(
        stack, client, {"source": "a = Value(1.0)\nb = a +\n", "title": "Broken", "quiz": "1"}
    )
    assert returned.status_code == 422
    assert "picker-error" in returned.text
    assert "line 2" in returned.text.lower() or 'data-line="2"' in returned.text
    # The session still works: the teacher fixes the program and sends it again.
    fixed = client.post(f"{stack.tool}/lti/deep-link", data={"session": session, **NEURON_FIELDS})
    assert fixed.status_code == 200
    assert 'name="JWT"' in fixed.text
    # ...once.
    used = client.post(f"{stack.tool}/lti/deep-link", data={"session": session, **NEURON_FIELDS})
    assert used.status_code == 400


def test_the_deep_linking_response_is_signed_by_the_tools_published_key(
    stack: Stack, client: httpx.Client
) -> None:
    returned, _ = deep_link(stack, client, {**NEURON_FIELDS, "mistake": "assign"})
    token = re.search(r'name="JWT" value="([^"]+)"', returned.text)
    assert token is not None
    key_set = jwt.PyJWKSet.from_dict(client.get(f"{stack.tool}/lti/jwks").json())
    kid = jwt.get_unverified_header(token.group(1))["kid"]
    key = next(k for k in key_set.keys if k.key_id == kid)
    claims = jwt.decode(token.group(1), key.key, algorithms=["RS256"], audience=stack.platform)
    assert claims["iss"] == CLIENT_ID
    assert claims[LTI + "message_type"] == "LtiDeepLinkingResponse"
    assert claims[LTI + "deployment_id"] == DEPLOYMENT_ID
    (item,) = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["type"] == "ltiResourceLink"
    assert item["url"] == f"{stack.tool}/lti/launch"
    assert item["custom"]["mistake"] == "assign"


def test_a_learner_cannot_open_the_picker(stack: Stack, client: httpx.Client) -> None:
    answer = login(stack, client, "deeplink", "learner")
    response = post_launch(client, answer["action"], answer["id_token"], answer["state"])
    assert response.status_code == 403
    assert "teacher" in response.text


# --- launches that must fail, storing nothing --------------------------------------------


def refused(stack: Stack, client: httpx.Client, token: str, state: str) -> httpx.Response:
    before = count_rows(stack, "lti_launches"), count_rows(stack, "lti_deep_links")
    response = post_launch(client, f"{stack.tool}/lti/launch", token, state)
    assert 400 <= response.status_code < 500, response.text
    assert "text/html" in response.headers["content-type"]
    assert (count_rows(stack, "lti_launches"), count_rows(stack, "lti_deep_links")) == before
    return response


@pytest.fixture
def resource_link(stack: Stack) -> dict[str, Any]:
    with httpx.Client(timeout=30, follow_redirects=False) as client:
        return add_activity(stack, client, NEURON_FIELDS)


def test_a_replayed_launch_is_refused(
    stack: Stack, client: httpx.Client, resource_link: dict[str, Any]
) -> None:
    answer = login(stack, client, "resource", "learner", resource_link["id"])
    first = post_launch(client, answer["action"], answer["id_token"], answer["state"])
    assert first.status_code == 303
    again = refused(stack, client, answer["id_token"], answer["state"])
    assert "already used" in again.text or "expired" in again.text


def test_a_token_signed_by_another_key_is_refused(
    stack: Stack, client: httpx.Client, resource_link: dict[str, Any]
) -> None:
    answer = login(stack, client, "resource", "learner", resource_link["id"])
    forged = signed(stack, client, claims_of(answer["id_token"]), key="other")
    response = refused(stack, client, forged, answer["state"])
    assert "key" in response.text or "signature" in response.text
    # The real token still works with that state: a forgery uses nothing up.
    real = post_launch(client, answer["action"], answer["id_token"], answer["state"])
    assert real.status_code == 303


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"exp": int(time.time()) - 600, "iat": int(time.time()) - 900}, "expired"),
        ({"aud": "another-tool"}, "another tool"),
        ({"iss": "https://lms.elsewhere.edu"}, "another platform"),
        ({"nonce": "not-the-nonce"}, "nonce"),
        ({LTI + "deployment_id": "deployment-9"}, "not registered"),
        ({LTI + "version": "1.1"}, "1.3.0"),
        ({LTI + "message_type": "LtiSubmissionReviewRequest"}, "type"),
    ],
)
def test_an_odd_token_is_refused_with_a_sentence(
    stack: Stack,
    client: httpx.Client,
    resource_link: dict[str, Any],
    change: dict[str, Any],
    words: str,
) -> None:
    answer = login(stack, client, "resource", "learner", resource_link["id"])
    token = signed(stack, client, {**claims_of(answer["id_token"]), **change})
    response = refused(stack, client, token, answer["state"])
    assert words in response.text


def test_a_token_without_a_nonce_or_expiry_is_refused(
    stack: Stack, client: httpx.Client, resource_link: dict[str, Any]
) -> None:
    answer = login(stack, client, "resource", "learner", resource_link["id"])
    for name in ("nonce", "exp"):
        claims = {k: v for k, v in claims_of(answer["id_token"]).items() if k != name}
        response = refused(stack, client, signed(stack, client, claims), answer["state"])
        assert repr(name) in response.text.replace("&#39;", "'")


def test_a_made_up_state_or_garbage_token_is_refused(stack: Stack, client: httpx.Client) -> None:
    refused(stack, client, "not.a.jwt", "no-such-state")
    answer = login(stack, client, "deeplink", "teacher")
    response = refused(stack, client, "not-a-jwt", answer["state"])
    assert "not a JWT" in response.text


def b64(part: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(part).encode()).rstrip(b"=").decode()


@pytest.mark.parametrize(
    "header",
    [
        {"alg": "RS256", "kid": 123},  # a kid that is no string
        {"alg": "RS256", "crit": ["x-unknown"], "x-unknown": 1},  # an extension PyJWT lacks
        {"alg": "RS256", "kid": ["a", "b"]},
    ],
)
def test_a_token_with_an_odd_header_is_a_4xx_not_a_crash(
    stack: Stack, client: httpx.Client, header: dict[str, Any]
) -> None:
    answer = login(stack, client, "deeplink", "teacher")
    token = f"{b64(header)}.{b64({'iss': 'x'})}.c2ln"
    refused(stack, client, token, answer["state"])


# --- launches without grades, and what the page allows ---------------------------------


def test_a_hand_made_link_without_grades_plays_and_tells_the_teacher(
    stack: Stack, client: httpx.Client, resource_link: dict[str, Any]
) -> None:
    answer = login(stack, client, "resource", "teacher", resource_link["id"])
    claims = claims_of(answer["id_token"])
    claims.pop(AGS, None)
    claims[LTI + "custom"] = {"source": "a = Value(2.0)\nb = a * a\nb.backward()\n", "quiz": "1"}
    response = post_launch(client, answer["action"], signed(stack, client, claims), answer["state"])
    assert response.status_code == 303, response.text
    page = client.get(f"{stack.tool}{response.headers['location']}")
    assert '"grading": false' in page.text
    assert "no grade service" in page.text
    launch = launch_id_of(page)
    reply = client.post(
        f"{stack.tool}/lti/score", json={"launch": launch, "question": 0, "answer": 2.0}
    ).json()
    assert reply["posted"] is False and reply["right"] == 1 and reply["total"] == 2


def test_scores_for_an_unknown_launch_or_question_are_refused(
    stack: Stack, client: httpx.Client
) -> None:
    unknown = client.post(f"{stack.tool}/lti/score", json={"launch": "nope", "question": 0})
    assert unknown.status_code == 404
    assert unknown.json()["error"]["message"]
    bad = client.post(f"{stack.tool}/lti/score", json={"launch": "x", "question": -1})
    assert bad.status_code == 422


def test_an_unknown_launch_page_is_a_404_page(stack: Stack, client: httpx.Client) -> None:
    response = client.get(f"{stack.tool}/lti/play/nothing-here")
    assert response.status_code == 404
    assert "expired" in response.text


def test_rotating_keys_keeps_the_old_one_published_and_signs_with_the_new(
    stack: Stack, client: httpx.Client
) -> None:
    before = [k["kid"] for k in client.get(f"{stack.tool}/lti/jwks").json()["keys"]]
    out = stack.cli("lti", "keys").stdout
    after = [k["kid"] for k in client.get(f"{stack.tool}/lti/jwks").json()["keys"]]
    assert len(after) == len(before) + 1
    assert after[0] in out and set(before) <= set(after)
    returned, _ = deep_link(stack, client, NEURON_FIELDS)
    token = re.search(r'name="JWT" value="([^"]+)"', returned.text)
    assert token is not None
    assert jwt.get_unverified_header(token.group(1))["kid"] == after[0]
    # The platform takes what the new key signed.
    accepted = client.post(f"{stack.platform}/deeplink/return", data={"JWT": token.group(1)})
    assert accepted.status_code == 200


def test_the_database_path_is_a_file_of_the_tools(stack: Stack) -> None:
    assert Path(stack.database_url.removeprefix("sqlite:///")).is_file()
