"""Fixtures for the browser tests: a live uvicorn server and Debian's Chromium.

Small fixtures of our own rather than pytest-playwright's (named so they cannot
clash with its fixtures if it is installed): one server and one browser per
session, a fresh context per test, and every console error or page error
collected so each test can end by asserting there were none.
"""

from __future__ import annotations

import shutil
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Error,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from backprop_animator.engine.examples import (
    NEURON as NEURON,  # the article's neuron, for every browser test
)
from tests.support.harness import CHROMIUM_ARGS, live_server

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"

# `expect` waits until its condition holds; Playwright gives up after 5 s by default. On
# CI's two cores shared by two pytest workers, the server's workers and Chromium, a step
# a quiet machine takes in one second has taken more than five (a JupyterLab reload, a
# big trace). A longer wait changes no assertion, only how long a failing one takes to
# say so; tests that ask for speed measure it themselves.
expect.set_options(timeout=15_000)


# The browser tests ask what the page shows, not when the server gives up: a roomy trace
# time limit keeps a loaded machine's slow gradient check or big trace from a 503 (CI's
# two cores run two pytest workers, Chromium and the servers' workers). The 1.8 s default
# and its sentences have tests of their own (tests/app).
ROOMY = {"BACKPROP_TRACE_TIME_LIMIT": "20"}


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The app on a free loopback port, with a roomy time limit; yields its base URL."""
    with live_server(env=ROOMY) as base:
        yield base


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    with sync_playwright() as instance:
        yield instance


# Debian's headless shell first: the full browser's headless mode draws its own UI in a
# renderer of its own for each new context (`--top-chrome-webui`) and keeps its browser
# process busy; the shell, built from the same Chromium for automation, runs the browser
# directories' 90 tests of player, camera, passes and screens in two thirds of the CPU
# (docs/PERFORMANCE.md). The full browser, which the page benchmarks use, if it is all
# there is.
BROWSERS = ("chromium-headless-shell", "chromium")


@pytest.fixture(scope="session")
def chromium(playwright_session: Playwright) -> Iterator[Browser]:
    executable = next(filter(None, map(shutil.which, BROWSERS)), None)
    if executable is None:
        pytest.fail(
            "Debian's Chromium is not installed (apt-get install chromium-headless-shell); "
            "scripts/test installs it"
        )
    instance = playwright_session.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    yield instance
    instance.close()


@dataclass
class Problems:
    """Console errors and uncaught page errors seen during one test."""

    messages: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)

    def unexpected(self) -> list[str]:
        return [m for m in self.messages if not any(a in m for a in self.allowed)]


@pytest.fixture
def problems() -> Problems:
    return Problems()


def motion(request: pytest.FixtureRequest) -> Literal["reduce", "no-preference"]:
    """The pages of a test ask for reduced motion unless it is marked `motion`.

    The edges' endless flow (player.css) repaints the graph at every display frame while a
    page is open: an idle player took a quarter of a core in Chromium, on CI's two cores
    that run two pytest workers and the servers beside it. Reduced motion is a setting
    the page honours (no flow, no glide: the view moves at once); the tests of the motion
    itself (a glide, the flow stilled while stepping or waiting) are marked and get it.
    """
    return "no-preference" if request.node.get_closest_marker("motion") else "reduce"


def open_page(
    chromium: Browser,
    problems: Problems,
    *,
    bypass_csp: bool,
    reduced_motion: Literal["reduce", "no-preference"] = "reduce",
) -> Iterator[Page]:
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900},
        bypass_csp=bypass_csp,
        reduced_motion=reduced_motion,
    )
    instance = context.new_page()

    def on_console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            problems.messages.append(f"console {message.type}: {message.text}")

    def on_page_error(error: Error) -> None:
        problems.messages.append(f"page error: {error}")

    instance.on("console", on_console)
    instance.on("pageerror", on_page_error)
    yield instance
    context.close()
    assert problems.unexpected() == [], "the page logged errors"


@pytest.fixture
def player_page(
    chromium: Browser, problems: Problems, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A fresh page under the app's real Content-Security-Policy."""
    yield from open_page(chromium, problems, bypass_csp=False, reduced_motion=motion(request))


@pytest.fixture
def axe_page(
    chromium: Browser, problems: Problems, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A fresh page that may inject axe-core (an inline script the CSP would refuse)."""
    yield from open_page(chromium, problems, bypass_csp=True, reduced_motion=motion(request))


def player_url(
    base: str, source: str, frame: int | None = None, granularity: str = "packed", path: str = "/"
) -> str:
    query = {"source": source, "granularity": granularity}
    if frame is not None:
        query["frame"] = str(frame)
    return f"{base}{path}?{urllib.parse.urlencode(query)}"


def open_player(page: Page, url: str) -> None:
    """Go to a player URL and wait until its trace is drawn."""
    page.goto(url)
    page.wait_for_selector("#player[data-ready=true]")
