"""Assignment and Grade Services: the learner's score posted to the launch's line item.

The tool asks the platform's token endpoint for an access token with a client
assertion (a JWT it signs, RFC 7523), keeps the token in the database until shortly
before it expires (so replicas share it), and POSTs a score (`application/vnd.ims.lis.
v1.score+json`) to `{lineitem}/scores`. A platform that fails makes `post_score` return
a sentence; the learner's answers are kept either way.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from backprop_animator.app.lti.db import Database, access_tokens, now
from backprop_animator.app.lti.keys import signing_key
from backprop_animator.app.lti.messages import sign
from backprop_animator.app.lti.platforms import Platform

SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
SCORE_MEDIA_TYPE = "application/vnd.ims.lis.v1.score+json"
TIMEOUT_SECONDS = 5.0
TOKEN_MARGIN_SECONDS = 60  # a token this close to expiring is not used


class GradeError(Exception):
    """The platform did not take the score; the sentence says why."""


def scores_url(lineitem: str) -> str:
    """`{lineitem}/scores`, with the path extended before any query (AGS §3.4).

    Example: `scores_url("https://lms/li/7?type=x")` -> `"https://lms/li/7/scores?type=x"`.
    """
    parts = urlsplit(lineitem)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/scores"))


def access_token(db: Database, platform: Platform, scope: str, client: httpx.Client) -> str:
    """A bearer token for `scope`, from the database or newly granted by the platform."""
    with db.engine.connect() as connection:
        token = connection.execute(
            select(access_tokens.c.token).where(
                access_tokens.c.platform_id == platform.id,
                access_tokens.c.scope == scope,
                access_tokens.c.expires_at > now() + TOKEN_MARGIN_SECONDS,
            )
        ).scalar()
    if token:
        return str(token)
    at = now()
    assertion = sign(
        {
            "iss": platform.client_id,
            "sub": platform.client_id,
            "aud": platform.auth_token_url,
            "iat": at,
            "exp": at + 300,
            "jti": secrets.token_urlsafe(24),
        },
        signing_key(db),
    )
    try:
        response = client.post(
            platform.auth_token_url,
            data={
                "grant_type": "client_credentials",
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                "client_assertion": assertion,
                "scope": scope,
            },
            headers={"Accept": "application/json"},
        )
    except httpx.HTTPError as error:
        raise GradeError(f"the course's token service could not be reached ({error})") from None
    if response.status_code != 200:
        raise GradeError(f"the course's token service answered {response.status_code}")
    try:
        body: dict[str, Any] = response.json()
        token = str(body["access_token"])
        # Kept at most a day, whatever the service says (`Infinity`, 10**30 or -5).
        lifetime = min(max(int(body.get("expires_in", 3600)), 0), 86_400)
    except (ValueError, KeyError, TypeError, OverflowError):
        raise GradeError("the course's token service answered without a token") from None
    try:
        with db.engine.begin() as connection:
            connection.execute(
                delete(access_tokens).where(
                    access_tokens.c.platform_id == platform.id, access_tokens.c.scope == scope
                )
            )
            connection.execute(
                insert(access_tokens).values(
                    platform_id=platform.id, scope=scope, token=token, expires_at=at + lifetime
                )
            )
    except IntegrityError:
        pass  # another worker cached a token for this scope at the same moment: use ours
    return token


def score_body(user: str, right: int, total: int, asked: int) -> dict[str, Any]:
    """The score for `right` of `total` questions once `asked` of them closed."""
    done = asked >= total
    return {
        "userId": user,
        "scoreGiven": right,
        "scoreMaximum": max(total, 1),
        "activityProgress": "Completed" if done else "InProgress",
        "gradingProgress": "FullyGraded" if done else "Pending",
        "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds"),
    }


def post_score(db: Database, platform: Platform, lineitem: str, score: dict[str, Any]) -> None:
    """POST the score to the line item; GradeError with a sentence if the platform refuses."""
    with httpx.Client(timeout=TIMEOUT_SECONDS, follow_redirects=False) as client:
        for attempt in range(2):
            token = access_token(db, platform, SCORE_SCOPE, client)
            try:
                response = client.post(
                    scores_url(lineitem),
                    json=score,
                    headers={
                        "Authorization": f"Bearer {token}",
                        "Content-Type": SCORE_MEDIA_TYPE,
                    },
                )
            except httpx.HTTPError as error:
                raise GradeError(f"the course could not be reached ({error})") from None
            if response.status_code == 401 and attempt == 0:
                _forget_token(db, platform, SCORE_SCOPE)  # revoked early: ask once more
                continue
            if response.status_code >= 300:
                raise GradeError(f"the course answered {response.status_code}")
            return


def _forget_token(db: Database, platform: Platform, scope: str) -> None:
    with db.engine.begin() as connection:
        connection.execute(
            delete(access_tokens).where(
                access_tokens.c.platform_id == platform.id, access_tokens.c.scope == scope
            )
        )
