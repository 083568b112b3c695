"""The notebook story in real JupyterLab (pinned in the test extras), driven in Chromium:
the author runs a cell and plays the widget, Python and the learner move it; the next
reader, without a kernel or trust, sees the still picture and how to get the player back.

Slow: JupyterLab starts on loopback with a token for this module only.

Found by class here, unlike elsewhere: JupyterLab's own markup (`.jp-*`) has no test ids,
and the still is what an untrusted notebook's sanitizer leaves, which keeps `class` but
strips `data-*` attributes, so the still's class is the hook a reader's notebook keeps.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook
from playwright.sync_api import Browser, Page, expect

from backprop_animator.app.notebook import RESTORE_HINT, WIDGET_HINT
from tests.browser.test_course_pages import shoot
from tests.support.harness import free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("jupyterlab")]

ROOT = Path(__file__).resolve().parents[2]
NEURON = (
    "x1 = 2.0; x2 = 0.0; w1 = -3.0; w2 = 1.0; b = 6.8813735870195432\\no = tanh(x1*w1 + x2*w2 + b)"
)
MAKE = f"from backprop_animator import animate\na = animate('{NEURON}', frame=4)\na"
WITHOUT_ANYWIDGET = (
    "import backprop_animator.app.notebook as notebook\n"
    "notebook.player_widget = lambda *args, **kw: None"
)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    """JupyterLab on a free loopback port, serving a fresh folder; yields (url, token, folder)."""
    folder = tmp_path_factory.mktemp("lab")
    token = secrets.token_hex(16)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JUPYTER_CONFIG_DIR": str(folder / ".config")}
    process = subprocess.Popen(
        [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={folder}", "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--ServerApp.allow_root=True", "--LabApp.extension_manager=readonly",
        ],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2).close()
                break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None:
                    pytest.fail("JupyterLab exited while starting")
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not answer within two minutes")
        yield base, token, folder
    finally:
        stop_lab(process, base, token)


def stop_lab(process: subprocess.Popen[bytes], base: str, token: str) -> None:
    """Stop JupyterLab and its kernels: its own shutdown first, then SIGTERM, then SIGKILL
    to the whole session. Under xdist's load a SIGTERM alone once left the server waiting
    30 s on a kernel still starting; a server left running would fail an unrelated test
    with a ResourceWarning."""
    try:
        request = urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST")
        urllib.request.urlopen(request, data=b"", timeout=5).close()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def lab_page(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(
        viewport={"width": 1280, "height": 1000}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


def open_notebook(page: Page, lab: tuple[str, str, Path], name: str) -> None:
    base, token, _ = lab
    workspace = name.removesuffix(".ipynb")  # one per notebook, so none reopens another's tabs
    page.goto(f"{base}/lab/workspaces/{workspace}/tree/{name}?token={token}&reset")
    wait_for_notebook(page)


def wait_for_notebook(page: Page) -> None:
    """Wait until JupyterLab has read the notebook's cells, not its empty placeholder."""
    page.locator(".jp-Notebook").wait_for()
    page.locator(".jp-Notebook .jp-Spinner").wait_for(state="detached")
    news = page.get_by_role("button", name="No", exact=True)  # JupyterLab asks about its news
    if news.is_visible():
        news.click()


def wait_for_kernel(page: Page) -> None:
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=90_000)


def run_cell(page: Page, index: int) -> None:
    """Select a cell by its prompt (command mode) and run it."""
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(index)
    cell.scroll_into_view_if_needed()
    cell.locator(".jp-InputPrompt").click()
    page.keyboard.press("Shift+Enter")


def output_text(page: Page, index: int) -> str:
    area = page.locator(".jp-Notebook .jp-CodeCell").nth(index).locator(".jp-OutputArea")
    return area.inner_text()


def write_notebook(folder: Path, name: str, *cells: str) -> None:
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = new_notebook(cells=[new_code_cell(cell) for cell in cells])
    notebook.metadata["kernelspec"] = kernel
    nbformat.write(notebook, folder / name)


def test_the_author_plays_the_widget_and_python_follows_the_learner(
    lab: tuple[str, str, Path], lab_page: Page
) -> None:
    write_notebook(lab[2], "author.ipynb", MAKE, "a.frame = 9", "print('at', a.frame)")
    open_notebook(lab_page, lab, "author.ipynb")
    wait_for_kernel(lab_page)
    run_cell(lab_page, 0)
    player = lab_page.frame_locator(".jp-OutputArea iframe[data-testid=player-frame]")
    expect(player.get_by_test_id("frame-counter")).to_have_text("5 / 16", timeout=90_000)
    expect(lab_page.locator(".backprop-animator-still")).to_be_hidden()
    frame = "document.querySelector('.jp-OutputArea iframe[data-testid=player-frame]')"
    lab_page.wait_for_function(f"() => {frame}.offsetHeight > 600")  # sized: the layout holds

    lab_page.keyboard.press("Shift+Enter")  # the next cell, selected since the first ran
    # Python moves the player
    expect(player.get_by_test_id("frame-counter")).to_have_text("10 / 16")
    player.get_by_role("button", name="Next frame").click()  # the learner moves it
    expect(player.get_by_test_id("frame-counter")).to_have_text("11 / 16")
    run_cell(lab_page, 2)  # Python reads where the learner is
    expect(
        lab_page.locator(".jp-Notebook .jp-CodeCell").nth(2).locator(".jp-OutputArea")
    ).to_contain_text("at 10")
    shoot(lab_page, "notebook-widget.png")


def test_the_next_reader_of_a_saved_notebook_sees_the_still_and_how_to_play_it(
    lab: tuple[str, str, Path], lab_page: Page
) -> None:
    folder = lab[2]
    write_notebook(folder, "saved.ipynb", MAKE)
    executed = subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--inplace", str(folder / "saved.ipynb")],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=110,
    )  # fmt: skip
    assert executed.returncode == 0, executed.stderr
    open_notebook(lab_page, lab, "saved.ipynb")

    still = lab_page.locator("img.backprop-animator-still")
    expect(still).to_be_visible()
    assert lab_page.evaluate("(img) => img.naturalWidth", still.element_handle()) > 300
    expect(lab_page.get_by_text(WIDGET_HINT)).to_be_visible()
    shoot(lab_page, "notebook-next-reader.png")


def test_without_anywidget_an_untrusted_notebook_shows_the_hint_and_a_trusted_one_plays(
    lab: tuple[str, str, Path], lab_page: Page
) -> None:
    folder = lab[2]
    write_notebook(folder, "plain.ipynb", WITHOUT_ANYWIDGET, MAKE)
    executed = subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--inplace", str(folder / "plain.ipynb")],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=110,
    )  # fmt: skip
    assert executed.returncode == 0, executed.stderr
    output = json.loads((folder / "plain.ipynb").read_text(encoding="utf-8"))["cells"][1]
    assert "srcdoc=" in "".join(output["outputs"][0]["data"]["text/html"])

    open_notebook(lab_page, lab, "plain.ipynb")  # untrusted: the sanitizer strips the frame
    expect(lab_page.get_by_text(RESTORE_HINT)).to_be_visible()
    expect(lab_page.locator("img.backprop-animator-still")).to_be_visible()
    assert lab_page.locator(".jp-OutputArea iframe").count() == 0
    shoot(lab_page, "notebook-untrusted.png")

    trusted = subprocess.run(
        [sys.executable, "-m", "jupyter", "trust", str(folder / "plain.ipynb")],
        env={**os.environ, "JUPYTER_CONFIG_DIR": str(folder / ".config")},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert trusted.returncode == 0, trusted.stderr
    lab_page.reload()  # JupyterLab starts again: seconds on a loaded machine (CI took > 5)
    wait_for_notebook(lab_page)
    lab_page.locator(".jp-Notebook .jp-CodeCell").nth(1).wait_for()  # its cells, read again
    player = lab_page.frame_locator(".jp-OutputArea iframe[data-testid=player-frame]")
    expect(player.get_by_test_id("frame-counter")).to_have_text("5 / 16", timeout=60_000)
    expect(lab_page.locator("img.backprop-animator-still")).to_be_hidden()
    shoot(lab_page, "notebook-trusted.png")
