"""A real program's own Value class may give its nodes any `_op` (docs/TRACE.md): the page
looks such an op up in the trace's `ops` and the engine's rule sources as data, never as
an Object property, and shows no engine source for an op the engine does not have."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import open_player, player_url

pytestmark = pytest.mark.browser

OWN_CLASS = """\
class V:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __mul__(self, other):
        out = V(self.data * other.data, (self, other), 'OP')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a = V(2.0)
b = V(3.0)
c = a * b
c.backward()
"""


@pytest.mark.parametrize("op", ["constructor", "__proto__", "backward"])
def test_an_op_named_like_an_object_property_or_an_engine_function_plays(
    player_page: Page, server: str, op: str
) -> None:
    # Frames: the one build, the sort, then the backward frame of the op node.
    open_player(player_page, player_url(server, OWN_CLASS.replace("'OP'", repr(op)), frame=2))

    expect(player_page.get_by_test_id("error")).to_be_hidden()
    expect(player_page.get_by_test_id("node")).to_have_count(3)
    expect(player_page.get_by_test_id("narration")).to_contain_text("a rule of its own engine")
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text("node._backward()")
    # No engine method is shown as this op's rule: it is the program's own.
    expect(code).not_to_contain_text("engine/value.py")
    expect(code.get_by_test_id("substitution").first).to_contain_text("local")
