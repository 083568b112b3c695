"""An LTI 1.3 platform for the tests: an LMS stand-in, run as its own process.

    python -m tests.lti.platform --port N --tool http://127.0.0.1:M

It serves one course, "Backprop 101", on http://127.0.0.1:N (its issuer, no trailing
slash) to the tool at the `--tool` base URL T: the tool's OIDC login is T/lti/login, its
launch (and deep-linking launch) T/lti/launch, its JWKS T/lti/jwks. The registration is
fixed (client_id `backprop-animator-test`, deployment `deployment-1`, users `teacher` and
`learner`); keys are made at startup and everything else lives in memory until exit.

The LTI messages are built and checked with the `lti1p3platform` package (0.1.8): its
`Registration` and `LTI1P3PlatformConfAbstract` (keys, JWKS, signing, the client-credentials
grant, verifying the tool's JWTs, the deep-linking response), `OIDCLoginAbstract` (the
login initiation URL), `LTIAdvantageMessageLaunchAbstract` (the id_token and its claims)
and `AssignmentsGradesService` (the line item, result and score endpoints). Its FastAPI
adapter is not used: it reads only the query string, and Starlette's form parser needs
python-multipart, which is not installed, so forms are parsed here with `urllib.parse`.
What the package leaves out is written here, each place marked "Not in lti1p3platform":
the checks on the OIDC auth request, on the tool's client assertion (iss, sub, aud, exp,
jti) and on a deep-linking response (aud, nonce, version, deployment, data, the items),
the score body, 401 versus 403, and a few claim values the package fixes differently.

Endpoints (each handler's docstring says what it checks):

    GET  /healthz                      200 "ok"
    GET  /jwks                         the platform's public JWKS
    GET  /                             the course page (activities, scores)
    GET  /frame?kind&user&resource     a page framing /start in an iframe
    GET  /start?kind&user&resource     302 to the tool's OIDC login initiation
    GET|POST /authorize                the OIDC auth endpoint: an auto-posting id_token form
    POST /token                        OAuth2 client credentials (JWT client assertion)
    POST /deeplink/return              the tool's LtiDeepLinkingResponse
    GET  /lineitems                    the line items (AGS container)
    GET  /lineitems/{id}               one line item
    GET  /lineitems/{id}/results       its results
    POST /lineitems/{id}/scores        a score
    GET  /state                        everything stored, as JSON
    POST /sign[?kid=..][&key=other]    sign arbitrary claims (for forged test tokens)
    GET  /message-hint?kind&resource   an lti_message_hint for a launch without a browser
"""

from __future__ import annotations

import argparse
import datetime
import functools
import html
import itertools
import json
import math
import secrets
import threading
import typing as t
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import jwt
import uvicorn
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi import FastAPI
from fastapi.requests import Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from lti1p3platform.constants import LTI_1P3_ACCESS_TOKEN_SCOPES
from lti1p3platform.exceptions import (
    InvalidKeySetUrl,
    LineItemNotFoundException,
    LtiDeepLinkingResponseException,
    LtiException,
    LtiServiceException,
    MissingRequiredClaim,
    PreflightRequestValidationException,
    UnsupportedGrantType,
)
from lti1p3platform.lineitem import TLineItem
from lti1p3platform.ltiplatform import JWKS, LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request as LtiRequest
from lti1p3platform.request import TRequest
from lti1p3platform.response import Response as LtiResponse
from lti1p3platform.score import (
    ActivityProgress,
    GradeProgress,
    TScore,
    UpdateScoreStatus,
)
from lti1p3platform.service_connector import AssignmentsGradesService, TPage
from starlette.concurrency import run_in_threadpool

CLIENT_ID = "backprop-animator-test"
DEPLOYMENT_ID = "deployment-1"
CONTEXT_ID = "course-1"
CONTEXT_TITLE = "Backprop 101"
CONTEXT_LABEL = "BP101"
COURSE_OFFERING = "http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
VERSION = LTI + "version"
DEPLOYMENT = LTI + "deployment_id"
AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DL_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
DL_CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
DL_DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
DL_MSG = "https://purl.imsglobal.org/spec/lti-dl/claim/msg"
DL_ERRORMSG = "https://purl.imsglobal.org/spec/lti-dl/claim/errormsg"

AGS_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"
SCOPE_LINEITEM = AGS_SCOPE + "lineitem"
SCOPE_LINEITEM_READONLY = AGS_SCOPE + "lineitem.readonly"
SCOPE_RESULT_READONLY = AGS_SCOPE + "result.readonly"
SCOPE_SCORE = AGS_SCOPE + "score"
AGS_SCOPES = [SCOPE_LINEITEM, SCOPE_LINEITEM_READONLY, SCOPE_RESULT_READONLY, SCOPE_SCORE]

SCORE_MEDIA_TYPE = "application/vnd.ims.lis.v1.score+json"
LINEITEM_MEDIA_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
LINEITEMS_MEDIA_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json"
RESULTS_MEDIA_TYPE = "application/vnd.ims.lis.v2.resultcontainer+json"
JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
ACTIVITY_PROGRESS = {member.value for member in ActivityProgress}
GRADING_PROGRESS = {member.value for member in GradeProgress}
KINDS = ("deeplink", "resource")


@dataclass(frozen=True)
class User:
    roles: list[str]
    name: str
    given_name: str
    family_name: str


USERS = {
    "teacher": User([MEMBERSHIP + "Instructor"], "Tess Teacher", "Tess", "Teacher"),
    "learner": User([MEMBERSHIP + "Learner"], "Lee Learner", "Lee", "Learner"),
}


class Rejected(Exception):
    """A request the platform refuses: `reason` is said to the caller with `status`."""

    def __init__(self, reason: str, status: int = 400, error: str = "invalid_request") -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.error = error


@dataclass
class Hint:
    """What an lti_message_hint stands for: a deep-linking launch or one resource link."""

    kind: str
    resource: str | None


@dataclass
class ResourceLink:
    id: str
    title: str
    url: str
    custom: dict[str, str]
    lineitem: str | None  # the line item's id (k in /lineitems/k)


@dataclass
class LineItem:
    id: str
    url: str
    label: str
    score_maximum: float
    resource_link_id: str
    resource_id: str | None = None
    tag: str | None = None

    def as_ags(self) -> dict[str, t.Any]:
        """The AGS line item JSON (its `id` is its URL)."""
        item: dict[str, t.Any] = {
            "id": self.url,
            "label": self.label,
            "scoreMaximum": self.score_maximum,
            "resourceLinkId": self.resource_link_id,
        }
        if self.resource_id is not None:
            item["resourceId"] = self.resource_id
        if self.tag is not None:
            item["tag"] = self.tag
        return item


@dataclass
class Store:
    """Everything the platform remembers, guarded by `lock` (handlers run in threads)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    hints: dict[str, Hint] = field(default_factory=dict)
    deep_link_data: set[str] = field(default_factory=set)
    links: dict[str, ResourceLink] = field(default_factory=dict)
    line_items: dict[str, LineItem] = field(default_factory=dict)
    # line item id -> user -> (timestamp, score as received)
    scores: dict[str, dict[str, tuple[datetime.datetime, dict[str, t.Any]]]] = field(
        default_factory=dict
    )
    score_log: list[dict[str, t.Any]] = field(default_factory=list)
    tokens_issued: int = 0
    used_jtis: set[str] = field(default_factory=set)
    counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


# --- adapters around lti1p3platform -------------------------------------------------------


class PlatformRequest(LtiRequest):
    """The package's request interface over data already read from the Starlette request."""

    def build_metadata(self, request: t.Any) -> TRequest:
        return t.cast(TRequest, request)


def lti_request(request: Request, params: dict[str, str], body: t.Any = None) -> PlatformRequest:
    return PlatformRequest(
        {
            "method": request.method,
            "form_data": params if request.method == "POST" else {},
            "get_data": params,
            "headers": request.headers,
            "content_type": request.headers.get("content-type"),
            "path": request.url.path,
            "json": body,
        }
    )


@functools.cache
def loaded_key(pem: str) -> rsa.RSAPrivateKey:
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, rsa.RSAPrivateKey)
    return key


class PlatformRegistration(Registration):
    """The package's registration, with its private key parsed once.

    The package hands PyJWT the PEM text, which cryptography parses and checks again for
    every signature (tens of milliseconds each), and computes the kid the same way; the
    signing itself is still the package's `encode_and_sign`.
    """

    _kid: str | None = None

    @staticmethod
    def encode_and_sign(
        payload: dict[str, t.Any],
        private_key: str,
        headers: t.Any | None = None,
        expiration: int | None = None,
    ) -> str:
        key = t.cast(str, loaded_key(private_key))  # PyJWT takes the key object as well
        return Registration.encode_and_sign(payload, key, headers, expiration)

    def get_kid(self) -> str | None:
        if self._kid is None:
            self._kid = super().get_kid()
        return self._kid

    def platform_encode_and_sign(
        self, payload: dict[str, t.Any], expiration: int | None = None
    ) -> str:
        # the package's, but through the encode_and_sign above (it names Registration's)
        private = self.get_platform_private_key()
        assert private is not None, "Platform private key is not set"
        kid = self.get_kid()
        headers = {"kid": kid} if kid else None
        return self.encode_and_sign(payload, private, headers, expiration=expiration)


class PlatformConf(LTI1P3PlatformConfAbstract):
    """The package's platform configuration over the one fixed registration.

    A new one is made for every request: the package keeps the JWT it is checking on the
    instance, and would cache the tool's JWKS in the shared registration for good.
    """

    def init_platform_config(self, **kwargs: t.Any) -> None:
        self._registration = kwargs["registration"]
        self._tool_keys: JWKS | None = None

    def get_registration_by_params(self, **kwargs: t.Any) -> Registration:
        assert self._registration is not None
        return self._registration

    def get_tool_key_set(self) -> JWKS:
        """The tool's JWKS, fetched from T/lti/jwks once per request (never cached longer)."""
        if self._tool_keys is None:
            assert self._registration is not None
            url = self._registration.get_tool_key_set_url()
            if not url or not url.startswith(("http://", "https://")):
                raise InvalidKeySetUrl
            keys = self.fetch_public_key(url)
            if not isinstance(keys, dict) or not isinstance(keys.get("keys"), list):
                raise LtiException(f"the tool's JWKS at {url} has no list of keys")
            self._tool_keys = keys
        return self._tool_keys

    def validate_token(
        self,
        token: str,
        allowed_scopes: list[str] | None = None,
        audience: str | None = None,
    ) -> bool:
        """The package's check of an access token, False rather than raising if it is bad."""
        try:
            return super().validate_token(token, allowed_scopes, audience)
        except (jwt.PyJWTError, LtiException, ValueError):
            return False


class PlatformLogin(OIDCLoginAbstract):
    """Third-party login initiation: a 302 to the tool's T/lti/login."""

    def set_lti_message_hint(self, **kwargs: t.Any) -> None:
        self._lti_message_hint = kwargs["lti_message_hint"]

    def get_redirect(self, url: str) -> RedirectResponse:
        return RedirectResponse(url, status_code=302)


class PlatformLaunch(LTIAdvantageMessageLaunchAbstract):
    """The id_token: the package's claims, with a few values set as this platform wants."""

    def set_deep_linking(self, return_url: str, data: str) -> None:
        """The deep-linking settings claim (the package's, corrected where it differs).

        The package offers `embed` too, accepts several items and has `data` a dict;
        this platform takes one ltiResourceLink, in an iframe or a window, and sends an
        opaque string that the response must echo.
        """
        self.set_dl(return_url, title=f"Add an activity to {CONTEXT_TITLE}")
        assert self._deep_linking_launch_data is not None
        settings = self._deep_linking_launch_data[DL_SETTINGS]
        settings.pop("text", None)
        settings.update(
            {
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
                "accept_multiple": False,
                "auto_create": True,
                "data": data,
            }
        )

    def set_ags_endpoint(self, lineitems_url: str, lineitem_url: str | None) -> None:
        """The AGS endpoint claim; the package leaves `lineitem.readonly` out of the scopes."""
        self.set_ags(lineitems_url, lineitem_url, allow_creating_lineitems=True)
        claim = dict(self.extra_claims[AGS_ENDPOINT])
        claim["scope"] = list(AGS_SCOPES)
        self.set_extra_claims({AGS_ENDPOINT: claim})

    def render_launch_form(self, launch_data: dict[str, t.Any], **kwargs: t.Any) -> Response:
        action = launch_data["launch_url"]
        fields = {"id_token": launch_data["id_token"], "state": launch_data["state"]}
        if kwargs.get("as_json"):
            return JSONResponse({"action": action, **fields})
        return HTMLResponse(auto_post_page(action, fields))


class Grades(AssignmentsGradesService):
    """The package's Assignment and Grade Services over the platform's store."""

    def __init__(
        self,
        request: PlatformRequest,
        conf: PlatformConf,
        platform: Platform,
        lineitem_url: str | None = None,
    ) -> None:
        super().__init__(
            request,
            conf,
            f"{platform.issuer}/lineitems",
            lineitem_url,
            allow_creating_lineitems=True,
        )
        self.platform = platform

    @property
    def allowed_scopes(self) -> list[str]:
        return list(AGS_SCOPES)

    def find_lineitems(
        self,
        page: int = 1,
        limit: int | None = None,
        line_item_id: str | None = None,
        resource_link_id: str | None = None,
        resource_id: str | None = None,
        tag: str | None = None,
        **_ignored: t.Any,
    ) -> TPage:
        items = [
            item.as_ags()
            for item in self.platform.store.line_items.values()
            if (resource_link_id is None or item.resource_link_id == resource_link_id)
            and (resource_id is None or item.resource_id == resource_id)
            and (tag is None or item.tag == tag)
        ]
        return {"content": items, "has_next": False, "next": None}

    def find_lineitem(self, line_item_id: str) -> TLineItem:
        item = self.platform.store.line_items.get(line_item_id)
        if item is None:
            raise LineItemNotFoundException(line_item_id)
        return t.cast(TLineItem, item.as_ags())

    def create_lineitem(self, creation_data: TLineItem) -> TLineItem:
        raise LtiServiceException("line items are made by deep linking here", 405)

    def update_lineitem(self, update_data: TLineItem) -> TLineItem:
        raise LtiServiceException("line items cannot be changed here", 405)

    def delete_lineitem(self, line_item_id: str) -> None:
        raise LtiServiceException("line items cannot be deleted here", 405)

    def update_score(self, line_item_id: str, score: TScore) -> UpdateScoreStatus:
        """Keep the latest score per user; one older than the last on record is not applied."""
        store = self.platform.store
        body = t.cast(dict[str, t.Any], score)
        item = store.line_items.get(line_item_id)
        if item is None:
            raise LineItemNotFoundException(line_item_id)
        when = parse_timestamp(body["timestamp"])
        assert when is not None
        with store.lock:
            latest = store.scores.setdefault(line_item_id, {})
            previous = latest.get(body["userId"])
            if previous is not None and when < previous[0]:
                return UpdateScoreStatus.OLD_TIMESTAMP
            latest[body["userId"]] = (when, body)
            store.score_log.append({"lineitem": item.url, "score": body})
        return UpdateScoreStatus.SUCCESS

    def get_results(
        self,
        line_item_id: str,
        page: int = 1,
        limit: int | None = None,
        user_id: str | None = None,
        **_ignored: t.Any,
    ) -> TPage:
        item = self.platform.store.line_items.get(line_item_id)
        if item is None:
            raise LineItemNotFoundException(line_item_id)
        results = []
        for user, (_when, score) in self.platform.store.scores.get(line_item_id, {}).items():
            if user_id is not None and user != user_id:
                continue
            result: dict[str, t.Any] = {
                "id": f"{item.url}/results/{user}",
                "scoreOf": item.url,
                "userId": user,
            }
            if "scoreGiven" in score:
                result["resultScore"] = score["scoreGiven"]
                result["resultMaximum"] = score["scoreMaximum"]
            if "comment" in score:
                result["comment"] = score["comment"]
            results.append(result)
        return {"content": results, "has_next": False, "next": None}


# --- checks that lti1p3platform does not make --------------------------------------------


def is_number(value: t.Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def parse_timestamp(value: t.Any) -> datetime.datetime | None:
    """An ISO 8601 date and time with a time zone, or None."""
    if not isinstance(value, str) or "T" not in value:
        return None
    try:
        when = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def score_problems(body: t.Any) -> list[str]:
    """What is wrong with a score body (AGS 2.0 §3.4). Not in lti1p3platform ("TODO")."""
    if not isinstance(body, dict):
        return ["the body must be a JSON object"]
    problems = []
    if body.get("userId") not in USERS:
        problems.append(f"userId {body.get('userId')!r} is not a user of this platform")
    if "scoreGiven" in body:
        if not is_number(body["scoreGiven"]) or body["scoreGiven"] < 0:
            problems.append("scoreGiven must be a number >= 0")
        if "scoreMaximum" not in body:
            problems.append("scoreMaximum is required with scoreGiven")
    elif body.get("gradingProgress") == "FullyGraded":
        problems.append("a FullyGraded score needs scoreGiven")
    if "scoreMaximum" in body and (
        not is_number(body["scoreMaximum"]) or body["scoreMaximum"] <= 0
    ):
        problems.append("scoreMaximum must be a number > 0")
    if body.get("activityProgress") not in ACTIVITY_PROGRESS:
        problems.append(f"activityProgress must be one of {sorted(ACTIVITY_PROGRESS)}")
    if body.get("gradingProgress") not in GRADING_PROGRESS:
        problems.append(f"gradingProgress must be one of {sorted(GRADING_PROGRESS)}")
    if parse_timestamp(body.get("timestamp")) is None:
        problems.append("timestamp must be an ISO 8601 date and time with a time zone")
    if "comment" in body and not isinstance(body["comment"], str):
        problems.append("comment must be a string")
    return problems


def audience_has(claims: dict[str, t.Any], wanted: set[str]) -> bool:
    aud = claims.get("aud")
    auds = [aud] if isinstance(aud, str) else aud if isinstance(aud, list) else []
    return any(a in wanted for a in auds)


def media_type(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


# --- HTML ----------------------------------------------------------------------------------


def page(title: str, body: str) -> str:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head>\n<body>\n{body}\n</body></html>\n"
    )


def auto_post_page(action: str, fields: dict[str, str]) -> str:
    inputs = "".join(
        f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">'
        for name, value in fields.items()
    )
    return page(
        "Launching the tool",
        f'<form method="post" action="{html.escape(action)}" id="launch">{inputs}'
        '<noscript><button type="submit">Continue</button></noscript></form>\n'
        '<script>document.getElementById("launch").submit();</script>',
    )


def problem_page(reason: str, status: int = 400) -> HTMLResponse:
    body = f'<h1>Refused</h1><p data-testid="error">{html.escape(reason)}</p>'
    body += '<p><a href="/" target="_top">Back to the course</a></p>'
    return HTMLResponse(page("Refused", body), status_code=status)


# --- the platform --------------------------------------------------------------------------


def new_rsa_key() -> tuple[str, str]:
    """A fresh 2048-bit RSA key pair as (private PEM, public PEM), in memory only."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return private.decode(), public.decode()


class Platform:
    """The course, its registration with the tool, and what each endpoint does."""

    def __init__(self, issuer: str, tool: str) -> None:
        self.issuer = issuer.rstrip("/")
        self.tool = tool.rstrip("/")
        self.launch_url = f"{self.tool}/lti/launch"
        self.token_url = f"{self.issuer}/token"
        private, public = new_rsa_key()
        self.other_private, _ = new_rsa_key()  # never published: signs forgeries
        self.registration = (
            PlatformRegistration()
            .set_iss(self.issuer)
            .set_client_id(CLIENT_ID)
            .set_deployment_id(DEPLOYMENT_ID)
            .set_oidc_login_url(f"{self.tool}/lti/login")
            .set_launch_url(self.launch_url)
            .set_deeplink_launch_url(self.launch_url)
            .set_tool_key_set_url(f"{self.tool}/lti/jwks")
            .set_platform_private_key(private)
            .set_platform_public_key(public)
        )
        self.kid = self.registration.get_kid()
        self.store = Store()

    def conf(self) -> PlatformConf:
        return PlatformConf(registration=self.registration)

    # message hints and the login initiation

    def issue_hint(self, kind: str | None, resource: str | None) -> str:
        """An opaque lti_message_hint for a deep-linking launch or a known resource link."""
        if kind not in KINDS:
            raise Rejected(f"kind must be one of {list(KINDS)}, not {kind!r}")
        if kind == "resource":
            if resource not in self.store.links:
                raise Rejected(f"there is no resource link {resource!r}", 404)
        else:
            resource = None
        token = secrets.token_urlsafe(18)
        with self.store.lock:
            self.store.hints[token] = Hint(kind, resource)
        return token

    def start(self, kind: str | None, user: str | None, resource: str | None) -> Response:
        if user not in USERS:
            raise Rejected(f"user must be one of {sorted(USERS)}, not {user!r}")
        hint = self.issue_hint(kind, resource)
        login = PlatformLogin(None, self.conf())
        login.set_lti_message_hint(lti_message_hint=hint)
        if kind == "deeplink":
            login.set_deeplinking_launch_url()
        else:
            assert resource is not None
            login.set_launch_url(self.store.links[resource].url)
        return t.cast(Response, login.initiate_login(user))

    # the OIDC authentication request and the launch

    def check_auth_request(self, params: dict[str, str]) -> tuple[str, Hint]:
        """The OIDC auth request's checks (LTI 1.3 §5.1.1.2). Not in lti1p3platform.

        The package only asks for nonce, state, redirect_uri and a matching client_id.
        """
        expected = {
            "scope": "openid",
            "response_type": "id_token",
            "response_mode": "form_post",
            "prompt": "none",
            "client_id": CLIENT_ID,
            "redirect_uri": self.launch_url,
        }
        for name, value in expected.items():
            if name not in params:
                raise Rejected(f"{name} is missing")
            if params[name] != value:
                raise Rejected(f"{name} must be {value!r}, not {params[name]!r}")
        user = params.get("login_hint")
        if user not in USERS:
            raise Rejected(f"login_hint {user!r} is not a user of this platform")
        hint = self.store.hints.get(params.get("lti_message_hint", ""))
        if hint is None:
            raise Rejected("lti_message_hint is not one this platform issued")
        for name in ("state", "nonce"):
            if not params.get(name):
                raise Rejected(f"{name} is missing")
        return user, hint

    def authorize(self, request: Request, params: dict[str, str]) -> Response:
        user, hint = self.check_auth_request(params)
        launch = PlatformLaunch(lti_request(request, params), self.conf())
        person = USERS[user]
        launch.set_user_data(user, list(person.roles), full_name=person.name)
        launch.set_launch_context_claim(CONTEXT_ID, [COURSE_OFFERING], CONTEXT_TITLE, CONTEXT_LABEL)
        launch.set_launch_presentation_claim("iframe", f"{self.issuer}/")
        launch.set_extra_claims(
            {
                "given_name": person.given_name,
                "family_name": person.family_name,
                LTI + "tool_platform": {
                    "guid": "backprop-test-platform",
                    "name": "Backprop test LMS",
                },
            }
        )
        if hint.kind == "deeplink":
            data = secrets.token_urlsafe(18)
            with self.store.lock:
                self.store.deep_link_data.add(data)
            launch.set_deep_linking(f"{self.issuer}/deeplink/return", data)
        else:
            assert hint.resource is not None
            link = self.store.links[hint.resource]
            launch.set_launch_url(link.url)
            launch.set_resource_link_claim(link.id, title=link.title)
            launch.set_custom_parameters_claim(dict(link.custom))
            item = self.store.line_items.get(link.lineitem) if link.lineitem else None
            launch.set_ags_endpoint(f"{self.issuer}/lineitems", item.url if item else None)
        try:
            return t.cast(Response, launch.lti_launch(as_json=params.get("format") == "json"))
        except PreflightRequestValidationException as error:
            raise Rejected("the auth request is incomplete") from error

    # the client-credentials grant

    def token(self, params: dict[str, str]) -> JSONResponse:
        for name in ("grant_type", "client_assertion_type", "client_assertion", "scope"):
            if not params.get(name):
                raise Rejected(f"{name} is missing")
        if params["grant_type"] != "client_credentials":
            raise Rejected("grant_type must be client_credentials", error="unsupported_grant_type")
        if params["client_assertion_type"] != JWT_BEARER:
            raise Rejected(f"client_assertion_type must be {JWT_BEARER}")
        scopes = [s for s in params["scope"].split() if s in LTI_1P3_ACCESS_TOKEN_SCOPES]
        if not scopes:
            raise Rejected("none of the requested scopes is offered", error="invalid_scope")
        conf = self.conf()
        self.check_client_assertion(conf, params["client_assertion"])
        try:
            granted = conf.get_access_token({**params, "scope": " ".join(scopes)})
        except (MissingRequiredClaim, UnsupportedGrantType) as error:  # checked above
            raise Rejected(str(error)) from error
        with self.store.lock:
            self.store.tokens_issued += 1
        return JSONResponse(
            {
                "access_token": granted["access_token"],
                # the package says "bearer"; RFC 6750 and the IMS security framework "Bearer"
                "token_type": "Bearer",
                "expires_in": granted["expires_in"],
                "scope": granted["scope"],
            }
        )

    def check_client_assertion(self, conf: PlatformConf, assertion: str) -> None:
        """Signature (the package, against T/lti/jwks) and claims (not in the package)."""

        def refuse(reason: str) -> Rejected:
            return Rejected(f"client_assertion: {reason}", 401, "invalid_client")

        try:
            claims = conf.tool_validate_and_decode(assertion)
        except (LtiException, InvalidKeySetUrl, jwt.PyJWTError, ValueError) as error:
            raise refuse(f"does not verify against the tool's JWKS: {error}") from error
        for name in ("iss", "sub"):
            if claims.get(name) != CLIENT_ID:
                raise refuse(f"{name} must be {CLIENT_ID!r}, not {claims.get(name)!r}")
        if not audience_has(claims, {self.token_url, self.issuer}):
            raise refuse(f"aud must be {self.token_url!r}, not {claims.get('aud')!r}")
        for name in ("exp", "iat"):
            if not is_number(claims.get(name)):
                raise refuse(f"{name} is missing")
        jti = claims.get("jti")
        if not isinstance(jti, str) or not jti:
            raise refuse("jti is missing")
        with self.store.lock:
            if jti in self.store.used_jtis:
                raise refuse(f"jti {jti!r} was used before")
            self.store.used_jtis.add(jti)

    # deep linking

    def deep_link_return(self, params: dict[str, str]) -> HTMLResponse:
        token = params.get("JWT")
        if not token:
            raise Rejected("the JWT form field is missing")
        conf = self.conf()
        conf.set_accepted_deeplinking_types(["ltiResourceLink"])
        try:
            claims = conf.tool_validate_and_decode(token)
        except (LtiException, InvalidKeySetUrl, jwt.PyJWTError, ValueError) as error:
            raise Rejected(f"the JWT does not verify against the tool's JWKS: {error}") from error
        self.check_deep_link_claims(claims)
        items = claims.get(DL_CONTENT_ITEMS, [])
        for number, item in enumerate(items, 1):
            check_content_item(number, item, self.tool)
        try:
            conf.validate_deeplinking_resp({"JWT": token})  # the package's own checks
        except (LtiDeepLinkingResponseException, LtiException, jwt.PyJWTError) as error:
            raise Rejected(str(error)) from error
        added = [self.add_link(item) for item in items]
        notes = "".join(
            f'<p data-testid="{name}">{html.escape(claims[claim])}</p>'
            for name, claim in (("tool-msg", DL_MSG), ("tool-errormsg", DL_ERRORMSG))
            if isinstance(claims.get(claim), str)
        )
        if added:
            body = "".join(
                f'<p data-testid="activity-added" data-resource="{html.escape(link.id)}">'
                f"Added the activity “{html.escape(link.title)}”.</p>"
                for link in added
            )
        else:
            body = '<p data-testid="nothing-added">No activity was added.</p>'
        body += notes + '<p><a href="/" target="_top">Back to the course</a></p>'
        return HTMLResponse(page("Activity added" if added else "Nothing added", body))

    def check_deep_link_claims(self, claims: dict[str, t.Any]) -> None:
        """The response's claims (LTI DL 2.0 §4.2). Not in lti1p3platform.

        The package checks the signature, the message type and the items' types only.
        """
        if claims.get("iss") != CLIENT_ID:
            raise Rejected(f"iss must be the client_id {CLIENT_ID!r}, not {claims.get('iss')!r}")
        if not audience_has(claims, {self.issuer}):
            raise Rejected(f"aud must be the issuer {self.issuer!r}, not {claims.get('aud')!r}")
        if not is_number(claims.get("exp")):
            raise Rejected("exp is missing")
        if not claims.get("nonce") or not isinstance(claims.get("nonce"), str):
            raise Rejected("nonce is missing")
        expected = {
            MESSAGE_TYPE: "LtiDeepLinkingResponse",
            VERSION: "1.3.0",
            DEPLOYMENT: DEPLOYMENT_ID,
        }
        for claim, value in expected.items():
            if claims.get(claim) != value:
                raise Rejected(f"{claim} must be {value!r}, not {claims.get(claim)!r}")
        if claims.get(DL_DATA) not in self.store.deep_link_data:
            raise Rejected(f"{DL_DATA} must echo the data of a deep-linking request")
        items = claims.get(DL_CONTENT_ITEMS, [])
        if not isinstance(items, list):
            raise Rejected(f"{DL_CONTENT_ITEMS} must be a list")
        if len(items) > 1:
            raise Rejected("accept_multiple is false: at most one content item")

    def add_link(self, item: dict[str, t.Any]) -> ResourceLink:
        with self.store.lock:
            k = next(self.store.counter)
            link = ResourceLink(
                f"link-{k}", item["title"], item["url"], dict(item.get("custom", {})), None
            )
            line_item = item.get("lineItem")
            if line_item is not None:
                self.store.line_items[str(k)] = LineItem(
                    str(k),
                    f"{self.issuer}/lineitems/{k}",
                    line_item["label"],
                    line_item["scoreMaximum"],
                    link.id,
                    line_item.get("resourceId"),
                    line_item.get("tag"),
                )
                link.lineitem = str(k)
            self.store.links[link.id] = link
        return link

    # Assignment and Grade Services

    def authorized(self, conf: PlatformConf, request: Request, scopes: list[str]) -> None:
        """401 without a valid access token from /token, 403 if it has none of `scopes`.

        The package's `authenticate` answers 401 for both, and any AGS scope does for it.
        """
        parts = request.headers.get("authorization", "").split()
        if len(parts) != 2 or parts[0].lower() != "bearer":
            raise Rejected("a Bearer access token is required", 401, "invalid_token")
        if not conf.validate_token(parts[1]):
            raise Rejected("the access token is not valid", 401, "invalid_token")
        if not conf.validate_token(parts[1], scopes):
            raise Rejected(f"the access token needs a scope of {scopes}", 403, "insufficient_scope")

    def line_item_or_404(self, lineitem_id: str) -> LineItem:
        item = self.store.line_items.get(lineitem_id)
        if item is None:
            raise Rejected(f"there is no line item {lineitem_id!r}", 404, "not_found")
        return item

    def get_line_items(self, request: Request) -> Response:
        conf = self.conf()
        self.authorized(conf, request, [SCOPE_LINEITEM, SCOPE_LINEITEM_READONLY])
        params = dict(request.query_params)
        service = Grades(lti_request(request, params), conf, self)
        result = service.handle_resp(service.handle_get_lineitems)
        return ags_response(result, LINEITEMS_MEDIA_TYPE, lambda page: page["content"])

    def get_line_item(self, request: Request, lineitem_id: str) -> Response:
        conf = self.conf()
        self.authorized(conf, request, [SCOPE_LINEITEM, SCOPE_LINEITEM_READONLY])
        item = self.line_item_or_404(lineitem_id)
        service = Grades(lti_request(request, {}), conf, self, item.url)
        result = service.handle_resp(service.handle_get_lineitem, line_item_id=lineitem_id)
        return ags_response(result, LINEITEM_MEDIA_TYPE)

    def get_results(self, request: Request, lineitem_id: str) -> Response:
        conf = self.conf()
        self.authorized(conf, request, [SCOPE_RESULT_READONLY])
        item = self.line_item_or_404(lineitem_id)
        params = dict(request.query_params)
        service = Grades(lti_request(request, params), conf, self, item.url)
        result = service.handle_resp(service.handle_get_results, line_item_id=lineitem_id)
        return ags_response(result, RESULTS_MEDIA_TYPE, lambda page: page["content"])

    def post_score(self, request: Request, lineitem_id: str, raw: bytes) -> Response:
        conf = self.conf()
        self.authorized(conf, request, [SCOPE_SCORE])
        item = self.line_item_or_404(lineitem_id)
        got = media_type(request.headers.get("content-type"))
        if got != SCORE_MEDIA_TYPE:
            raise Rejected(
                f"Content-Type must be {SCORE_MEDIA_TYPE}, not {got!r}", 415, "unsupported_media"
            )
        try:
            body = json.loads(raw)
        except ValueError as error:
            raise Rejected(f"the body is not JSON: {error}") from error
        problems = score_problems(body)
        if problems:
            raise Rejected("; ".join(problems))
        service = Grades(lti_request(request, {}, body), conf, self, item.url)
        result = service.handle_resp(service.handle_update_score, line_item_id=lineitem_id)
        if result.code >= 400:
            return JSONResponse({"error": result.message}, status_code=result.code)
        return JSONResponse({"status": result.message}, status_code=result.code)

    # for the tests and the course page

    def state(self) -> dict[str, t.Any]:
        store = self.store
        with store.lock:
            items = store.line_items
            return {
                "resource_links": [
                    {
                        "id": link.id,
                        "title": link.title,
                        "url": link.url,
                        "custom": link.custom,
                        "lineitem": items[link.lineitem].url if link.lineitem else None,
                    }
                    for link in store.links.values()
                ],
                "line_items": [
                    {
                        "id": item.id,
                        "url": item.url,
                        "label": item.label,
                        "scoreMaximum": item.score_maximum,
                        "resourceLinkId": item.resource_link_id,
                        "resourceId": item.resource_id,
                        "tag": item.tag,
                    }
                    for item in items.values()
                ],
                "scores": {
                    items[k].url: {user: score for user, (_when, score) in by_user.items()}
                    for k, by_user in store.scores.items()
                },
                "score_log": list(store.score_log),
                "tokens_issued": store.tokens_issued,
            }

    def course_page(self) -> str:
        links = "".join(
            f'<li><a data-testid="activity-link" data-resource="{html.escape(link.id)}" '
            f'href="{html.escape(frame_href("resource", "learner", link.id))}">'
            f"{html.escape(link.title)}</a></li>"
            for link in self.store.links.values()
        )
        rows = []
        for k, by_user in self.store.scores.items():
            item = self.store.line_items[k]
            for user, (_when, score) in by_user.items():
                cells = [
                    item.label,
                    user,
                    f"{score.get('scoreGiven', '')}/{score.get('scoreMaximum', '')}",
                    score["activityProgress"],
                    score["gradingProgress"],
                ]
                rows.append(
                    f'<tr data-testid="score-row" data-lineitem="{html.escape(item.url)}" '
                    f'data-user="{html.escape(user)}">'
                    + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in cells)
                    + "</tr>"
                )
        head = "".join(
            f"<th>{name}</th>"
            for name in ("Line item", "User", "Score", "Activity progress", "Grading progress")
        )
        body = (
            f"<h1>{CONTEXT_TITLE}</h1>\n"
            '<p><a data-testid="add-activity" href="/frame?kind=deeplink&amp;user=teacher">'
            "Add an activity</a></p>\n"
            f'<h2>Activities</h2>\n<ul data-testid="activities">{links}</ul>\n'
            f'<h2>Scores</h2>\n<table data-testid="scores"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        return page(CONTEXT_TITLE, body)

    def sign(self, claims: dict[str, t.Any], kid: str | None, key: str | None) -> str:
        """Claims as they are, signed RS256 with the platform's key (`key=other`: a spare)."""
        private = self.other_private if key == "other" else self.registration_private()
        kid = self.kid if kid is None else kid
        headers = {"kid": kid} if kid else None
        return PlatformRegistration.encode_and_sign(dict(claims), private, headers)

    def registration_private(self) -> str:
        private = self.registration.get_platform_private_key()
        assert private is not None
        return private


def frame_href(kind: str, user: str, resource: str | None) -> str:
    return "/frame?" + urllib.parse.urlencode(frame_params(kind, user, resource))


def frame_params(kind: str, user: str, resource: str | None) -> dict[str, str]:
    params = {"kind": kind, "user": user}
    if resource is not None:
        params["resource"] = resource
    return params


def ags_response(
    result: LtiResponse,
    media: str,
    unwrap: Callable[[t.Any], t.Any] = lambda value: value,
) -> Response:
    if result.code >= 400:
        return JSONResponse({"error": result.message}, status_code=result.code)
    return JSONResponse(unwrap(result.result), status_code=result.code, media_type=media)


# --- HTTP ------------------------------------------------------------------------------------


async def read_params(request: Request) -> dict[str, str]:
    """The query string, and for a POST the urlencoded form on top of it."""
    params = dict(request.query_params)
    if request.method == "POST":
        got = media_type(request.headers.get("content-type"))
        if got != "application/x-www-form-urlencoded":
            raise Rejected(f"send the form as application/x-www-form-urlencoded, not {got!r}", 415)
        body = (await request.body()).decode("utf-8", errors="replace")
        params.update(urllib.parse.parse_qsl(body, keep_blank_values=True))
    return params


def as_text(error: Rejected) -> Response:
    return PlainTextResponse(error.reason, status_code=error.status)


def as_json(error: Rejected) -> Response:
    return JSONResponse(
        {"error": error.error, "error_description": error.reason}, status_code=error.status
    )


def as_html(error: Rejected) -> Response:
    return problem_page(error.reason, error.status)


async def answer(
    work: Callable[[], Awaitable[Response]], on_error: Callable[[Rejected], Response]
) -> Response:
    try:
        return await work()
    except Rejected as error:
        return on_error(error)


async def no_icon() -> Response:
    """No icon, and no 404 in the browser's console either."""
    return Response(status_code=204)


def create_app(issuer: str, tool: str) -> FastAPI:
    """The platform's app; makes its keys now, before it serves anything."""
    platform = Platform(issuer, tool)
    app = FastAPI(title="LTI 1.3 test platform", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.platform = platform

    @app.get("/healthz")
    async def healthz() -> Response:
        """200 "ok" once the keys exist and the server listens."""
        return PlainTextResponse("ok")

    app.add_api_route("/favicon.ico", no_icon)

    @app.get("/jwks")
    async def jwks() -> Response:
        """The platform's public key set: one RSA key with kid, alg RS256 and use sig."""
        return JSONResponse(platform.conf().get_jwks())

    @app.get("/")
    async def course() -> Response:
        """The course page: "Add an activity", one link per resource link, the scores table."""
        return HTMLResponse(platform.course_page())

    @app.get("/frame")
    async def frame(request: Request) -> Response:
        """A page framing the tool as LMSs do: an iframe on /start with the same parameters.

        Checks kind (deeplink or resource) and user (teacher or learner); /start checks
        the resource.
        """
        kind = request.query_params.get("kind")
        user = request.query_params.get("user")
        if kind not in KINDS or user not in USERS:
            return problem_page("kind must be deeplink or resource, user teacher or learner")
        params = frame_params(kind, user, request.query_params.get("resource"))
        src = "/start?" + urllib.parse.urlencode(params)
        body = (
            f'<p><a href="/" target="_top">{CONTEXT_TITLE}</a></p>\n'
            f'<iframe data-testid="tool-frame" name="tool" title="Backprop Animator" '
            f'src="{html.escape(src)}" style="width:100%;height:900px"></iframe>'
        )
        return HTMLResponse(page(CONTEXT_TITLE, body))

    @app.get("/start")
    async def start(request: Request) -> Response:
        """302 to the tool's OIDC login initiation, T/lti/login?iss&login_hint&....

        Checks kind (deeplink or resource), user (teacher or learner) and, for a resource
        launch, that the resource link exists (404 if not); 400 otherwise, as text. The
        target_link_uri is T/lti/launch for deep linking, the link's URL for a resource.
        """
        query = request.query_params

        async def work() -> Response:
            return platform.start(query.get("kind"), query.get("user"), query.get("resource"))

        return await answer(work, as_text)

    @app.api_route("/authorize", methods=["GET", "POST"])
    async def authorize(request: Request) -> Response:
        """The OIDC auth endpoint; parameters in the query string or a urlencoded form.

        Checks scope=openid, response_type=id_token, response_mode=form_post, prompt=none,
        client_id, redirect_uri = T/lti/launch, login_hint a user, lti_message_hint one
        this platform issued, state and nonce present: 400 with the reason as text if not.
        Then answers a page that form-posts id_token and state to redirect_uri, or with
        format=json `{"action", "id_token", "state"}`.
        """

        async def work() -> Response:
            params = await read_params(request)
            return await run_in_threadpool(platform.authorize, request, params)

        return await answer(work, as_text)

    @app.post("/token")
    async def token(request: Request) -> Response:
        """OAuth2 client credentials with a JWT client assertion (IMS Security §4.1).

        Checks grant_type, client_assertion_type, a scope it offers (400 invalid_request,
        unsupported_grant_type, invalid_scope), then the assertion: RS256 with a kid found
        in T/lti/jwks (fetched now), iss = sub = client_id, aud the token URL or issuer,
        exp (not passed), iat, a jti not seen before (401 invalid_client).
        """

        async def work() -> Response:
            params = await read_params(request)
            return await run_in_threadpool(platform.token, params)

        return await answer(work, as_json)

    @app.post("/deeplink/return")
    async def deep_link_return(request: Request) -> Response:
        """The tool's LtiDeepLinkingResponse, form field JWT.

        Checks the signature against T/lti/jwks (fetched now), iss = client_id, aud = the
        issuer, exp, nonce, message_type, version 1.3.0, deployment_id, data echoing a
        deep-linking request's, at most one item, each an ltiResourceLink with a title, a
        URL on the tool, custom a dict of strings and lineItem {label, scoreMaximum > 0,
        resourceId?, tag?}. Stores each as link-k (and line item k); 400 page if invalid.
        """

        async def work() -> Response:
            params = await read_params(request)
            return await run_in_threadpool(platform.deep_link_return, params)

        return await answer(work, as_html)

    @app.get("/lineitems")
    async def line_items(request: Request) -> Response:
        """The line items (filters resource_link_id, resource_id, tag); a lineitem scope."""
        return await answer(lambda: run_in_threadpool(platform.get_line_items, request), as_json)

    @app.get("/lineitems/{lineitem_id}")
    async def line_item(request: Request, lineitem_id: str) -> Response:
        """One line item: 401 bad token, 403 without a lineitem scope, 404 unknown."""
        return await answer(
            lambda: run_in_threadpool(platform.get_line_item, request, lineitem_id), as_json
        )

    @app.get("/lineitems/{lineitem_id}/results")
    async def results(request: Request, lineitem_id: str) -> Response:
        """The line item's results (filter user_id): needs the result.readonly scope."""
        return await answer(
            lambda: run_in_threadpool(platform.get_results, request, lineitem_id), as_json
        )

    @app.post("/lineitems/{lineitem_id}/scores")
    async def scores(request: Request, lineitem_id: str) -> Response:
        """A score: 401 bad token, 403 without the score scope, 404 unknown line item,
        415 unless Content-Type is application/vnd.ims.lis.v1.score+json, 400 for a bad
        body (userId a user, scoreGiven >= 0 with scoreMaximum > 0, required when
        FullyGraded; activityProgress, gradingProgress, timestamp with a time zone);
        409 if older than the user's last score; 200 {"status": "success"}.
        """

        async def work() -> Response:
            raw = await request.body()
            return await run_in_threadpool(platform.post_score, request, lineitem_id, raw)

        return await answer(work, as_json)

    @app.get("/state")
    async def state() -> Response:
        """Resource links, line items, latest scores, the score log and tokens issued."""
        return JSONResponse(platform.state())

    @app.post("/sign")
    async def sign(request: Request) -> Response:
        """`{"jwt"}`: the JSON body's claims signed RS256, nothing added (no exp, no iat).

        `?kid=X` puts kid X in the header (`?kid=` none); `?key=other` signs with a second
        key that /jwks never shows, under the published kid unless told otherwise.
        """
        try:
            claims = await request.json()
        except ValueError:
            claims = None
        if not isinstance(claims, dict):
            return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
        query = request.query_params
        return JSONResponse({"jwt": platform.sign(claims, query.get("kid"), query.get("key"))})

    @app.get("/message-hint")
    async def message_hint(request: Request) -> Response:
        """`{"lti_message_hint"}` for kind=deeplink or kind=resource&resource=ID."""
        query = request.query_params

        async def work() -> Response:
            hint = platform.issue_hint(query.get("kind"), query.get("resource"))
            return JSONResponse({"lti_message_hint": hint})

        return await answer(work, as_json)

    return app


def check_content_item(number: int, item: t.Any, tool: str) -> None:
    """One deep-linking content item (LTI DL 2.0 §3.4). Not in lti1p3platform."""
    where = f"content item {number}"
    if not isinstance(item, dict):
        raise Rejected(f"{where} must be an object")
    if item.get("type") != "ltiResourceLink":
        raise Rejected(f"{where}: type must be 'ltiResourceLink', not {item.get('type')!r}")
    if not isinstance(item.get("title"), str) or not item["title"].strip():
        raise Rejected(f"{where}: title is missing")
    url = item.get("url")
    if not isinstance(url, str) or not url.startswith(tool + "/"):
        raise Rejected(f"{where}: url must be a URL on the tool ({tool}/...), not {url!r}")
    custom = item.get("custom", {})
    if not isinstance(custom, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in custom.items()
    ):
        raise Rejected(f"{where}: custom must map strings to strings")
    if "lineItem" in item:
        line_item = item["lineItem"]
        if not isinstance(line_item, dict):
            raise Rejected(f"{where}: lineItem must be an object")
        if not is_number(line_item.get("scoreMaximum")) or line_item["scoreMaximum"] <= 0:
            raise Rejected(f"{where}: lineItem.scoreMaximum must be a number > 0")
        if not isinstance(line_item.get("label"), str) or not line_item["label"].strip():
            raise Rejected(f"{where}: lineItem.label is missing")
        for name in ("resourceId", "tag"):
            if name in line_item and not isinstance(line_item[name], str):
                raise Rejected(f"{where}: lineItem.{name} must be a string")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="An LTI 1.3 platform for the tests.")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tool", required=True, help="the tool's base URL, e.g. http://...")
    args = parser.parse_args(argv)
    app = create_app(f"http://127.0.0.1:{args.port}", args.tool)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
