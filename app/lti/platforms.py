"""Registered platforms (an LMS's issuer and client id, its endpoints, its deployments).

`backprop-animator lti add-platform` writes them; launches read them. A URL must be
https, except on a loopback host (a platform on the same machine, as in the tests).

Example: `add_platform(db, Registration(issuer="https://canvas.instructure.com",
client_id="10000000000001", deployment_id="1:abc", auth_login_url=..., ...))`.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from backprop_animator.app.lti.db import Database, deployments, now, platforms


@dataclass(frozen=True)
class Registration:
    issuer: str
    client_id: str
    deployment_id: str
    auth_login_url: str
    auth_token_url: str
    jwks_url: str
    frame_origins: tuple[str, ...] = ()


@dataclass(frozen=True)
class Platform:
    id: int
    issuer: str
    client_id: str
    auth_login_url: str
    auth_token_url: str
    jwks_url: str
    frame_origins: tuple[str, ...]
    deployment_ids: tuple[str, ...] = field(default=())

    def framing_origins(self) -> list[str]:
        """Origins that may frame the player on this platform's launches: the issuer's
        (when it is an https URL, or http on loopback), the login endpoint's, and any
        registered with --frame-origin."""
        found: list[str] = []
        for url in (self.issuer, self.auth_login_url, *self.frame_origins):
            if url is self.issuer and not _is_web_origin(url):
                continue
            origin = origin_of(url)
            if origin and origin not in found:
                found.append(origin)
        return found


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_NETLOC = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?"
)


def check_url(url: str, what: str) -> str:
    """`url` if it is an absolute https URL (http only on a loopback host); else ValueError."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ValueError(f"{what} must be an absolute https URL, not {url!r}")
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        raise ValueError(f"{what} must use https (http only on localhost): {url!r}")
    if parts.username or parts.password:
        raise ValueError(f"{what} must not carry a user name or password")
    # The origin goes into a Content-Security-Policy header: a host of letters, digits,
    # dots and hyphens (or an IP literal) and a port, nothing that could end a directive.
    if not _NETLOC.fullmatch(parts.netloc):
        raise ValueError(f"{what} has a host this tool cannot use: {url!r}")
    return url


def origin_of(url: str) -> str | None:
    """`https://host[:port]` of a URL, or None when it has none."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return None
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


def _is_web_origin(url: str) -> bool:
    try:
        check_url(url, "")
    except ValueError:
        return False
    return True


def _check(registration: Registration) -> None:
    # The issuer is compared as a string with the id token's `iss`, never fetched: LTI
    # makes it an https URL, but a platform's own identifier is taken as given.
    issuer = registration.issuer
    if not issuer or len(issuer) > 255 or not issuer.isprintable() or issuer != issuer.strip():
        raise ValueError("--issuer must be 1 to 255 printable characters, without spaces around")
    if any(c.isspace() for c in issuer):
        raise ValueError("--issuer must have no spaces (it is usually the platform's https URL)")
    for name in ("auth_login_url", "auth_token_url", "jwks_url"):
        check_url(getattr(registration, name), "--" + name.replace("_", "-"))
    for origin in registration.frame_origins:
        check_url(origin, "--frame-origin")
    for name in ("client_id", "deployment_id"):
        value = getattr(registration, name)
        if not value or len(value) > 255 or not value.isprintable():
            raise ValueError(f"--{name.replace('_', '-')} must be 1 to 255 printable characters")


def add_platform(db: Database, registration: Registration) -> tuple[Platform, bool]:
    """Register a platform, or add a deployment to one already registered (same issuer
    and client id; its endpoints are then updated). Returns it and whether it is new."""
    _check(registration)
    values = {
        "auth_login_url": registration.auth_login_url,
        "auth_token_url": registration.auth_token_url,
        "jwks_url": registration.jwks_url,
        "frame_origins": " ".join(registration.frame_origins),
    }
    with db.engine.begin() as connection:
        existing = connection.execute(
            select(platforms.c.id).where(
                platforms.c.issuer == registration.issuer,
                platforms.c.client_id == registration.client_id,
            )
        ).scalar()
        if existing is None:
            existing = connection.execute(
                insert(platforms).values(
                    issuer=registration.issuer,
                    client_id=registration.client_id,
                    created_at=now(),
                    **values,
                )
            ).inserted_primary_key
            assert existing is not None
            existing = existing[0]
            new = True
        else:
            connection.execute(platforms.update().where(platforms.c.id == existing).values(values))
            new = False
        try:
            with connection.begin_nested():
                connection.execute(
                    insert(deployments).values(
                        platform_id=existing, deployment_id=registration.deployment_id
                    )
                )
        except IntegrityError:
            pass  # that deployment is registered already
    found = find_platform(db, registration.issuer, registration.client_id)
    assert found is not None
    return found, new


def _platform(db: Database, row: object) -> Platform:
    mapping = row._mapping  # type: ignore[attr-defined]
    with db.engine.connect() as connection:
        ids = connection.execute(
            select(deployments.c.deployment_id)
            .where(deployments.c.platform_id == mapping["id"])
            .order_by(deployments.c.deployment_id)
        ).scalars()
        deployment_ids = tuple(ids)
    return Platform(
        id=mapping["id"],
        issuer=mapping["issuer"],
        client_id=mapping["client_id"],
        auth_login_url=mapping["auth_login_url"],
        auth_token_url=mapping["auth_token_url"],
        jwks_url=mapping["jwks_url"],
        frame_origins=tuple(mapping["frame_origins"].split()),
        deployment_ids=deployment_ids,
    )


def find_platform(db: Database, issuer: str, client_id: str | None) -> Platform | None:
    """The registration of `issuer` with `client_id`; with no client id (a login
    initiation may leave it out), the issuer's only registration, if it has one."""
    query = select(platforms).where(platforms.c.issuer == issuer)
    if client_id is not None:
        query = query.where(platforms.c.client_id == client_id)
    with db.engine.connect() as connection:
        rows = connection.execute(query.limit(2)).all()
    return _platform(db, rows[0]) if len(rows) == 1 else None


def platform_by_id(db: Database, platform_id: int) -> Platform | None:
    with db.engine.connect() as connection:
        row = connection.execute(select(platforms).where(platforms.c.id == platform_id)).first()
    return None if row is None else _platform(db, row)


def list_platforms(db: Database) -> list[Platform]:
    with db.engine.connect() as connection:
        rows = connection.execute(select(platforms).order_by(platforms.c.id)).all()
    return [_platform(db, row) for row in rows]


def remove_platform(db: Database, issuer: str, client_id: str) -> bool:
    """Forget a platform with its deployments, activities and launch state."""
    with db.engine.begin() as connection:
        result = connection.execute(
            delete(platforms).where(
                platforms.c.issuer == issuer, platforms.c.client_id == client_id
            )
        )
        return bool(result.rowcount)
