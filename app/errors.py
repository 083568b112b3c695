"""One error shape for every client: `{"error": {"message", "line", "column"}}`.

Engine errors, FastAPI's validation errors and Starlette's HTTP errors (404, 405...)
all leave in this shape, so the page and API users handle one thing. Only the
engine's errors carry a line and column; they point into the program.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from backprop_animator.app.schemas import ErrorBody
from backprop_animator.engine import EngineError
from backprop_animator.engine.trace.text import clean_text

# FastAPI's own words for a body it could not decode for a reason other than syntax.
FASTAPI_BODY_ERROR = "There was an error parsing the body"


class ServiceError(Exception):
    """A refusal decided by the service itself (busy, too slow), with its HTTP status."""

    def __init__(
        self, status_code: int, message: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message
        self.headers = dict(headers or {})


def error_response(
    status_code: int,
    message: str,
    line: int | None = None,
    column: int | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = {"error": {"message": clean_text(message), "line": line, "column": column}}
    return JSONResponse(body, status_code=status_code, headers=headers)


def error_responses(descriptions: Mapping[int, str]) -> dict[int | str, dict[str, Any]]:
    """A route's `responses=` for OpenAPI: each status answers with an `ErrorBody`."""
    return {code: {"model": ErrorBody, "description": text} for code, text in descriptions.items()}


def describe_validation_error(errors: Sequence[Any]) -> tuple[int, str]:
    """The status and sentence for a request FastAPI could not validate.

    Example: `[{"type": "missing", "loc": ("query", "source"), "msg": "Field required"}]`
    -> `(422, "'source' in the query: Field required.")`.
    """
    first = errors[0]
    if first["type"] == "json_invalid":
        reason = first.get("ctx", {}).get("error", "it cannot be parsed")
        return 400, f"The request body is not valid JSON: {reason}."
    where, *path = first["loc"]
    place = f"'{'.'.join(map(str, path))}' in the {where}" if path else f"The request {where}"
    return 422, f"{place}: {first['msg']}."


# `?refusal_status=200`: a refused program is an answer, not a failure. Browsers log every
# 4xx response in the console as an error; the page asks for 200 so a typo logs nothing.
REFUSAL_STATUS_PARAMETER = "refusal_status"


async def handle_engine_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, EngineError)
    status_code = 200 if request.query_params.get(REFUSAL_STATUS_PARAMETER) == "200" else 400
    return error_response(status_code, error.message, error.line, error.column)


async def handle_service_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    return error_response(error.status_code, error.message, headers=error.headers)


async def handle_validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    status_code, message = describe_validation_error(error.errors())
    content_type = request.headers.get("content-type", "")
    if request.method == "POST" and "json" not in content_type:
        # FastAPI reads a body as JSON only when it says it is; say that, not the symptom.
        message = (
            f"The request body must be JSON sent with Content-Type: application/json "
            f"(this request said {content_type or 'nothing'!r}), "
            'like {"source": "a = Value(3.0)\\nb = a + a", "granularity": "packed"}.'
        )
    return error_response(status_code, message)


def describe_unreadable_body(body: bytes) -> str:
    """Why a body FastAPI could not parse is not JSON it can read, as a sentence.

    FastAPI reports only "There was an error parsing the body" when decoding fails
    with something other than a JSON syntax error: invalid UTF-8, a number with more
    digits than Python converts, nesting deeper than its recursion limit.

    Example: `describe_unreadable_body(b'{"source": "\\xff"}')` (with a raw 0xff byte)
    -> "The request body is not UTF-8: byte 13 is 0xff; ...".
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as problem:
        return (
            f"The request body is not UTF-8: byte {problem.start + 1} is "
            f"{body[problem.start]:#04x}; send JSON encoded as UTF-8."
        )
    try:
        json.loads(text)
    except RecursionError:
        return "The request body is JSON nested too deeply to read; send a flat JSON object."
    except ValueError as problem:
        if "digits" in str(problem):
            return (
                "The request body holds an integer with more than "
                f"{sys.get_int_max_str_digits():,} digits, more than can be read; "
                "programs go in the source string."
            )
        return f"The request body is not valid JSON: {problem}."
    return "The request body could not be read as JSON."


async def handle_http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    message = error.detail
    if error.status_code == 400 and message == FASTAPI_BODY_ERROR:
        message = describe_unreadable_body(request.scope.get("state", {}).get("body", b""))
    elif error.status_code == 404:
        message = f"There is nothing at {request.url.path}."
    elif error.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path}."
    return error_response(error.status_code, message, headers=error.headers)


async def handle_unexpected_error(request: Request, error: Exception) -> JSONResponse:
    # Starlette re-raises the error after sending this, so the server logs it.
    return error_response(500, "Something went wrong on the server; the error was logged.")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(EngineError, handle_engine_error)
    app.add_exception_handler(ServiceError, handle_service_error)
    app.add_exception_handler(RequestValidationError, handle_validation_error)
    app.add_exception_handler(HTTPException, handle_http_error)
    app.add_exception_handler(Exception, handle_unexpected_error)
