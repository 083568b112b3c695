"""The wheel on its own: build it, install it into a fresh venv, serve the page from it.

Run away from the source tree, so only what the wheel carries is there: the page,
every static file it reaches (following the JS modules' imports) and a trace.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from service_helpers import NEURON

from tests.support.checkout import CHECKOUT, WHEEL
from tests.support.harness import live_server

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("packaging")]

HTML_LINKS = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
JS_IMPORTS = re.compile(
    r"""(?:\bimport|\bexport)\s*(?:[^"'();]*?\bfrom\s*)?\(?\s*["']([^"']+)["']"""
    r"""|new\s+(?:URL|Worker)\(\s*["']([^"']+)["']"""
)
CSS_URLS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


@pytest.fixture(scope="module")
def installed_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the wheel installed. Under `scripts/test-wheel` the suite already runs
    in one (the wheel built from this checkout, installed away from the source tree), so
    it is that venv, not a second build and install of the same wheel; in the checkout,
    the wheel is built and installed here."""
    if WHEEL:
        return Path(sys.prefix)
    work = tmp_path_factory.mktemp("wheel")
    run_or_fail(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", work, CHECKOUT]
    )
    (wheel,) = work.glob("backprop_animator-*.whl")
    venv = work / "venv"
    run_or_fail([sys.executable, "-m", "venv", venv])
    run_or_fail([venv / "bin" / "pip", "install", "--quiet", "--disable-pip-version-check", wheel])
    return venv


def run_or_fail(command: list[str | Path]) -> None:
    """Run a setup command; on failure, fail with what it printed."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, command))} exited {result.returncode}:\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )


def linked_assets(url: str, text: str) -> set[str]:
    """Same-site URLs an HTML page, JS module or stylesheet at `url` refers to.

    Vendored files are fetched but not read: they are self-contained, and minified
    code is no place to look for import statements.
    """
    if "/static/vendor/" in url:
        return set()
    if url.endswith(".css"):
        found = CSS_URLS.findall(text)
    elif url.endswith((".js", ".mjs")):
        found = [a or b for a, b in JS_IMPORTS.findall(text)]
    else:
        found = HTML_LINKS.findall(text)
    links = {urljoin(url, link).split("#")[0] for link in found if not link.startswith("data:")}
    return {link for link in links if urlsplit(link).netloc == urlsplit(url).netloc}


def test_installed_wheel_serves_the_page_its_assets_and_traces(
    installed_venv: Path, tmp_path: Path
) -> None:
    where = subprocess.run(
        [
            installed_venv / "bin" / "python",
            "-c",
            "import backprop_animator.app as app; print(app.__file__)",
        ],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "site-packages" in where

    with (
        live_server([installed_venv / "bin" / "backprop-animator", "serve"], tmp_path) as base_url,
        httpx.Client() as client,
    ):
        fetched: set[str] = set()
        pending = {f"{base_url}/", f"{base_url}/embed"}
        while pending:
            url = pending.pop()
            fetched.add(url)
            response = client.get(url)
            assert response.status_code == 200, url
            pending |= linked_assets(url, response.text) - fetched
        assets = {url for url in fetched if "/static/" in url}

        trace = client.post(f"{base_url}/api/trace", json={"source": NEURON})
        docs = client.get(f"{base_url}/openapi.json")

    assert assets, "the page links no static files"
    assert trace.status_code == 200
    assert len(trace.json()["frames"]) == 16
    assert docs.status_code == 200


LEARNER_CHECK = """
import engine, app  # the learner's own files, imported first
assert engine.MINE and app.MINE
from backprop_animator import animate
html = animate("a = Value(3.0)\\nb = a + a\\nb.backward()").to_html()
assert "backprop" in html.lower()
print("ok")
"""


def learner_directory(tmp_path: Path) -> Path:
    """A notebook's folder with its own engine.py and app.py, as the article's readers write."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / "engine.py").write_text("MINE = True\n", encoding="utf-8")
    (folder / "app.py").write_text("MINE = True\n", encoding="utf-8")
    return folder


def test_a_learners_engine_py_and_app_py_do_not_break_the_installed_wheel(
    installed_venv: Path, tmp_path: Path
) -> None:
    result = subprocess.run(
        [installed_venv / "bin" / "python", "-c", LEARNER_CHECK],
        cwd=learner_directory(tmp_path),
        capture_output=True,
        text=True,
    )
    assert result.stdout.strip() == "ok", result.stderr


def test_a_learners_engine_py_and_app_py_do_not_break_this_install(tmp_path: Path) -> None:
    # The interpreter running the tests has the project installed editable (scripts/test).
    result = subprocess.run(
        [sys.executable, "-c", LEARNER_CHECK],
        cwd=learner_directory(tmp_path),
        capture_output=True,
        text=True,
    )
    assert result.stdout.strip() == "ok", result.stderr
