"""Check your engine (SPEC §14): a program with its own `class Value` gets a panel that
says, for each op's rule, the sort and `+=`, whether the learner's engine agrees with a
right one, with a button to the first frame where it does not; the graph outlines each
node whose final gradient parts from the right engine's (`data-parted`), and the code
panel's worked substitution quotes the learner's own line. The expected verdicts and
frames are the engine's own `engine_check` for the same program."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from backprop_animator.engine import trace_source
from backprop_animator.engine.program_examples import (
    BUGGY_APPEND_FIRST,
    BUGGY_ASSIGN,
    BUGGY_DERIVATIVE,
    BUGGY_NO_SORT,
    OWN_ENGINE_FORK,
)
from tests.browser.conftest import open_player, player_url
from tests.browser.test_quiz import answer, go_to_next_question, quiz_url

pytestmark = pytest.mark.browser

# `BACKPROP_SCREENSHOTS=docs/screenshots pytest tests/browser/test_engine_check.py -k
# classic_bug` refreshes docs/LAB.md's pictures of the four bugs.
SCREENSHOTS = os.environ.get("BACKPROP_SCREENSHOTS")
BUGS = {
    "assign": BUGGY_ASSIGN,
    "append-first": BUGGY_APPEND_FIRST,
    "no-sort": BUGGY_NO_SORT,
    "derivative": BUGGY_DERIVATIVE,
}


def _parted(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """The nodes whose final gradient is not the right engine's (parted-marks.js's rule)."""
    return [
        node
        for node in trace["nodes"]
        if isinstance(node.get("correct_grad"), float | int)
        and abs(node["grad"] - node["correct_grad"]) > 1e-9 * max(1.0, abs(node["correct_grad"]))
    ]


def _expect_rows_match(page: Page, check: dict[str, Any]) -> None:
    """One row per op with the engine's verdict and line, and the sort and `+=` rows."""
    panel = page.get_by_test_id("engine-check")
    rows = panel.get_by_test_id("engine-check-row")
    expect(rows).to_have_count(len(check["rules"]))
    for i, rule in enumerate(check["rules"]):
        row = rows.nth(i)
        expect(row).to_have_attribute("data-op", rule["op"])
        expect(row).to_have_attribute("data-verdict", rule["verdict"])
        expect(row).to_have_attribute("data-line", str(rule["line"] or ""))
        first = row.get_by_test_id("engine-check-first")
        if rule["first"]:
            expect(first).to_have_attribute("data-frame", str(rule["first"]["frame"]))
        else:
            expect(first).to_have_count(0)
    for testid, part in (
        ("engine-check-sort", check["sort"]),
        ("engine-check-accumulation", check["accumulation"]),
    ):
        row = panel.get_by_test_id(testid)
        expect(row).to_have_attribute("data-verdict", part["verdict"])
        first = row.get_by_test_id("engine-check-first")
        if part["first"]:
            expect(first).to_have_attribute("data-frame", str(part["first"]["frame"]))
            expect(first).to_have_text(f"Show frame {part['first']['frame'] + 1}")
        else:
            expect(first).to_have_count(0)


@pytest.mark.parametrize("bug", BUGS)
def test_each_classic_bug_gets_the_engines_verdicts(
    player_page: Page, server: str, bug: str
) -> None:
    check = trace_source(BUGS[bug])["engine_check"]
    open_player(player_page, player_url(server, BUGS[bug]))

    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-verdict", "wrong")
    _expect_rows_match(player_page, check)
    # Every bug here is exactly one thing wrong: one button, and one wrong verdict.
    expect(panel.get_by_test_id("engine-check-first")).to_have_count(1)
    expect(panel.locator("[data-verdict=wrong]")).to_have_count(1)  # the one row, inside the panel
    if SCREENSHOTS:  # docs/LAB.md's pictures, at the frame the button opens
        panel.get_by_test_id("engine-check-first").click()
        for name, size in (("desktop", (1366, 900)), ("phone", (390, 844))):
            player_page.set_viewport_size({"width": size[0], "height": size[1]})
            player_page.wait_for_timeout(500)
            path = Path(SCREENSHOTS) / f"own-engine-{bug}-{name}.png"
            player_page.screenshot(path=str(path), full_page=True)


def test_show_frame_brings_the_graph_and_its_lost_share_back_into_view(
    player_page: Page, server: str
) -> None:
    # On a phone the panel is far below the graph: the button moved the player to the
    # frame whose mark says what was lost, and left that mark scrolled away.
    player_page.set_viewport_size({"width": 390, "height": 844})
    open_player(player_page, player_url(server, BUGGY_ASSIGN))
    graph = player_page.get_by_test_id("graph-frame")
    button = player_page.get_by_test_id("engine-check-first")
    button.scroll_into_view_if_needed()
    expect(graph).not_to_be_in_viewport()
    button.click()
    expect(player_page.get_by_test_id("narration")).to_contain_text("already there is lost")
    expect(graph).to_be_in_viewport()


def test_assign_bug_points_at_the_share_an_equals_throws_away(
    player_page: Page, server: str
) -> None:
    trace = trace_source(BUGGY_ASSIGN)
    check = trace["engine_check"]
    assert check["accumulation"]["verdict"] == "wrong"
    frame = check["accumulation"]["first"]["frame"]
    count = len(trace["frames"])
    open_player(player_page, player_url(server, BUGGY_ASSIGN))

    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-verdict", "wrong")
    _expect_rows_match(player_page, check)
    assert [rule["verdict"] for rule in check["rules"]] == ["right"] * 3  # only `+=` is wrong
    accumulation = panel.get_by_test_id("engine-check-accumulation")
    expect(accumulation).to_have_attribute("data-verdict", "wrong")
    expect(accumulation).to_contain_text("already there is lost")
    # The line of the learner's `=` that threw the share away: where to fix the engine.
    first = check["accumulation"]["first"]
    write = next(
        c
        for c in trace["frames"][first["frame"]]["contributions"]
        if c["to"] == first["child"] and c["write"] == "="
    )
    assert BUGGY_ASSIGN.split("\n")[write["line"] - 1].strip().endswith("= 1.0 * out.grad")
    expect(accumulation).to_contain_text(f"with = (line {write['line']}), and the")
    # The rows for the ops judge local derivatives only, and say so: the * and + rules
    # here are right on that, their `=` is the += row's.
    for row in panel.get_by_test_id("engine-check-row").all():
        expect(row).to_contain_text("right local derivatives on every use.")

    scrubber = player_page.get_by_test_id("scrubber")
    expect(scrubber).to_have_value("0")
    button = accumulation.get_by_test_id("engine-check-first")
    button.click()
    expect(scrubber).to_have_value(str(frame))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{frame + 1} / {count}")
    expect(player_page.get_by_test_id("narration")).to_contain_text("already there is lost")
    expect(button).to_have_attribute("aria-current", "true")

    # At the last frame the nodes whose gradient ends wrong are outlined, with the right value.
    parted = _parted(trace)
    assert parted, "BUGGY_ASSIGN should end with some gradient wrong"
    scrubber.fill(str(count - 1))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{count} / {count}")
    for node in trace["nodes"]:
        record = player_page.locator(f"[data-testid=node][data-node-id={node['id']}]")
        if node in parted:
            expect(record).to_have_attribute("data-parted", "true")
            expect(record).to_have_attribute("data-correct-grad", repr(node["correct_grad"]))
        else:
            expect(record).not_to_have_attribute("data-parted", "true")
    expect(player_page.get_by_test_id("parted-tag")).to_have_count(len(parted))
    expect(panel).to_contain_text(f"{len(parted)} gradients end wrong")


def test_derivative_bug_points_at_the_wrong_local_derivative_in_the_learners_line(
    player_page: Page, server: str
) -> None:
    trace = trace_source(BUGGY_DERIVATIVE)
    check = trace["engine_check"]
    tanh = next(rule for rule in check["rules"] if rule["op"] == "tanh")
    assert tanh["verdict"] == "wrong"
    frame = tanh["first"]["frame"]
    count = len(trace["frames"])
    open_player(player_page, player_url(server, BUGGY_DERIVATIVE))

    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_have_attribute("data-verdict", "wrong")
    _expect_rows_match(player_page, check)
    row = panel.locator("[data-testid=engine-check-row][data-op=tanh]")
    expect(row).to_have_attribute("data-verdict", "wrong")
    expect(row).to_contain_text("0.4375")  # what the learner's rule multiplied by
    expect(row).to_contain_text("the right local derivative is 0.5966")
    # The row's line is the rule's `def _backward():`; the wrong factor is in its write.
    lines = BUGGY_DERIVATIVE.splitlines()
    write = 1 + lines.index("            self.grad += (1 - self.data**2) * out.grad")
    assert tanh["line"] < write
    expect(row).to_contain_text(f"(line {tanh['line']})")
    expect(row).to_contain_text(f"local derivative on line {write};")
    for op in ("*", "+"):
        expect(panel.locator(f"[data-testid=engine-check-row][data-op='{op}']")).to_have_attribute(
            "data-verdict", "right"
        )

    row.get_by_test_id("engine-check-first").click()
    expect(player_page.get_by_test_id("scrubber")).to_have_value(str(frame))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{frame + 1} / {count}")
    expect(player_page.get_by_test_id("narration")).to_contain_text(
        "The right local derivative for e is 0.5966"
    )
    substitution = player_page.get_by_test_id("code-panel").get_by_test_id("substitution")
    expect(substitution).to_have_count(1)  # tanh has one child
    expect(substitution).to_contain_text("self.grad += (1 - self.data**2) * out.grad")
    expect(substitution).to_contain_text("0.4375")


def test_a_right_engine_is_right_everywhere_and_nothing_is_parted(
    player_page: Page, server: str
) -> None:
    trace = trace_source(OWN_ENGINE_FORK)
    assert _parted(trace) == []
    count = len(trace["frames"])
    open_player(player_page, player_url(server, OWN_ENGINE_FORK, frame=count - 1))

    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-verdict", "right")
    _expect_rows_match(player_page, trace["engine_check"])
    expect(panel.locator("[data-verdict=wrong]")).to_have_count(0)
    expect(panel.get_by_test_id("engine-check-first")).to_have_count(0)
    expect(panel).to_contain_text("every gradient is right")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{count} / {count}")
    expect(player_page.get_by_test_id("node")).to_have_count(len(trace["nodes"]))
    expect(player_page.locator("[data-testid=node][data-parted]")).to_have_count(0)
    expect(player_page.get_by_test_id("parted-tag")).to_have_count(0)


def test_a_program_without_its_own_value_class_has_no_engine_check(
    player_page: Page, server: str
) -> None:
    source = "x = 2.0\ny = x * x\n"
    assert trace_source(source).get("engine_check") is None
    open_player(player_page, player_url(server, source))

    expect(player_page.get_by_test_id("node")).to_have_count(2)
    expect(player_page.get_by_test_id("engine-check")).to_have_count(0)
    expect(player_page.locator(".player-engine-check")).to_be_hidden()
    expect(player_page.locator("[data-parted]")).to_have_count(0)


def test_an_embed_shows_the_check_too(player_page: Page, server: str) -> None:
    # Teachers embed the same player: a learner's engine is checked there as well.
    url = player_url(server, BUGGY_ASSIGN, frame=0, path="/embed")
    open_player(player_page, url)
    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-verdict", "wrong")
    expect(panel.get_by_test_id("engine-check-accumulation")).to_have_attribute(
        "data-verdict", "wrong"
    )


def test_the_quiz_on_a_learners_engine_asks_about_the_write_their_code_makes(
    player_page: Page, server: str
) -> None:
    trace = trace_source(BUGGY_ASSIGN)
    # The first `=` that loses a share: d's rule writes c.grad over what e's rule gave it.
    first = trace["engine_check"]["accumulation"]["first"]
    open_player(player_page, quiz_url(server, BUGGY_ASSIGN, frame=str(first["frame"])))
    go_to_next_question(player_page)
    prompt = player_page.get_by_test_id("quiz-prompt")
    expect(prompt).to_contain_text("after its =?")
    write = trace["frames"][first["frame"]]["contributions"][0]
    answer(player_page, str(write["after"]))
    feedback = player_page.get_by_test_id("quiz-feedback")
    expect(feedback).to_contain_text("Right")
    expect(feedback).to_contain_text("is lost")


def test_the_quiz_asks_about_the_gradient_by_the_learners_name(
    player_page: Page, server: str
) -> None:
    # The same engine keeping its gradient in `gradient`: the question, the answer's label
    # and the hint quote `c.gradient`, as the learner's code writes it.
    source = BUGGY_ASSIGN.replace(".grad", ".gradient")
    trace = trace_source(source)
    assert trace["engine_check"]["grad"] == "gradient"
    first = trace["engine_check"]["accumulation"]["first"]
    open_player(player_page, quiz_url(server, source, frame=str(first["frame"])))
    go_to_next_question(player_page)
    prompt = player_page.get_by_test_id("quiz-prompt")
    expect(prompt).to_contain_text(".gradient after its =?")
    expect(prompt).not_to_contain_text(re.compile(r"\.grad\b"))
    write = trace["frames"][first["frame"]]["contributions"][0]
    answer(player_page, str(write["after"]))
    feedback = player_page.get_by_test_id("quiz-feedback")
    expect(feedback).to_contain_text("Right")
    expect(feedback).to_contain_text(".gradient")


def test_rules_called_by_hand_show_the_call_and_are_checked(player_page: Page, server: str) -> None:
    # A lecture's first steps: no backward(), each rule called by hand (test_hand_pass.py).
    source = (
        OWN_ENGINE_FORK[: OWN_ENGINE_FORK.index("    def backward(self)")]
        + "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\nd = c + a\nd.grad = 1.0\n"
        + "d._backward()\nc._backward()\n"
    )
    trace = trace_source(source)
    last = len(trace["frames"]) - 1
    assert trace["frames"][last]["phase"] == "backward"
    open_player(player_page, player_url(server, source, frame=last))

    expect(player_page.get_by_test_id("engine-check")).to_have_attribute("data-verdict", "right")
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text("Your program")
    expect(code).to_contain_text("c._backward()")
    expect(code).not_to_contain_text("for node in reversed(topo)")
    # a's gradient: 1 from d's rule, then −3 more from c's.
    assert {n["name"]: n["grad"] for n in trace["nodes"]}["a"] == -2.0
    expect(player_page.locator("[data-testid=node][data-grad='-2']")).to_have_count(1)


# An engine that keeps (child, local derivative) pairs, and whose backward() adds each
# child's share in a loop of its own but forgets the upstream gradient (`local` alone,
# not `local * v.grad`): no write says whose share it is, so no rule is checked.
PAIRS_ENGINE = """\
class Value:
    def __init__(self, data, parents=()):
        self.data = data
        self.grad = 0.0
        self.parents = parents

    def __mul__(self, other):
        return Value(self.data * other.data, ((self, other.data), (other, self.data)))

    def __add__(self, other):
        return Value(self.data + other.data, ((self, 1.0), (other, 1.0)))

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for child, _ in v.parents:
                    visit(child)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            for child, local in v.parents:
                child.grad += local


a = Value(2.0)
b = Value(-3.0)
c = (a * b + a) * b
c.backward()
"""


def test_an_engine_whose_loop_over_pairs_forgets_the_upstream_names_the_op_it_shows(
    player_page: Page, server: str
) -> None:
    # The loop over each node's (child, local) pairs is that node's rule (bugs19): its
    # `child.grad += local` forgets the upstream gradient, so `+`, whose upstream is −3,
    # is named wrong at its frame; `*` ran where its upstream was 1, where the factor
    # forgotten changes nothing, and is right there. (Every row was "unchecked" and the
    # sort called wrong before: no row per node was seen.)
    trace = trace_source(PAIRS_ENGINE)
    check = trace["engine_check"]
    assert {rule["op"]: rule["verdict"] for rule in check["rules"]} == {
        "*": "right",
        "+": "wrong",
    }
    assert check["sort"]["verdict"] == "right"
    parted = len(_parted(trace))
    assert parted > 0
    open_player(player_page, player_url(server, PAIRS_ENGINE))

    panel = player_page.get_by_test_id("engine-check")
    _expect_rows_match(player_page, check)
    expect(panel).not_to_contain_text("Every rule, the sort and += agree")
    expect(panel).not_to_contain_text("no order of rules to judge")
    # Its rule is the loop's body (it said "Creates a*b = −6." with no rule, when no
    # rule per node was seen): the build frame shows that line, not the engine's.
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text("Creates a*b = \u22126 and stores its backward rule")
    expect(code).to_contain_text("child.grad += local")
    expect(code).not_to_contain_text("engine/value.py")
    # The + node's frame says the share it gave lost the upstream gradient.
    plus = next(
        k
        for k, frame in enumerate(trace["frames"])
        if frame["phase"] == "backward" and "not multiplied by the upstream" in frame["text"]
    )
    player_page.get_by_test_id("scrubber").fill(str(plus))
    expect(player_page.get_by_test_id("narration")).to_contain_text(
        "not multiplied by the upstream gradient"
    )
    expect(code).to_contain_text("child.grad += local")
    expect(code).not_to_contain_text("engine/value.py")
    # At the end, the gradients that part from a right engine's are outlined.
    player_page.get_by_test_id("scrubber").fill(str(len(trace["frames"]) - 1))
    expect(player_page.locator("[data-testid=node][data-parted]")).to_have_count(parted)


# A training loop on the learner's own class: one weight `w` reached by every pass, its
# gradient emptied by the program after each step (`w.grad = 0.0`, as microgpt's loop does).
_CLASS = OWN_ENGINE_FORK[: OWN_ENGINE_FORK.index("a = Value(")]
_LOOP = """w = Value(0.5, label='w')
for step in range(3):
    x = Value(2.0, label='x')
    y = w * x + w; y.label = 'y'
    loss = y.tanh(); loss.label = 'loss'
    loss.backward()
    w.data -= 0.1 * w.grad
    w.grad = 0.0
"""


def _backward_ends(trace: dict[str, Any]) -> list[int]:
    frames = trace["frames"]
    return [
        k
        for k, frame in enumerate(frames)
        if frame["phase"] == "backward"
        and (k + 1 == len(frames) or frames[k + 1]["phase"] != "backward")
    ]


def test_a_right_engine_whose_loop_empties_its_gradients_is_right(
    player_page: Page, server: str
) -> None:
    # The right engine's gradient of `w` is its last pass's: the earlier passes' w.grad
    # are not compared with it, and `w.grad = 0.0` after the last step is the program's
    # own write, not a wrong gradient (the panel said "yet 1 gradient differs").
    source = _CLASS + _LOOP
    trace = trace_source(source)
    count = len(trace["frames"])
    assert len(trace["passes"]) == 3 and trace["frames"][-1]["phase"] == "update"
    open_player(player_page, player_url(server, source, frame=count - 1))

    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_have_attribute("data-verdict", "right")
    expect(panel).to_contain_text("every gradient is right")
    expect(panel).not_to_contain_text("differ")
    scrubber = player_page.get_by_test_id("scrubber")
    for frame in [*_backward_ends(trace), count - 1]:
        scrubber.fill(str(frame))
        expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{frame + 1} / {count}")
        expect(player_page.locator("[data-testid=node][data-parted]")).to_have_count(0)


def test_a_right_engine_in_a_loop_without_zero_grad_is_right_and_says_what_piles_up(
    player_page: Page, server: str
) -> None:
    # A course's exercise handed in without zero_grad: the engine is right (a right one
    # adds onto the carried gradients too), and the panel says where they pile up rather
    # than only "every gradient is right", which read as if the program had no bug.
    source = _CLASS + _LOOP.replace("    w.grad = 0.0\n", "")
    open_player(player_page, player_url(server, source))
    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_have_attribute("data-verdict", "right")
    expect(panel).to_contain_text("every gradient is right")
    expect(panel).to_contain_text("Pass 2 starts from the gradients pass 1 left")
    expect(panel).to_contain_text("that is a zero_grad() the program needs")
    # A class that names it otherwise (DeZero's `cleargrad`) is told its own name.
    dezero = _CLASS.rstrip() + "\n\n    def cleargrad(self):\n        self.grad = 0.0\n\n"
    open_player(player_page, player_url(server, dezero + _LOOP.replace("    w.grad = 0.0\n", "")))
    expect(panel).to_contain_text("that is a cleargrad() the program needs before backward().")

    # With it, nothing to say.
    open_player(player_page, player_url(server, _CLASS + _LOOP))
    expect(panel).to_contain_text("every gradient is right")
    expect(panel).not_to_contain_text("starts from the gradients")


def test_a_wrong_gradient_stays_outlined_after_the_loop_empties_it(
    player_page: Page, server: str
) -> None:
    # `=` in the * rule: w*x's rule overwrites the share `+` gave w. At the last frame the
    # program has set w.grad = 0.0; w is still outlined with what the engine computed.
    source = (_CLASS + _LOOP).replace(
        "self.grad += other.data * out.grad", "self.grad = other.data * out.grad"
    )
    trace = trace_source(source)
    count = len(trace["frames"])
    w = next(node["id"] for node in trace["nodes"] if node["label"] == "w")
    open_player(player_page, player_url(server, source, frame=count - 1))

    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_have_attribute("data-verdict", "wrong")
    expect(panel).to_contain_text("1 gradient ends wrong")
    parted = player_page.locator("[data-testid=node][data-parted]")
    expect(parted).to_have_count(1)
    expect(parted).to_have_attribute("data-node-id", w)
    # The end of the first pass: its w.grad is not compared with the last pass's.
    player_page.get_by_test_id("scrubber").fill(str(_backward_ends(trace)[0]))
    expect(parted).to_have_count(0)


def test_the_equals_row_names_the_write_that_found_a_share_there(
    player_page: Page, server: str
) -> None:
    # `a * a` with both writes `=`: the first finds a.grad empty, the second (line of
    # `other.grad = …`) throws away the 3 the first left. The row names the second.
    source = (
        (_CLASS + "a = Value(3.0, label='a')\nb = a * a; b.label = 'b'\nb.backward()\n")
        .replace("self.grad += other.data * out.grad", "self.grad = other.data * out.grad")
        .replace("other.grad += self.data * out.grad", "other.grad = self.data * out.grad")
    )
    line = source.split("\n").index("            other.grad = self.data * out.grad") + 1
    check = trace_source(source)["engine_check"]
    assert check["accumulation"]["first"]["lost"] == 3.0
    open_player(player_page, player_url(server, source))

    accumulation = player_page.get_by_test_id("engine-check-accumulation")
    expect(accumulation).to_contain_text(
        f"b's rule writes a.grad with = (line {line}), and the 3 already there is lost."
    )


def test_the_rows_quote_the_learners_name_for_the_gradient(player_page: Page, server: str) -> None:
    # The class keeps its gradient in `gradient`: the `=` row quotes `a.gradient`, as the
    # learner's line writes it (the trace's `engine_check.grad`), never `a.grad`.
    source = (
        (_CLASS + "a = Value(3.0, label='a')\nb = a * a; b.label = 'b'\nb.backward()\n")
        .replace("self.grad += other.data * out.grad", "self.grad = other.data * out.grad")
        .replace("other.grad += self.data * out.grad", "other.grad = self.data * out.grad")
        .replace(".grad", ".gradient")
    )
    line = source.split("\n").index("            other.gradient = self.data * out.gradient") + 1
    check = trace_source(source)["engine_check"]
    assert check["grad"] == "gradient" and check["accumulation"]["first"]["lost"] == 3.0
    open_player(player_page, player_url(server, source))

    accumulation = player_page.get_by_test_id("engine-check-accumulation")
    expect(accumulation).to_contain_text(
        f"b's rule writes a.gradient with = (line {line}), and the 3 already there is lost."
    )
    # At that frame the code panel marks the rule's two writes and says where each left
    # a's gradient, by the learner's name.
    accumulation.get_by_test_id("engine-check-first").click()
    code = player_page.get_by_test_id("code-panel")
    for write in ("self.gradient = other.data", "other.gradient = self.data"):
        expect(code.locator(".code-line.is-marked", has_text=write)).to_have_count(1)
    expect(code.locator(".code-line", has_text="def _backward")).to_have_count(1)
    expect(code.locator(".code-line.is-marked", has_text="def _backward")).to_have_count(0)
    substitution = code.get_by_test_id("substitution")
    expect(substitution.nth(1)).to_contain_text("\u2192 a.gradient = 3, overwriting 3")


REAL_CODE = Path(__file__).resolve().parents[1] / "engine" / "real_code"


@pytest.mark.parametrize(
    ("program", "ending"),
    [
        ("recursive_backward", "5 gradients end different from a right engine's"),
    ],
)
def test_the_summary_counts_the_gradients_the_graph_outlines(
    player_page: Page, server: str, program: str, ending: str
) -> None:
    # An engine whose backward() writes the gradients itself (a recursion): the summary
    # says the rules could not be judged one by one, and its count of the gradients that
    # end wrong is the number of nodes the graph outlines at the end (it said "0 gradients
    # end wrong" beside three outlined nodes, or 5 beside none).
    source = (REAL_CODE / f"{program}.py").read_text()
    trace = trace_source(source)
    parted = [node["id"] for node in _parted(trace)]
    assert len(parted) == (5 if program == "recursive_backward" else 0)
    open_player(player_page, player_url(server, source, frame=len(trace["frames"]) - 1))

    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_have_attribute("data-verdict", "right")  # no row says wrong
    expect(panel).to_contain_text("backward() writes the gradients itself")
    expect(panel).to_contain_text(f"Judged as they end, {ending}")
    outlined = player_page.locator("[data-testid=node][data-parted]")
    expect(outlined).to_have_count(len(parted))
    assert sorted(outlined.evaluate_all("els => els.map(e => e.dataset.nodeId)")) == sorted(parted)
    for rule in trace["engine_check"]["rules"]:
        assert rule["verdict"] == "unchecked"
    expect(panel.get_by_test_id("engine-check-row").first).to_contain_text(
        "No rule of this op writes a gradient"
    )


def test_a_loop_writing_each_grad_fns_answer_is_judged_rule_by_rule(
    player_page: Page, server: str
) -> None:
    # An engine whose backward() loop writes `p.grad = g` with what each `_grad_fn`
    # returned, into a grad that starts as None: each of its rules is judged as its writes
    # say (it was all "unchecked", "backward() writes the gradients itself"), all right here,
    # and no node outlined.
    source = (REAL_CODE / "grad_none_engine.py").read_text()
    trace = trace_source(source)
    assert {rule["verdict"] for rule in trace["engine_check"]["rules"]} == {"right"}
    assert not _parted(trace)
    open_player(player_page, player_url(server, source, frame=len(trace["frames"]) - 1))
    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_have_attribute("data-verdict", "right")
    expect(panel).to_contain_text("Your engine agrees with a right one on this program")
    expect(panel).not_to_contain_text("backward() writes the gradients itself")
    expect(player_page.locator("[data-testid=node][data-parted]")).to_have_count(0)


def test_a_gradient_that_ends_wrong_is_not_marked_with_a_check(
    player_page: Page, server: str
) -> None:
    # A final gradient's caption reads "grad ✓"; beside a "≠ right engine" tag that check
    # read as "right". A parted record's caption is "grad ✗", and the table of values (the
    # graph's accessible twin) says ✗ with the right engine's value, in text.
    trace = trace_source(BUGGY_ASSIGN)
    parted = {node["id"]: node for node in _parted(trace)}
    names = {node["id"]: node["name"] for node in trace["nodes"]}
    count = len(trace["frames"])
    open_player(player_page, player_url(server, BUGGY_ASSIGN, frame=count - 1))
    expect(player_page.get_by_test_id("parted-tag")).to_have_count(len(parted))

    for node in trace["nodes"]:
        record = player_page.locator(f"[data-testid=node][data-node-id={node['id']}]")
        caption = record.locator(".node-caption-grad")
        expect(record).to_have_attribute("data-final", "")
        expect(caption).to_have_text("grad \u2717" if node["id"] in parted else "grad \u2713")

    player_page.get_by_test_id("node-table").locator("summary").click()
    table = player_page.get_by_test_id("node-table")
    expect(table.locator("caption")).to_contain_text("\u2717 a final gradient that is not")
    for node_id, node in parted.items():
        row = table.locator("tbody tr", has=player_page.locator(f"th:text-is('{names[node_id]}')"))
        grad = row.locator("td").last
        expect(grad).not_to_contain_text("\u2713")
        expect(grad).to_contain_text("\u2717")
        expect(grad).to_have_attribute("title", re.compile(r"^right engine: \S+$"))
        right = (grad.get_attribute("title") or "").removeprefix("right engine: ")
        assert abs(float(right.replace("\u2212", "-")) - node["correct_grad"]) < 1e-3
        expect(grad.locator(".visually-hidden")).to_have_text(f" (right engine: {right})")

    # Back at the start nothing is final or parted: the captions are plain again.
    player_page.get_by_test_id("scrubber").fill("0")
    for node_id in parted:
        record = player_page.locator(f"[data-node-id={node_id}]")
        expect(record.locator(".node-caption-grad")).to_have_text("grad")


@pytest.mark.parametrize("bug", ["derivative", "assign"])
def test_check_your_engine_hides_what_the_quiz_asks_until_it_is_answered(
    player_page: Page, server: str, bug: str
) -> None:
    # The tanh row quoted 0.4375, the learner's local derivative, which with an upstream
    # of 1 is the answer to "What is e.grad after its +=?"; the += row quoted the share an
    # `=` threw away, which is the answer to the question at the frame before. While a
    # question at or before a row's frame waits, its numbers read "?" and a sentence says
    # why; they come back once it is answered.
    trace = trace_source(BUGS[bug])
    check = trace["engine_check"]
    row_testid, first = (
        (
            "engine-check-row",
            next(r["first"] for r in check["rules"] if r["op"] == "tanh"),
        )
        if bug == "derivative"
        else ("engine-check-accumulation", check["accumulation"]["first"])
    )
    hidden = [first["learner"], first["correct"]] if bug == "derivative" else [first["lost"]]
    asked = [
        c["after"]
        for frame in trace["frames"][: first["frame"] + 1]
        if frame["phase"] == "backward"
        for c in frame["contributions"]
    ]
    assert any(abs(a - h) < 1e-9 for a in asked for h in hidden), "the check gives an answer"
    open_player(player_page, quiz_url(server, BUGS[bug]))
    panel = player_page.get_by_test_id("engine-check")
    row = panel.get_by_test_id(row_testid).filter(
        has=player_page.get_by_test_id("engine-check-number")
    )
    numbers = row.get_by_test_id("engine-check-number")
    note = row.get_by_test_id("engine-check-masked")

    # Every question up to the row's frame: its numbers stay hidden while one waits.
    for shown, _ in enumerate(asked, start=1):
        go_to_next_question(player_page)
        expect(panel.get_by_test_id(row_testid).first).to_be_visible()
        text = panel.inner_text()
        assert not any(f"{abs(value):.4f}".rstrip("0") in text for value in hidden), (
            f"the check shows {hidden} while the quiz asks: {text}"
        )
        expect(numbers).to_have_count(len(hidden))
        for k in range(len(hidden)):
            expect(numbers.nth(k)).to_have_text("?")
            expect(numbers.nth(k)).to_have_attribute("data-masked", "")
        expect(note).to_be_visible()
        expect(note).to_contain_text(f"until you answer the quiz up to frame {first['frame'] + 1}")
        player_page.get_by_test_id("quiz-reveal").click()
        expect(player_page.get_by_test_id("quiz-score")).to_have_text(f"0 / {shown}")

    for k in range(len(hidden)):
        expect(numbers.nth(k)).not_to_have_text("?")
        expect(numbers.nth(k)).not_to_have_attribute("data-masked", "")
    expect(note).to_be_hidden()
    expect(row).to_contain_text(f"{abs(hidden[0]):.4f}")


def test_sort_step_by_step_on_a_programs_own_class_says_what_its_steps_are(
    player_page: Page, server: str
) -> None:
    # Its own backward() sorts: the steps are those of the depth-first walk that makes
    # its sort's order, which a note beside the box says (it was disabled before).
    traced = trace_source(BUGGY_ASSIGN, sort_steps=True)
    calls = [k for k, f in enumerate(traced["frames"]) if f.get("step") == "visit"]
    assert calls
    open_player(player_page, player_url(server, BUGGY_ASSIGN) + "&sort_steps=1")
    toggle = player_page.get_by_test_id("sort-steps-toggle")
    note = player_page.get_by_test_id("sort-steps-note")
    expect(toggle).to_be_enabled()
    expect(toggle).to_be_checked()
    expect(note).to_be_visible()
    expect(note).to_contain_text("depth-first walk that makes its order")
    expect(toggle).to_have_attribute("aria-describedby", note.get_attribute("id") or "?")
    expect(toggle).to_have_accessible_description(re.compile("Your own backward\\(\\) sorts"))
    player_page.get_by_test_id("scrubber").fill(str(calls[0]))
    expect(player_page.get_by_test_id("sort-steps")).to_be_visible()
    expect(player_page.get_by_test_id("code-panel")).to_contain_text("def build(v)")

    # A program on the built-in engine: no note.
    plain = "a = Value(2.0)\nb = a * a\nb.backward()\n"
    sort = [f["phase"] for f in trace_source(plain, sort_steps=True)["frames"]].index("sort")
    player_page.get_by_test_id("source").fill(plain)
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("engine-check")).to_have_count(0)
    expect(toggle).to_be_enabled()
    expect(toggle).to_be_checked()
    expect(note).to_be_hidden()
    expect(toggle).not_to_have_attribute("aria-describedby", re.compile("."))
    player_page.get_by_test_id("scrubber").fill(str(sort))
    expect(player_page.get_by_test_id("sort-steps")).to_be_visible()

    # A program of its own class that calls no backward() (the chain rule by hand): the
    # note said "Your own backward() sorts here" of a backward() it does not have.
    player_page.get_by_test_id("source").fill(BY_HAND_CHAIN)
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("engine-check")).to_be_visible()
    expect(note).to_be_visible()
    expect(note).to_have_text(re.compile(r"^Your program calls no backward\(\) of its own"))
    expect(toggle).not_to_have_accessible_description(re.compile("sorts here"))


BY_HAND_CHAIN = """\
class Value:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0.0
        self._prev = set(_children)
    def __mul__(self, other):
        return Value(self.data * other.data, (self, other))
a = Value(2.0); b = Value(-3.0)
c = a * b
c.grad = 1.0
a.grad = b.data * c.grad
b.grad = a.data * c.grad
print(a.grad, b.grad)
"""


def test_the_bug_lab_offers_no_mistake_a_programs_own_class_cannot_make(
    player_page: Page, server: str
) -> None:
    # The mistakes change the built-in engine's rules and sort; a program with its own
    # class runs its own. Choosing one was refused with "the one in the editor has an
    # error" over a program that had none: the choices are shut, and say why.
    open_player(player_page, player_url(server, BUGGY_ASSIGN))
    mistakes = player_page.locator("[data-testid=mistake] optgroup option")
    expect(mistakes.first).to_be_disabled()
    assert all(mistakes.nth(i).is_disabled() for i in range(mistakes.count()))
    expect(player_page.get_by_test_id("mistake")).to_have_accessible_description(
        re.compile("your class runs its own rules", re.IGNORECASE)
    )

    # A program on the built-in engine: every mistake again.
    player_page.get_by_test_id("source").fill("a = Value(2.0)\nb = a * a\nb.backward()\n")
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("engine-check")).to_have_count(0)
    expect(mistakes.first).to_be_enabled()
    player_page.get_by_test_id("mistake").select_option("assign")
    expect(player_page.get_by_test_id("error")).to_be_hidden()
    expect(player_page).to_have_url(re.compile("mistake=assign"))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(re.compile(r"^1 / "))


_OVERLAPS = """() => {
  const box = (e) => { const b = e.getBoundingClientRect();
    const of = e.closest('[data-node-id]')?.dataset.nodeId ?? '?';
    return {what: `${e.closest('[class]')?.getAttribute('class')} of ${of}`,
            x: b.left, y: b.top, r: b.right, b: b.bottom}; };
  const tags = [...document.querySelectorAll('[data-testid=parted-tag] rect')].map(box);
  const others = [...document.querySelectorAll(
    ['.node-box', '.topo-badge', '.node-name'].map((part) => `[data-testid=node] ${part}`)
      .concat(['.op .op-shape', '[data-testid=delta] rect']).join(', ')
  )].map(box);
  const hit = (p, q) => p.x < q.r - 0.5 && q.x < p.r - 0.5 && p.y < q.b - 0.5 && q.y < p.b - 0.5;
  const found = [];
  tags.forEach((t, i) => {
    for (const o of others) if (hit(t, o)) found.push(`${t.what} covers ${o.what}`);
    tags.forEach((u, j) => { if (j > i && hit(t, u)) found.push(`${t.what} covers ${u.what}`); });
  });
  return found;
}"""


@pytest.mark.parametrize("bug", ["append-first", "derivative"])
def test_the_right_engine_tags_cover_no_record_op_label_or_other_tag(
    player_page: Page, server: str, bug: str
) -> None:
    # With the sort appending first, d's tag (wider than d's record) ran into the × of e
    # beside it, and b's hid the `+= 0 → 0` label above b at frame 8; a tag goes above its
    # record, else flush right, else below, whichever is clear.
    trace = trace_source(BUGS[bug])
    parted = _parted(trace)
    count = len(trace["frames"])
    open_player(player_page, player_url(server, BUGS[bug], frame=count - 1))
    tags = player_page.get_by_test_id("parted-tag")
    expect(tags).to_have_count(len(parted))
    assert player_page.evaluate(_OVERLAPS) == []
    # Nor, at any frame, the `+=` labels drawn beside the records.
    scrubber = player_page.get_by_test_id("scrubber")
    for frame in range(count):
        scrubber.fill(str(frame))
        expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{frame + 1} / {count}")
        assert player_page.evaluate(_OVERLAPS) == [], frame
    scrubber.fill(str(count - 1))
    for node in parted:
        expect(
            player_page.locator(f"[data-testid=parted-tag][data-node-id={node['id']}]")
        ).to_have_count(1)
    # Each tag stays beside its own record: touching its column, just above or below it.
    for node in parted:
        tag = player_page.locator(f"[data-testid=parted-tag][data-node-id={node['id']}] rect")
        record = player_page.locator(f"[data-testid=node][data-node-id={node['id']}] .node-box")
        t, r = tag.bounding_box(), record.bounding_box()
        assert t and r
        assert t["x"] < r["x"] + r["width"] and r["x"] < t["x"] + t["width"]
        gap = max(r["y"] - (t["y"] + t["height"]), t["y"] - (r["y"] + r["height"]))
        assert 0 <= gap <= 4, (node["name"], t, r)


LEARNER_BUGS = Path(__file__).resolve().parents[1] / "engine" / "learner_bugs"


def test_rules_left_on_a_tape_from_an_earlier_pass_are_named_in_the_sort_row(
    player_page: Page, server: str
) -> None:
    # tape_never_cleared: the second backward() runs the first step's rules too. Every
    # row said "right" while w.grad ended 28 where a right engine has 4: the sort row now
    # names the first of those rules, and its button lands on that rule's frame.
    source = (LEARNER_BUGS / "tape_never_cleared.py").read_text()
    trace = trace_source(source)
    check = trace["engine_check"]
    frame, count = check["sort"]["first"]["frame"], len(trace["frames"])
    open_player(player_page, player_url(server, source))
    _expect_rows_match(player_page, check)
    sort = player_page.get_by_test_id("engine-check-sort")
    expect(sort).to_contain_text(
        "Pass 2 also runs the rule (line 26) of pass 1's loss, left over (nothing cleared the "
        "list of rules): pass 2's output does not reach it, so a right engine does not run "
        "it, and what it adds is extra."
    )
    sort.get_by_test_id("engine-check-first").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text(f"{frame + 1} / {count}")
    expect(player_page.get_by_test_id("narration")).to_contain_text(
        "This loss is pass 1's node, which pass 2's loss does not reach"
    )


def test_a_loop_on_one_line_is_quoted_by_its_write(player_page: Page, server: str) -> None:
    # grad_fn_one_line_loop: `for p, g in zip(…): p.grad += g` on one line. The code
    # panel's row quoted the whole line with its numbers after it ("…: p.grad += g =
    # 0.7864"); it quotes the write.
    source = (LEARNER_BUGS / "grad_fn_one_line_loop.py").read_text()
    trace = trace_source(source)
    frame = next(
        i for i, f in enumerate(trace["frames"]) if f["phase"] == "backward" and f["contributions"]
    )
    open_player(player_page, player_url(server, source, frame=frame))
    substitution = player_page.get_by_test_id("code-panel").get_by_test_id("substitution")
    expect(substitution).to_have_count(1)
    expect(substitution.locator(".symbolic")).to_have_text("p.grad += g")
    expect(substitution.locator(".numeric")).to_have_text("= 0.7864")
    expect(player_page.get_by_test_id("narration")).to_contain_text(
        "the loop on line 39 adds the shares its rule returned"
    )


def test_the_loops_frame_marks_the_loops_write_and_the_row_shows_it(
    player_page: Page, server: str
) -> None:
    # rules_return_grads: `for child, g in zip(v._prev, v.grad_fn(v.grad)):` then
    # `child.grad += g`. At the loop's frame the excerpt of backward() marked the `for`
    # line (the one that called grad_fn), and the `*` row's button showed the call's
    # frame, which writes nothing.
    source = (LEARNER_BUGS / "rules_return_grads.py").read_text()
    trace = trace_source(source)
    write = source.split("\n").index("                    child.grad += g") + 1
    row = next(r for r in trace["engine_check"]["rules"] if r["op"] == "*")
    frame = row["first"]["frame"]
    assert [c["line"] for c in trace["frames"][frame]["contributions"]] == [write, write]
    open_player(player_page, player_url(server, source))
    player_page.locator("[data-testid=engine-check-row][data-op='*']").get_by_test_id(
        "engine-check-first"
    ).click()
    expect(player_page.get_by_test_id("scrubber")).to_have_value(str(frame))
    excerpt = player_page.get_by_test_id("code-panel").locator("figure").first
    expect(excerpt.locator(".code-line.is-marked")).to_have_count(1)
    expect(excerpt.locator(".code-line.is-marked")).to_contain_text(f"{write}")
    expect(excerpt.locator(".code-line.is-marked")).to_contain_text("child.grad += g")
    substitution = player_page.get_by_test_id("code-panel").get_by_test_id("substitution")
    expect(substitution).to_have_count(2)
    expect(substitution.first).to_contain_text("child.grad += g")


@pytest.mark.parametrize(
    ("program", "words"),
    [
        # `_children=[]` appended to: a is among its own operands. The row said "a's rule
        # runs before a's has added to a.grad".
        (
            "mutable_default_children",
            "a is among its own operands: the graph has a loop, so no order runs every rule "
            "after those of its node's consumers.",
        ),
        # `reversed(order[:-1])`: the row said x*w+b's rule "runs before y's has added".
        ("loop_skips_output_rule", "y's rule never runs."),
    ],
)
def test_the_sort_row_says_a_loop_and_an_output_never_run(
    player_page: Page, server: str, program: str, words: str
) -> None:
    source = (LEARNER_BUGS / f"{program}.py").read_text()
    check = trace_source(source)["engine_check"]
    open_player(player_page, player_url(server, source))
    _expect_rows_match(player_page, check)
    sort = player_page.get_by_test_id("engine-check-sort")
    expect(sort).to_contain_text(words)
    expect(sort).not_to_contain_text("has added to")


_ENGINE_HEAD = """class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op
        self.label = label

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

"""
_SQUARE_WRONG = (
    _ENGINE_HEAD
    + """    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += 2 * self.data * out.grad
        out._backward = _backward
        return out


a = Value(3.0, label='a')
c = a * a
c.backward()
"""
)
_POWER_NOT_COMPUTED = (
    _ENGINE_HEAD
    + """    def __pow__(self, k):
        out = Value(self.data * k, (self,), f'pow {k}')

        def _backward():
            self.grad += k * out.grad
        out._backward = _backward
        return out


a = Value(3.0, label='a')
c = a ** 2
c.backward()
"""
)


def test_a_wrong_factor_of_a_value_used_twice_names_both_writes(
    player_page: Page, server: str
) -> None:
    # `a * a`: the rule's local derivative for a is what both its writes add (9, where
    # 6 is right); the row named the first write's line, whose factor is right.
    rule = trace_source(_SQUARE_WRONG)["engine_check"]["rules"][0]
    assert (rule["op"], rule["verdict"], rule["first"]["learner"]) == ("*", "wrong", 9.0)
    lines = _SQUARE_WRONG.splitlines()
    first = 1 + lines.index("            self.grad += other.data * out.grad")
    open_player(player_page, player_url(server, _SQUARE_WRONG))
    row = player_page.get_by_test_id("engine-check").locator("[data-testid=engine-check-row]")
    expect(row).to_contain_text(f"as a's local derivative on lines {first} and {first + 1};")


def test_an_unchecked_worded_power_whose_rules_wrote_is_not_said_to_be_backwards_own(
    player_page: Page, server: str
) -> None:
    # `f'pow {k}'` over a forward that multiplies: its row `pow` is unchecked, and its
    # rules wrote; the panel looked them up as `pow 2` and said backward() wrote them.
    check = trace_source(_POWER_NOT_COMPUTED)["engine_check"]
    assert [(rule["op"], rule["verdict"]) for rule in check["rules"]] == [("pow", "unchecked")]
    open_player(player_page, player_url(server, _POWER_NOT_COMPUTED))
    panel = player_page.get_by_test_id("engine-check")
    row = panel.locator("[data-testid=engine-check-row][data-op=pow]")
    expect(row).to_contain_text("No right derivative is known for this op here")
    expect(panel).not_to_contain_text("backward() writes")


LEARNER_BUGS = Path(__file__).parents[1] / "engine" / "learner_bugs"


@pytest.mark.parametrize(
    ("name", "wrong", "unchecked"),
    [("rule_on_self", "*", None), ("rule_on_other", "+", "*")],
)
def test_a_rule_set_on_another_node_is_said_on_its_ops_row_and_the_replaced_ones(
    player_page: Page, server: str, name: str, wrong: str, unchecked: str | None
) -> None:
    # `self._backward = _backward` in `__mul__` (or `other._backward` in `__add__`): the
    # op whose method did it is wrong, at that line, saying where the rule went; the op
    # whose node's rule it replaced never ran its own (`replacedRows`), and says so rather
    # than "No right derivative is known", and after its verdict as a sentence of its own
    # (it read "not checked: p's own rule never ran: …").
    source = (LEARNER_BUGS / f"{name}.py").read_text(encoding="utf-8")
    check = trace_source(source)["engine_check"]
    open_player(player_page, player_url(server, source))
    _expect_rows_match(player_page, check)
    rows = player_page.get_by_test_id("engine-check-row")
    row = rows.and_(player_page.locator(f"[data-op='{wrong}']"))
    expect(row).to_contain_text(re.compile(r"The rule of \S+ is set on \S+, its operand"))
    if unchecked is not None:
        other = rows.and_(player_page.locator(f"[data-op='{unchecked}']"))
        expect(other).to_contain_text(f"not checked. The {wrong} op's method set its rule on")
        expect(other).to_contain_text("own rule never ran")
        expect(other).not_to_contain_text("No right derivative is known")
    expect(player_page.get_by_test_id("engine-check-sort")).to_contain_text("right")


def test_a_set_that_merged_two_products_is_said_in_the_summary_and_its_row(
    player_page: Page, server: str
) -> None:
    # `x = a*b`, `y = c*d`, both 6, hashed by data: the summary said "every gradient the
    # check could compare ends as a right engine's does" while c.grad printed 0, and the
    # row's "(its right local derivative is 1)" left whose, and in what, to guess.
    source = (LEARNER_BUGS / "hash_merges_products.py").read_text(encoding="utf-8")
    open_player(player_page, player_url(server, source))
    panel = player_page.get_by_test_id("engine-check")
    expect(panel).to_contain_text("a set of operands merged two equal nodes (the + row below)")
    expect(panel).not_to_contain_text("ends as a right engine's does")
    row = panel.locator("[data-testid=engine-check-row][data-op='+']")
    expect(row).to_contain_text(
        "what y is made of gets nothing (y's right local derivative in z is 1)"
    )


def test_a_walk_down_every_path_that_writes_with_equals_is_not_said_to_be_a_rule(
    player_page: Page, server: str
) -> None:
    # backward() writes every share itself (no rule per node): the op rows say so, and the
    # += row said "mul(x, x)'s rule writes x.grad with =" of a rule that is not there.
    source = (LEARNER_BUGS / "path_sum_assign.py").read_text(encoding="utf-8")
    open_player(player_page, player_url(server, source))
    row = player_page.get_by_test_id("engine-check-accumulation")
    expect(row).to_contain_text(
        "backward() itself, handing x its share from mul(x, x), writes x.grad with =, and the"
    )
    expect(row).not_to_contain_text("'s rule")


CUBE_FORGETS_THE_3 = """\
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def cube(self):
        out = Value(self.data ** 3, (self,), 'cube')

        def _backward():
            self.grad += self.data ** 2 * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a, b = Value(2.0), Value(-3.0)
c = a * b
d = c.cube()
d.backward()
"""


def test_an_op_no_table_knows_says_its_right_derivative_was_checked_numerically(
    player_page: Page, server: str
) -> None:
    # A learner's `cube` whose rule forgets the 3: the row said "the right local derivative
    # is 108" as if a table knew cube; the engine measured it by re-runs of the op's code.
    open_player(player_page, player_url(server, CUBE_FORGETS_THE_3))
    panel = player_page.get_by_test_id("engine-check")
    row = panel.locator("[data-testid=engine-check-row][data-op=cube]")
    expect(row).to_have_attribute("data-verdict", "wrong")
    write = 1 + CUBE_FORGETS_THE_3.splitlines().index(
        "            self.grad += self.data ** 2 * out.grad"
    )
    expect(row).to_contain_text(f"uses 36 as c's local derivative on line {write}")
    expect(row).to_contain_text(
        "the right local derivative is 108, checked numerically: no table knows cube, so its "
        "own code was run again with c nudged a tiny step up and down."
    )
    # A table's op says nothing of the kind.
    times = panel.locator("[data-testid=engine-check-row][data-op='*']")
    expect(times).to_have_text(re.compile(r"right local derivatives on every use\.$"))


def test_a_program_that_calls_no_backward_is_not_said_to_have_one(
    player_page: Page, server: str
) -> None:
    # The chain rule worked out by hand (`a.grad = …`), forgetting d's share of a: one pass
    # of no rule. The rows and the topo strip said "backward() runs no node's rule (it
    # writes the gradients itself)" and, before the sort frame, "The order appears when
    # the sort runs", of a program that has no backward() and no sort.
    source = (
        _CLASS
        + "a = Value(2.0, label='a')\nb = Value(-3.0, label='b')\nc = a * b; c.label = 'c'\n"
        + "d = c + a; d.label = 'd'\nd.grad = 1.0\nc.grad = d.grad\n"
        + "a.grad = b.data * c.grad\nb.grad = a.data * c.grad\n"
    )
    trace = trace_source(source)
    assert trace["passes"][0]["topo"] == []
    assert not any(frame["phase"] == "backward" for frame in trace["frames"])
    open_player(player_page, player_url(server, source))
    panel = player_page.get_by_test_id("engine-check")
    none = "The program calls no backward() and no node's rule"
    said = "the" + none[3:]
    expect(panel).to_contain_text(
        f"{none} (it works out the gradients itself, or never asks for them), so its rules "
        "cannot be judged one by one. Judged as they end, 1 gradient ends different"
    )
    expect(panel.get_by_test_id("engine-check-sort")).to_contain_text(
        f"{none} (it works out the gradients itself, or never asks for them): there is no "
        "order of rules to judge."
    )
    expect(panel.get_by_test_id("engine-check-row").first).to_contain_text(
        f"No rule of this op runs ({said})"
    )
    expect(panel).not_to_contain_text("backward() writes")
    expect(panel).not_to_contain_text("backward() runs no node's rule")
    hint = player_page.locator(".topo-hint")
    for frame in (0, len(trace["frames"]) - 1):
        player_page.get_by_test_id("scrubber").fill(str(frame))
        expect(hint).to_have_text(
            f"No order here: {said}, so no sort runs and there is no topological order to walk."
        )
