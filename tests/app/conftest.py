"""Fixtures for the service tests: apps with their lifespan running, and clients.

The apps live for the whole session (starting worker processes takes a moment);
each test still builds its own request. `httpx.ASGITransport` calls the app in
process; it does not run the lifespan, so the fixtures do.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from service_helpers import client_for

from backprop_animator.app.main import create_app
from backprop_animator.app.settings import Settings
from backprop_animator.engine import Limits


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


async def running(app: FastAPI) -> AsyncIterator[FastAPI]:
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture(scope="session")
async def default_app() -> AsyncIterator[FastAPI]:
    """The app as served: default limits, and one worker for large sources."""
    async for app in running(create_app(Settings(trace_workers=1))):
        yield app


@pytest.fixture(scope="session")
async def small_limits_app() -> AsyncIterator[FastAPI]:
    """Small limits, and every source goes to a worker process."""
    limits = Limits(max_source_chars=300, max_nodes=40, max_depth=12)
    settings = Settings(limits=limits, trace_workers=1, inline_max_chars=0)
    async for app in running(create_app(settings)):
        yield app


@pytest.fixture
async def client(default_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(default_app) as client:
        yield client


@pytest.fixture
async def limited_client(small_limits_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(small_limits_app) as client:
        yield client
