"""Several backward passes in the player (SPEC §11): the pass navigator, update frames,
the loss chart, the print panel, folded calls and the editor's line mark.

The traces are the hand-built schema-2 ones of tests/js/multipass.mjs (micrograd's
rules, recorded by a tiny JS recorder), served in place of /api/trace, so these
tests pin the page's side of the contract whatever the engine emits."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.test_accessibility import serious_violations
from tests.support.programs import nn_source, nn_training

pytestmark = pytest.mark.browser

TRACES_SCRIPT = Path(__file__).parents[1] / "js" / "multipass-traces.mjs"


@pytest.fixture(scope="module")
def traces() -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to build the multi-pass traces (tests/js/multipass-traces.mjs)")
    result = subprocess.run(
        [node, str(TRACES_SCRIPT)], capture_output=True, check=True, text=True, timeout=60
    )
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


def open_trace(page: Page, server: str, trace: dict[str, Any], frame: int) -> None:
    """Open the player on `trace`, served for any /api/trace request, at `frame`."""
    body = json.dumps(trace)

    def fulfill(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=body)

    page.route("**/api/trace*", fulfill)
    query = urllib.parse.urlencode({"source": trace["source"], "frame": frame})
    page.goto(f"{server}/?{query}")
    page.wait_for_selector("#player[data-ready=true]")


def node_hooks(page: Page) -> dict[str, dict[str, str]]:
    rows = page.eval_on_selector_all(
        "[data-testid=node]",
        "nodes => nodes.map(n => ({id: n.dataset.nodeId, label: n.dataset.label,"
        " data: n.dataset.data, grad: n.dataset.grad}))",
    )
    return {row["label"] or row["id"]: row for row in rows}


def expect_hook(page: Page, label: str, name: str, value: str) -> None:
    expect(page.locator(f"[data-testid=node][data-label={label}]")).to_have_attribute(
        f"data-{name}", value
    )


def test_second_backward_without_zero_grad_leaves_a_grad_at_minus_7(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["forgot-zero-grad"]
    open_trace(player_page, server, trace, frame=len(trace["frames"]) - 1)
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 2 of 2")
    expect_hook(player_page, "a", "grad", "-7")
    expect_hook(player_page, "b", "grad", "6")
    expect_hook(player_page, "c", "grad", "1")
    assert len(node_hooks(player_page)) == 4


def test_pass_navigator_jumps_to_the_start_of_each_pass_and_keeps_the_permalink(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["forgot-zero-grad"]
    open_trace(player_page, server, trace, frame=6)
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 1 of 2")
    expect_hook(player_page, "a", "grad", "-2")
    player_page.get_by_test_id("pass-next").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("8 / 12")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 2 of 2")
    expect(player_page.get_by_test_id("pass-next")).to_be_disabled()
    # The second pass starts from the first pass's gradients: nothing was cleared.
    expect_hook(player_page, "a", "grad", "-2")
    expect(player_page).to_have_url(re.compile(r"[?&]frame=7(&|$)"))
    player_page.keyboard.press("End")
    player_page.keyboard.press("PageUp")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("8 / 12")
    player_page.keyboard.press("PageUp")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 12")
    player_page.keyboard.press("PageDown")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("8 / 12")


def test_scrubber_bar_marks_each_pass_and_its_phases(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    open_trace(player_page, server, traces["optimizer-steps"], frame=0)
    markers = player_page.locator("[data-testid=phase-marker]")
    phases = markers.evaluate_all("ms => ms.map(m => m.dataset.phase)")
    first = ["build", "update", "sort", "backward"]
    assert phases == [*first, "update", *first, "update"]
    expect(player_page.locator("[data-testid=phase-marker][data-pass-start]")).to_have_count(2)
    expect(markers.nth(4)).to_have_attribute("title", re.compile(r"^Pass 2 · Update"))


# Each phase marker's word, and whether it shows and fits in its marker.
MARKER_WORDS = """ms => ms.map(m => {
  const word = m.firstElementChild;
  const range = document.createRange();
  range.selectNodeContents(word);
  const style = getComputedStyle(word);
  return {phase: m.dataset.phase, room: m.clientWidth,
          needs: range.getBoundingClientRect().width + 2,
          shown: style.visibility === "visible" && style.display !== "none"};
})"""


@pytest.mark.parametrize("width", [390, 1280, 1920])
def test_a_phase_word_shows_whole_or_not_at_all(
    player_page: Page, server: str, traces: dict[str, Any], width: int
) -> None:
    """Narrow markers (several passes on a laptop or a phone) drop their word instead of
    showing a clipped "BUI" or "BACKWA"; a single pass keeps its words."""
    player_page.set_viewport_size({"width": width, "height": 900})
    for trace in (traces["optimizer-steps"], traces["forgot-zero-grad"]):
        open_trace(player_page, server, trace, frame=0)
        words = player_page.locator("[data-testid=phase-marker]").evaluate_all(MARKER_WORDS)
        assert len(words) > 4
        clipped = [word for word in words if word["shown"] and word["needs"] > word["room"]]
        assert clipped == []
    query = urllib.parse.urlencode({"source": "a = Value(3.0)\nb = a + a\nb.backward()\n"})
    player_page.unroute("**/api/trace*")
    player_page.goto(f"{server}/?{query}")
    player_page.wait_for_selector("#player[data-ready=true]")
    words = player_page.locator("[data-testid=phase-marker]").evaluate_all(MARKER_WORDS)
    shown = [word["phase"] for word in words if word["shown"]]
    assert shown == ["build", "backward"], words


def test_update_frame_moves_w_data_with_its_line_and_zero_grad_empties_the_grad(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["optimizer-steps"]
    step = next(
        k
        for k, f in enumerate(trace["frames"])
        if f["phase"] == "update" and f["changes"][0]["field"] == "data"
    )
    open_trace(player_page, server, trace, frame=step - 1)
    expect_hook(player_page, "w", "data", "1")
    expect_hook(player_page, "w", "grad", "2")
    player_page.keyboard.press("ArrowRight")
    expect_hook(player_page, "w", "data", "0.8")
    expect(player_page.locator("[data-testid=player]")).to_have_attribute("data-phase", "update")
    expect(player_page.locator("[data-testid=node][data-label=w]")).to_have_attribute(
        "data-role", "updated"
    )
    expect(player_page.locator("[data-testid=delta]")).to_contain_text("data 1 → 0.8")
    code = player_page.locator("[data-testid=code-panel]")
    expect(code.locator("[data-testid=code-line][data-marked]")).to_contain_text(
        "w.data -= 0.1 * w.grad"
    )
    expect(code).to_contain_text("w.data: 1 → 0.8")
    # The next pass builds its loss, then zero_grad empties w.grad (line 4).
    player_page.keyboard.press("ArrowRight")
    player_page.keyboard.press("ArrowRight")
    expect(player_page.locator("[data-testid=code-line][data-marked]")).to_contain_text(
        "w.grad = 0.0"
    )
    expect_hook(player_page, "w", "grad", "0")
    expect(player_page.get_by_test_id("narration")).to_have_text(trace["frames"][step + 2]["text"])


def test_editor_marks_the_line_of_build_and_update_frames(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["optimizer-steps"]
    open_trace(player_page, server, trace, frame=0)
    mark = player_page.get_by_test_id("source-line")
    expect(mark).to_have_attribute("data-line", "3")
    expect(mark).to_be_visible()
    player_page.keyboard.press("ArrowRight")
    expect(mark).to_have_attribute("data-line", "4")
    # A sort frame has no line of its own.
    player_page.keyboard.press("ArrowRight")
    expect(mark).to_be_hidden()
    # Typing changes the program: the mark waits for the next Run.
    player_page.keyboard.press("ArrowLeft")
    expect(mark).to_be_visible()
    player_page.get_by_test_id("source").press("End")
    player_page.get_by_test_id("source").type(" ")
    expect(mark).to_be_hidden()


def test_editor_mark_sits_on_the_line_it_names(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    open_trace(player_page, server, traces["optimizer-steps"], frame=1)
    geometry = player_page.evaluate(
        """() => {
          const ta = document.querySelector('[data-testid=source]');
          const mark = document.querySelector('[data-testid=source-line]');
          const style = getComputedStyle(ta);
          const line = parseFloat(style.lineHeight);
          const top = ta.getBoundingClientRect().top + parseFloat(style.borderTopWidth)
            + parseFloat(style.paddingTop) - ta.scrollTop;
          return {line, expected: top + 3 * line, actual: mark.getBoundingClientRect().top};
        }"""
    )
    assert abs(geometry["actual"] - geometry["expected"]) < 1, geometry


def test_loss_chart_plots_each_pass_marks_the_current_one_and_jumps_on_click(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["mlp-training"]
    open_trace(player_page, server, trace, frame=len(trace["frames"]) - 1)
    chart = player_page.get_by_test_id("loss-chart")
    expect(chart).to_be_visible()
    points = chart.locator("[data-testid=loss-point]")
    expect(points).to_have_count(3)
    expect(points.nth(2)).to_have_attribute("aria-current", "step")
    labels = points.evaluate_all("ps => ps.map(p => p.getAttribute('aria-label'))")
    assert [label.split(" = ")[0] for label in labels] == [f"Pass {p}: loss" for p in (1, 2, 3)]
    heights = points.evaluate_all(
        "ps => ps.map(p => p.querySelector('[data-testid=loss-dot]').cy.baseVal.value)"
    )
    # The loss falls, so each point sits lower than the one before.
    assert heights == sorted(heights)
    points.nth(0).click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"1 / {len(trace['frames'])}")
    expect(points.nth(0)).to_have_attribute("aria-current", "step")
    points.nth(1).focus()
    player_page.keyboard.press("Enter")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 2 of 3")


def test_print_panel_shows_what_was_printed_up_to_the_frame(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["mlp-training"]
    open_trace(player_page, server, trace, frame=0)
    prints = player_page.get_by_test_id("prints")
    expect(prints).to_be_hidden()
    player_page.keyboard.press("End")
    losses = [p["data"] for p in trace["passes"]]
    expect(prints).to_have_text("\n".join(f"{k} {loss}" for k, loss in enumerate(losses)))
    start = next(k for k, f in enumerate(trace["frames"]) if f["pass"] == 2)
    player_page.get_by_test_id("scrubber").fill(str(start - 1))
    expect(prints).to_have_attribute("data-lines", "1")


def test_a_big_program_opens_folded_and_a_box_opens_on_click_and_on_enter(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["mlp-training"]
    open_trace(player_page, server, trace, frame=0)
    boxes = player_page.get_by_test_id("group")
    expect(boxes).to_have_count(1)  # the first neuron being built is the only call so far
    sort = next(k for k, f in enumerate(trace["frames"]) if f["phase"] == "sort")
    player_page.get_by_test_id("scrubber").fill(str(sort))
    expect(boxes).to_have_count(9)
    # Parameters stay drawn outside the boxes: 41 of them, plus the loss arithmetic.
    # Each box is named by its path below the model, so the nine read apart (issue 23, 1).
    labels = [g.get_attribute("data-label") for g in boxes.all()]
    groups = {n["group"].split(".", 1)[1] for n in trace["nodes"] if "." in n.get("group", "")}
    assert len(set(labels)) == 9 and set(labels) == groups, labels
    assert "layers[1].neurons[0]" in labels
    before = player_page.get_by_test_id("node").count()
    boxes.first.click()
    expect(boxes).to_have_count(8)
    assert player_page.get_by_test_id("node").count() > before
    boxes.first.focus()
    player_page.keyboard.press("Enter")
    expect(boxes).to_have_count(7)
    player_page.get_by_test_id("open-all-groups").click()
    expect(boxes).to_have_count(0)
    player_page.get_by_test_id("fold-groups").click()
    expect(boxes).to_have_count(9)


def test_the_focus_stays_on_the_graph_across_passes_and_when_enter_opens_a_box(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    # Each pass (and each box opened) mounts a new picture: the focus that was in the old
    # one fell to the page's body, and Tab began again at the top of the page.
    open_trace(player_page, server, traces["mlp-training"], frame=0)
    frame = player_page.get_by_test_id("graph-frame")
    frame.focus()
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 3 of 3")
    expect(frame).to_be_focused()
    boxes = player_page.get_by_test_id("group")
    count = boxes.count()
    assert count > 0
    boxes.first.focus()
    player_page.keyboard.press("Enter")
    expect(boxes).to_have_count(count - 1)
    expect(frame).to_be_focused()


def test_the_pass_buttons_hand_the_focus_over_at_the_first_and_last_pass(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    # "Pass ▸" disabled at the last pass while it had the focus dropped it to the body.
    open_trace(player_page, server, traces["mlp-training"], frame=0)
    counter = player_page.get_by_test_id("pass-counter")
    following, previous = (player_page.get_by_test_id(f"pass-{d}") for d in ("next", "previous"))
    following.focus()
    for k in (2, 3):
        player_page.keyboard.press("Enter")
        expect(counter).to_have_text(f"Pass {k} of 3")
    expect(following).to_be_disabled()
    expect(previous).to_be_focused()
    for k in (2, 1):  # at a pass's start, the button goes to the one before
        player_page.keyboard.press("Enter")
        expect(counter).to_have_text(f"Pass {k} of 3")
    expect(previous).to_be_disabled()
    expect(following).to_be_focused()


def test_tab_brings_each_closed_box_into_view_and_rings_it(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    # The camera follows the action at frame 40 (the second layer); Tab went to the
    # first layer's boxes outside the frame and left them there, unseen.
    open_trace(player_page, server, traces["mlp-training"], frame=40)
    expect(player_page.get_by_test_id("group").first).to_be_attached()
    player_page.get_by_test_id("graph-frame").focus()
    frame = player_page.get_by_test_id("graph-frame")
    for _ in range(3):
        player_page.keyboard.press("Tab")
        focused = player_page.locator(":focus")
        expect(focused).to_have_attribute("data-testid", "group")
        player_page.wait_for_function(
            """() => {
              const frame = document.querySelector('[data-testid=graph-frame]');
              const f = frame.getBoundingClientRect();
              const r = document.activeElement.getBoundingClientRect();
              return r.left >= f.left && r.right <= f.right && r.top >= f.top
                && r.bottom <= f.bottom && frame.scrollLeft === 0 && frame.scrollTop === 0;
            }"""
        )
        ring = focused.locator(".node-box").evaluate("e => getComputedStyle(e).strokeDasharray")
        assert ring == "none", ring
    assert frame.evaluate("e => e.scrollLeft + e.scrollTop") == 0


def test_a_closed_network_stands_in_layer_columns_with_bundled_edges(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    """Issue 23, 1: the neurons of one layer share a column, left to right by layer, and
    the 4 x 4 edges from layer 0 to layer 1 run through one junction between them."""
    trace = traces["mlp-training"]
    sort = next(k for k, f in enumerate(trace["frames"]) if f["phase"] == "sort")
    open_trace(player_page, server, trace, frame=sort)
    boxes = player_page.get_by_test_id("group")
    expect(boxes).to_have_count(9)
    placed = boxes.evaluate_all(
        "gs => gs.map(g => [g.dataset.label, g.transform.baseVal.consolidate().matrix.e])"
    )
    columns: dict[str, set[float]] = {}
    for label, x in placed:
        columns.setdefault(label.split(".")[0], set()).add(round(x, 1))
    assert sorted(columns) == ["layers[0]", "layers[1]", "layers[2]"], placed
    assert all(len(xs) == 1 for xs in columns.values()), columns
    xs = [next(iter(columns[f"layers[{k}]"])) for k in range(3)]
    assert xs == sorted(xs) and len(set(xs)) == 3, xs
    # Every point an edge passes through, counted once per edge.
    paths = player_page.get_by_test_id("edge").evaluate_all(
        "es => es.map(e => e.getAttribute('d'))"
    )
    through: dict[str, int] = {}
    for d in paths:
        ends = set(d.replace("M", " ").replace("C", " ").split()[3::3][:-1])
        for point in ends:
            through[point] = through.get(point, 0) + 1
    junction, count = max(through.items(), key=lambda item: item[1])
    assert count == 16, (junction, count)


def test_backward_runs_through_a_closed_box(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["mlp-training"]
    ids = {node["id"]: node for node in trace["nodes"]}
    frame = next(
        k
        for k, f in enumerate(trace["frames"])
        if f["phase"] == "backward" and ids[f["node"]]["op"] == "tanh"
    )
    open_trace(player_page, server, trace, frame=frame)
    group = ids[trace["frames"][frame]["node"]]["group"]
    box = player_page.locator(f'[data-testid=group][data-node-id="group:{group}"]')
    expect(box).to_have_attribute("data-role", "active")
    expect(player_page.locator("[data-testid=delta]")).not_to_have_count(0)


def test_parameters_keep_their_place_from_pass_to_pass(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = traces["mlp-training"]
    open_trace(player_page, server, trace, frame=0)
    weight = trace["nodes"][0]["id"]
    locator = player_page.locator(f"[data-testid=node][data-node-id={weight}]")
    sort = next(k for k, f in enumerate(trace["frames"]) if f["phase"] == "sort")
    player_page.get_by_test_id("scrubber").fill(str(sort + 3))
    first = locator.get_attribute("transform")
    grad = locator.get_attribute("data-grad")
    player_page.get_by_test_id("pass-next").click()
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 2 of 3")
    expect(locator).to_have_attribute("transform", first or "")
    player_page.keyboard.press("End")
    expect(locator).not_to_have_attribute("data-grad", grad or "")


def test_one_pass_programs_show_no_pass_panel(player_page: Page, server: str) -> None:
    player_page.goto(f"{server}/")
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.locator("[data-testid=passes]")).to_be_hidden()
    expect(player_page.get_by_test_id("loss-chart")).to_have_count(0)
    expect(player_page.get_by_test_id("prints")).to_be_hidden()


def test_group_names_and_prints_are_shown_as_text(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = json.loads(json.dumps(traces["mlp-training"]))
    hostile = '<img src=x onerror="window.pwned=1">'
    for node in trace["nodes"]:
        if node["group"]:
            node["group"] = node["group"].replace("MLP", hostile)
    trace["frames"][0]["prints"] = [hostile]
    open_trace(player_page, server, trace, frame=300)
    expect(player_page.get_by_test_id("group").first).to_be_visible()
    expect(player_page.get_by_test_id("prints")).to_contain_text(hostile)
    assert player_page.evaluate("() => window.pwned") is None
    assert player_page.locator("img[src=x]").count() == 0


def test_a_trace_with_a_bad_pass_is_refused_with_a_message(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    trace = json.loads(json.dumps(traces["forgot-zero-grad"]))
    trace["frames"][9]["pass"] = 0
    body = json.dumps(trace)
    player_page.route(
        "**/api/trace*",
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    player_page.goto(f"{server}/?{urllib.parse.urlencode({'source': trace['source']})}")
    error = player_page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("frames[9].pass must be a pass index")


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("name", "frame"), [("optimizer-steps", 5), ("mlp-training", 1500)])
def test_axe_finds_no_serious_violations_with_several_passes(
    axe_page: Page, server: str, traces: dict[str, Any], name: str, frame: int, theme: str
) -> None:
    axe_page.emulate_media(color_scheme=theme)
    open_trace(axe_page, server, traces[name], frame=frame)
    assert serious_violations(axe_page) == []


# The same player on the engine's own multi-pass traces (engine/trace/recorder.py).

FORGOT_ZERO_GRAD = """a = Value(2.0)
b = Value(-3.0)
c = a*b + a
c.backward()
c.backward()
print(a.grad)"""


def test_the_engines_two_pass_trace_shows_a_grad_minus_7(player_page: Page, server: str) -> None:
    query = urllib.parse.urlencode({"source": FORGOT_ZERO_GRAD, "frame": 999})
    player_page.goto(f"{server}/?{query}")
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 2 of 2")
    expect_hook(player_page, "a", "grad", "-7")
    expect(player_page.get_by_test_id("prints")).to_have_text("-7.0")
    player_page.get_by_test_id("pass-previous").click()
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 2 of 2")
    player_page.get_by_test_id("pass-previous").click()
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 1 of 2")
    expect_hook(player_page, "a", "grad", "0")
    expect(player_page.get_by_test_id("source-line")).to_have_attribute("data-line", "3")


def test_nn_py_training_opens_folded_by_neuron_with_its_loss_chart(
    player_page: Page, server: str
) -> None:
    source = nn_source() + nn_training()
    # Past the end clamps to the last frame, as for one-pass programs.
    player_page.goto(f"{server}/?{urllib.parse.urlencode({'source': source, 'frame': 99999})}")
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 6 of 6")
    expect(
        player_page.get_by_test_id("loss-chart").locator("[data-testid=loss-point]")
    ).to_have_count(6)
    groups = player_page.get_by_test_id("group")
    expect(groups).to_have_count(9)
    ids = set(groups.evaluate_all("gs => gs.map(g => g.dataset.nodeId)"))
    assert "group:MLP.layers[0].neurons[3]" in ids
    assert "group:MLP.layers[2].neurons[0]" in ids
    expect(player_page.get_by_test_id("prints")).to_contain_text("5 3.8394")
    # The last frame is the optimizer's step. nn.py's parameters have no labels, so each
    # change is named where the model keeps it, as the narration names it, not by the
    # number it is about to leave nor only by its neuron.
    change = player_page.get_by_test_id("code-panel").locator(".update-changes li").first
    expect(change).to_have_text(
        re.compile(r"^layers\[\d\]\.neurons\[\d\]\.(w\[\d\]|b)\.data: \S+ → ")
    )
    player_page.keyboard.press("Home")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 1 of 6")


def one_pass(sizes: str) -> str:
    """One forward and backward of an nn.py MLP with these layer sizes."""
    return (
        f"random.seed(1)\nmodel = MLP(3, [{sizes}])\n"
        "out = model([2.0, 3.0, -1.0])\nout.backward()\n"
    )


def test_a_lone_neuron_before_the_training_leaves_the_network_folded(
    player_page: Page, server: str
) -> None:
    # The lecture's program: one neuron's backward() first (no call in it), then nn.py
    # trains. Opened at its first frame, the folding is the network's, not the neuron's.
    neuron = "a = Value(2.0)\nb = a * 3.0\nb.backward()\n"
    # Two steps of nn_training's loop, on its four samples: more values than fit.
    training = nn_training(prints=False).replace("range(6)", "range(2)")
    source = nn_source() + neuron + training
    player_page.goto(f"{server}/?{urllib.parse.urlencode({'source': source})}")
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 1 of 3")
    groups = player_page.get_by_test_id("group")
    expect(groups).to_have_count(0)
    expect(player_page.locator("[data-testid=fold-note]")).to_have_text("Every call is open.")
    player_page.get_by_test_id("scrubber").focus()
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 3 of 3")
    expect(groups).to_have_count(9)


def test_one_pass_of_a_big_network_opens_folded_with_its_parameters_inside(
    player_page: Page, server: str
) -> None:
    query = urllib.parse.urlencode({"source": nn_source() + one_pass("16, 16, 1"), "frame": 99999})
    player_page.goto(f"{server}/?{query}")
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.locator("[data-testid=passes]")).to_be_hidden()
    # 353 parameters cannot all be drawn at 1280 x 900: each neuron is one box.
    expect(player_page.get_by_test_id("group")).to_have_count(33)
    assert player_page.get_by_test_id("node").count() < 10
    player_page.get_by_test_id("open-all-groups").click()
    expect(player_page.get_by_test_id("group")).to_have_count(0)
    expect(player_page.locator("[data-testid=fold-note]")).to_have_text("Every call is open.")


def test_one_pass_of_a_small_network_opens_unfolded(player_page: Page, server: str) -> None:
    program = (
        "random.seed(1)\nmodel = MLP(3, [4, 4, 1])\nout = model([2.0, 3.0, -1.0])\nout.backward()\n"
    )
    query = urllib.parse.urlencode({"source": nn_source() + program, "frame": 99999})
    player_page.goto(f"{server}/?{query}")
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.get_by_test_id("group")).to_have_count(0)
    expect(player_page.locator("[data-testid=node][data-grad]")).not_to_have_count(0)


def test_fold_to_fit_folds_a_level_more_where_the_graph_counts_as_fitting(
    player_page: Page, server: str
) -> None:
    # 60-odd values count as fitting 1280 x 900, yet at a readable zoom they take three
    # screens: "Fold to fit" did nothing at all there. Each press now folds a level more.
    program = (
        "random.seed(1)\nmodel = MLP(3, [4, 4, 1])\nout = model([2.0, 3.0, -1.0])\nout.backward()\n"
    )
    query = urllib.parse.urlencode({"source": nn_source() + program, "frame": 99999})
    player_page.goto(f"{server}/?{query}")
    player_page.wait_for_selector("#player[data-ready=true]")
    groups = player_page.get_by_test_id("group")
    note = player_page.get_by_test_id("fold-note")
    open_all = player_page.get_by_test_id("open-all-groups")
    expect(groups).to_have_count(0)
    # Every call open: "Open all" has nothing to do, and says so by being off.
    expect(open_all).to_be_disabled()
    fold = player_page.get_by_test_id("fold-groups")
    for boxes in (9, 3, 1):  # the neurons, the layers, the model
        fold.click()
        expect(groups).to_have_count(boxes)
        expect(open_all).to_be_enabled()
    expect(note).to_contain_text("closed call")
    fold.click()
    expect(note).to_have_text("Every call is one box already: nothing more to fold.")
    expect(groups).to_have_count(1)
    open_all.click()
    expect(groups).to_have_count(0)
    expect(note).to_have_text("Every call is open.")
    expect(open_all).to_be_disabled()


# Steps closer together than the page's 250 ms are rapid (graph-follow.js, player.js):
# only those are judged, so a frame a loaded machine draws late is no failure: a step
# under 200 ms by this loop's clock that the player, too, marked rapid (its own clock,
# read when it drew the step, can see a step 50 ms later than this loop on a loaded
# machine: two steps of a suite on both cores glided so, at 199 ms here). `pauses`:
# steps taken 320 ms after the one before, as a key repeat a loaded machine delays.
RAPID_STEPS = """async ([count, pauses]) => {
  const view = document.querySelector('[data-testid=graph-viewport]');
  const viewport = () => view.getAttribute('transform');
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const glided = [];
  const slowGlided = [];
  let rapid = 0;
  let rapidFlowStill = 0;
  let last = -Infinity;
  for (let i = 0; i < count; i++) {
    if (pauses.includes(i)) await new Promise((done) => setTimeout(done, 320));
    const now = performance.now();
    // The page takes steps under 250 ms apart as rapid, timed where it draws them (a
    // moment after the key); counted here under 150 ms, a loaded machine's delay between
    // the two clocks cannot make a step rapid here and slow there.
    const isRapid = now - last < 150;
    last = now;
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    await frame();
    const after = viewport();
    const markedRapid = Boolean(document.querySelector('[data-testid=player]').dataset.rapid);
    await frame();
    if (pauses.includes(i) && viewport() !== after) slowGlided.push(i);
    if (!isRapid || !markedRapid) continue;
    rapid++;
    if (viewport() !== after) glided.push(i);
    const player = document.querySelector('[data-testid=player]');
    const back = document.querySelector('.edge[data-state=back]');
    if (player.dataset.rapid && back && getComputedStyle(back).animationName === 'none')
      rapidFlowStill++;
  }
  return {glided, slowGlided, rapid, rapidFlowStill};
}"""


@pytest.mark.motion
def test_an_arrow_key_held_moves_the_view_at_once_and_stills_the_flow(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    """Issue 23, 11: stepping faster than a glide (an arrow key held through nn.py's
    backward pass) never glides the view, which redrew the whole graph at every display
    frame, nor flows the edges; one step at a time, the flow comes back."""
    trace = traces["mlp-training"]
    start = next(k for k, f in enumerate(trace["frames"]) if f["phase"] == "backward")
    open_trace(player_page, server, trace, frame=start)
    # A step after a pause glides (steps 17 and 37 move the view at this size); the
    # rapid step after it ends that glide where it was heading (a key repeat one beat
    # late glided on through the next steps: CI's load did that at random).
    moved = player_page.evaluate(RAPID_STEPS, [60, [17, 37]])
    assert moved["slowGlided"] != [], moved
    assert moved["rapid"] >= 30, moved  # two display frames a step: far under 200 ms
    assert moved["glided"] == [], moved
    assert moved["rapidFlowStill"] >= moved["rapid"] - 5, moved
    player = player_page.get_by_test_id("player")
    expect(player).not_to_have_attribute("data-rapid", "true")
    back = player_page.locator(".edge[data-state=back]").first
    expect(back).to_have_css("animation-name", "flow-back")


def test_the_topo_strip_marks_one_chip_current_as_its_window_moves(
    player_page: Page, server: str, traces: dict[str, Any]
) -> None:
    """The strip's chips are changed in place as the window slides along a long order:
    whichever way the learner moves, one chip is current and it is the numbered chip of
    the node whose rule runs (never a "…" chip left marked)."""
    trace = traces["mlp-training"]
    frames = trace["frames"]
    backward = [k for k, f in enumerate(frames) if f["phase"] == "backward" and f["pass"] == 1]
    open_trace(player_page, server, trace, frame=backward[len(backward) // 2])
    current = player_page.locator(".topo-chips [aria-current=step]")
    # The last rule (the order's first chip) straight to the first (its last), and back.
    for frame in (backward[-1], backward[0], backward[-1], backward[-1] + 1):
        player_page.get_by_test_id("scrubber").fill(str(frame))
        expect(player_page.get_by_test_id("frame-counter")).to_have_text(
            f"{frame + 1} / {len(frames)}"
        )
        if frames[frame]["phase"] != "backward":
            expect(current).to_have_count(0)
            continue
        expect(current).to_have_count(1)
        expect(current).to_have_attribute("data-testid", "topo-chip")
        expect(current).to_have_class(re.compile(r"\bis-current\b"))
        expect(player_page.locator(".topo-chips .is-more[aria-current]")).to_have_count(0)


UNITTEST_FILE = """import unittest
from micrograd.engine import Value


class TestGradients(unittest.TestCase):
    def test_add(self):
        a = Value(2.0)
        c = a + Value(-3.0)
        c.backward()
        self.assertEqual(a.grad, 1.0)

    def test_tanh(self):
        x = Value(0.5)
        y = x.tanh()
        y.backward()
        self.assertAlmostEqual(x.grad, 0.5, places=3)


unittest.main()
"""


def test_a_test_file_gets_no_loss_chart_and_its_report_stays_unwrapped(
    player_page: Page, server: str
) -> None:
    # Each test's backward() runs its own graph: a line through their outputs would
    # read as a loss curve. unittest's 70-character rules stay one line each.
    query = urllib.parse.urlencode({"source": UNITTEST_FILE, "frame": 99999})
    player_page.goto(f"{server}/?{query}")
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.get_by_test_id("pass-counter")).to_have_text("Pass 2 of 2")
    expect(player_page.get_by_test_id("loss-chart")).to_have_count(0)
    prints = player_page.get_by_test_id("prints")
    expect(prints).to_contain_text("=" * 70)
    shape = prints.evaluate(
        """p => ({lines: p.textContent.split("\\n").length, height: p.scrollHeight,
          line: parseFloat(getComputedStyle(p).lineHeight), wide: p.scrollWidth > p.clientWidth})"""
    )
    assert shape["wide"], shape
    assert abs(shape["height"] - shape["lines"] * shape["line"]) < shape["line"], shape


def test_an_update_inside_a_closed_box_is_counted_beside_it_not_piled_up(
    player_page: Page, server: str
) -> None:
    # micrograd's MLP, drawn as one closed box: its last optimizer step moved 103 weights
    # inside it, each spelled out in a label of its own, a pile of which none could be read.
    # On a phone, where the count stood past the graph's right edge until Fit was pressed.
    player_page.set_viewport_size({"width": 390, "height": 844})
    source = Path(__file__).parents[1] / "engine" / "real_code" / "micrograd_nn_import.py"
    text = source.read_text(encoding="utf-8")
    url = f"{server}/?{urllib.parse.urlencode({'source': text})}"
    player_page.goto(url)
    player_page.wait_for_selector("#player[data-ready=true]")
    player_page.get_by_test_id("scrubber").focus()
    player_page.keyboard.press("End")
    expect(player_page.locator("[data-testid=player]")).to_have_attribute("data-phase", "update")
    boxes = player_page.get_by_test_id("group")
    expect(boxes.first).to_be_visible()
    counted = player_page.locator("[data-testid=delta]", has_text=re.compile(r"data values change"))
    expect(counted.first).to_have_text(re.compile(r"^\d+ data values change$"))
    # One label a box at most: none of a box's values is spelled out beside it.
    assert player_page.locator("[data-testid=delta]").count() <= boxes.count()
    frame = player_page.get_by_test_id("graph-frame")
    expect(counted.first).to_be_in_viewport()
    label = counted.first.bounding_box()
    edges = frame.bounding_box()
    assert label is not None and edges is not None
    assert edges["x"] <= label["x"], (label, edges)
    assert label["x"] + label["width"] <= edges["x"] + edges["width"], (label, edges)
