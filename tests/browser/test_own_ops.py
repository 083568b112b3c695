"""A real program's own Value class may give its nodes any `_op` (docs/TRACE.md): the page
looks such an op up in the trace's `ops` and the engine's rule sources as data, never as
an Object property, and shows no engine source for an op the engine does not have. The
code panel shows the program's own `_backward` (`nodes[].rule`) instead of the engine's."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from backprop_animator.engine import trace_source
from backprop_animator.engine.program_examples import OWN_ENGINE
from tests.browser.conftest import open_player, player_url
from tests.engine.test_gradient_names import GRAD_IN_WORDS
from tests.support.programs import own_value_program

pytestmark = pytest.mark.browser
# `BACKPROP_SCREENSHOTS=docs/screenshots pytest tests/browser/test_own_ops.py -k its_bug`
# refreshes docs/LAB.md's picture of a learner's own rule.
SCREENSHOTS = os.environ.get("BACKPROP_SCREENSHOTS")


@pytest.mark.parametrize("op", ["constructor", "__proto__", "backward"])
def test_an_op_named_like_an_object_property_or_an_engine_function_plays(
    player_page: Page, server: str, op: str
) -> None:
    # Frames: the one build, the sort, then the backward frame of the op node.
    open_player(player_page, player_url(server, own_value_program(repr(op)), frame=2))

    expect(player_page.get_by_test_id("error")).to_be_hidden()
    expect(player_page.get_by_test_id("node")).to_have_count(3)
    expect(player_page.get_by_test_id("narration")).to_contain_text("its own rule")
    code = player_page.get_by_test_id("code-panel")
    # The line of the program's own backward() that calls the rule, not the engine's loop.
    expect(code).to_contain_text("v._backward()")
    expect(code).not_to_contain_text("for node in reversed(topo)")
    # No engine method is shown as this op's rule: it is the program's own.
    expect(code).not_to_contain_text("engine/value.py")
    # The worked step quotes the learner's own write (SPEC §14), not a template.
    expect(code.get_by_test_id("substitution").first).to_contain_text(
        "self.grad += other.data * out.grad"
    )


def test_the_code_panel_shows_the_programs_own_rule_with_its_bug(
    player_page: Page, server: str
) -> None:
    # The article's second trap, made in the learner's own class: `=` where `+=` belongs.
    mistaken = "other.grad = 1.0 * out.grad"
    source = OWN_ENGINE.replace("other.grad += 1.0 * out.grad", mistaken, 1)
    line = source.split("\n").index(f"            {mistaken}") + 1
    # Frame 10 of 16: the backward step of `x1*w1 + x2*w2`, a `+` node.
    open_player(player_page, player_url(server, source, frame=9))
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text(f"Your program \u00b7 lines {line - 2}\u2013{line}")
    expect(code).not_to_contain_text("engine/value.py")
    marked = code.locator("[data-testid=code-line][data-marked]")
    expect(marked).to_have_count(3)  # the loop's line and the rule's two grad writes
    expect(marked.last).to_contain_text(mistaken)
    expect(marked.last).to_contain_text(str(line))
    if SCREENSHOTS:  # docs/LAB.md's picture of a learner's rule
        player_page.set_viewport_size({"width": 1280, "height": 1100})
        player_page.wait_for_timeout(500)
        player_page.screenshot(path=str(Path(SCREENSHOTS) / "own-engine-rule.png"))
        player_page.set_viewport_size({"width": 1280, "height": 900})

    # A build frame shows the same lines, nothing marked: the rule is stored, not run.
    player_page.get_by_test_id("scrubber").fill("2")
    expect(code).to_contain_text("stores its backward rule (not run yet)")
    expect(code).to_contain_text(mistaken)
    lines = code.locator("[data-testid=code-line][data-marked]")
    expect(lines.filter(has_text=mistaken)).to_have_count(0)


def test_the_sort_frame_shows_the_programs_own_backward(player_page: Page, server: str) -> None:
    # Frame 1 is the sort: the learner's backward() as written (SPEC §14), its seed and
    # its call of each rule marked, not the engine's backward and topological_order.
    source = own_value_program("'*'")
    lines = source.split("\n")
    first = lines.index("    def backward(self):") + 1
    call = lines.index("            v._backward()") + 1
    seed = lines.index("        self.grad = 1.0") + 1
    open_player(player_page, player_url(server, source, frame=1))
    code = player_page.get_by_test_id("code-panel")
    span = f"lines {first}\u2013{call}"
    expect(code).to_contain_text(f"Your program \u00b7 {span} (its own backward)")
    expect(code).not_to_contain_text("engine/value.py")
    marked = code.locator("[data-testid=code-line][data-marked]")
    expect(marked).to_have_count(2)
    expect(marked.first).to_have_text(re.compile(rf"^{seed}\s+self\.grad = 1\.0\s*$"))
    expect(marked.last).to_have_text(re.compile(rf"^{call}\s+v\._backward\(\)\s*$"))


# microgpt's shape: each node keeps its operands' local derivatives, and backward() adds
# each share in a loop of its own: a frame per node, no `_backward()` to show.
LOOP_ENGINE = """\
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._children:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1
        for v in reversed(topo):
            for child, local in zip(v._children, v._local_grads):
                child.grad += local * v.grad


a = Value(2.0)
b = Value(-3.0)
c = a * b
c.backward()
"""


def test_a_backward_frame_of_a_loop_that_writes_the_gradients_shows_no_rule_call(
    player_page: Page, server: str
) -> None:
    # Frames: c's build, the sort, then c's rule: the writes of the loop on c's operands.
    phases = [frame["phase"] for frame in trace_source(LOOP_ENGINE)["frames"]]
    assert phases == ["build", "sort", "backward"]
    open_player(player_page, player_url(server, LOOP_ENGINE, frame=2))
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text("Your backward() \u00b7 step 1 of 1: c (its loop writes")
    expect(code).to_contain_text("child.grad += local * v.grad")
    expect(code).not_to_contain_text("_backward()")


def test_a_value_the_passs_order_leaves_out_wears_no_topo_badge(
    player_page: Page, server: str
) -> None:
    # A rule under `rule` and a gradient under `backwards_grad`: the leaves' rules, which
    # do nothing, are no steps of the pass's order; each of them wore a badge reading 0.
    trace = trace_source(GRAD_IN_WORDS)
    topo = trace["passes"][-1]["topo"]
    open_player(player_page, player_url(server, GRAD_IN_WORDS, frame=len(trace["frames"]) - 1))
    badges = player_page.locator("[data-testid=node] [data-testid=topo-badge]")
    expect(badges).to_have_count(len(topo))
    expect(badges.filter(has_text=re.compile(r"^0$"))).to_have_count(0)
    for position, node in enumerate(topo, start=1):
        record = player_page.locator(f"[data-testid=node][data-node-id={node}]")
        expect(record.get_by_test_id("topo-badge")).to_have_text(str(position))
    # Its writes are the rule's (lines of `def rule()`, a rule's name now), called by
    # `n.rule()`: the note said backward()'s loop wrote them.
    first = next(i for i, f in enumerate(trace["frames"]) if f["phase"] == "backward")
    open_player(player_page, player_url(server, GRAD_IN_WORDS, frame=first))
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text("Your backward() \u00b7 step 1 of 6: e")
    expect(code).to_contain_text("other.backwards_grad += self.value * out.backwards_grad")
    expect(code).not_to_contain_text("its loop writes")
    # A leaf's step names the rule and the gradient as the class keeps them: it said
    # "its _backward does nothing. Its grad is final." of `self.rule = lambda: None`.
    player_page.get_by_test_id("scrubber").fill(str(len(trace["frames"]) - 1))
    expect(code).to_contain_text("a is a leaf: its rule does nothing. Its backwards_grad is final.")
    expect(code).not_to_contain_text("_backward")
