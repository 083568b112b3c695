"""The tool's signing keys: made on first use, rotated by `backprop-animator lti keys`.

Each key is RSA 2048 and named by its RFC 7638 thumbprint (`kid`). The newest key
signs (Deep Linking responses, AGS client assertions); a rotated-out key keeps
verifying in `/lti/jwks` for `keep_days` so platforms that cached it go on working,
then `rotate` (or `prune`) deletes it. Private keys live only in the database: none is
ever written to the repository or to a file of its own.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from sqlalchemy import delete, insert, select, update

from backprop_animator.app.lti.db import Database, now, tool_keys

DEFAULT_KEEP_DAYS = 7


@dataclass(frozen=True)
class ToolKey:
    kid: str
    private_pem: str
    created_at: int
    retired_at: int | None

    def private_key(self) -> rsa.RSAPrivateKey:
        key = serialization.load_pem_private_key(self.private_pem.encode(), password=None)
        assert isinstance(key, rsa.RSAPrivateKey)
        return key

    def public_jwk(self) -> dict[str, Any]:
        jwk: dict[str, Any] = json.loads(RSAAlgorithm.to_jwk(self.private_key().public_key()))
        # `use` says what the key is for; RFC 7517 asks not to say it twice (key_ops).
        return {
            "kty": jwk["kty"],
            "n": jwk["n"],
            "e": jwk["e"],
            "kid": self.kid,
            "alg": "RS256",
            "use": "sig",
        }


def _new_key() -> tuple[str, str]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    jwk = json.loads(RSAAlgorithm.to_jwk(private.public_key()))
    return _thumbprint(jwk), pem


def _thumbprint(jwk: dict[str, str]) -> str:
    """RFC 7638: SHA-256 of the members e, kty, n in order, no spaces, base64url."""
    canonical = json.dumps({k: jwk[k] for k in ("e", "kty", "n")}, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _rows(db: Database) -> list[ToolKey]:
    with db.engine.connect() as connection:
        # The signing key first, then the retired ones, most recently retired first.
        rows = connection.execute(
            select(tool_keys).order_by(
                tool_keys.c.retired_at.is_(None).desc(),
                tool_keys.c.retired_at.desc(),
                tool_keys.c.created_at.desc(),
            )
        )
        return [ToolKey(**row._mapping) for row in rows]


def signing_key(db: Database) -> ToolKey:
    """The key that signs: the newest not retired, made now if there is none."""
    for key in _rows(db):
        if key.retired_at is None:
            return key
    return rotate(db)


def rotate(db: Database, keep_days: float = DEFAULT_KEEP_DAYS) -> ToolKey:
    """Make a new signing key, retire the current one, delete those retired over
    `keep_days` ago; returns the new key."""
    kid, pem = _new_key()
    at = now()
    with db.engine.begin() as connection:
        connection.execute(
            update(tool_keys).where(tool_keys.c.retired_at.is_(None)).values(retired_at=at)
        )
        connection.execute(insert(tool_keys).values(kid=kid, private_pem=pem, created_at=at))
    prune(db, keep_days)
    return ToolKey(kid, pem, at, None)


def prune(db: Database, keep_days: float = DEFAULT_KEEP_DAYS) -> int:
    """Delete keys retired more than `keep_days` ago; returns how many."""
    cutoff = now() - int(keep_days * 86400)
    with db.engine.begin() as connection:
        result = connection.execute(
            delete(tool_keys).where(
                tool_keys.c.retired_at.is_not(None), tool_keys.c.retired_at <= cutoff
            )
        )
        return int(result.rowcount or 0)


def jwks(db: Database) -> dict[str, list[dict[str, Any]]]:
    """The public keys platforms verify the tool's messages with (signing key first)."""
    signing_key(db)
    return {"keys": [key.public_jwk() for key in _rows(db)]}


def all_keys(db: Database) -> list[ToolKey]:
    """Every key, the signing one first (for `lti keys` to list)."""
    return _rows(db)
