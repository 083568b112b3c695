"""The graph view as a learner sees it: readable text on small graphs at desktop and
phone widths, a view that shows the graph rather than blank space, only what is in
view on big graphs (near in SVG, far on a canvas), and folding without a new layout.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import NEURON, open_player, player_url
from tests.support.programs import (
    MLP_TRAINED_THREE_STEPS,
    fanout_program,
    nn_source,
    nn_training,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PUBLIC_CODE = Path(__file__).parents[1] / "engine" / "public_code"
DESKTOP = {"width": 1280, "height": 900}

# Rendered size of the numbers and labels of every record on screen: the font size
# times the view's scale.
TEXT_SIZES = """() => {
  const frame = document.querySelector('[data-testid=graph-frame]').getBoundingClientRect();
  const sizes = [];
  const texts = ':is([data-testid=node], [data-testid=group])'
    + ' :is([data-testid=node-value], [data-testid=node-label])';
  for (const text of document.querySelectorAll(texts)) {
    const r = text.getBoundingClientRect();
    if (r.right < frame.left || r.left > frame.right) continue;
    if (r.bottom < frame.top || r.top > frame.bottom) continue;
    sizes.push(parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a);
  }
  return sizes;
}"""

CURRENT_IN_FRAME = """() => {
  const frame = document.querySelector('[data-testid=graph-frame]').getBoundingClientRect();
  const node = document.querySelector(
    '[data-testid=node][data-role=new], [data-testid=node][data-role=active]');
  if (!node) return null;
  const r = node.getBoundingClientRect();
  return r.left >= frame.left && r.right <= frame.right
    && r.top >= frame.top && r.bottom <= frame.bottom;
}"""

GRAPH_AND_FRAME = """() => {
  const frame = document.querySelector('[data-testid=graph-frame]').getBoundingClientRect();
  const graph = document.querySelector('[data-testid=graph-viewport]').getBoundingClientRect();
  return {frame: {left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom},
          graph: {left: graph.left, right: graph.right, top: graph.top, bottom: graph.bottom}};
}"""


def examples(server: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{server}/api/examples") as response:
        result: list[dict[str, Any]] = json.load(response)
    return result


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "phone"])
def test_every_example_opens_with_node_text_of_at_least_11_pixels(
    player_page: Page, server: str, viewport: dict[str, int]
) -> None:
    player_page.set_viewport_size(viewport)
    for example in examples(server):
        url = player_url(server, example["source"], frame=0, granularity=example["granularity"])
        open_player(player_page, url)
        for frame in ("0", "end"):
            if frame == "end":
                player_page.locator("[data-testid=graph-frame]").focus()
                player_page.keyboard.press("End")
            # On a phone the graph is below the editor: look at it, as a learner scrolls to.
            player_page.locator("[data-testid=graph-frame]").scroll_into_view_if_needed()
            sizes = player_page.evaluate(TEXT_SIZES)
            where = f"{example['id']} at {viewport['width']} px, frame {frame}"
            assert sizes, f"{where}: no record text on screen"
            assert min(sizes) >= 11 - 1e-6, f"{where}: text drawn at {min(sizes):.1f} px"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "phone"])
def test_fit_never_shrinks_text_below_11_pixels_and_keeps_the_current_node_in_view(
    player_page: Page, server: str, viewport: dict[str, int]
) -> None:
    player_page.set_viewport_size(viewport)
    open_player(player_page, player_url(server, NEURON, frame=12, granularity="expanded"))
    player_page.get_by_role("button", name="Fit").click()
    assert min(player_page.evaluate(TEXT_SIZES)) >= 11 - 1e-6
    assert player_page.evaluate(CURRENT_IN_FRAME) is True


def test_fit_says_why_it_shows_the_current_step_when_the_graph_is_too_big_to_read_whole(
    player_page: Page, server: str
) -> None:
    # On a phone the expanded neuron is too wide to read whole: Fit keeps the current
    # step where it already was, so without a word the button seemed to do nothing.
    player_page.set_viewport_size(PHONE)
    open_player(player_page, player_url(server, NEURON, frame=12, granularity="expanded"))
    note = player_page.get_by_test_id("fit-note")
    expect(note).to_be_hidden()
    player_page.get_by_role("button", name="Fit").click()
    expect(note).to_be_visible()
    expect(note).to_contain_text("Too big to show whole at a readable size")
    player_page.get_by_role("button", name="Zoom out").click()
    expect(note).to_be_hidden()
    player_page.get_by_role("button", name="Fit").click()
    expect(note).to_be_visible()
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("ArrowRight")
    expect(note).to_be_hidden()
    # A graph Fit shows whole needs no note.
    player_page.set_viewport_size(DESKTOP)
    open_player(player_page, player_url(server, NEURON, frame=12))
    player_page.get_by_role("button", name="Fit").click()
    expect(player_page.get_by_test_id("graph-frame")).to_be_visible()
    expect(note).to_be_hidden()


# Which nodes lie wholly inside the graph frame, by label (unlabelled ones by id).
WHOLLY_IN_FRAME = """() => {
  const frame = document.querySelector('[data-testid=graph-frame]').getBoundingClientRect();
  return [...document.querySelectorAll('[data-testid=node]')].filter((node) => {
    const r = node.getBoundingClientRect();
    return r.left >= frame.left && r.right <= frame.right
      && r.top >= frame.top && r.bottom <= frame.bottom;
  }).map((node) => node.dataset.label || node.dataset.nodeId);
}"""


def test_a_phone_shows_each_step_with_the_values_it_reads(player_page: Page, server: str) -> None:
    """The neuron is too wide for a phone, so the view follows the action; it frames the
    new value with its operands, so "x1*w1 = 2 × -3" shows x1 and w1 too."""
    player_page.set_viewport_size(PHONE)
    open_player(player_page, player_url(server, NEURON, frame=0))
    assert {"x1", "w1"} <= set(player_page.evaluate(WHOLLY_IN_FRAME))
    assert player_page.evaluate(CURRENT_IN_FRAME) is True
    player_page.keyboard.press("ArrowRight")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("2 / 16")
    player_page.wait_for_function(
        """() => {
          const frame = document.querySelector('[data-testid=graph-frame]').getBoundingClientRect();
          return ['x2', 'w2'].every((label) => {
            const r = document.querySelector(`[data-testid=node][data-label=${label}]`)
              .getBoundingClientRect();
            return r.left >= frame.left && r.right <= frame.right;
          });
        }"""
    )
    assert player_page.evaluate(CURRENT_IN_FRAME) is True


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "phone"])
def test_a_graph_too_big_for_the_frame_fills_it_instead_of_showing_blank_space(
    player_page: Page, server: str, viewport: dict[str, int]
) -> None:
    player_page.set_viewport_size(viewport)
    open_player(player_page, player_url(server, NEURON, frame=28, granularity="expanded"))
    player_page.wait_for_timeout(400)  # (with motion, a glide to the last node may be under way)
    box = player_page.evaluate(GRAPH_AND_FRAME)
    frame, graph = box["frame"], box["graph"]
    assert graph["right"] - graph["left"] > frame["right"] - frame["left"], "the graph is wider"
    # At most the view's margin and the layout's own margin blank on either side (the
    # last node is a leaf at the far left: centring it would blank half the frame).
    assert graph["left"] <= frame["left"] + 48 and graph["right"] >= frame["right"] - 48, box


def test_a_big_graph_has_node_hooks_only_for_what_is_in_view(
    player_page: Page, server: str
) -> None:
    source = fanout_program(2000)
    response = player_page.request.post(f"{server}/api/trace", data={"source": source})
    assert response.ok
    total = len(response.json()["frames"])
    open_player(player_page, f"{server}/")
    player_page.get_by_test_id("source").fill(source)
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"1 / {total}")
    player_page.get_by_test_id("scrubber").fill(str(total - 1))  # every value visible
    player_page.wait_for_timeout(400)
    nodes = player_page.get_by_test_id("node")
    count = nodes.count()
    assert 0 < count < 400, f"{count} node hooks for a 1,967-value graph"
    frame = player_page.locator("[data-testid=graph-frame]").bounding_box()
    assert frame is not None
    for node in nodes.all()[:50]:
        box = node.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] >= frame["x"] - 200
        assert box["x"] <= frame["x"] + frame["width"] + 200
        assert box["y"] + box["height"] >= frame["y"] - 200
        assert box["y"] <= frame["y"] + frame["height"] + 200
        assert node.get_attribute("data-grad") is not None
    assert player_page.locator("[data-testid=graph-canvas]").is_hidden()

    player_page.get_by_role("button", name="Fit").click()  # the whole graph: far
    expect(player_page.locator("[data-testid=graph-canvas]")).to_be_visible()
    expect(nodes).to_have_count(0)
    player_page.locator("[data-testid=node-table] summary").click()
    expect(player_page.locator("[data-testid=node-table] tbody tr").first).to_be_visible()

    for _ in range(12):  # 1.25 ** 12: from the whole graph (scale ~0.07) to reading zoom
        player_page.get_by_role("button", name="Zoom in").click()
    expect(player_page.locator("[data-testid=graph-canvas]")).to_be_hidden()
    expect(nodes.first).to_be_attached()


FOLD = """async ({source, fold}) => {
  const {createTimeline, stateAt} = await import('/static/js/passes/timeline.js');
  const {layoutInput, recordLabel} = await import('/static/js/layout/layout.js');
  const {computeLayout} = await import('/static/js/layout/layout-runner.js');
  const {mountGraph} = await import('/static/js/graph/graph-view.js');
  const response = await fetch('/api/trace', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify({source})});
  const timeline = createTimeline(await response.json());
  const layout = await computeLayout(layoutInput(timeline.trace));
  const host = document.createElement('div');
  host.style.width = '900px';
  document.body.prepend(host);
  const names = timeline.trace.nodes.map((node) => node.id);
  const labels = timeline.trace.nodes.map(recordLabel);
  const graph = mountGraph(host, {timeline, layout, names, labels});
  graph.update(stateAt(timeline, timeline.frameCount - 1));
  const ids = () => [...host.querySelectorAll('[data-testid=node]')]
    .map((n) => n.dataset.label || n.dataset.nodeId);
  const before = ids();
  const members = fold.map(
    (label) => timeline.trace.nodes.findIndex((node) => node.label === label));
  const positions = JSON.stringify(layout.records);
  graph.setFolds([{nodes: members, label: 'inputs'}]);
  const folded = ids();
  const boxes = [...host.querySelectorAll('.fold')].map((g) => g.textContent);
  graph.setFolds([]);
  const after = ids();
  const samePositions = JSON.stringify(layout.records) === positions;
  graph.destroy();
  host.remove();
  return {before, folded, boxes, after, samePositions};
}"""


def test_folding_a_group_hides_its_values_behind_one_box_and_unfolding_restores_them(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON))
    result = player_page.evaluate(FOLD, {"source": NEURON, "fold": ["x1", "w1"]})
    assert {"x1", "w1"} <= set(result["before"])
    assert not {"x1", "w1"} & set(result["folded"])
    assert len(result["folded"]) == len(result["before"]) - 2
    assert result["boxes"] == ["inputs"]
    assert sorted(result["after"]) == sorted(result["before"])
    assert result["samePositions"]


CACHED_LAYOUTS = """async (sources) => {
  const {createTimeline} = await import('/static/js/passes/timeline.js');
  const {layoutInput} = await import('/static/js/layout/layout.js');
  const {computeLayout} = await import('/static/js/layout/layout-runner.js');
  const layouts = [];
  for (const source of sources) {
    const response = await fetch('/api/trace', {method: 'POST',
      headers: {'Content-Type': 'application/json'}, body: JSON.stringify({source})});
    const timeline = createTimeline(await response.json());
    layouts.push(await computeLayout(layoutInput(timeline.trace)));
  }
  return {sameAsFirst: layouts.map((layout) => layout === layouts[0]),
          engines: layouts.map((layout) => layout.engine)};
}"""


def test_a_new_trace_of_the_same_structure_reuses_the_layout_from_the_worker(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON))
    first = fanout_program(400)
    # The same network with new inputs: x0 = 0.5, x1 = 0.5, ...
    new_numbers = "\n".join(
        f"{line.split(' = ')[0]} = 0.5" if line.startswith("x") else line
        for line in first.splitlines()
    )
    other_structure = fanout_program(800)
    assert first != new_numbers
    result = player_page.evaluate(CACHED_LAYOUTS, [first, new_numbers, other_structure])
    assert result["sameAsFirst"] == [True, True, False]
    assert result["engines"] == ["layered", "layered", "layered"]


def open_big_graph(page: Page, server: str, nodes: int = 600) -> int:
    """Run a fan-out program of about `nodes` values on `/`; returns its frame count."""
    source = fanout_program(nodes)
    response = page.request.post(f"{server}/api/trace", data={"source": source})
    assert response.ok
    total = len(response.json()["frames"])
    open_player(page, f"{server}/")
    page.get_by_test_id("source").fill(source)
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("frame-counter")).to_have_text(f"1 / {total}")
    return total


# Resolves after two animation frames: whatever the previous one queued has run.
NEXT_FRAMES = (
    "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
)


def minimap_rect(page: Page) -> tuple[float, float, float, float]:
    """The main view's rectangle on the minimap: x, y, width, height in minimap pixels,
    once any redraw the last input queued has landed (it draws at the next frame)."""
    page.evaluate(NEXT_FRAMES)
    value = page.get_by_test_id("minimap").get_attribute("data-view")
    assert value, "the minimap has not drawn the view"
    x, y, width, height = (float(part) for part in value.split(","))
    return x, y, width, height


# Pixels the minimap's graph canvas has painted (alpha > 0).
MINIMAP_INK = """() => {
  const canvas = document.querySelector('[data-testid=minimap-graph]');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
  return inked;
}"""


def test_an_intermediate_value_is_named_above_its_record_as_the_program_wrote_it(
    player_page: Page, server: str
) -> None:
    """Issue 23 (5): no bare number badges; `a - b` reads a-b, not a+b*-1."""
    source = "a = Value(3.0)\nb = Value(2.0)\nc = (a - b) / (2 * a)\nc.backward()\n"
    open_player(player_page, player_url(server, source, frame=4))
    names = player_page.get_by_test_id("node-name")
    expect(names).to_have_text(["-b", "a-b", "2*a", "(2*a)**-1"], ignore_case=False)
    overlaps = player_page.evaluate(
        """() => {
          const boxes = [...document.querySelectorAll('[data-testid=node] .node-box')]
            .map((box) => box.getBoundingClientRect());
          const hit = (a, b) => a.left < b.right && b.left < a.right
            && a.top < b.bottom && b.top < a.bottom;
          return [...document.querySelectorAll('[data-testid=node-name]')]
            .map((name) => name.getBoundingClientRect())
            .filter((name) => boxes.some((box) => hit(name, box))).length;
        }"""
    )
    assert overlaps == 0
    # A labelled value keeps its label cell and gets no second name.
    labelled = player_page.locator("[data-testid=node][data-label=c] [data-testid=node-name]")
    expect(labelled).to_have_count(0)


def test_a_small_graph_has_no_minimap(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON))
    expect(player_page.get_by_test_id("graph-frame")).to_be_visible()
    expect(player_page.get_by_test_id("minimap")).to_have_count(0)
    expect(player_page.get_by_test_id("minimap-toggle")).to_have_count(0)


def test_the_minimap_shows_the_view_and_moves_it_by_click_drag_and_keys(
    player_page: Page, server: str
) -> None:
    total = open_big_graph(player_page, server)
    minimap = player_page.get_by_test_id("minimap")
    expect(minimap).to_be_visible()
    expect(minimap).to_have_attribute("data-view", re.compile(r"\d"))
    assert player_page.evaluate(MINIMAP_INK) > 100, "the whole graph is drawn on it"
    box = minimap.bounding_box()
    assert box is not None and box["width"] <= 200 and box["height"] <= 150
    frame = player_page.get_by_test_id("graph-frame").bounding_box()
    assert frame is not None
    assert box["x"] + box["width"] <= frame["x"] + frame["width"], "inside the frame"

    # The current value moves on the minimap as the learner scrubs.
    expect(minimap).to_have_attribute("data-current", re.compile(r"\d"))
    before = minimap.get_attribute("data-current")
    player_page.get_by_test_id("scrubber").fill(str(total - 1))
    expect(minimap).not_to_have_attribute("data-current", before or "")

    # A click centres the main view there (the rectangle follows, unless the graph's
    # edge stops it), as a move by hand.
    transform = player_page.get_by_test_id("graph-viewport").get_attribute("transform")
    drawn = minimap.get_attribute("data-view") or ""
    target = (box["width"] * 0.5, box["height"] * 0.8)
    minimap.click(position={"x": target[0], "y": target[1]})
    expect(player_page.get_by_test_id("graph-viewport")).not_to_have_attribute(
        "transform", transform or ""
    )
    expect(minimap).not_to_have_attribute("data-view", drawn)  # redrawn at the next frame
    x, y, width, height = minimap_rect(player_page)
    assert abs(x + width / 2 - target[0]) < 8 or width > box["width"] - 8, (x, width, target)
    assert abs(y + height / 2 - target[1]) < 8 or y + height >= box["height"] - 2, (y, height)

    # Dragging pans with the pointer.
    player_page.mouse.move(box["x"] + target[0], box["y"] + target[1])
    player_page.mouse.down()
    player_page.mouse.move(box["x"] + target[0], box["y"] + box["height"] * 0.3, steps=4)
    player_page.mouse.up()
    expect(minimap).not_to_have_attribute(
        "data-view", ",".join(f"{v:.1f}" for v in (x, y, width, height))
    )
    dragged = minimap_rect(player_page)
    assert dragged[1] < y, (dragged, y)

    # Keys: arrows pan the view (the player does not step), Enter shows the current value.
    counter = player_page.get_by_test_id("frame-counter").text_content()
    minimap.focus()
    player_page.keyboard.press("ArrowDown")
    expect(minimap).not_to_have_attribute("data-view", ",".join(f"{v:.1f}" for v in dragged))
    moved = minimap_rect(player_page)
    assert moved[1] > dragged[1], (moved, dragged)
    player_page.keyboard.press("ArrowLeft")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(counter or "")
    player_page.keyboard.press("Enter")

    def current_in_view() -> bool:
        cx, cy = (float(v) for v in (minimap.get_attribute("data-current") or "").split(","))
        x, y, width, height = minimap_rect(player_page)
        return x - 1 <= cx <= x + width + 1 and y - 1 <= cy <= y + height + 1

    for _ in range(30):  # the view moves there (with motion, glides)
        if current_in_view():
            break
        player_page.wait_for_timeout(100)
    assert current_in_view()


def test_the_minimap_toggles_and_remembers(player_page: Page, server: str) -> None:
    open_big_graph(player_page, server)
    toggle = player_page.get_by_test_id("minimap-toggle")
    minimap = player_page.get_by_test_id("minimap")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    viewport = player_page.get_by_test_id("graph-viewport")
    before = viewport.get_attribute("transform")
    toggle.click()
    expect(minimap).to_be_hidden()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    # The toggle sits among the zoom buttons but is not one: the view stays where it was
    # (it used to act as Fit and jump to the whole graph, drawn far).
    assert viewport.get_attribute("transform") == before
    open_big_graph(player_page, server)  # a fresh page: the choice stays
    expect(player_page.get_by_test_id("minimap")).to_be_hidden()
    player_page.get_by_test_id("minimap-toggle").click()
    minimap = player_page.get_by_test_id("minimap")
    expect(minimap).to_be_visible()
    # Shown at once, drawn at the next animation frame: the view's rectangle comes last.
    expect(minimap).to_have_attribute("data-view", re.compile(r"\d"))
    assert player_page.evaluate(MINIMAP_INK) > 100


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_minimap_draws_in_the_theme_colours(
    player_page: Page, server: str, scheme: str
) -> None:
    player_page.emulate_media(color_scheme=scheme)
    open_big_graph(player_page, server)
    expect(player_page.get_by_test_id("minimap")).to_have_attribute("data-view", re.compile(r"\d"))
    inked = player_page.evaluate(
        """() => {
          const canvas = document.querySelector('[data-testid=minimap-view]');
          const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          const minimap = document.querySelector('[data-testid=minimap]');
          const hex = getComputedStyle(minimap).getPropertyValue('--ink').trim().slice(1);
          const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
          let near = 0;
          for (let i = 0; i < data.length; i += 4) {
            const distance =
              Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b);
            if (data[i + 3] > 200 && distance < 60) near++;
          }
          return near;
        }"""
    )
    # The view's outline is drawn in the theme's ink: dark on light, light on dark.
    assert inked > 20, inked


LAPTOP = {"width": 1366, "height": 768}

# Once the view has stopped moving (a glide lasts 280 ms): the screen boxes of the
# current value's record, the records receiving a `+=` and their labels, the graph's
# visible rect and the zoom buttons. A closed call's box (a neuron) is a value too.
STEP_GEOMETRY = """async () => {
  const viewport = document.querySelector('[data-testid=graph-viewport]');
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  let still = 0;
  for (let last = null; still < 4; ) {
    await frame();
    const now = viewport.getAttribute('transform');
    still = now === last ? still + 1 : 0;
    last = now;
  }
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            name: element.dataset.label || element.dataset.nodeId || element.textContent};
  };
  const value = ':is([data-testid=node], [data-testid=group])';
  const current = document.querySelector(`${value}[data-role=active]`);
  return {
    view: box(document.querySelector('.graph-svg')),
    tools: box(document.querySelector('[data-testid=graph-frame] .graph-tools')),
    current: current && box(current),
    operands: [...document.querySelectorAll(`${value}[data-role=receiving]`)].map(box),
    labels: [...document.querySelectorAll('[data-testid=delta]')].map(box),
  };
}"""


def _span(boxes: list[dict[str, Any]]) -> tuple[float, float]:
    width = max(b["right"] for b in boxes) - min(b["left"] for b in boxes)
    height = max(b["bottom"] for b in boxes) - min(b["top"] for b in boxes)
    return width, height


def _fits(boxes: list[dict[str, Any]], view: dict[str, Any]) -> bool:
    width, height = _span(boxes)
    room_width = view["right"] - view["left"] - 16
    return width <= room_width and height <= view["bottom"] - view["top"] - 16


def _cut_or_covered(boxes: list[dict[str, Any]], geometry: dict[str, Any]) -> list[str]:
    view, tools = geometry["view"], geometry["tools"]
    wrong = []
    for b in boxes:
        inside = (
            b["left"] >= view["left"] - 0.5
            and b["right"] <= view["right"] + 0.5
            and b["top"] >= view["top"] - 0.5
            and b["bottom"] <= view["bottom"] + 0.5
        )
        under = (
            b["left"] < tools["right"]
            and b["right"] > tools["left"]
            and b["top"] < tools["bottom"]
            and b["bottom"] > tools["top"]
        )
        if not inside or under:
            wrong.append(f"{b['name']} {'under the zoom buttons' if inside else 'cut off'}")
    return wrong


@pytest.mark.parametrize(
    ("viewport", "start", "steps"),
    [(LAPTOP, 227, 8), (PHONE, 196, 10)],
    ids=["laptop", "phone"],
)
@pytest.mark.motion  # the camera as most learners see it: gliding to where it stops
def test_each_backward_step_shows_the_value_its_operands_and_their_additions(
    player_page: Page, server: str, viewport: dict[str, int], start: int, steps: int
) -> None:
    """At each backward step the current value, the operands its rule adds into and
    their `+=` labels are on screen, clear of the zoom buttons, where they fit at the
    readable scale (a laptop); where they do not (a phone), the current value is, with a
    `+=` label beside it, unless the label is a sum (a fork: the sum is the lesson). The
    operands alone, with the current value cut off at the edge, left the learner without
    the gradient every `+=` multiplies."""
    player_page.set_viewport_size(viewport)
    phone = viewport is PHONE
    # The first frame's framing (a permalink), then steps one at a time.
    first = 200 if phone else 232
    # Its passes are drawn one at a time (pass-graph.js): the case where the camera read
    # the whole trace's operands by the pass view's indices and framed the value alone.
    open_player(player_page, player_url(server, MLP_TRAINED_THREE_STEPS, frame=first))
    player_page.locator("[data-testid=graph-frame]").scroll_into_view_if_needed()
    frames = [first, *range(start, start + steps)]
    checked = 0
    for n, frame in enumerate(frames):
        if n == 1:
            player_page.get_by_test_id("scrubber").fill(str(start))
            player_page.locator("[data-testid=graph-frame]").focus()
            player_page.wait_for_timeout(400)  # the view moves once the scrubber rests
        elif n > 1:
            player_page.keyboard.press("ArrowRight")
            player_page.wait_for_timeout(300)  # a step, not a held key: it may glide
        counter = player_page.get_by_test_id("frame-counter")
        expect(counter).to_have_text(re.compile(rf"^{frame + 1} / "))
        geometry = player_page.evaluate(STEP_GEOMETRY)
        if not geometry["operands"]:
            continue  # a leaf's or a constant's step: its rule adds nothing
        assert geometry["current"] is not None, f"frame {frame}: no current value"
        adding = geometry["operands"] + geometry["labels"]
        assert geometry["labels"], f"frame {frame}: no += drawn"
        everything = [geometry["current"], *adding]
        checked += 1
        if _fits(everything, geometry["view"]):
            wrong = _cut_or_covered(everything, geometry)
            assert wrong == [], f"frame {frame} at {viewport['width']} px: {wrong}"
            continue
        assert phone, f"frame {frame}: a laptop shows the whole step"
        fork = any(" + " in b["name"] for b in geometry["labels"])
        if fork:
            wrong = _cut_or_covered(everything, geometry)
            assert wrong == [], f"frame {frame}: a fork's step zooms out to show {wrong}"
            continue
        clear = [b for b in geometry["labels"] if not _cut_or_covered([b], geometry)]
        assert clear, f"frame {frame}: no += label on screen"
        assert _cut_or_covered([geometry["current"]], geometry) == [], f"frame {frame}"
    assert checked >= 5, f"only {checked} steps with a += checked"


def test_a_phone_zooms_out_at_a_fork_to_show_the_value_and_where_its_gradient_adds(
    player_page: Page, server: str
) -> None:
    """The expanded neuron on a phone: num's rule adds into e, whose gradient already
    holds den's contribution, two columns to its left. The view zooms out so num (whose
    gradient the `+=` multiplies), e, the constant and both labels are on screen, then
    comes back to the readable scale at the next step. It kept the sum in view and left
    num off the right edge."""
    player_page.set_viewport_size(PHONE)
    open_player(player_page, player_url(server, NEURON, frame=13, granularity="expanded"))
    frame = player_page.locator("[data-testid=graph-frame]")
    frame.scroll_into_view_if_needed()
    frame.focus()
    scales = {}
    for step in (14, 15, 16, 17):
        player_page.keyboard.press("ArrowRight")
        counter = player_page.get_by_test_id("frame-counter")
        expect(counter).to_have_text(re.compile(rf"^{step + 1} / "))
        geometry = player_page.evaluate(STEP_GEOMETRY)
        scales[step] = player_page.evaluate(VIEW_SCALE)
        if step != 15:
            continue
        assert geometry["current"] is not None and geometry["current"]["name"] == "num"
        assert any(" + " in b["name"] for b in geometry["labels"]), "num's step is a sum"
        everything = [geometry["current"], *geometry["operands"], *geometry["labels"]]
        assert _cut_or_covered(everything, geometry) == []
    assert scales[15] < scales[14], "zoomed out for the fork"
    assert scales[17] == scales[14], "back at the readable scale for the next rule"


LABELS_IN_VIEW = """(names) => {
  const view = document.querySelector('.graph-svg').getBoundingClientRect();
  return names.map((name) => {
    const node = document.querySelector(`[data-testid=node][data-label="${name}"]`);
    const label = node?.querySelector('[data-testid=node-label]')?.getBoundingClientRect();
    return label && label.left >= view.left && label.right <= view.right;
  });
}"""


def test_a_phone_shows_a_big_graphs_first_build_with_its_operands_names(
    player_page: Page, server: str
) -> None:
    """The micrograd lecture (14,000 frames, records with room for 9 digits) on a phone:
    `x1*w1 = 2 × −3` with x1 and w1 named. The three records were a few pixels too wide
    for the view, and the view kept x1*w1 and cut its operands' names off the left edge;
    it zooms out a little and lets x1*w1's gradient cell, 0, go past the right one."""
    player_page.set_viewport_size(PHONE)
    source = (PUBLIC_CODE / "nn_zero_to_hero_micrograd_lecture_second_half.py").read_text()
    open_player(player_page, player_url(server, source, frame=0))
    player_page.locator("[data-testid=graph-frame]").scroll_into_view_if_needed()
    assert player_page.evaluate(LABELS_IN_VIEW, ["x1", "w1", "x1*w1"]) == [True, True, True]
    assert player_page.evaluate(VIEW_SCALE) >= 0.9 * 11 / 12.5


VIEW_SCALE = """() =>
  document.querySelector('[data-testid=graph-viewport]').getScreenCTM().a"""


@pytest.mark.motion
def test_a_phone_never_leaves_a_plus_equals_label_under_the_zoom_buttons(
    player_page: Page, server: str
) -> None:
    """nn.py's 4-4-1 network on a phone: a step whose operands do not fit together shows
    one of them with its `+=` label, and where that value is at the top of the graph the
    view goes past the graph's edge rather than leave the label under the + button (the
    view's clamp to the graph put it back there)."""
    player_page.set_viewport_size(PHONE)
    source = nn_source() + nn_training(prints=False)
    open_player(player_page, player_url(server, source, frame=1092))
    frame = player_page.locator("[data-testid=graph-frame]")
    frame.scroll_into_view_if_needed()
    frame.focus()
    for step in (1093, 1094, 1095):
        player_page.keyboard.press("ArrowRight")
        expect(player_page.get_by_test_id("frame-counter")).to_have_text(
            re.compile(rf"^{step + 1} / ")
        )
        player_page.wait_for_timeout(300)
        geometry = player_page.evaluate(STEP_GEOMETRY)
        assert geometry["labels"], f"frame {step}: no += drawn"
        wrong = [w for w in _cut_or_covered(geometry["labels"], geometry) if "under" in w]
        assert wrong == [], f"frame {step}: {wrong}"
