"""The graph's drawing as a learner reads it, measured: edges that stay in the view,
labels that do not run into the badges and records around them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import open_player, player_url

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}

# A two-layer MLP written as in micrograd's lecture, trained 3 steps.
TWO_LAYER_TRAINING = """\
import random
from micrograd.engine import Value


class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP:
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


random.seed(2)
n = MLP(2, [3, 1])
xs = [[2.0, 3.0], [3.0, -1.0], [0.5, 1.0], [1.0, 1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
for k in range(3):
    ypred = [n(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))
    for p in n.parameters():
        p.grad = 0.0
    loss.backward()
    for p in n.parameters():
        p.data += -0.1 * p.grad
"""

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
    open_player(player_page, player_url(server, TWO_LAYER_TRAINING, frame=0))
    player_page.get_by_test_id("graph-frame").scroll_into_view_if_needed()
    assert player_page.locator("path.edge:not([data-state=hidden])").count() >= 3
    assert player_page.evaluate(EDGES_OUT_OF_FRAME) == []
