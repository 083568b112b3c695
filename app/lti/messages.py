"""LTI 1.3 messages: the platform's id tokens verified, the tool's own JWTs signed.

PyJWT does the cryptography and the standard claims (signature with RS256 only, `exp`,
`iat`, `iss`, `aud`); this module adds what LTI 1.3 asks on top (`azp`, `nonce`, the
version, the message type, a registered deployment) and fetches each platform's JWKS.
Every failure is an `LtiError` whose sentence the learner or teacher sees on a 4xx page.

Example: `verify_id_token(token, platform, nonce)` -> the claims of a launch that
`platform` signed for this tool, or `LtiError(400, "...")`.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx
import jwt

from backprop_animator.app.lti.keys import ToolKey
from backprop_animator.app.lti.platforms import Platform

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
DEEP_LINKING_RESPONSE = "LtiDeepLinkingResponse"
TEACHING_ROLES = ("#Instructor", "#Administrator", "#ContentDeveloper", "#TeachingAssistant")

LEEWAY_SECONDS = 60  # clocks of the platform and the tool may differ this much
JWKS_TIMEOUT_SECONDS = 5.0
JWKS_MAX_BYTES = 1 << 20
JWKS_CACHE_SECONDS = 300
# A token naming a key the cached JWKS lacks fetches it again, but not more often than
# this: forged tokens with made-up key ids must not turn the tool into a load on the LMS.
JWKS_REFETCH_SECONDS = 30


class LtiError(Exception):
    """An LTI failure, shown as a page with this status (always 4xx) and sentence."""

    def __init__(self, status: int, message: str, title: str = "This launch did not work") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.title = title


@dataclass
class _CachedKeys:
    keys: jwt.PyJWKSet
    fetched_at: float


_jwks_cache: dict[str, _CachedKeys] = {}
_jwks_lock = threading.Lock()


def fetch_json(url: str, *, what: str) -> Any:
    """GET `url` as JSON, within the time and size bounds; LtiError(502-ish 4xx) if not."""
    try:
        with (
            httpx.Client(timeout=JWKS_TIMEOUT_SECONDS, follow_redirects=False) as client,
            client.stream("GET", url, headers={"Accept": "application/json"}) as response,
        ):
            if response.status_code != 200:
                raise LtiError(424, f"The platform's {what} answered {response.status_code}.")
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > JWKS_MAX_BYTES:
                    raise LtiError(424, f"The platform's {what} is larger than 1 MB.")
    except httpx.HTTPError as error:
        raise LtiError(424, f"The platform's {what} could not be fetched ({error}).") from None
    try:
        return json.loads(bytes(body))
    except ValueError:
        raise LtiError(424, f"The platform's {what} is not JSON.") from None


def platform_keys(platform: Platform, *, refresh: bool = False) -> jwt.PyJWKSet:
    """The platform's JWKS, cached for a few minutes."""
    now = time.monotonic()
    with _jwks_lock:
        cached = _jwks_cache.get(platform.jwks_url)
    if cached is not None:
        age = now - cached.fetched_at
        if age < JWKS_CACHE_SECONDS and (not refresh or age < JWKS_REFETCH_SECONDS):
            return cached.keys
    data = fetch_json(platform.jwks_url, what="key set (JWKS)")
    try:
        keys = jwt.PyJWKSet.from_dict(data)
    except (jwt.PyJWKSetError, jwt.InvalidKeyError, TypeError, AttributeError):
        raise LtiError(424, "The platform's key set (JWKS) holds no usable key.") from None
    with _jwks_lock:
        _jwks_cache[platform.jwks_url] = _CachedKeys(keys, now)
    return keys


def _key_for(token: str, platform: Platform) -> Any:
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:  # not a JWT, a kid that is no string, an unknown `crit`
        raise LtiError(400, "The id token is not a JWT this tool can read.") from None
    if header.get("alg") != "RS256":
        raise LtiError(400, "The id token must be signed with RS256.")
    kid = header.get("kid")
    for refresh in (False, True):
        # Only RSA keys meant for RS256 can check an RS256 signature.
        keys = [
            key
            for key in platform_keys(platform, refresh=refresh).keys
            if key.key_type == "RSA" and key.algorithm_name == "RS256"
        ]
        if kid is None and len(keys) == 1:
            return keys[0].key
        for key in keys:
            if key.key_id == kid:
                return key.key
    raise LtiError(400, "The id token is signed with a key the platform does not publish.")


def verify_id_token(token: str, platform: Platform, nonce: str) -> dict[str, Any]:
    """The claims of an id token the platform signed for this tool, with this nonce."""
    if len(token) > 64_000:
        raise LtiError(400, "The id token is too long.")
    key = _key_for(token, platform)
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            key,
            algorithms=["RS256"],
            audience=platform.client_id,
            issuer=platform.issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iat", "iss", "aud", "nonce"]},
        )
    except jwt.ExpiredSignatureError:
        raise LtiError(400, "The id token has expired: start the activity again.") from None
    except jwt.InvalidSignatureError:
        raise LtiError(400, "The id token's signature does not verify.") from None
    except jwt.InvalidAudienceError:
        raise LtiError(400, "The id token is meant for another tool (aud).") from None
    except jwt.InvalidIssuerError:
        raise LtiError(400, "The id token comes from another platform (iss).") from None
    except jwt.ImmatureSignatureError:
        raise LtiError(400, "The id token is not valid yet (iat).") from None
    except jwt.MissingRequiredClaimError as error:
        raise LtiError(400, f"The id token has no {error.claim!r} claim.") from None
    except jwt.PyJWTError as error:
        raise LtiError(400, f"The id token is not valid: {error}.") from None
    except (TypeError, ValueError):  # a key PyJWT cannot use for this token
        raise LtiError(400, "The id token cannot be checked with the platform's key.") from None
    audience = claims["aud"]
    if isinstance(audience, list) and len(audience) > 1 and claims.get("azp") != platform.client_id:
        raise LtiError(400, "The id token names several audiences and not this tool as azp.")
    if "azp" in claims and claims["azp"] != platform.client_id:
        raise LtiError(400, "The id token's azp is another tool.")
    if claims["nonce"] != nonce:
        raise LtiError(400, "The id token's nonce is not the one this login sent.")
    if claims.get(LTI + "version") != "1.3.0":
        raise LtiError(400, "The launch is not LTI 1.3.0.")
    deployment = claims.get(LTI + "deployment_id")
    if not isinstance(deployment, str) or deployment not in platform.deployment_ids:
        raise LtiError(
            403,
            f"The deployment {deployment!r} is not registered for this platform; an "
            "administrator adds it with backprop-animator lti add-platform.",
        )
    message_type = claims.get(LTI + "message_type")
    if message_type not in (RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST):
        raise LtiError(400, f"The tool does not take LTI messages of type {message_type!r}.")
    return claims


def is_teacher(claims: dict[str, Any]) -> bool:
    roles = claims.get(LTI + "roles") or []
    return isinstance(roles, list) and any(
        isinstance(role, str) and role.endswith(TEACHING_ROLES) for role in roles
    )


def sign(claims: dict[str, Any], key: ToolKey) -> str:
    """A JWT of the tool's, RS256 with the key's id in its header."""
    return jwt.encode(claims, key.private_key(), algorithm="RS256", headers={"kid": key.kid})
