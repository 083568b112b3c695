"""The player page in a real browser: permalinks, frames, typing, errors, keys, safety."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import NEURON, Problems, open_player, player_url
from tests.engine.test_public_code_fixes import COUNTED_TENSOR
from tests.support.programs import MLP_TRAINED_THREE_STEPS, mlp_program

pytestmark = pytest.mark.browser

ARTICLE_LEAF_GRADS = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}


def node_values(page: Page) -> dict[str, dict[str, str]]:
    """data-* hooks of every visible node, by label (unlabelled ones by id)."""
    rows = page.eval_on_selector_all(
        "[data-testid=node]",
        "nodes => nodes.map(n => ({id: n.dataset.nodeId, label: n.dataset.label,"
        " data: n.dataset.data, grad: n.dataset.grad}))",
    )
    return {row["label"] or row["id"]: row for row in rows}


def test_neuron_permalink_at_frame_15_shows_the_article_leaf_grads(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON, frame=15))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("16 / 16")
    expect(player_page.get_by_test_id("scrubber")).to_have_value("15")
    nodes = node_values(player_page)
    assert len(nodes) == 10
    for label, grad in ARTICLE_LEAF_GRADS.items():
        assert math.isclose(float(nodes[label]["grad"]), grad, abs_tol=1e-9), label
    assert nodes["x1"]["data"] == "2"
    assert nodes["b"]["data"] == "6.881373587019543"


def test_sort_frame_shows_output_one_and_leaves_zero(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=5))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("6 / 16")
    nodes = node_values(player_page)
    assert len(nodes) == 10
    assert nodes["o"]["grad"] == "1"
    for label in ARTICLE_LEAF_GRADS:
        assert nodes[label]["grad"] == "0", label
    expect(player_page.locator("[data-testid=topo-chip]")).to_have_count(10)


def test_build_frames_reveal_only_what_is_built(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=0))
    expect(player_page.get_by_test_id("node")).to_have_count(3)
    assert set(node_values(player_page)) >= {"x1", "w1"}
    player_page.keyboard.press("ArrowRight")
    expect(player_page.get_by_test_id("node")).to_have_count(6)


def test_typing_a_program_and_pressing_run_shows_its_trace(player_page: Page, server: str) -> None:
    open_player(player_page, f"{server}/")
    player_page.get_by_test_id("source").fill("a = Value(3.0)\nb = a + a\nb.backward()")
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("4 / 4")
    expect(player_page.locator("[data-testid=node][data-label=a]")).to_have_attribute(
        "data-grad", "2"
    )
    expect(player_page.locator("[data-testid=edge]:not([data-state=hidden])")).to_have_count(3)
    expect(player_page).to_have_url(re.compile(r"source=a\+%3D\+Value.*frame=3"))


def test_ctrl_enter_runs_from_the_editor(player_page: Page, server: str) -> None:
    open_player(player_page, f"{server}/")
    editor = player_page.get_by_test_id("source")
    editor.fill("x = 2.0\ny = x * x * x")
    editor.press("Control+Enter")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 6")


def test_expanded_granularity_has_29_frames_and_the_same_leaf_grads(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON, frame=0))
    player_page.get_by_label("expanded").check()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 29")
    assert "granularity=expanded" in player_page.url
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("29 / 29")
    nodes = node_values(player_page)
    assert len(nodes) == 18
    for label, grad in ARTICLE_LEAF_GRADS.items():
        assert math.isclose(float(nodes[label]["grad"]), grad, abs_tol=1e-9), label


def test_fork_shows_the_running_sum_on_e(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=0, granularity="expanded"))
    sums = []
    for frame in range(11, 29):
        player_page.get_by_test_id("scrubber").fill(str(frame))
        text = player_page.locator("[data-testid=deltas]").text_content() or ""
        e_grad = player_page.locator("[data-testid=node][data-label=e]").get_attribute("data-grad")
        sums.append((text, float(e_grad or "nan")))
    grads = [grad for _, grad in sums]
    assert any(math.isclose(g, -0.1036, abs_tol=1e-4) for g in grads)
    assert math.isclose(grads[-1], 0.0429, abs_tol=1e-4)
    assert any("\u22120.1036 + 0.1464 \u2192 0.04289" in text for text, _ in sums)


@pytest.mark.parametrize(
    ("source", "where"),
    [
        ("x = 2.0\ny = x +* 3", "Line 2"),
        ("x = 2.0\ny = tanh(q) * x", "Line 2, column 10"),
        ("import shutil", "Line 1"),
    ],
)
def test_bad_source_shows_the_message_and_its_place(
    player_page: Page, server: str, problems: Problems, source: str, where: str
) -> None:
    open_player(player_page, f"{server}/")
    player_page.get_by_test_id("source").fill(source)
    player_page.get_by_test_id("run").click()
    error = player_page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text(where)
    assert len((error.text_content() or "").strip()) > len(where) + 5
    expect(player_page.get_by_test_id("source")).to_have_attribute("aria-invalid", "")
    player_page.get_by_test_id("source").fill("z = 1.0\nw = z * z")
    player_page.get_by_test_id("run").click()
    expect(error).to_be_hidden()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 4")


def test_bad_source_in_the_url_shows_an_error_not_a_crash(
    player_page: Page, server: str, problems: Problems
) -> None:
    player_page.goto(player_url(server, "y = exp(1000)", frame=3))
    expect(player_page.get_by_test_id("error")).to_be_visible()
    expect(player_page.get_by_test_id("source")).to_have_value("y = exp(1000)")


def test_keys_step_jump_and_play(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=0))
    counter = player_page.get_by_test_id("frame-counter")
    player_page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("2 / 16")
    player_page.keyboard.press("End")
    expect(counter).to_have_text("16 / 16")
    player_page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text("15 / 16")
    player_page.keyboard.press("Home")
    expect(counter).to_have_text("1 / 16")
    player_page.keyboard.press("Space")
    expect(counter).not_to_have_text("1 / 16")
    player_page.keyboard.press("Space")
    stopped = counter.text_content()
    player_page.wait_for_timeout(1200)
    expect(counter).to_have_text(stopped or "")


def test_a_step_button_disabled_at_an_end_hands_its_focus_to_the_scrubber(
    player_page: Page, server: str
) -> None:
    # Clicked to the last frame, "Next frame" was disabled with the focus on it, which
    # fell to the page's body: the keys then went nowhere a reader could see.
    open_player(player_page, player_url(server, NEURON, frame=14))
    counter = player_page.get_by_test_id("frame-counter")
    following = player_page.get_by_role("button", name="Next frame")
    following.click()
    expect(counter).to_have_text("16 / 16")
    expect(following).to_be_disabled()
    scrubber = player_page.get_by_test_id("scrubber")
    expect(scrubber).to_be_focused()
    player_page.keyboard.press("Home")
    expect(counter).to_have_text("1 / 16")
    player_page.keyboard.press("ArrowRight")
    back = player_page.get_by_role("button", name="Previous frame")
    back.click()
    expect(counter).to_have_text("1 / 16")
    expect(scrubber).to_be_focused()


def test_keys_typed_in_the_editor_do_not_move_the_player(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=4))
    player_page.get_by_test_id("source").click()
    for key in ("ArrowRight", "End", "Home", "Space"):
        player_page.keyboard.press(key)
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("5 / 16")


def test_keys_work_after_clicking_run(player_page: Page, server: str) -> None:
    open_player(player_page, f"{server}/")
    player_page.get_by_test_id("source").fill(NEURON)
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 16")
    player_page.keyboard.press("ArrowRight")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("2 / 16")


def test_url_follows_the_frame_so_every_state_is_a_permalink(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON, frame=2))
    player_page.keyboard.press("ArrowRight")
    expect(player_page).to_have_url(re.compile(r"frame=3"))
    player_page.reload()
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("4 / 16")


def test_a_label_containing_html_stays_text(player_page: Page, server: str) -> None:
    label = "<img src=x onerror=alert(1)><b>bold</b>"
    dialogs: list[str] = []
    player_page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    source = f"x = Value(2.0, label='{label}')\ny = x * 3\ny.backward()"
    open_player(player_page, player_url(server, source, frame=2))
    assert label in {row["label"] for row in node_values(player_page).values()}
    expect(player_page.locator("[data-testid=node-label]").first).to_contain_text("<img")
    player_page.get_by_text("Table of values").click()
    expect(player_page.locator("[data-testid=node-table] tbody")).to_contain_text(label)
    assert player_page.locator("#player img, #player b").count() == 0
    assert dialogs == []


def test_a_backward_that_sorts_nothing_lists_its_values_and_says_there_is_no_order(
    player_page: Page, server: str
) -> None:
    # Grokking Deep Learning's Tensor: backward() recurses into its creators, writing each
    # gradient itself; no topo. The table listed no value ("Table of values (0)") and the
    # topo panel described an order "the backward loop walks from the right" it never showed.
    open_player(player_page, player_url(server, COUNTED_TENSOR))
    player_page.get_by_test_id("scrubber").focus()
    player_page.keyboard.press("End")
    expect(player_page.locator(".topo-hint")).to_have_text(
        "No order here: no rule runs per node for y (the program writes the gradients "
        "itself), so there is no topological order to walk."
    )
    expect(player_page.get_by_test_id("topo-chip")).to_have_count(0)
    # No value wears a place in an order that does not exist, and every gradient, written
    # at the sort frame, is final there.
    expect(player_page.locator("[data-testid=node] [data-testid=topo-badge]")).to_have_count(0)
    expect(player_page.locator("[data-testid=node][data-final]")).to_have_count(6)
    player_page.get_by_text("Table of values (6)").click()
    rows = player_page.locator("[data-testid=node-table] tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.last).to_contain_text("y")


# For each name cell of the table cut short, whether its last character and its first
# are drawn inside the cell (a Range's box of one character).
NAME_ENDS_SHOWN = """() => [...document.querySelectorAll('[data-testid=node-table] tbody th')]
  .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
  .map((cell) => {
    const box = cell.getBoundingClientRect();
    const text = cell.firstChild;
    const shown = (at) => {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      const r = range.getBoundingClientRect();
      return r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
    };
    return {name: cell.textContent, first: shown(0), last: shown(text.length - 1)};
  })"""


def test_the_table_cuts_a_long_name_at_its_start_so_parameters_read_apart(
    player_page: Page, server: str
) -> None:
    """On a phone the value column is narrow: a network's parameters all begin
    `layers[0].neurons[1].` and differ at the end, so a cut name keeps its end (`w[2]`,
    `b`). Cut at the end, four rows read `layers[1]…` and `layers[0]…`."""
    player_page.set_viewport_size({"width": 390, "height": 844})
    open_player(player_page, player_url(server, MLP_TRAINED_THREE_STEPS, frame=300))
    player_page.get_by_text("Table of values").click()
    expect(player_page.locator("[data-testid=node-table] tbody tr").first).to_be_visible()
    cut = player_page.evaluate(NAME_ENDS_SHOWN)
    assert cut, "no name was cut on a phone"
    for cell in cut:
        assert cell["last"] and not cell["first"], cell


def test_narration_and_scrubber_follow_the_frame(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=0))
    narration = player_page.get_by_test_id("narration")
    first = narration.text_content()
    player_page.get_by_test_id("scrubber").fill("10")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("11 / 16")
    assert narration.text_content() != first
    expect(narration).to_have_attribute("aria-live", "polite")


def test_embed_opens_the_permalinked_frame(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=15, path="/embed"))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("16 / 16")
    assert math.isclose(float(node_values(player_page)["x1"]["grad"]), -1.5, abs_tol=1e-9)
    expect(player_page.get_by_test_id("source")).to_have_count(0)


def test_the_table_view_lists_every_visible_value(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=15))
    player_page.get_by_text("Table of values").click()
    expect(player_page.locator("[data-testid=node-table] tbody tr")).to_have_count(10)
    expect(player_page.locator("[data-testid=node-table] tbody")).to_contain_text("\u22121.5")


def test_the_expanded_neuron_opens_with_its_current_node_in_view(
    player_page: Page, server: str
) -> None:
    # Too wide to fit at a readable size (tests/browser/test_graph_view.py), so the
    # view follows the action instead of shrinking the text.
    open_player(player_page, player_url(server, NEURON, frame=15, granularity="expanded"))
    frame = player_page.locator("[data-testid=graph-frame]").bounding_box()
    active = player_page.locator("[data-testid=node][data-role=active]").bounding_box()
    assert frame is not None and active is not None
    assert frame["x"] <= active["x"]
    assert active["x"] + active["width"] <= frame["x"] + frame["width"]
    assert frame["y"] <= active["y"]
    assert active["y"] + active["height"] <= frame["y"] + frame["height"]


def test_names_in_the_page_bracket_by_precedence(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=15, granularity="expanded"))
    chips = player_page.locator("[data-testid=topo-chip]").all_text_contents()
    assert any(chip.endswith("2*(x1*w1+x2*w2+b)") for chip in chips), chips
    assert not any(chip.endswith("2*x1*w1+x2*w2+b") for chip in chips), chips


def test_the_table_follows_scrubbing_while_open(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON, frame=0))
    player_page.get_by_text("Table of values").click()
    rows = player_page.locator("[data-testid=node-table] tbody tr:not([hidden])")
    expect(rows).to_have_count(3)
    player_page.get_by_test_id("scrubber").fill("15")
    expect(rows).to_have_count(10)
    # The value this frame runs is the one row marked current, by colour and for screen readers.
    current = player_page.locator("[data-testid=node-table] tbody tr[aria-current=true]")
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-role", re.compile("^(active|new)$"))
    expect(player_page.locator("[data-testid=node-table] tbody")).to_contain_text("\u22121.5")
    player_page.get_by_test_id("scrubber").fill("5")
    expect(player_page.locator("[data-testid=node-table] tbody")).not_to_contain_text("\u22121.5")
    player_page.get_by_test_id("scrubber").fill("1")
    expect(rows).to_have_count(6)


# Scroll the table box (fraction of its range, or None to stay), let it repaint, and
# read its rows and which row sits just under the sticky header and at the bottom.
READ_TABLE = """async (fraction) => {
  const box = document.querySelector('[data-testid=node-table] [role=region]');
  box.scrollIntoView({block: 'center'});
  if (fraction !== null) box.scrollTop = fraction * (box.scrollHeight - box.clientHeight);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const frame = box.getBoundingClientRect();
  const header = box.querySelector('thead th').getBoundingClientRect();
  const rowAt = (y) => document.elementFromPoint(frame.left + frame.width / 2, y)
    ?.closest('tbody tr')?.getAttribute('aria-rowindex') ?? null;
  return {
    rowCount: Number(box.querySelector('table').getAttribute('aria-rowcount')),
    top: rowAt(header.bottom + 2),
    bottom: rowAt(frame.bottom - 3),
    rows: [...box.querySelectorAll('tbody tr')].map((row) => ({
      index: Number(row.getAttribute('aria-rowindex')),
      cells: [...row.cells].map((cell) => cell.textContent),
    })),
  };
}"""


def shown_number(text: str) -> float:
    """A table cell's number as formatValue wrote it (minus sign, optional final tick)."""
    return float(text.removesuffix(" \u2713").replace("\u2212", "-"))


def table_rows_at(trace: dict[str, Any], frame: int) -> list[tuple[dict[str, Any], float]]:
    """The values built by `frame`, in topo order, each with its gradient then."""
    nodes = {node["id"]: node for node in trace["nodes"]}
    operands: dict[str, list[str]] = {}
    for edge in trace["edges"]:
        operands.setdefault(edge["target"], []).append(edge["source"])
    frames = trace["frames"]
    sort = next(k for k, f in enumerate(frames) if f["phase"] == "sort")
    built: set[str] = set(nodes) if frame >= sort else set()
    grads = {trace["output"]: 1.0} if frame >= sort else {}
    for step in frames[: frame + 1]:
        if step["phase"] == "build":
            built |= {step["node"], *operands.get(step["node"], [])}
        elif step["phase"] == "backward":
            grads |= {c["to"]: c["after"] for c in step["contributions"]}
    return [(nodes[i], grads.get(i, 0.0)) for i in trace["topo"] if i in built]


def test_the_table_of_a_2000_node_graph_shows_each_frames_grads_while_scrubbed(
    player_page: Page, server: str
) -> None:
    source = mlp_program(2000)
    response = player_page.request.post(
        f"{server}/api/trace", data={"source": source, "granularity": "packed"}
    )
    assert response.ok
    trace = response.json()
    count = len(trace["frames"])
    open_player(player_page, f"{server}/")
    player_page.get_by_test_id("source").fill(source)
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"1 / {count}")
    player_page.locator("[data-testid=node-table] summary").click()
    sort = next(k for k, f in enumerate(trace["frames"]) if f["phase"] == "sort")
    frames = [sort - 300, sort, sort + 1, sort + 700, count // 2 + 900, count - 1, sort - 40]
    for step, frame in enumerate(frames):
        player_page.get_by_test_id("scrubber").fill(str(frame))
        for fraction in (None, [0.0, 0.5, 1.0][step % 3]):
            table = player_page.evaluate(READ_TABLE, fraction)
            expected = table_rows_at(trace, frame)
            where = f"frame {frame}, scroll {fraction}"
            assert table["rowCount"] == len(expected) + 1, where
            indices = [row["index"] for row in table["rows"]]
            assert 10 <= len(indices) < 80, where
            assert indices == list(range(indices[0], indices[0] + len(indices))), where
            assert table["top"] is not None and table["bottom"] is not None, where
            if fraction == 0.0:
                assert indices[0] == 2, where
            if fraction == 1.0:
                assert indices[-1] == len(expected) + 1, where
            for row in table["rows"]:
                node, grad = expected[row["index"] - 2]
                _, name, op, data, shown_grad = row["cells"]
                assert op == (node["op"] or node["kind"]), where
                if node["label"]:
                    assert name == node["label"], where
                assert math.isclose(shown_number(data), node["data"], rel_tol=1e-3, abs_tol=1e-4)
                assert math.isclose(shown_number(shown_grad), grad, rel_tol=1e-3, abs_tol=1e-4), (
                    f"{where}: {name} shows grad {shown_grad}, the trace has {grad}"
                )
    expect(player_page.locator("[data-testid=node-table] [data-testid]")).to_have_count(0)


def test_while_a_new_program_traces_the_old_player_waits_and_says_so(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON, frame=3))
    held: list[Route] = []
    player_page.route("**/api/trace*", lambda route: held.append(route))
    player_page.get_by_test_id("source").fill("a = Value(3.0)\nb = a + a\nb.backward()")
    player_page.get_by_test_id("run").click()
    counter = player_page.get_by_test_id("frame-counter")

    expect(counter).to_have_text("… / …")
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("End")
    expect(counter).to_have_text("… / …")

    # The page says it waits before its request leaves; the route sees the request when
    # Playwright next hears from the browser, which a loaded machine can delay.
    for _ in range(150):
        if held:
            break
        player_page.wait_for_timeout(100)
    held[0].continue_()
    player_page.unroute("**/api/trace*")
    expect(counter).to_have_text("1 / 4")
    player_page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("2 / 4")


# Mount a second player on the page with every ResizeObserver it makes counted, destroy it,
# and report what it left: observers still observing and elements still in its root.
MOUNT_AND_DESTROY = """async (source) => {
  const observing = new Set();
  const Native = window.ResizeObserver;
  window.ResizeObserver = class extends Native {
    observe(target, options) { observing.add(this); super.observe(target, options); }
    disconnect() { observing.delete(this); super.disconnect(); }
  };
  try {
    const {mountPlayer} = await import('/static/js/player/player.js');
    const response = await fetch('/api/trace', {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({source, granularity: 'packed'}),
    });
    const root = document.createElement('div');
    document.body.append(root);
    const player = await mountPlayer(root, {trace: await response.json(), keyboard: 'root'});
    const mounted = {
      observers: observing.size,
      table: root.querySelector('[data-testid=node-table]') !== null,
      transport: root.querySelector('[data-testid=scrubber]') !== null,
    };
    player.destroy();
    return {mounted, observers: observing.size, left: root.childElementCount};
  } finally {
    window.ResizeObserver = Native;
  }
}"""


def test_destroy_stops_the_players_observers_and_removes_its_transport(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON, frame=0))
    result = player_page.evaluate(MOUNT_AND_DESTROY, NEURON)
    # The graph's pan-zoom, the table, the steady panels and the narration each watch a size.
    assert result["mounted"] == {"observers": 4, "table": True, "transport": True}, result
    assert result["observers"] == 0, result
    assert result["left"] == 0, result


def test_on_a_phone_the_panels_under_the_narration_hold_still_while_scrubbing(
    player_page: Page, server: str
) -> None:
    # At 390 px the panels stack under the narration, whose text is one line at some
    # frames and four at others: everything under it jumped as the learner scrubbed. The
    # narration keeps the height of its longest text (stable-height.js).
    player_page.emulate_media(color_scheme="dark")
    player_page.set_viewport_size({"width": 390, "height": 844})
    open_player(player_page, player_url(server, NEURON))
    scrubber = player_page.get_by_test_id("scrubber")
    narration = player_page.get_by_test_id("narration")
    below = player_page.locator(".player-strip")  # the next panel: no print here
    lengths, tops, heights = set(), set(), set()
    for frame in (0, 3, 5, 6, 9, 12, 15):
        scrubber.fill(str(frame))
        expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{frame + 1} / 16")
        lengths.add(len(narration.inner_text()))
        box = below.bounding_box()
        text = player_page.locator(".narration").bounding_box()
        assert box and text
        tops.add(round(box["y"] + player_page.evaluate("scrollY")))
        heights.add(round(text["height"]))
    assert max(lengths) > 2 * min(lengths), lengths  # texts of very different lengths
    assert len(heights) == 1, f"the narration's height changed: {heights}"
    assert len(tops) == 1, f"the panel under the narration moved: {tops}"
