"""The test LTI 1.3 platform (tests/lti/platform.py) does what the tool's tests rely on.

It runs as its own process, as in the tool's tests; the "tool" here is only a JWKS served
from a thread of this process (a key of ours, kid `tool-key-1`, at T/lti/jwks), so the
platform's checks on client assertions and deep-linking responses can be driven both
ways. Nothing of the app is imported.
"""

from __future__ import annotations

import http.server
import json
import re
import sys
import threading
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.support.harness import live_server

pytestmark = [pytest.mark.timeout(60), pytest.mark.xdist_group("lti-platform")]

ROOT = Path(__file__).resolve().parents[2]  # the directory holding the tests package
CLIENT_ID = "backprop-animator-test"
DEPLOYMENT_ID = "deployment-1"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DL_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
DL_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
DL_DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
TOOL_KID = "tool-key-1"


def _rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


TOOL_KEY = _rsa_key()
STRANGER_KEY = _rsa_key()  # a key the tool's JWKS does not have


@pytest.fixture(scope="module")
def tool() -> Iterator[str]:
    """The tool's base URL T: only T/lti/jwks, with TOOL_KEY under TOOL_KID."""
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(TOOL_KEY.public_key()))
    body = json.dumps({"keys": [{**jwk, "kid": TOOL_KID, "alg": "RS256", "use": "sig"}]})

    class JWKSHandler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, payload = (200, body) if self.path == "/lti/jwks" else (404, "{}")
            data = payload.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), JWKSHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def base(tool: str) -> Iterator[str]:
    """The platform's base URL (its issuer), run as `python -m tests.lti.platform`."""
    command = [sys.executable, "-m", "tests.lti.platform", "--tool", tool]
    with live_server(command, cwd=ROOT) as url:
        yield url


@pytest.fixture(scope="module")
def client(base: str) -> Iterator[httpx.Client]:
    """One client for the module (each new one loads the CA bundle, a good fraction of a
    second)."""
    with httpx.Client(base_url=base, timeout=10) as http:
        yield http


def auth_params(tool: str, hint: str, **changes: str | None) -> dict[str, str]:
    """A correct OIDC auth request for `hint`, with `changes` (None drops a parameter)."""
    params: dict[str, str | None] = {
        "scope": "openid",
        "response_type": "id_token",
        "response_mode": "form_post",
        "prompt": "none",
        "client_id": CLIENT_ID,
        "redirect_uri": f"{tool}/lti/launch",
        "login_hint": "teacher",
        "lti_message_hint": hint,
        "state": "state-1",
        "nonce": "nonce-1",
        **changes,
    }
    return {name: value for name, value in params.items() if value is not None}


def hint(client: httpx.Client, kind: str, resource: str | None = None) -> str:
    params = {"kind": kind, **({"resource": resource} if resource else {})}
    response = client.get("/message-hint", params=params)
    assert response.status_code == 200, response.text
    value: str = response.json()["lti_message_hint"]
    return value


def launch(client: httpx.Client, tool: str, **params: str) -> dict[str, Any]:
    """A verified id_token's claims, from /authorize with format=json."""
    response = client.get("/authorize", params={**params, "format": "json"})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["action"] == f"{tool}/lti/launch"
    assert answer["state"] == params["state"]
    return verify_platform_jwt(client, answer["id_token"])


def verify_platform_jwt(client: httpx.Client, token: str) -> dict[str, Any]:
    keys = client.get("/jwks").json()["keys"]
    kid = jwt.get_unverified_header(token)["kid"]
    (key,) = [jwt.PyJWK(k) for k in keys if k["kid"] == kid]
    claims: dict[str, Any] = jwt.decode(
        token,
        key.key,
        algorithms=["RS256"],
        audience=CLIENT_ID,
        issuer=str(client.base_url).rstrip("/"),
    )
    return claims


def tool_jwt(claims: dict[str, Any], key: rsa.RSAPrivateKey = TOOL_KEY, kid: str = TOOL_KID) -> str:
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": kid})


def deep_link_launch(client: httpx.Client, tool: str) -> dict[str, Any]:
    return launch(client, tool, **auth_params(tool, hint(client, "deeplink")))


def deep_link_response(base: str, data: str, items: list[Any], **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    claims: dict[str, Any] = {
        "iss": CLIENT_ID,
        "aud": base,
        "iat": now,
        "exp": now + 300,
        "nonce": uuid.uuid4().hex,
        LTI + "message_type": "LtiDeepLinkingResponse",
        LTI + "version": "1.3.0",
        LTI + "deployment_id": DEPLOYMENT_ID,
        DL_DATA: data,
        DL_ITEMS: items,
        **changes,
    }
    return {name: value for name, value in claims.items() if value is not None}


def client_assertion(base: str, **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {
        "iss": CLIENT_ID,
        "sub": CLIENT_ID,
        "aud": f"{base}/token",
        "iat": now,
        "exp": now + 300,
        "jti": uuid.uuid4().hex,
        **changes,
    }
    return {name: value for name, value in claims.items() if value is not None}


def token_form(assertion: str, scope: str = SCOPE + "score") -> dict[str, str]:
    return {
        "grant_type": "client_credentials",
        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        "client_assertion": assertion,
        "scope": scope,
    }


def access_token(client: httpx.Client, base: str, scope: str) -> str:
    response = client.post("/token", data=token_form(tool_jwt(client_assertion(base)), scope))
    assert response.status_code == 200, response.text
    value: str = response.json()["access_token"]
    return value


@pytest.fixture(scope="module")
def activity(client: httpx.Client, base: str, tool: str) -> dict[str, Any]:
    """One activity added by deep linking, with a line item: its /state entry."""
    data = deep_link_launch(client, tool)[DL_SETTINGS]["data"]
    item = {
        "type": "ltiResourceLink",
        "title": "Neuron walkthrough",
        "url": f"{tool}/lti/launch",
        "custom": {"activity": "neuron"},
        "lineItem": {"scoreMaximum": 10, "label": "Neuron", "resourceId": "neuron"},
    }
    jwt_ = tool_jwt(deep_link_response(base, data, [item]))
    response = client.post("/deeplink/return", data={"JWT": jwt_})
    assert response.status_code == 200, response.text
    assert 'data-testid="activity-added"' in response.text
    assert "Neuron walkthrough" in response.text
    assert 'href="/" target="_top"' in response.text
    links = client.get("/state").json()["resource_links"]
    (link,) = [link for link in links if link["title"] == "Neuron walkthrough"]
    return dict(link)


def test_healthz_and_jwks(client: httpx.Client) -> None:
    assert client.get("/healthz").text == "ok"
    (key,) = client.get("/jwks").json()["keys"]
    assert {"kty", "n", "e", "kid", "alg", "use"} <= key.keys()
    assert (key["kty"], key["alg"], key["use"]) == ("RSA", "RS256", "sig")
    assert "d" not in key  # public only


def test_start_redirects_to_the_tools_login(client: httpx.Client, tool: str, base: str) -> None:
    response = client.get("/start", params={"kind": "deeplink", "user": "teacher"})
    assert response.status_code == 302
    location = urllib.parse.urlsplit(response.headers["location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == f"{tool}/lti/login"
    query = dict(urllib.parse.parse_qsl(location.query))
    assert query.pop("lti_message_hint")
    assert query == {
        "iss": base,
        "login_hint": "teacher",
        "target_link_uri": f"{tool}/lti/launch",
        "client_id": CLIENT_ID,
        "lti_deployment_id": DEPLOYMENT_ID,
    }


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"kind": "deeplink", "user": "mallory"}, 400),
        ({"kind": "other", "user": "teacher"}, 400),
        ({"kind": "resource", "user": "learner", "resource": "link-999"}, 404),
    ],
)
def test_start_refuses(client: httpx.Client, params: dict[str, str], status: int) -> None:
    assert client.get("/start", params=params).status_code == status


def test_course_page_and_frame(client: httpx.Client, activity: dict[str, Any]) -> None:
    course = client.get("/").text
    assert "Backprop 101" in course
    assert 'data-testid="add-activity" href="/frame?kind=deeplink&amp;user=teacher"' in course
    assert (
        f'data-testid="activity-link" data-resource="{activity["id"]}" '
        f'href="/frame?kind=resource&amp;user=learner&amp;resource={activity["id"]}"'
    ) in course
    assert 'data-testid="scores"' in course
    frame = client.get(
        "/frame", params={"kind": "resource", "user": "learner", "resource": activity["id"]}
    ).text
    src = f"/start?kind=resource&amp;user=learner&amp;resource={activity['id']}"
    assert 'data-testid="tool-frame" name="tool"' in frame
    assert f'src="{src}"' in frame


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"redirect_uri": "http://127.0.0.1:1/elsewhere"}, "redirect_uri"),
        ({"login_hint": "mallory"}, "login_hint"),
        ({"lti_message_hint": "never-issued"}, "lti_message_hint"),
        ({"client_id": "someone-else"}, "client_id"),
        ({"response_mode": "query"}, "response_mode"),
        ({"prompt": None}, "prompt"),
        ({"scope": "openid profile"}, "scope"),
        ({"response_type": "code"}, "response_type"),
        ({"nonce": None}, "nonce"),
        ({"state": ""}, "state"),
    ],
)
def test_authorize_refuses(
    client: httpx.Client, tool: str, changes: dict[str, str | None], reason: str
) -> None:
    params = auth_params(tool, hint(client, "deeplink"), **changes)
    response = client.get("/authorize", params=params)
    assert response.status_code == 400
    assert reason in response.text


def test_deep_linking_launch(client: httpx.Client, tool: str, base: str) -> None:
    claims = deep_link_launch(client, tool)
    assert claims["sub"] == "teacher"
    assert claims["azp"] == CLIENT_ID
    assert claims["nonce"] == "nonce-1"
    assert claims["exp"] - claims["iat"] == 300
    assert claims[LTI + "version"] == "1.3.0"
    assert claims[LTI + "message_type"] == "LtiDeepLinkingRequest"
    assert claims[LTI + "deployment_id"] == DEPLOYMENT_ID
    assert claims[LTI + "roles"] == [INSTRUCTOR]
    assert claims[LTI + "context"]["id"] == "course-1"
    assert claims[LTI + "context"]["title"] == "Backprop 101"
    assert claims[LTI + "target_link_uri"] == f"{tool}/lti/launch"
    assert (claims["name"], claims["given_name"]) == ("Tess Teacher", "Tess")
    settings = claims[DL_SETTINGS]
    assert settings["deep_link_return_url"] == f"{base}/deeplink/return"
    assert settings["accept_types"] == ["ltiResourceLink"]
    assert settings["accept_presentation_document_targets"] == ["iframe", "window"]
    assert (settings["accept_multiple"], settings["auto_create"]) == (False, True)
    assert isinstance(settings["data"], str) and settings["data"]
    assert LTI + "resource_link" not in claims


def test_authorize_by_form_post_answers_an_auto_posting_form(
    client: httpx.Client, tool: str
) -> None:
    response = client.post("/authorize", data=auth_params(tool, hint(client, "deeplink")))
    assert response.status_code == 200
    assert f'action="{tool}/lti/launch"' in response.text
    assert 'name="state" value="state-1"' in response.text
    match = re.search(r'name="id_token" value="([^"]+)"', response.text)
    assert match
    assert verify_platform_jwt(client, match.group(1))["nonce"] == "nonce-1"


def test_resource_launch(client: httpx.Client, tool: str, activity: dict[str, Any]) -> None:
    params = auth_params(tool, hint(client, "resource", activity["id"]), login_hint="learner")
    claims = launch(client, tool, **params)
    assert claims["sub"] == "learner"
    assert claims[LTI + "message_type"] == "LtiResourceLinkRequest"
    assert claims[LTI + "roles"] == [LEARNER]
    assert claims["name"] == "Lee Learner"
    assert claims[LTI + "resource_link"] == {"id": activity["id"], "title": "Neuron walkthrough"}
    assert claims[LTI + "custom"] == {"activity": "neuron"}
    endpoint = claims[AGS]
    assert set(endpoint["scope"]) == {
        SCOPE + "lineitem",
        SCOPE + "lineitem.readonly",
        SCOPE + "result.readonly",
        SCOPE + "score",
    }
    assert endpoint["lineitem"] == activity["lineitem"]
    assert endpoint["lineitems"] == f"{client.base_url}".rstrip("/") + "/lineitems"
    assert DL_SETTINGS not in claims


def test_state_after_deep_linking(
    client: httpx.Client, base: str, activity: dict[str, Any]
) -> None:
    state = client.get("/state").json()
    assert activity["custom"] == {"activity": "neuron"}
    assert activity["id"].startswith("link-")
    (item,) = [i for i in state["line_items"] if i["url"] == activity["lineitem"]]
    assert item["url"] == f"{base}/lineitems/{item['id']}"
    assert (item["label"], item["scoreMaximum"]) == ("Neuron", 10)
    assert {"scores", "score_log", "tokens_issued"} <= state.keys()


def _item(tool: str, **changes: Any) -> dict[str, Any]:
    item = {"type": "ltiResourceLink", "title": "T", "url": f"{tool}/lti/launch", **changes}
    return {name: value for name, value in item.items() if value is not None}


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("stranger key", "does not verify"),
        ("unknown kid", "does not verify"),
        ("wrong aud", "aud"),
        ("wrong iss", "iss"),
        ("no nonce", "nonce"),
        ("expired", "does not verify"),
        ("wrong message type", "message_type"),
        ("wrong version", "version"),
        ("wrong deployment", "deployment_id"),
        ("data not echoed", "data"),
        ("two items", "accept_multiple"),
        ("html item", "type"),
        ("no title", "title"),
        ("url off the tool", "url"),
        ("custom not strings", "custom"),
        ("lineItem without scoreMaximum", "scoreMaximum"),
        ("lineItem without label", "label"),
    ],
)
def test_deep_link_return_refuses(
    client: httpx.Client, tool: str, base: str, case: str, reason: str
) -> None:
    data = deep_link_launch(client, tool)[DL_SETTINGS]["data"]
    items: list[Any] = [_item(tool)]
    changes: dict[str, Any] = {}
    key, kid = TOOL_KEY, TOOL_KID
    if case == "stranger key":
        key = STRANGER_KEY
    elif case == "unknown kid":
        kid = "no-such-kid"
    elif case == "wrong aud":
        changes["aud"] = CLIENT_ID
    elif case == "wrong iss":
        changes["iss"] = base
    elif case == "no nonce":
        changes["nonce"] = None
    elif case == "expired":
        changes["exp"] = int(time.time()) - 60
    elif case == "wrong message type":
        changes[LTI + "message_type"] = "LtiResourceLinkRequest"
    elif case == "wrong version":
        changes[LTI + "version"] = "1.1"
    elif case == "wrong deployment":
        changes[LTI + "deployment_id"] = "deployment-2"
    elif case == "data not echoed":
        changes[DL_DATA] = "made-up"
    elif case == "two items":
        items = [_item(tool), _item(tool)]
    elif case == "html item":
        items = [{"type": "html", "html": "<p>hi</p>"}]
    elif case == "no title":
        items = [_item(tool, title=None)]
    elif case == "url off the tool":
        items = [_item(tool, url="http://127.0.0.1:1/lti/launch")]
    elif case == "custom not strings":
        items = [_item(tool, custom={"n": 1})]
    elif case == "lineItem without scoreMaximum":
        items = [_item(tool, lineItem={"label": "L"})]
    elif case == "lineItem without label":
        items = [_item(tool, lineItem={"scoreMaximum": 1})]
    before = len(client.get("/state").json()["resource_links"])
    token = tool_jwt(deep_link_response(base, data, items, **changes), key, kid)
    response = client.post("/deeplink/return", data={"JWT": token})
    assert response.status_code == 400
    assert reason in response.text
    assert len(client.get("/state").json()["resource_links"]) == before


def test_deep_link_return_without_jwt(client: httpx.Client) -> None:
    assert client.post("/deeplink/return", data={"id_token": "x"}).status_code == 400


def test_token_grants_a_bearer_token(client: httpx.Client, base: str) -> None:
    before = client.get("/state").json()["tokens_issued"]
    scope = f"{SCOPE}score {SCOPE}lineitem.readonly https://example.com/unknown"
    response = client.post("/token", data=token_form(tool_jwt(client_assertion(base)), scope))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert (answer["token_type"], answer["expires_in"]) == ("Bearer", 3600)
    assert set(answer["scope"].split()) == {SCOPE + "score", SCOPE + "lineitem.readonly"}
    assert answer["access_token"]
    assert client.get("/state").json()["tokens_issued"] == before + 1
    # the issuer is accepted as the audience too
    assertion = tool_jwt(client_assertion(base, aud=base))
    assert client.post("/token", data=token_form(assertion)).status_code == 200


def test_token_refuses_a_reused_jti(client: httpx.Client, base: str) -> None:
    assertion = tool_jwt(client_assertion(base))
    assert client.post("/token", data=token_form(assertion)).status_code == 200
    response = client.post("/token", data=token_form(assertion))
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


@pytest.mark.parametrize(
    ("case", "status", "error"),
    [
        ("stranger key", 401, "invalid_client"),
        ("unknown kid", 401, "invalid_client"),
        ("wrong aud", 401, "invalid_client"),
        ("wrong iss", 401, "invalid_client"),
        ("wrong sub", 401, "invalid_client"),
        ("expired", 401, "invalid_client"),
        ("no jti", 401, "invalid_client"),
        ("no exp", 401, "invalid_client"),
        ("not a jwt", 401, "invalid_client"),
        ("wrong grant type", 400, "unsupported_grant_type"),
        ("wrong assertion type", 400, "invalid_request"),
        ("no scope", 400, "invalid_request"),
        ("unknown scope", 400, "invalid_scope"),
    ],
)
def test_token_refuses(client: httpx.Client, base: str, case: str, status: int, error: str) -> None:
    changes: dict[str, Any] = {
        "wrong aud": {"aud": "http://127.0.0.1:1/token"},
        "wrong iss": {"iss": "someone"},
        "wrong sub": {"sub": "someone"},
        "expired": {"exp": int(time.time()) - 60},
        "no jti": {"jti": None},
        "no exp": {"exp": None},
    }.get(case, {})
    key = STRANGER_KEY if case == "stranger key" else TOOL_KEY
    kid = "no-such-kid" if case == "unknown kid" else TOOL_KID
    form = token_form(tool_jwt(client_assertion(base, **changes), key, kid))
    if case == "not a jwt":
        form["client_assertion"] = "not.a.jwt"
    elif case == "wrong grant type":
        form["grant_type"] = "password"
    elif case == "wrong assertion type":
        form["client_assertion_type"] = "urn:something:else"
    elif case == "no scope":
        del form["scope"]
    elif case == "unknown scope":
        form["scope"] = "https://example.com/unknown"
    response = client.post("/token", data=form)
    assert response.status_code == status, response.text
    assert response.json()["error"] == error


def _score(**changes: Any) -> dict[str, Any]:
    score = {
        "userId": "learner",
        "scoreGiven": 7,
        "scoreMaximum": 10,
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
        "timestamp": "2030-01-01T12:00:00.000+00:00",
        **changes,
    }
    return {name: value for name, value in score.items() if value is not None}


def test_score_is_stored_and_shown(
    client: httpx.Client, base: str, activity: dict[str, Any]
) -> None:
    token = access_token(client, base, SCOPE + "score")
    url = activity["lineitem"]
    response = client.post(
        f"{url}/scores",
        content=json.dumps(_score()),
        headers={"Authorization": f"Bearer {token}", "Content-Type": SCORE_TYPE},
    )
    assert response.status_code == 200, response.text
    state = client.get("/state").json()
    assert state["scores"][url]["learner"]["scoreGiven"] == 7
    assert state["score_log"][-1] == {"lineitem": url, "score": _score()}
    course = client.get("/").text
    assert re.search(r"<td>Neuron</td><td>learner</td><td>7/10</td><td>Completed</td>", course)
    # an older score than the last one is not applied
    older = _score(scoreGiven=1, timestamp="2029-01-01T12:00:00+00:00")
    response = client.post(
        f"{url}/scores",
        content=json.dumps(older),
        headers={"Authorization": f"Bearer {token}", "Content-Type": SCORE_TYPE},
    )
    assert response.status_code == 409
    assert client.get("/state").json()["scores"][url]["learner"]["scoreGiven"] == 7


def test_line_item_and_results_need_their_scopes(
    client: httpx.Client, base: str, activity: dict[str, Any]
) -> None:
    url = activity["lineitem"]
    readonly = access_token(client, base, SCOPE + "lineitem.readonly")
    response = client.get(url, headers={"Authorization": f"Bearer {readonly}"})
    assert response.status_code == 200
    assert response.json()["id"] == url
    assert response.json()["scoreMaximum"] == 10
    assert response.headers["content-type"].startswith("application/vnd.ims.lis.v2.lineitem+json")
    listed = client.get(f"{base}/lineitems", headers={"Authorization": f"Bearer {readonly}"})
    assert url in [item["id"] for item in listed.json()]
    assert (
        client.get(f"{url}/results", headers={"Authorization": f"Bearer {readonly}"}).status_code
        == 403
    )
    results = access_token(client, base, SCOPE + "result.readonly")
    response = client.get(f"{url}/results", headers={"Authorization": f"Bearer {results}"})
    assert response.status_code == 200
    assert client.get(url, headers={"Authorization": f"Bearer {results}"}).status_code == 403
    assert client.get(url).status_code == 401
    missing = client.get(f"{base}/lineitems/999", headers={"Authorization": f"Bearer {readonly}"})
    assert missing.status_code == 404


@pytest.mark.parametrize(
    ("case", "status"),
    [
        ("no token", 401),
        ("garbage token", 401),
        ("forged token", 401),
        ("id_token as access token", 401),
        ("wrong scope", 403),
        ("unknown line item", 404),
        ("json content type", 415),
        ("not json", 400),
        ("unknown user", 400),
        ("negative score", 400),
        ("zero maximum", 400),
        ("score without maximum", 400),
        ("boolean score", 400),
        ("bad activity progress", 400),
        ("bad grading progress", 400),
        ("fully graded without score", 400),
        ("no timestamp", 400),
        ("timestamp without zone", 400),
    ],
)
def test_score_refuses(
    client: httpx.Client, tool: str, base: str, activity: dict[str, Any], case: str, status: int
) -> None:
    url = activity["lineitem"]
    token = access_token(client, base, SCOPE + "score")
    body: Any = _score()
    content_type = SCORE_TYPE
    bodies: dict[str, Any] = {
        "unknown user": _score(userId="mallory"),
        "negative score": _score(scoreGiven=-1),
        "zero maximum": _score(scoreMaximum=0),
        "score without maximum": _score(scoreMaximum=None),
        "boolean score": _score(scoreGiven=True),
        "bad activity progress": _score(activityProgress="Done"),
        "bad grading progress": _score(gradingProgress="Graded"),
        "fully graded without score": _score(scoreGiven=None, scoreMaximum=None),
        "no timestamp": _score(timestamp=None),
        "timestamp without zone": _score(timestamp="2030-01-01T12:00:00"),
    }
    body = bodies.get(case, body)
    content = json.dumps(body)
    if case == "garbage token":
        token = "garbage"
    elif case == "forged token":
        forged = client.post(
            "/sign?key=other",
            json={"iss": base, "sub": CLIENT_ID, "scopes": SCOPE + "score", "exp": 2**40},
        )
        token = forged.json()["jwt"]
    elif case == "id_token as access token":
        params = auth_params(tool, hint(client, "resource", activity["id"]), format="json")
        token = client.get("/authorize", params=params).json()["id_token"]
    elif case == "wrong scope":
        token = access_token(client, base, SCOPE + "lineitem.readonly")
    elif case == "unknown line item":
        url = f"{base}/lineitems/999"
    elif case == "json content type":
        content_type = "application/json"
    elif case == "not json":
        content = "{not json"
    headers = {"Content-Type": content_type}
    if case != "no token":
        headers["Authorization"] = f"Bearer {token}"
    before = len(client.get("/state").json()["score_log"])
    response = client.post(f"{url}/scores", content=content, headers=headers)
    assert response.status_code == status, response.text
    assert len(client.get("/state").json()["score_log"]) == before


def test_sign_and_message_hint(client: httpx.Client, base: str) -> None:
    claims = {"iss": base, "aud": CLIENT_ID, "hello": "world"}
    signed = client.post("/sign", json=claims).json()["jwt"]
    assert verify_platform_jwt(client, signed)["hello"] == "world"
    forged = client.post("/sign?key=other", json=claims).json()["jwt"]
    with pytest.raises(jwt.InvalidSignatureError):
        verify_platform_jwt(client, forged)
    odd = client.post("/sign?kid=other-kid", json=claims).json()["jwt"]
    assert jwt.get_unverified_header(odd)["kid"] == "other-kid"
    assert client.post("/sign", json=[1]).status_code == 400
    assert client.get("/message-hint", params={"kind": "nope"}).status_code == 400
    assert client.get("/message-hint", params={"kind": "resource"}).status_code == 404
