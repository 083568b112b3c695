"""The LTI 1.3 tool's endpoints (SPEC §17).

- `GET|POST /lti/login`: OIDC third-party login initiation. A registered platform gets
  a redirect to its authorization endpoint with a fresh `state` and `nonce`, kept in
  the database for ten minutes.
- `POST /lti/launch`: the platform's id token and the state. The token is verified
  (messages.py), then the state is deleted, so a token or a state works once. A
  resource-link launch becomes a stored launch and a redirect to `/lti/play/{id}`; a
  Deep Linking request opens the picker.
- `POST /lti/deep-link`: the picker's form. The program is traced (refused programs
  come back to the picker with the error), kept as an activity, and a signed
  `LtiDeepLinkingResponse` with one `ltiResourceLink` goes back to the platform.
- `GET /lti/play/{id}`: the player (with the quiz when chosen), which only the launch's
  platform may frame.
- `POST /lti/score`: one closed quiz question. The first answer to each question counts;
  the launch's score goes to its line item through AGS.
- `GET /lti/jwks`: the tool's public keys.

No cookie is set: browsers drop third-party cookies in an LMS's iframe, so the login's
state lives in the database, single-use and short-lived, and a launch is named by an
unguessable id that only its own page holds. Every LTI failure is a 4xx page and stores
nothing (a state is deleted only by the launch that verified).
"""

from __future__ import annotations

import json
import secrets
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import orjson
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from backprop_animator.app import __version__
from backprop_animator.app.errors import ServiceError, error_response
from backprop_animator.app.lti import ags, keys
from backprop_animator.app.lti.activity import (
    HIDDEN_BY_DEFAULT,
    PARTS,
    Activity,
    expected_answers,
    is_right,
)
from backprop_animator.app.lti.db import (
    Database,
    activities,
    answers,
    database,
    deep_links,
    launches,
    login_states,
    now,
    now_us,
)
from backprop_animator.app.lti.messages import (
    AGS_ENDPOINT,
    DEEP_LINKING_REQUEST,
    DEEP_LINKING_RESPONSE,
    DL,
    LTI,
    LtiError,
    is_teacher,
    sign,
    verify_id_token,
)
from backprop_animator.app.lti.platforms import (
    Platform,
    check_url,
    find_platform,
    origin_of,
    platform_by_id,
)
from backprop_animator.app.paths import find_asset_dir
from backprop_animator.app.security import content_security_policy
from backprop_animator.engine import EngineError
from backprop_animator.engine.examples import EXAMPLES

router = APIRouter(prefix="/lti", tags=["lti"], include_in_schema=False)
templates = Jinja2Templates(directory=find_asset_dir("templates"))

STATE_SECONDS = 600
DEEP_LINK_SECONDS = 3600
LAUNCH_SECONDS = 8 * 3600
MAX_FORM_FIELD = 100_000
NO_STORE = {"Cache-Control": "no-store"}


def _db() -> Database:
    return database()


async def _form(request: Request) -> dict[str, str]:
    """The query string's fields, then an urlencoded body's (the body wins).

    `show`, the picker's checkboxes, may come several times: its values are joined with
    spaces (and it is there, empty, even when no box is ticked)."""
    pairs = list(request.query_params.multi_items())
    if request.method == "POST":
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind not in ("application/x-www-form-urlencoded", ""):
            raise LtiError(415, "LTI messages are sent as an HTML form (urlencoded).")
        body = (await request.body()).decode("utf-8", "replace")
        pairs += parse_qsl(body, keep_blank_values=True)
    fields = {name: value for name, value in pairs if name != "show"}
    shown = [value for name, value in pairs if name == "show"]
    if shown:
        fields["show"] = " ".join(value for value in shown if value)
    if any(len(value) > MAX_FORM_FIELD for value in fields.values()):
        raise LtiError(413, "A field of this request is too long.")
    return fields


def _required(fields: dict[str, str], name: str) -> str:
    value = fields.get(name, "").strip()
    if not value:
        raise LtiError(400, f"The request has no {name!r}: start the activity from the course.")
    return value


def _page(
    request: Request,
    name: str,
    context: dict[str, Any],
    *,
    status: int = 200,
    frame_ancestors: str = "'none'",
    form_action: str = "'self'",
) -> HTMLResponse:
    headers = {
        "Content-Security-Policy": content_security_policy(
            frame_ancestors=frame_ancestors, form_action=form_action
        ),
        **NO_STORE,
    }
    return templates.TemplateResponse(
        request, name, {"version": __version__, **context}, status_code=status, headers=headers
    )


def _framing(platform: Platform) -> str:
    return " ".join(["'self'", *platform.framing_origins()])


def error_page(request: Request, error: LtiError) -> HTMLResponse:
    # Shown inside the LMS's iframe, whatever the platform: an error page has nothing
    # to click, so any site may frame it.
    return _page(
        request,
        "lti_error.html",
        {"status": error.status, "title": error.title, "message": error.message},
        status=error.status,
        frame_ancestors="*",
    )


async def _handle_lti_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, LtiError)
    if request.url.path == "/lti/score":
        return error_response(error.status, error.message)
    return error_page(request, error)


async def _handle_database_error(request: Request, error: Exception) -> Response:
    message = "The tool's database is not available; try again in a moment."
    if request.url.path.startswith("/lti/") and request.url.path != "/lti/score":
        return error_page(request, LtiError(503, message, "The tool is not available"))
    return error_response(503, message)


def install(app: FastAPI) -> None:
    """The routes, and LTI failures as pages."""
    app.include_router(router)
    app.add_exception_handler(LtiError, _handle_lti_error)
    app.add_exception_handler(SQLAlchemyError, _handle_database_error)


# --- the tool's keys ---------------------------------------------------------------


@router.get("/jwks")
def read_jwks() -> JSONResponse:
    return JSONResponse(keys.jwks(_db()), headers={"Cache-Control": "public, max-age=300"})


# --- OIDC login initiation -----------------------------------------------------------


def _start_login(fields: dict[str, str]) -> str:
    issuer = _required(fields, "iss")
    login_hint = _required(fields, "login_hint")
    target = _required(fields, "target_link_uri")
    db = _db()
    platform = find_platform(db, issuer, fields.get("client_id") or None)
    if platform is None:
        raise LtiError(
            400,
            "This platform is not registered with the tool (issuer and client id); an "
            "administrator adds it with backprop-animator lti add-platform.",
            "Unknown platform",
        )
    deployment = fields.get("lti_deployment_id")
    if deployment and deployment not in platform.deployment_ids:
        shown = deployment if len(deployment) <= 60 else deployment[:59] + "…"
        raise LtiError(403, f"The deployment {shown!r} is not registered for this platform.")
    if urlsplit(target).path != "/lti/launch" or origin_of(target) is None:
        raise LtiError(400, "The launch must target this tool's /lti/launch.")
    state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    at = now()
    with db.engine.begin() as connection:
        connection.execute(delete(login_states).where(login_states.c.expires_at <= at))
        connection.execute(
            insert(login_states).values(
                state=state, nonce=nonce, platform_id=platform.id, expires_at=at + STATE_SECONDS
            )
        )
    params = {
        "scope": "openid",
        "response_type": "id_token",
        "response_mode": "form_post",
        "prompt": "none",
        "client_id": platform.client_id,
        "redirect_uri": target,
        "login_hint": login_hint,
        "state": state,
        "nonce": nonce,
    }
    if fields.get("lti_message_hint"):
        params["lti_message_hint"] = fields["lti_message_hint"]
    parts = urlsplit(platform.auth_login_url)
    query = "&".join(part for part in (parts.query, urlencode(params)) if part)
    return urlunsplit(parts._replace(query=query))


@router.api_route("/login", methods=["GET", "POST"])
async def login(request: Request) -> Response:
    fields = await _form(request)
    location = await run_in_threadpool(_start_login, fields)
    return RedirectResponse(location, status_code=302, headers=NO_STORE)


# --- launches --------------------------------------------------------------------------


def _verify_launch(fields: dict[str, str]) -> tuple[Platform, dict[str, Any]]:
    token = _required(fields, "id_token")
    state = _required(fields, "state")
    db = _db()
    with db.engine.connect() as connection:
        row = connection.execute(
            select(login_states).where(
                login_states.c.state == state, login_states.c.expires_at > now()
            )
        ).first()
    if row is None:
        raise LtiError(
            400,
            "This launch has expired or was already used: start the activity again from "
            "the course.",
            "This launch has expired",
        )
    platform = platform_by_id(db, row.platform_id)
    if platform is None:
        raise LtiError(400, "The platform of this launch is no longer registered.")
    claims = verify_id_token(token, platform, row.nonce)
    with db.engine.begin() as connection:
        used = connection.execute(
            delete(login_states).where(
                login_states.c.state == state, login_states.c.expires_at > now()
            )
        )
    if used.rowcount != 1:  # another request used this state a moment ago
        raise LtiError(400, "This launch was already used: start the activity again.")
    return platform, claims


def _stored_activity(
    db: Database, platform: Platform, activity_id: str
) -> tuple[Activity, str] | None:
    with db.engine.connect() as connection:
        row = connection.execute(
            select(activities.c.program, activities.c.expected).where(
                activities.c.id == activity_id, activities.c.platform_id == platform.id
            )
        ).first()
    return None if row is None else (Activity.from_json(row.program), row.expected)


def _store_launch(
    db: Database,
    platform: Platform,
    claims: dict[str, Any],
    activity: Activity,
    expected: str,
) -> str:
    link = claims.get(LTI + "resource_link") or {}
    endpoint = claims.get(AGS_ENDPOINT) or {}
    lineitem = endpoint.get("lineitem") if isinstance(endpoint, dict) else None
    scopes = endpoint.get("scope") if isinstance(endpoint, dict) else None
    if (
        not isinstance(lineitem, str)
        or not isinstance(scopes, list)
        or ags.SCORE_SCOPE not in scopes
        or not activity.quiz
        or not claims.get("sub")
    ):
        lineitem = None
    else:
        try:
            check_url(lineitem, "the line item")
        except ValueError:
            lineitem = None
    launch_id = secrets.token_urlsafe(32)
    at = now()
    with db.engine.begin() as connection:
        connection.execute(delete(launches).where(launches.c.expires_at <= at))
        connection.execute(
            insert(launches).values(
                id=launch_id,
                platform_id=platform.id,
                deployment_id=claims[LTI + "deployment_id"],
                subject=str(claims.get("sub") or ""),
                instructor=is_teacher(claims),
                resource_link_id=str(link.get("id", ""))[:255],
                program=activity.to_json(),
                expected=expected,
                lineitem=lineitem,
                expires_at=at + LAUNCH_SECONDS,
            )
        )
    return launch_id


async def _trace_expected(request: Request, activity: Activity) -> str:
    """The right answers of the activity's quiz, as JSON; EngineError if the program fails."""
    pool = request.app.state.worker_pool
    encoded = await pool.trace(
        activity.source,
        activity.granularity,
        False,
        mistake=activity.mistake,
        sort_steps=activity.sort_steps,
    )
    return json.dumps(expected_answers(orjson.loads(encoded.body)))


async def _resource_launch(request: Request, platform: Platform, claims: dict[str, Any]) -> str:
    link = claims.get(LTI + "resource_link")
    if not isinstance(link, dict) or not link.get("id"):
        raise LtiError(400, "The launch names no resource link.")
    custom = claims.get(LTI + "custom") or {}
    if not isinstance(custom, dict):
        raise LtiError(400, "The launch's custom parameters are not an object.")
    db = _db()
    stored = None
    if custom.get("activity"):
        stored = await run_in_threadpool(_stored_activity, db, platform, str(custom["activity"]))
    if stored is not None:
        activity, expected = stored
    elif not custom.get("source"):
        raise LtiError(404, "This activity is not known to the tool: add it to the course again.")
    else:
        # A link made by hand, or copied with its course to another platform: the
        # program and the options are in the custom parameters.
        try:
            activity = Activity.from_custom(custom, link.get("title"))
        except ValueError as error:
            raise LtiError(400, f"This link's activity is not valid: {error}") from None
        try:
            expected = await _trace_expected(request, activity)
        except EngineError as error:
            raise LtiError(422, f"This link's program does not run: {error.message}") from None
        except ServiceError as error:
            raise LtiError(429, f"The tool is busy: {error}; try again.") from None
    return await run_in_threadpool(_store_launch, db, platform, claims, activity, expected)


def _open_picker(platform: Platform, claims: dict[str, Any]) -> dict[str, Any]:
    if not is_teacher(claims):
        raise LtiError(403, "Only a teacher can add an activity to the course.")
    settings = claims.get(DL + "deep_linking_settings")
    if not isinstance(settings, dict):
        raise LtiError(400, "The Deep Linking request has no deep_linking_settings claim.")
    return_url = settings.get("deep_link_return_url")
    try:
        check_url(str(return_url), "deep_link_return_url")
    except ValueError as error:
        raise LtiError(400, str(error)) from None
    accepted = settings.get("accept_types") or []
    if "ltiResourceLink" not in accepted:
        raise LtiError(400, "This platform does not accept an LTI resource link here.")
    launch_url = claims.get(LTI + "target_link_uri")
    if not isinstance(launch_url, str) or urlsplit(launch_url).path != "/lti/launch":
        raise LtiError(400, "The Deep Linking request does not target this tool's /lti/launch.")
    session = secrets.token_urlsafe(32)
    at = now()
    data = settings.get("data")
    db = _db()
    with db.engine.begin() as connection:
        connection.execute(delete(deep_links).where(deep_links.c.expires_at <= at))
        connection.execute(
            insert(deep_links).values(
                id=session,
                platform_id=platform.id,
                deployment_id=claims[LTI + "deployment_id"],
                return_url=return_url,
                launch_url=launch_url,
                data=None if data is None else str(data),
                expires_at=at + DEEP_LINK_SECONDS,
            )
        )
    context = claims.get(LTI + "context") or {}
    return {
        "session": session,
        "return_host": urlsplit(str(return_url)).hostname or "",
        "context_title": context.get("title") if isinstance(context, dict) else None,
    }


@router.post("/launch")
async def launch(request: Request) -> Response:
    fields = await _form(request)
    platform, claims = await run_in_threadpool(_verify_launch, fields)
    if claims[LTI + "message_type"] == DEEP_LINKING_REQUEST:
        context = await run_in_threadpool(_open_picker, platform, claims)
        return _picker(request, platform, context)
    launch_id = await _resource_launch(request, platform, claims)
    return RedirectResponse(f"/lti/play/{launch_id}", status_code=303, headers=NO_STORE)


def _picker(
    request: Request,
    platform: Platform,
    context: dict[str, Any],
    *,
    values: dict[str, Any] | None = None,
    error: dict[str, Any] | None = None,
    status: int = 200,
) -> HTMLResponse:
    examples = [
        {
            "key": example.id,
            "title": example.title,
            "source": example.source,
            "granularity": example.granularity,
            "mistake": example.mistake,
            "sort_steps": bool(example.sort_steps),
            "gradcheck": bool(example.gradcheck),
        }
        for example in EXAMPLES
    ]
    return _page(
        request,
        "lti_picker.html",
        {"examples": examples, "values": values or {}, "error": error, **context},
        status=status,
        frame_ancestors=_framing(platform),
    )


# --- the player ------------------------------------------------------------------------


def _launch_row(launch_id: str) -> Any:
    db = _db()
    with db.engine.connect() as connection:
        row = connection.execute(
            select(launches).where(launches.c.id == launch_id, launches.c.expires_at > now())
        ).first()
    if row is None:
        raise LtiError(
            404,
            "This launch has expired (after eight hours) or never was: open the activity "
            "again from the course.",
            "This launch has expired",
        )
    platform = platform_by_id(db, row.platform_id)
    if platform is None:
        raise LtiError(404, "The platform of this launch is no longer registered.")
    return row, platform


@router.get("/play/{launch_id}")
async def play(request: Request, launch_id: str) -> Response:
    row, platform = await run_in_threadpool(_launch_row, launch_id)
    activity = Activity.from_json(row.program)
    grading = row.lineitem is not None
    note = None
    if row.instructor:
        if not activity.quiz:
            note = "This activity has no quiz, so it sends no grade."
        elif grading:
            note = "Learners' quiz scores go to this activity's column in the gradebook."
        else:
            note = (
                "This launch has no grade service (LTI Assignment and Grade Services), so "
                "the quiz plays without sending grades."
            )
    launch_data = {
        "id": row.id,
        "search": activity.search(),
        "grading": grading,
        "score_url": "/lti/score",
        "instructor": bool(row.instructor),
        "note": note,
        "title": activity.title,
    }
    return _page(
        request, "lti_play.html", {"launch": launch_data}, frame_ancestors=_framing(platform)
    )


# --- Deep Linking: the picker's answer ---------------------------------------------------


def _deep_link_row(session: str) -> tuple[Any, Platform]:
    db = _db()
    with db.engine.connect() as connection:
        row = connection.execute(
            select(deep_links).where(deep_links.c.id == session, deep_links.c.expires_at > now())
        ).first()
    if row is None:
        raise LtiError(
            400,
            "This picker has expired or was already used: open it again from the course.",
            "This picker has expired",
        )
    platform = platform_by_id(db, row.platform_id)
    if platform is None:
        raise LtiError(400, "The platform of this picker is no longer registered.")
    return row, platform


def _activity_from_form(fields: dict[str, str]) -> Activity:
    """The picker's fields as an activity (ValueError with a sentence if they are not)."""
    shown = fields.get("show")
    hide = (
        HIDDEN_BY_DEFAULT
        if shown is None
        else tuple(part for part in PARTS if part not in shown.split())
    )
    return Activity(
        source=fields.get("source", ""),
        title=fields.get("title", "").strip(),
        granularity=fields.get("granularity", "packed") or "packed",
        quiz=fields.get("quiz") == "1",
        mistake=fields.get("mistake") or None,
        sort_steps=fields.get("sort_steps") == "1",
        gradcheck=fields.get("gradcheck") == "1",
        hide=hide,
    )


def _finish_deep_link(
    row: Any, platform: Platform, activity: Activity, expected: str
) -> tuple[str, str]:
    """Keep the activity, use up the picker's session, sign the response."""
    db = _db()
    activity_id = secrets.token_urlsafe(16)
    with db.engine.begin() as connection:
        used = connection.execute(delete(deep_links).where(deep_links.c.id == row.id))
        if used.rowcount != 1:
            raise LtiError(400, "This picker was already used: open it again from the course.")
        connection.execute(
            insert(activities).values(
                id=activity_id,
                platform_id=platform.id,
                program=activity.to_json(),
                expected=expected,
                created_at=now(),
            )
        )
    total = len(json.loads(expected))
    item: dict[str, Any] = {
        "type": "ltiResourceLink",
        "title": activity.title,
        "url": row.launch_url,
        "custom": activity.custom(activity_id),
    }
    if activity.quiz and total:
        item["lineItem"] = {
            "scoreMaximum": total,
            "label": activity.title,
            "resourceId": activity_id,
        }
    at = now()
    claims: dict[str, Any] = {
        "iss": platform.client_id,
        "aud": platform.issuer,
        "iat": at,
        "exp": at + 600,
        "nonce": secrets.token_urlsafe(24),
        LTI + "message_type": DEEP_LINKING_RESPONSE,
        LTI + "version": "1.3.0",
        LTI + "deployment_id": row.deployment_id,
        DL + "content_items": [item],
        DL + "msg": f"Added {activity.title!r}.",
    }
    if row.data is not None:
        claims[DL + "data"] = row.data
    return sign(claims, keys.signing_key(db)), row.return_url


@router.post("/deep-link")
async def deep_link(request: Request) -> Response:
    fields = await _form(request)
    session = _required(fields, "session")
    row, platform = await run_in_threadpool(_deep_link_row, session)
    context = {
        "session": session,
        "return_host": urlsplit(row.return_url).hostname or "",
        "context_title": None,
    }
    values: dict[str, Any] = {name: fields.get(name, "") for name in _PICKER_FIELDS}
    values["show"] = fields["show"].split() if "show" in fields else None
    try:
        activity = _activity_from_form(fields)
    except ValueError as error:
        failure: dict[str, Any] = {"message": str(error), "line": None, "column": None}
        return _picker(request, platform, context, values=values, error=failure, status=422)
    try:
        expected = await _trace_expected(request, activity)
    except EngineError as error:
        failure = {"message": error.message, "line": error.line, "column": error.column}
        return _picker(request, platform, context, values=values, error=failure, status=422)
    except ServiceError as error:
        failure = {"message": str(error), "line": None, "column": None}
        return _picker(request, platform, context, values=values, error=failure, status=429)
    token, return_url = await run_in_threadpool(
        _finish_deep_link, row, platform, activity, expected
    )
    return _page(
        request,
        "lti_return.html",
        {"return_url": return_url, "jwt": token, "title": activity.title},
        frame_ancestors=_framing(platform),
        form_action=" ".join(["'self'", origin_of(return_url) or ""]).strip(),
    )


_PICKER_FIELDS = (
    "example",
    "source",
    "title",
    "granularity",
    "quiz",
    "mistake",
    "sort_steps",
    "gradcheck",
)


# --- grades ------------------------------------------------------------------------------


class ScoreRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    launch: str = Field(max_length=100)
    question: int = Field(ge=0, le=1_000_000)
    answer: float | None = None


# When an answer was given, in microseconds: a process of the build before migration 0002
# (a rolling deploy) leaves `answered_us` at its default 0, and its answers then go by
# their second.
_ANSWER_ORDER = func.coalesce(
    func.nullif(answers.c.answered_us, 0), answers.c.answered_at * 1_000_000
)


def _record_answer(body: ScoreRequest) -> dict[str, Any]:
    row, platform = _launch_row(body.launch)
    expected = json.loads(row.expected)
    if body.question >= len(expected):
        raise LtiError(422, f"This activity has {len(expected)} questions.")
    right = is_right(body.answer, expected[body.question])
    answer = body.answer if body.answer is not None and abs(body.answer) < 1e300 else None
    db = _db()
    try:
        with db.engine.begin() as connection:
            connection.execute(
                insert(answers).values(
                    launch_id=row.id,
                    question=body.question,
                    answer=answer,
                    right=right,
                    answered_at=now(),
                    answered_us=now_us(),
                )
            )
    except IntegrityError:
        pass  # the first answer to a question is the one that counts
    # Every launch of this link by this learner counts (opening the activity again must
    # not lower the grade the course holds): each question's first answer across them.
    with db.engine.connect() as connection:
        rows = connection.execute(
            select(answers.c.question, answers.c.right)
            .select_from(answers.join(launches, answers.c.launch_id == launches.c.id))
            .where(
                launches.c.platform_id == row.platform_id,
                launches.c.resource_link_id == row.resource_link_id,
                launches.c.subject == row.subject,
                launches.c.expected == row.expected,
            )
            .order_by(_ANSWER_ORDER, answers.c.launch_id)
        ).all()
    first: dict[int, bool] = {}
    for question, was_right in rows:
        first.setdefault(question, bool(was_right))
    total = len(expected)
    reply: dict[str, Any] = {
        "right": sum(first.values()),
        "asked": len(first),
        "total": total,
        "posted": False,
    }
    if row.lineitem is None:
        reply["message"] = "Not graded: this launch has no grade service."
        return reply
    score = ags.score_body(row.subject, reply["right"], total, reply["asked"])
    try:
        ags.post_score(db, platform, row.lineitem, score)
    except ags.GradeError as error:
        reply["message"] = f"Your answer is kept, but the score was not sent: {error}."
        return reply
    reply["posted"] = True
    reply["message"] = f"Score sent to the course: {reply['right']} / {total}."
    return reply


@router.post("/score")
async def post_score(body: ScoreRequest) -> JSONResponse:
    reply = await run_in_threadpool(_record_answer, body)
    return JSONResponse(reply, headers=NO_STORE)
