"""The graph's drawing as a learner reads it, measured: edges that stay in the view,
labels that do not run into the badges and records around them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from backprop_animator.engine.program_examples import MLP_TRAINING
from tests.browser.conftest import open_player, player_url
from tests.support.programs import MLP_TRAINED_THREE_STEPS

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}

# Each drawn edge (hidden ones are not drawn) whose bounding box leaves the graph's
# frame, with how far it goes, in screen pixels.
EDGES_OUT_OF_FRAME = """() => {
  const frame = document.querySelector('.graph-svg').getBoundingClientRect();
  const out = [];
  for (const path of document.querySelectorAll('path.edge:not([data-state=hidden])')) {
    const r = path.getBoundingClientRect();
    const over = Math.max(frame.top - r.top, r.bottom - frame.bottom,
                          frame.left - r.left, r.right - frame.right);
    if (over > 1) out.push({d: path.getAttribute('d'), over: Math.round(over)});
  }
  return out;
}"""


def test_an_mlps_first_frame_draws_its_edges_inside_the_view(
    player_page: Page, server: str
) -> None:
    # dagre routed `w[0]`'s edge into its `×`, one column to the right, up through a
    # point hundreds of units above both: at the first frame it climbed out of the view
    # and back, and the edge from the `2` beside it dived out below.
    player_page.set_viewport_size(LAPTOP)
    open_player(player_page, player_url(server, MLP_TRAINED_THREE_STEPS, frame=0))
    player_page.get_by_test_id("graph-frame").scroll_into_view_if_needed()
    assert player_page.locator("path.edge:not([data-state=hidden])").count() >= 3
    assert player_page.evaluate(EDGES_OUT_OF_FRAME) == []


# micrograd's nn.py classes as the MLP example writes them, one forward pass and backward.
ONE_PASS_MLP = (
    MLP_TRAINING[: MLP_TRAINING.index("random.seed(0)")]
    + "random.seed(1)\nmodel = MLP(3, [4, 4, 1])\nout = model([2.0, 3.0, -1.0])\nout.backward()\n"
)

# Each `+=` label that covers a name drawn over a record or a topo badge (by more than a
# pixel each way), in the view's own units.
LABELS_OVER_NAMES = """() => {
  const frame = document.querySelector('.graph-svg').getBoundingClientRect();
  const box = (element) => element.getBoundingClientRect();
  const shown = (element) => {
    const r = box(element);
    return r.width > 0 && r.right > frame.left && r.left < frame.right
      && r.bottom > frame.top && r.top < frame.bottom;
  };
  const labels = [...document.querySelectorAll('[data-testid=delta] rect')].filter(shown);
  const marks = [...document.querySelectorAll(
    '[data-testid=node] .node-name, [data-testid=node] [data-testid=topo-badge]')].filter(shown);
  const hits = [];
  for (const label of labels)
    for (const mark of marks) {
      const a = box(label), b = box(mark);
      const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (dx > 1 && dy > 1)
        hits.push(`${label.parentNode.textContent} covers ${mark.textContent}`);
    }
  return {labels: labels.length, hits};
}"""


@pytest.mark.parametrize("frame", [93, 125, 172])
def test_a_crowded_frames_labels_leave_the_names_over_records_readable(
    player_page: Page, server: str, frame: int
) -> None:
    # The `+=` labels were placed clear of records, ops and badges but not of the names
    # drawn over unlabelled values: `+= −0.1242 → −0.1242` hid `tanh(act)` (frame 125), and
    # where nothing else was clear a label covered its own value's name (frame 93).
    player_page.set_viewport_size(LAPTOP)
    open_player(player_page, player_url(server, ONE_PASS_MLP, frame=frame))
    player_page.get_by_test_id("graph-frame").scroll_into_view_if_needed()
    result = player_page.evaluate(LABELS_OVER_NAMES)
    assert result["labels"] >= 1
    assert result["hits"] == []


# Each topo badge shown that meets an op's shape (a circle, or a pill for tanh), in screen
# pixels: the badge sits on its record's top-left corner, just right of the record's op.
BADGES_ON_OPS = """() => {
  const shown = (element) => element.getBoundingClientRect().width > 0;
  const badges = [...document.querySelectorAll('[data-testid=topo-badge] rect')].filter(shown);
  const ops = [...document.querySelectorAll('.op .op-shape')].filter(shown);
  const hits = [];
  for (const badge of badges)
    for (const op of ops) {
      const a = badge.getBoundingClientRect(), b = op.getBoundingClientRect();
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
        hits.push(`${badge.parentNode.textContent} on ${op.parentNode.textContent}`);
    }
  return {badges: badges.length, hits};
}"""


def test_a_three_digit_topo_badge_keeps_clear_of_the_tanh_before_it(
    player_page: Page, server: str
) -> None:
    # An MLP's pass is laid out without the width of its `tanh` pills: each pill took the
    # room of a circle, and at the sort frame the badges `41`, `106`… sat on their tanh.
    player_page.set_viewport_size(LAPTOP)
    open_player(player_page, player_url(server, MLP_TRAINED_THREE_STEPS, frame=100))
    expect(player_page.get_by_test_id("narration")).to_contain_text("sort")
    result = player_page.evaluate(BADGES_ON_OPS)
    assert result["badges"] >= 100
    assert result["hits"] == []
