"""`backprop-animator lti ...`: platforms registered, keys made and rotated, the schema
migrated, in the database `BACKPROP_DATABASE_URL` names (SQLite by default).

    lti add-platform --issuer URL --client-id ID --deployment-id ID \\
        --auth-login-url URL --auth-token-url URL --jwks-url URL [--frame-origin URL ...]
    lti list-platforms [--json]
    lti remove-platform --issuer URL --client-id ID
    lti keys [--keep-days N] [--list]
    lti migrate

`add-platform` again with the same issuer and client id adds a deployment and updates
the endpoints. Errors exit with status 2 and a sentence on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any


def add_commands(commands: Any) -> None:
    """The `lti` command and its subcommands, on the main parser's subparsers."""
    lti = commands.add_parser("lti", help="the LTI 1.3 tool: platforms, keys, database")
    sub = lti.add_subparsers(dest="lti_command", required=True, metavar="LTI_COMMAND")

    add = sub.add_parser("add-platform", help="register a platform (or a deployment of one)")
    add.add_argument("--issuer", required=True, metavar="URL", help="the platform's iss")
    add.add_argument("--client-id", required=True, metavar="ID")
    add.add_argument("--deployment-id", required=True, metavar="ID")
    add.add_argument("--auth-login-url", required=True, metavar="URL", help="OIDC auth endpoint")
    add.add_argument("--auth-token-url", required=True, metavar="URL", help="OAuth2 token URL")
    add.add_argument("--jwks-url", required=True, metavar="URL", help="the platform's keys")
    add.add_argument(
        "--frame-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another origin that frames the tool (say, the school's own Canvas host)",
    )
    add.add_argument(
        "--tool-url",
        default="http://127.0.0.1:8000",
        metavar="URL",
        help="this tool's public base URL, for the values printed for the platform",
    )
    add.set_defaults(run=_guarded(add_platform))

    listing = sub.add_parser("list-platforms", help="the registered platforms")
    listing.add_argument("--json", action="store_true", help="one JSON array")
    listing.set_defaults(run=_guarded(list_platforms))

    remove = sub.add_parser("remove-platform", help="forget a platform and its launches")
    remove.add_argument("--issuer", required=True, metavar="URL")
    remove.add_argument("--client-id", required=True, metavar="ID")
    remove.set_defaults(run=_guarded(remove_platform))

    key_parser = sub.add_parser(
        "keys", help="make the tool's signing key, or rotate it (the old one stays a while)"
    )
    key_parser.add_argument(
        "--keep-days",
        type=float,
        default=7.0,
        metavar="N",
        help="how long a rotated-out key stays in /lti/jwks (default 7)",
    )
    key_parser.add_argument("--list", action="store_true", help="only list the keys")
    key_parser.set_defaults(run=_guarded(rotate_keys))

    migrate = sub.add_parser("migrate", help="create or upgrade the database's tables")
    migrate.set_defaults(run=_guarded(migrate_database))


def _database() -> Any:
    from backprop_animator.app.lti.db import database

    return database()


def _fail(error: Exception) -> int:
    print(f"backprop-animator: {error}", file=sys.stderr)
    return 2


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """The command, with a bad database URL or an unreachable database said in a sentence."""

    def run(args: argparse.Namespace) -> int:
        from sqlalchemy.exc import SQLAlchemyError

        try:
            return command(args)
        except ValueError as error:
            return _fail(error)
        except SQLAlchemyError as error:
            reason = str(error.orig if hasattr(error, "orig") else error).strip()
            return _fail(RuntimeError(f"the database could not be used: {reason}"))

    return run


def add_platform(args: argparse.Namespace) -> int:
    from backprop_animator.app.lti.platforms import Registration
    from backprop_animator.app.lti.platforms import add_platform as register

    try:
        platform, new = register(
            _database(),
            Registration(
                issuer=args.issuer,
                client_id=args.client_id,
                deployment_id=args.deployment_id,
                auth_login_url=args.auth_login_url,
                auth_token_url=args.auth_token_url,
                jwks_url=args.jwks_url,
                frame_origins=tuple(args.frame_origin),
            ),
        )
    except ValueError as error:
        return _fail(error)
    tool = args.tool_url.rstrip("/")
    print(
        f"{'registered' if new else 'updated'} {platform.issuer} (client id "
        f"{platform.client_id}; deployments: {', '.join(platform.deployment_ids)})"
    )
    print("The values the platform's administrator enters for this tool:")
    print(f"  OIDC login initiation URL  {tool}/lti/login")
    print(f"  redirect / target link URI {tool}/lti/launch")
    print(f"  Deep Linking URL           {tool}/lti/launch")
    print(f"  public keyset (JWKS) URL   {tool}/lti/jwks")
    return 0


def _describe(platform: Any) -> dict[str, Any]:
    return {
        "issuer": platform.issuer,
        "client_id": platform.client_id,
        "deployment_ids": list(platform.deployment_ids),
        "auth_login_url": platform.auth_login_url,
        "auth_token_url": platform.auth_token_url,
        "jwks_url": platform.jwks_url,
        "frame_origins": list(platform.frame_origins),
    }


def list_platforms(args: argparse.Namespace) -> int:
    from backprop_animator.app.lti.platforms import list_platforms as registered

    found = [_describe(platform) for platform in registered(_database())]
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    if not found:
        print("no platform is registered (backprop-animator lti add-platform ...)")
    for item in found:
        print(f"{item['issuer']}  client id {item['client_id']}")
        print(f"  deployments    {', '.join(item['deployment_ids'])}")
        for name in ("auth_login_url", "auth_token_url", "jwks_url"):
            print(f"  {name:<14} {item[name]}")
        if item["frame_origins"]:
            print(f"  frame origins  {' '.join(item['frame_origins'])}")
    return 0


def remove_platform(args: argparse.Namespace) -> int:
    from backprop_animator.app.lti.platforms import remove_platform as forget

    if not forget(_database(), args.issuer, args.client_id):
        return _fail(ValueError(f"no platform {args.issuer} with client id {args.client_id}"))
    print(f"removed {args.issuer} (client id {args.client_id})")
    return 0


def rotate_keys(args: argparse.Namespace) -> int:
    from backprop_animator.app.lti import keys

    if args.keep_days < 0:
        return _fail(ValueError("--keep-days must be 0 or more"))
    db = _database()
    if not args.list:
        had_key = bool(keys.all_keys(db))
        key = keys.rotate(db, args.keep_days)
        print(f"{'rotated: the new' if had_key else 'made: the'} signing key is {key.kid}")
    for key in keys.all_keys(db):
        state = "signing" if key.retired_at is None else "retired, still in /lti/jwks"
        print(f"  {key.kid}  {state}")
    return 0


def migrate_database(args: argparse.Namespace) -> int:
    from backprop_animator.app.lti.db import current_revision

    db = _database()
    shown = db.engine.url.render_as_string(hide_password=True)
    print(f"the database is at revision {current_revision(db.engine)} ({shown})")
    return 0
