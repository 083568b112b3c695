"""The bug lab, the sort step by step and the gradient check in a real browser (SPEC §7 to §9):
the switch, the marks, the code and narration of each mistake, the call stack, the
panel and its plot, the URL that carries them, and hostile values in that URL."""

from __future__ import annotations

import json
import math
import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from backprop_animator.app.export import render_standalone
from backprop_animator.engine import gradcheck_source, trace_source
from backprop_animator.engine.rules import rule_sources
from tests.browser.conftest import NEURON, ROOMY, Problems, open_player
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_export import offline_page as offline_page
from tests.support.harness import live_server

pytestmark = pytest.mark.browser

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()\n"
ARTICLE_F = "x = Value(3.0)\nf = 3*x**2 - 4*x + 5\nf.backward()\n"
LEAVES = ("x1", "w1", "x2", "w2", "b")


def lab_url(base: str, source: str, path: str = "/", **params: object) -> str:
    query = {"source": source, **{name: str(value) for name, value in params.items()}}
    return f"{base}{path}?{urllib.parse.urlencode(query)}"


def grads(page: Page) -> dict[str, str]:
    """data-grad of every visible node, by label (unlabelled ones by id)."""
    rows = page.eval_on_selector_all(
        "[data-testid=node]",
        "nodes => nodes.map(n => [n.dataset.label || n.dataset.nodeId, n.dataset.grad])",
    )
    return dict(rows)


def post(base: str, path: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        f"{base}{path}", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        result: dict[str, object] = json.load(response)
        return result


def test_switching_a_plus_a_to_assign_shows_one_against_two(player_page: Page, server: str) -> None:
    open_player(player_page, lab_url(server, A_PLUS_A))
    player_page.get_by_test_id("mistake").select_option("assign")
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "assign")
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("4 / 4")
    a = player_page.locator("[data-testid=node][data-label=a]")
    expect(a).to_have_attribute("data-grad", "1")
    expect(a).to_have_attribute("data-parted", "true")
    expect(a).to_have_attribute("data-correct-grad", "2")
    expect(player_page.locator("[data-testid=parted-tag]")).to_have_text("≠ right engine 2")
    parted = player_page.get_by_test_id("bug-lab-parted")
    expect(parted).to_have_count(1)
    expect(parted).to_have_attribute("data-grad", "1")
    expect(parted).to_have_attribute("data-correct-grad", "2")
    code = player_page.locator("[data-testid=code-panel]")
    expect(
        code.locator("[data-tone=mistake] [data-testid=code-line][data-marked]")
    ).to_contain_text(".grad = local * out.grad")
    expect(code.locator("[data-tone=right] [data-testid=code-line][data-marked]")).to_contain_text(
        ".grad +="
    )
    assert "mistake=assign" in player_page.url

    player_page.keyboard.press("ArrowLeft")
    expect(player_page.get_by_test_id("narration")).to_contain_text("overwrote")

    player_page.get_by_test_id("mistake").select_option("")
    expect(player_page.get_by_test_id("bug-lab")).to_have_count(0)
    player_page.keyboard.press("End")
    expect(a).to_have_attribute("data-grad", "2")
    expect(a).not_to_have_attribute("data-parted", "true")
    assert "mistake" not in player_page.url


def test_neuron_with_append_first_leaves_every_leaf_at_zero(player_page: Page, server: str) -> None:
    open_player(player_page, lab_url(server, NEURON, mistake="append-first", frame=15))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("16 / 16")
    values = grads(player_page)
    for label in LEAVES:
        assert values[label] == "0", label
    for label in ("x1", "w1", "x2", "b"):
        node = player_page.locator(f"[data-testid=node][data-label={label}]")
        expect(node).to_have_attribute("data-parted", "true")
    expect(player_page.locator("[data-testid=node][data-label=w2]")).not_to_have_attribute(
        "data-parted", "true"
    )
    expect(player_page.get_by_test_id("mistake")).to_have_value("append-first")


def test_expanded_neuron_without_a_sort_passes_on_e_before_its_second_part_arrives(
    player_page: Page, server: str
) -> None:
    trace = post(
        server, "/api/trace", {"source": NEURON, "granularity": "expanded", "mistake": "no-sort"}
    )
    nodes = {node["id"]: node for node in trace["nodes"]}  # type: ignore[union-attr]
    e_frame = next(
        k
        for k, frame in enumerate(trace["frames"])  # type: ignore[arg-type]
        if frame["phase"] == "backward" and nodes[frame["node"]]["label"] == "e"
    )
    url = lab_url(server, NEURON, granularity="expanded", mistake="no-sort", frame=e_frame)
    open_player(player_page, url)
    narration = player_page.get_by_test_id("narration")
    expect(narration).to_contain_text("0.1464")
    expect(narration).to_contain_text("0.1036")
    early = player_page.get_by_test_id("bug-lab-early")
    expect(early).to_contain_text("e's rule runs with grad 0.1464")
    expect(early).to_contain_text("0.04289")
    player_page.keyboard.press("End")
    expect(early).to_be_hidden()
    expect(player_page.locator("[data-testid=node][data-label=x1]")).to_have_attribute(
        "data-parted", "true"
    )


def test_gradient_check_opens_from_its_button_with_the_articles_fourteen(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, ARTICLE_F))
    expect(player_page.get_by_test_id("gradcheck")).to_be_hidden()
    player_page.get_by_test_id("gradcheck-toggle").click()
    panel = player_page.get_by_test_id("gradcheck")
    expect(panel).to_have_attribute("data-state", "ready")
    row = player_page.get_by_test_id("gradcheck-row")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-label", "x")
    expect(row).to_have_attribute("data-analytic", "14")
    expect(row).to_have_attribute("data-agrees", "true")
    assert math.isclose(float(row.get_attribute("data-numeric") or "nan"), 14, rel_tol=1e-6)
    plot = player_page.get_by_test_id("gradcheck-plot")
    expect(plot.locator("[data-testid=plot-point]")).to_have_count(14)
    assert "gradcheck=1" in player_page.url
    ys = plot.locator("[data-testid=plot-point]").evaluate_all(
        "points => points.map(p => p.transform.baseVal[0].matrix.f)"
    )
    lowest = ys.index(max(ys))  # SVG y grows downwards: the smallest error is the largest y
    assert 0 < lowest < len(ys) - 1, "the error falls as h shrinks, then rises again: a V"

    player_page.get_by_test_id("gradcheck-toggle").click()
    expect(panel).to_be_hidden()
    assert "gradcheck" not in player_page.url


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
    ids=["laptop", "phone"],
)
def test_gradient_check_opened_from_its_button_comes_into_view(
    player_page: Page, server: str, viewport: dict[str, int]
) -> None:
    # The panel opens under the player and its table: below the fold, so the button
    # seemed to do nothing but turn pink.
    player_page.set_viewport_size(viewport)
    open_player(player_page, lab_url(server, NEURON))
    player_page.get_by_test_id("gradcheck-toggle").click()
    panel = player_page.get_by_test_id("gradcheck")
    expect(panel).to_have_attribute("data-state", "ready")
    expect(panel).to_be_in_viewport()
    expect(panel.get_by_test_id("gradcheck-row").first).to_be_in_viewport()


def test_gradient_check_of_the_assign_engine_shows_the_disagreement(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, A_PLUS_A, mistake="assign", gradcheck=1))
    row = player_page.get_by_test_id("gradcheck-row")
    expect(row).to_have_attribute("data-agrees", "false")
    expect(row).to_have_attribute("data-analytic", "1")
    expect(row).to_have_attribute("data-right-analytic", "2")
    assert math.isclose(float(row.get_attribute("data-numeric") or "nan"), 2, rel_tol=1e-6)
    expect(player_page.get_by_test_id("gradcheck")).to_contain_text("1 of 1 leaf disagrees")


def test_gradient_check_opens_in_the_embed_from_its_url(player_page: Page, server: str) -> None:
    open_player(player_page, lab_url(server, NEURON, path="/embed", gradcheck=1))
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(5)
    labels = player_page.get_by_test_id("gradcheck-row").evaluate_all(
        "rows => rows.map(r => r.dataset.label)"
    )
    assert sorted(labels) == sorted(LEAVES)
    expect(player_page.get_by_test_id("gradcheck-plot")).to_be_visible()


def test_gradient_check_says_why_a_bad_program_cannot_be_checked(
    player_page: Page, server: str, problems: Problems
) -> None:
    problems.allowed.append("status of 400")
    open_player(player_page, lab_url(server, ARTICLE_F, gradcheck=1))
    expect(player_page.get_by_test_id("gradcheck")).to_have_attribute("data-state", "ready")
    player_page.get_by_test_id("source").fill("x = Value(3.0)\nf = x +\n")
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("error")).to_be_visible()
    expect(player_page.get_by_test_id("gradcheck")).to_have_attribute("data-state", "error")
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(0)
    # The reason stands alone: no empty table of column headings under it.
    expect(player_page.get_by_test_id("gradcheck").locator("table")).to_be_hidden()


def test_sort_steps_grow_and_shrink_the_call_stack_and_fill_topo(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, NEURON))
    player_page.get_by_test_id("sort-steps-toggle").check()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 36")
    assert "sort_steps=1" in player_page.url
    trace = post(server, "/api/trace", {"source": NEURON, "sort_steps": True})
    frames = trace["frames"]  # type: ignore[assignment]
    steps = player_page.get_by_test_id("sort-steps")
    stack = player_page.get_by_test_id("sort-stack").locator("li")
    appended = 0
    for k in range(5, 26):
        player_page.get_by_test_id("scrubber").fill(str(k))
        frame = frames[k]  # type: ignore[index]
        expect(steps).to_have_attribute("data-step", frame["step"])
        if frame["step"] == "seed":
            expect(stack).to_have_text(["(empty: build(output) returned)"])
            continue
        appended += frame["step"] == "append"
        expect(stack).to_have_count(frame["depth"] + 1)
        expect(stack.last).to_have_attribute("data-node-id", frame["node"])
        expect(player_page.get_by_test_id("sort-topo").locator("[data-node-id]")).to_have_count(
            appended
        )
        marked = player_page.locator(
            "[data-testid=code-panel] [data-testid=code-line][data-marked]"
        ).first
        expect(marked).to_contain_text(
            {"visit": "visited.add", "skip": "", "append": "topo.append"}[frame["step"]]
        )
    expect(player_page.get_by_test_id("sort-topo").locator("[data-node-id]")).to_have_count(10)
    player_page.get_by_test_id("scrubber").fill("26")  # the first backward frame
    expect(steps).to_be_hidden()
    expect(player_page.locator("[data-testid=topo-chip]")).to_have_count(10)


def test_sort_steps_with_append_first_build_the_wrong_order(player_page: Page, server: str) -> None:
    open_player(player_page, lab_url(server, NEURON, mistake="append-first", sort_steps=1, frame=6))
    expect(player_page.get_by_test_id("sort-steps")).to_have_attribute("data-step", "append")
    topo = player_page.get_by_test_id("sort-topo").locator("[data-node-id]")
    expect(topo).to_have_count(1)
    expect(topo).to_have_text(["o"])
    expect(
        player_page.locator("[data-testid=code-panel] [data-tone=mistake]").first
    ).to_contain_text("MISTAKE")


def test_hostile_lab_values_in_the_url_leave_the_right_engine_running(
    player_page: Page, server: str
) -> None:
    url = (
        f"{server}/?source={urllib.parse.quote(A_PLUS_A)}&mistake=%3Cimg%20src%3Dx%20onerror%3D"
        "alert(1)%3E&sort_steps=%22%3E&gradcheck=__proto__&frame=3"
    )
    open_player(player_page, url)
    expect(player_page.get_by_test_id("bug-lab")).to_have_count(0)
    expect(player_page.get_by_test_id("gradcheck")).to_be_hidden()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("4 / 4")
    expect(player_page.get_by_test_id("mistake")).to_have_value("")
    assert player_page.locator("img").count() == 0


def test_a_leaf_label_with_html_stays_text_in_the_gradient_check(
    player_page: Page, server: str
) -> None:
    source = "x = Value(2.0, label='<b>x</b>')\ny = x * x\ny.backward()\n"
    open_player(player_page, lab_url(server, source, gradcheck=1))
    row = player_page.get_by_test_id("gradcheck-row")
    expect(row).to_have_attribute("data-label", "<b>x</b>")
    expect(row.locator("th")).to_have_text("<b>x</b>")
    assert player_page.locator("[data-testid=gradcheck] b").count() == 0


def test_share_link_carries_the_lab_and_reopens_it(player_page: Page, server: str) -> None:
    open_player(player_page, lab_url(server, A_PLUS_A, mistake="assign", sort_steps=1, gradcheck=1))
    player_page.get_by_test_id("share").click()
    link = player_page.get_by_test_id("share-link").input_value()
    params = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
    assert params["mistake"] == ["assign"]
    assert params["sort_steps"] == ["1"]
    assert params["gradcheck"] == ["1"]
    assert "mistake=assign" in player_page.get_by_test_id("share-iframe").input_value()
    export = player_page.get_by_test_id("share-export").get_attribute("href") or ""
    assert "mistake=assign" in export and "sort_steps=1" in export and "gradcheck=1" in export


def test_a_bug_lab_example_brings_its_mistake(player_page: Page, server: str) -> None:
    open_player(player_page, lab_url(server, NEURON))
    player_page.locator("select[name=example]").select_option("mistake-assign")
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "assign")
    expect(player_page.get_by_test_id("mistake")).to_have_value("assign")


def test_back_and_forward_bring_back_the_engine_each_program_ran_on(
    player_page: Page, server: str
) -> None:
    """Back from a bug-lab example returns to the program before it on the right engine
    (it used to keep the mistake and write it into the earlier entry's address)."""
    open_player(player_page, lab_url(server, NEURON))
    player_page.locator("select[name=example]").select_option("mistake-assign")
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "assign")
    player_page.go_back()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 16")
    expect(player_page.get_by_test_id("mistake")).to_have_value("")
    expect(player_page.get_by_test_id("bug-lab")).to_have_count(0)
    assert "mistake" not in urllib.parse.parse_qs(urllib.parse.urlsplit(player_page.url).query)
    player_page.go_forward()
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "assign")
    expect(player_page.get_by_test_id("mistake")).to_have_value("assign")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 4")


def test_the_examples_menu_names_the_bug_lab_example_on_screen(
    player_page: Page, server: str
) -> None:
    """Bug-lab examples share their program with a plain one: the menu names the one
    whose engine runs, from the menu, from the address and after the engine changes."""
    menu = player_page.locator("select[name=example]")
    open_player(player_page, lab_url(server, NEURON))
    menu.select_option("mistake-append-first")
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "append-first")
    expect(menu).to_have_value("mistake-append-first")
    player_page.get_by_test_id("mistake").select_option("")
    expect(menu).to_have_value("neuron")

    open_player(player_page, lab_url(server, A_PLUS_A, mistake="assign"))
    expect(menu).to_have_value("mistake-assign")
    player_page.get_by_test_id("mistake").select_option("append-first")
    expect(menu).to_have_value("a-plus-a")


@pytest.fixture
def phone_page(chromium: Browser) -> Iterator[Page]:
    """A 390 px wide page, like a phone held upright."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def test_the_lab_fits_a_phone(phone_page: Page, server: str) -> None:
    open_player(
        phone_page,
        lab_url(server, NEURON, mistake="append-first", sort_steps=1, gradcheck=1, frame=9),
    )
    plot = phone_page.get_by_test_id("gradcheck-plot")
    expect(plot).to_be_visible()
    box = plot.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    expect(phone_page.get_by_test_id("sort-steps")).to_be_visible()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_plots_labels_do_not_run_into_one_another_on_a_phone(
    phone_page: Page, server: str
) -> None:
    open_player(phone_page, lab_url(server, NEURON, gradcheck=1, frame=9))
    plot = phone_page.get_by_test_id("gradcheck-plot")
    expect(plot.locator("[data-testid=plot-point]").first).to_be_visible()
    # Every text of the plot (tick labels, "0 (exact)", axis titles), pairwise apart by
    # at least 4 px across or apart in height: at 390 px the decades' labels ran together.
    boxes = plot.locator("text").evaluate_all(
        "texts => texts.map(t => { const r = t.getBoundingClientRect();"
        " return [t.textContent, r.left, r.right, r.top, r.bottom]; })"
    )
    assert len(boxes) > 6
    for i, (a, a_left, a_right, a_top, a_bottom) in enumerate(boxes):
        for b, b_left, b_right, b_top, b_bottom in boxes[i + 1 :]:
            apart_across = a_right + 4 <= b_left or b_right + 4 <= a_left
            apart_down = a_bottom <= b_top or b_bottom <= a_top
            assert apart_across or apart_down, f"{a!r} and {b!r} touch"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_serious_violations_in_the_lab(
    axe_page: Page, server: str, theme: str
) -> None:
    axe_page.emulate_media(color_scheme=theme)
    url = lab_url(server, NEURON, mistake="append-first", sort_steps=1, gradcheck=1, frame=8)
    open_player(axe_page, url)
    expect(axe_page.get_by_test_id("gradcheck")).to_have_attribute("data-state", "ready")
    assert serious_violations(axe_page) == []
    axe_page.keyboard.press("End")
    assert serious_violations(axe_page) == []


def test_the_embed_runs_a_mistake_with_sort_steps_from_its_address(
    player_page: Page, server: str
) -> None:
    url = lab_url(server, A_PLUS_A, path="/embed", mistake="assign", sort_steps=1, frame=6)
    open_player(player_page, url)
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("7 / 9")
    expect(player_page.get_by_test_id("sort-steps")).to_have_attribute("data-step", "seed")
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "assign")
    assert "mistake=assign" in player_page.url and "sort_steps=1" in player_page.url
    href = player_page.locator("#open-full").get_attribute("href") or ""
    assert "mistake=assign" in href and "sort_steps=1" in href


def test_an_export_made_with_the_check_shows_its_panel_offline(
    offline_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, blocked = offline_page
    path = tmp_path / "lab.html"
    trace = trace_source(A_PLUS_A, mistake="assign", sort_steps=True)
    check = gradcheck_source(A_PLUS_A, mistake="assign")
    document = render_standalone(
        trace,
        rule_sources(),
        title="a + a",
        frame=8,
        mistake="assign",
        sort_steps=True,
        gradcheck=check,
    )
    path.write_text(document, encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector("#player[data-ready=true]")
    expect(page.get_by_test_id("frame-counter")).to_have_text("9 / 9")
    expect(page.locator("[data-testid=node][data-label=a]")).to_have_attribute(
        "data-parted", "true"
    )
    row = page.get_by_test_id("gradcheck-row")
    expect(row).to_have_attribute("data-agrees", "false")
    expect(row).to_have_attribute("data-right-analytic", "2")
    expect(page.get_by_test_id("gradcheck-plot").locator("[data-testid=plot-point]")).to_have_count(
        14
    )
    assert blocked == []


def test_the_graph_shows_where_each_node_stands_in_the_recursion(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, NEURON, sort_steps=1, frame=13))
    states = player_page.eval_on_selector_all(
        "[data-testid=node][data-sort-state]",
        "nodes => Object.fromEntries(nodes.map(n => [n.dataset.label || n.dataset.nodeId,"
        " n.dataset.sortState]))",
    )
    assert states["o"] == "stack"
    assert states["x1"] == "appended" and states["w1"] == "appended"
    assert "x2" not in states
    badges = player_page.locator("[data-in-topo] [data-testid=topo-badge]")
    expect(badges).to_have_count(3)
    player_page.keyboard.press("End")
    expect(player_page.locator("[data-sort-state]")).to_have_count(0)


def test_a_check_over_the_work_limit_checks_what_fits_and_the_player_still_plays(
    player_page: Page, server: str
) -> None:
    lines = [f"x{i} = {i}.0" for i in range(300)] + ["s = x0"]
    lines += [f"s = s + x{i}" for i in range(1, 300)]
    source = "\n".join(lines)
    whole = post(server, "/api/gradcheck?refusal_status=200", {"source": source})
    assert "check fewer leaves or h values" in str(whole["error"])
    open_player(player_page, lab_url(server, source, gradcheck=1))
    panel = player_page.get_by_test_id("gradcheck")
    expect(panel).to_have_attribute("data-state", "ready")
    # 300 leaves × 14 h values × 599 nodes is over 500,000: 59 leaves fit with every h.
    expect(panel).to_have_attribute("data-of", "300")
    expect(panel).to_have_attribute("data-checked", "59")
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(59)
    expect(panel).to_contain_text("Checked 59 of 300 leaves")
    expect(panel).not_to_contain_text("BACKPROP_MAX_GRADCHECK_WORK")
    first, last = (
        player_page.get_by_test_id("gradcheck-row").first,
        player_page.get_by_test_id("gradcheck-row").last,
    )
    expect(first).to_have_attribute("data-label", "x0")
    expect(last).to_have_attribute("data-label", "x299")
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("899 / 899")  # 299 + 1 + 599


def test_a_check_that_cannot_be_cut_to_fit_says_why(
    player_page: Page, tight_server: str, problems: Problems
) -> None:
    problems.allowed.append("status of 400")
    # One run is some 24,000 steps: not even one leaf at two h values fits under TIGHT_WORK.
    source = "a = Value(1.0)\nb = Value(2.0)\nt = 0\nfor i in range(12000):\n    t = t + i\n"
    source += "out = a * b\nout.backward()\n"
    open_player(player_page, lab_url(tight_server, source, gradcheck=1))
    panel = player_page.get_by_test_id("gradcheck")
    expect(panel).to_have_attribute("data-state", "error")
    # The limit is the server's: the learner is told to check less, not to set it.
    expect(panel).to_contain_text("set by this server")
    expect(panel).to_contain_text("check fewer leaves or h values")
    expect(panel).not_to_contain_text("BACKPROP_MAX_GRADCHECK_WORK")
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(0)
    expect(panel).not_to_have_attribute("data-checked", re.compile(".*"))


def test_no_sort_on_a_tree_says_the_gradients_come_out_right(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, NEURON, mistake="no-sort", sort_steps=1, frame=15))
    expect(player_page.get_by_test_id("bug-lab")).to_contain_text("gets every gradient right")
    expect(player_page.locator("[data-parted]")).to_have_count(0)
    values = grads(player_page)
    assert math.isclose(float(values["x1"]), -1.5) and math.isclose(float(values["w1"]), 1.0)
    player_page.get_by_test_id("scrubber").fill("5")
    expect(player_page.get_by_test_id("sort-stack")).to_have_text(
        ["(empty: build is never called)"]
    )


def test_turning_sort_steps_on_keeps_the_learner_at_the_same_backward_step(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, NEURON, frame=12))
    player_page.get_by_test_id("sort-steps-toggle").check()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("33 / 36")
    player_page.get_by_test_id("sort-steps-toggle").uncheck()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("13 / 16")


def test_the_central_difference_is_a_choice_in_the_panel_and_the_url(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, ARTICLE_F, gradcheck=1))
    row = player_page.get_by_test_id("gradcheck-row")
    expect(row).to_have_attribute("data-agrees", "true")
    expect(row).to_have_attribute("data-h", "1e-7")  # √ε·3 ≈ 4.5e-8
    player_page.get_by_test_id("gradcheck-scheme").select_option("central")
    expect(player_page.get_by_test_id("gradcheck")).to_contain_text("f(x−h)")
    expect(row).to_have_attribute("data-h", "0.00001")  # ∛ε·3 ≈ 1.8e-5
    expect(row).to_have_attribute("data-agrees", "true")
    assert abs(float(row.get_attribute("data-numeric") or "nan") - 14) < 1e-8
    assert "gradcheck=central" in player_page.url
    player_page.reload()
    player_page.wait_for_selector("#player[data-ready=true]")
    expect(player_page.get_by_test_id("gradcheck-scheme")).to_have_value("central")


def test_without_a_sort_the_code_panel_counts_the_walk_from_the_output(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, NEURON, mistake="no-sort", frame=8))
    code = player_page.locator("[data-testid=code-panel]")
    expect(code).to_contain_text("The backward walk")
    expect(code).to_contain_text("step 3 of 10")


# SPEC §13: the lab on a real program, a weight shared across a batch, three passes.
SHARED_WEIGHT = """\
w = Value(0.5, label='w')
b = Value(0.1, label='b')
for step in range(3):
    loss = sum(((w * x + b).tanh() - y) ** 2 for x, y in [(1.0, 1.0), (-2.0, -1.0)])
    w.grad = 0.0
    b.grad = 0.0
    loss.backward()
    for p in (w, b):
        p.data -= 0.05 * p.grad
"""


def test_the_lab_runs_a_training_loop_pass_by_pass(player_page: Page, server: str) -> None:
    open_player(player_page, lab_url(server, SHARED_WEIGHT, mistake="assign", sort_steps=1))
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "assign")
    trace = post(
        server, "/api/trace", {"source": SHARED_WEIGHT, "mistake": "assign", "sort_steps": True}
    )
    frames: list[dict[str, object]] = trace["frames"]  # type: ignore[assignment]
    passes: list[dict[str, object]] = trace["passes"]  # type: ignore[assignment]
    steps = player_page.get_by_test_id("sort-steps")
    for k in (1, 2):
        # The pass's sort starts afresh: its first step has nothing visited before it.
        first = next(i for i, f in enumerate(frames) if f["phase"] == "sort" and f["pass"] == k)
        player_page.get_by_test_id("scrubber").fill(str(first))
        expect(steps).to_have_attribute("data-step", "visit")
        expect(player_page.get_by_test_id("sort-stack").locator("li")).to_have_count(1)
        count = sum(1 for f in frames if f["phase"] == "sort" and f["pass"] == k)
        expect(steps).to_contain_text(f"step 1 of {count}")
        # At the pass's last rule, w parts from the right engine of this pass.
        last = max(i for i, f in enumerate(frames) if f["phase"] == "backward" and f["pass"] == k)
        player_page.get_by_test_id("scrubber").fill(str(last))
        w = player_page.locator("[data-testid=node][data-label=w]")
        right = passes[k]["correct_grads"]["n0"]  # type: ignore[index]
        expect(w).to_have_attribute("data-parted", "true")
        assert float(w.get_attribute("data-correct-grad") or "nan") == right
        item = player_page.locator("[data-testid=bug-lab-parted][data-node-id=n0]")
        expect(item).to_be_visible()
        assert float(item.get_attribute("data-correct-grad") or "nan") == right


# Four leaves, three passes. A re-run stops as the pass it checks starts: 1,343 interpreter
# steps for pass 0, 1,773 for pass 2, most of them the warm-up loop, so that under
# TIGHT_WORK 2 leaves fit with every h in either pass (the whole forward check of pass 0,
# 4 leaves × 14 h values, is about 76,500 steps), and 1 with the central difference.
FOUR_LEAVES_THREE_PASSES = """\
warm_up = 0
for i in range(650):
    warm_up = warm_up + i
a = Value(1.0)
b = Value(2.0)
c = Value(-1.0)
d = Value(0.5)
for k in range(3):
    out = (a * b + c * d).tanh()
    for p in [a, b, c, d]:
        p.grad = 0.0
    out.backward()
    for p in [a, b, c, d]:
        p.data -= 0.1 * p.grad
"""
TIGHT_WORK = "54000"


@pytest.fixture(scope="module")
def tight_server() -> Iterator[str]:
    """The app with a work bound that a real program's whole gradient check is over."""
    with live_server(env={**ROOMY, "BACKPROP_MAX_GRADCHECK_WORK": TIGHT_WORK}) as base:
        yield base


def row_ids(page: Page) -> list[str]:
    rows = page.get_by_test_id("gradcheck-row")
    return [str(row.get_attribute("data-node-id")) for row in rows.all()]


def test_a_check_over_the_work_bound_checks_what_fits_and_says_so(
    player_page: Page, tight_server: str
) -> None:
    whole = post(
        tight_server, "/api/gradcheck?refusal_status=200", {"source": FOUR_LEAVES_THREE_PASSES}
    )
    assert "BACKPROP_MAX_GRADCHECK_WORK" in str(whole["error"])
    open_player(player_page, lab_url(tight_server, FOUR_LEAVES_THREE_PASSES, gradcheck=1))
    panel = player_page.get_by_test_id("gradcheck")
    expect(panel).to_have_attribute("data-state", "ready")
    expect(panel).to_have_attribute("data-checked", "2")
    expect(panel).to_have_attribute("data-of", "4")
    expect(panel.locator(".gradcheck-status")).to_contain_text("Checked 2 of 4 leaves")
    # Spread over the pass (first and last), every h, as the server checks those two.
    assert row_ids(player_page) == ["n0", "n3"]
    cut = post(
        tight_server, "/api/gradcheck", {"source": FOUR_LEAVES_THREE_PASSES, "leaves": ["n0", "n3"]}
    )
    checks: list[dict[str, object]] = cut["checks"]  # type: ignore[assignment]
    rows = player_page.get_by_test_id("gradcheck-row")
    for row, check in zip(rows.all(), checks, strict=True):
        assert float(row.get_attribute("data-analytic") or "nan") == check["analytic"]
    # The choice unfolds, with the two checked and no third allowed within the bound.
    expect(player_page.get_by_test_id("gradcheck-pick")).to_have_attribute("open", "")
    boxes = player_page.get_by_test_id("gradcheck-leaf")
    expect(boxes).to_have_count(4)
    assert [box.is_checked() for box in boxes.all()] == [True, False, False, True]
    assert [box.is_disabled() for box in boxes.all()] == [False, True, True, False]
    expect(player_page.get_by_test_id("gradcheck-pick")).to_contain_text("up to 2 at a time")


def test_the_learner_picks_the_leaves_and_the_pass_to_check(
    player_page: Page, tight_server: str
) -> None:
    open_player(player_page, lab_url(tight_server, FOUR_LEAVES_THREE_PASSES, gradcheck=1))
    panel = player_page.get_by_test_id("gradcheck")
    expect(panel).to_have_attribute("data-checked", "2")
    player_page.locator("[data-testid=gradcheck-leaf][value=n0]").uncheck()
    player_page.locator("[data-testid=gradcheck-leaf][value=n3]").uncheck()
    expect(player_page.get_by_test_id("gradcheck-run")).to_be_disabled()
    player_page.locator("[data-testid=gradcheck-leaf][value=n1]").check()
    player_page.locator("[data-testid=gradcheck-leaf][value=n2]").check()
    player_page.get_by_test_id("gradcheck-run").click()
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(2)
    expect(panel).to_have_attribute("data-state", "ready")
    # Two chosen fit: the check is the learner's, not cut.
    expect(panel).not_to_have_attribute("data-checked", re.compile(".*"))
    assert row_ids(player_page) == ["n1", "n2"]
    expect(panel.locator(".gradcheck-status")).to_have_text(
        "Checked the 2 chosen of the pass's 4 leaves. All 2 leaves agree: backprop and the"
        " difference quotient give the same gradients."
    )

    # Another pass: its own gradients (the weights have moved), as the server checks pass 2.
    player_page.get_by_test_id("gradcheck-pass").select_option("2")
    expect(panel).to_have_attribute("data-checked", "2")
    expect(player_page.get_by_test_id("gradcheck-pass")).to_have_value("2")
    answer = post(
        tight_server,
        "/api/gradcheck",
        {"source": FOUR_LEAVES_THREE_PASSES, "pass": 2, "leaves": row_ids(player_page)},
    )
    checks: list[dict[str, object]] = answer["checks"]  # type: ignore[assignment]
    rows = player_page.get_by_test_id("gradcheck-row").all()
    assert [float(r.get_attribute("data-analytic") or "nan") for r in rows] == [
        c["analytic"] for c in checks
    ]
    first = post(
        tight_server,
        "/api/gradcheck",
        {"source": FOUR_LEAVES_THREE_PASSES, "leaves": row_ids(player_page)},
    )
    assert first["checks"] != checks

    # The central difference costs two runs an h: one leaf fits.
    player_page.get_by_test_id("gradcheck-scheme").select_option("central")
    expect(panel).to_have_attribute("data-checked", "1")
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(1)


def test_a_program_within_the_bound_checks_every_leaf_with_the_choice_folded(
    player_page: Page, server: str
) -> None:
    open_player(player_page, lab_url(server, FOUR_LEAVES_THREE_PASSES, gradcheck=1))
    panel = player_page.get_by_test_id("gradcheck")
    expect(panel).to_have_attribute("data-state", "ready")
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(4)
    expect(panel).not_to_have_attribute("data-checked", re.compile(".*"))
    pick = player_page.get_by_test_id("gradcheck-pick")
    expect(pick).to_be_visible()
    expect(pick).not_to_have_attribute("open", re.compile(".*"))
    expect(panel.locator(".gradcheck-status")).to_have_text(
        "All 4 leaves agree: backprop and the difference quotient give the same gradients."
    )
    # A single leaf of a single pass has nothing to choose.
    player_page.get_by_test_id("source").fill(ARTICLE_F)
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("gradcheck-row")).to_have_count(1)
    expect(pick).to_be_hidden()


def test_axe_finds_no_serious_violations_in_the_gradient_check_choice(
    axe_page: Page, tight_server: str
) -> None:
    open_player(axe_page, lab_url(tight_server, FOUR_LEAVES_THREE_PASSES, gradcheck=1))
    expect(axe_page.get_by_test_id("gradcheck")).to_have_attribute("data-checked", "2")
    assert serious_violations(axe_page) == []


# Each comment in the code panel's listings that runs past the edge of its listing's box
# (which scrolls sideways), with how far.
COMMENTS_PAST_THE_EDGE = """() => [...document.querySelectorAll('[data-testid=code-panel] .code')]
  .flatMap((box) => {
    const edge = box.getBoundingClientRect().right;
    return [...box.querySelectorAll('.code-comment')]
      .filter((comment) => comment.getBoundingClientRect().right > edge + 1)
      .map((comment) => comment.textContent);
  })"""


def test_the_listings_comments_wrap_inside_a_laptops_code_panel(
    player_page: Page, server: str
) -> None:
    # The bug lab's listing explains its mistake in a comment, `# runs before every parent
    # has added in`, which ran out of the code panel at 1280 px, cut at "every pa", as
    # did the program's own `# chosen so that n = 0.8814 and o = sqrt(2)/2`.
    player_page.set_viewport_size({"width": 1280, "height": 800})
    frames = len(trace_source(NEURON, "expanded", mistake="no-sort")["frames"])
    url = lab_url(server, NEURON, mistake="no-sort", granularity="expanded", frame=frames - 1)
    open_player(player_page, url)
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text("runs before every parent has added in")
    assert player_page.evaluate(COMMENTS_PAST_THE_EDGE) == []
    player_page.get_by_test_id("scrubber").fill("3")
    expect(code).to_contain_text("chosen so that")
    assert player_page.evaluate(COMMENTS_PAST_THE_EDGE) == []
