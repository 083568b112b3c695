"""`animate()` for Jupyter and scripts: sources, engine Values, foreign micrograd graphs."""

from __future__ import annotations

import base64
import html
import json
import math
import re
import time
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from service_helpers import NEURON

import backprop_animator
from backprop_animator.app.export import bundle, collect_modules
from backprop_animator.app.notebook import RESTORE_HINT, WIDGET_HINT, Animation, animate
from backprop_animator.app.page_constants import js_constant
from backprop_animator.app.paths import find_asset_dir
from backprop_animator.engine import EngineError, Value
from tests.support.bounds import DEEP_CASES, Case
from tests.support.foreign import ForeignValue, foreign_neuron

ARTICLE_LEAF_GRADS = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}
PAYLOAD = "</script><img src=x onerror=alert(1)>"


def inner_document(fragment: str) -> str:
    match = re.search(r'srcdoc="([^"]*)"', fragment)
    assert match, "no srcdoc"
    return html.unescape(match.group(1))


def trace_in(document: str) -> Any:
    match = re.search(
        r'<script type="application/json" id="backprop-trace">(.*?)</script>', document, re.S
    )
    assert match
    return json.loads(match.group(1))


def grads_by_label(trace: dict[str, Any]) -> dict[str, float]:
    return {node["label"]: node["grad"] for node in trace["nodes"] if node["label"]}


def test_repr_html_is_self_contained() -> None:
    fragment = animate(NEURON)._repr_html_()

    assert re.search(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:|//|/static)""", fragment) is None
    document = inner_document(fragment)
    assert re.search(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:|//|/)""", document) is None
    assert "connect-src &#39;none&#39;" in document
    assert len(trace_in(document)["frames"]) == 16


def test_two_players_in_one_notebook_share_no_ids() -> None:
    first, second = animate(NEURON)._repr_html_(), animate(NEURON)._repr_html_()

    first_ids = set(re.findall(r'\bid="([^"]+)"', first))
    second_ids = set(re.findall(r'\bid="([^"]+)"', second))
    assert first_ids and second_ids
    assert first_ids.isdisjoint(second_ids)
    assert 'sandbox="allow-scripts"' in first


def test_save_writes_the_standalone_page(tmp_path: Path) -> None:
    animation = animate(NEURON, granularity="expanded", frame=28)

    path = animation.save(tmp_path / "neuron.html")

    document = path.read_text(encoding="utf-8")
    assert document == animation.to_html()
    assert len(trace_in(document)["frames"]) == 29
    assert '{"frame":28,"theme":"auto"}' in document


def test_animate_takes_an_engine_value_built_in_python() -> None:
    a = Value(3.0, label="a")

    animation = animate(a + a)

    assert [node["grad"] for node in animation.trace["nodes"]] == [2.0, 1.0]
    assert "4 frames" in repr(animation)


def test_foreign_micrograd_graph_traces_with_the_article_gradients() -> None:
    output, leaves = foreign_neuron()

    animation = animate(output)

    grads = grads_by_label(animation.trace)
    for label, grad in ARTICLE_LEAF_GRADS.items():
        assert math.isclose(grads[label], grad, abs_tol=1e-12), label
        assert math.isclose(leaves[label].grad, grad, abs_tol=1e-12), label
    assert len(animation.trace["frames"]) == 16
    assert animation.title == "backprop-animator: o"


def test_foreign_rules_show_their_local_derivatives_as_contributions() -> None:
    output, _ = foreign_neuron()
    trace = animate(output).trace
    label_of = {node["id"]: node["label"] for node in trace["nodes"]}
    tanh_id = next(node["id"] for node in trace["nodes"] if node["op"] == "tanh")
    x1w1_id = next(
        frame["node"]
        for frame in trace["frames"]
        if frame["phase"] == "backward"
        and {label_of[c["to"]] for c in frame["contributions"]} == {"x1", "w1"}
    )

    frames = {frame["node"]: frame for frame in trace["frames"] if frame["phase"] == "backward"}
    (tanh_step,) = frames[tanh_id]["contributions"]
    assert tanh_step["upstream"] == 1.0
    assert math.isclose(tanh_step["local"], 0.5, abs_tol=1e-12)
    contributions = {label_of[c["to"]]: c for c in frames[x1w1_id]["contributions"]}
    assert math.isclose(contributions["x1"]["local"], -3.0)
    assert math.isclose(contributions["x1"]["delta"], -1.5, abs_tol=1e-12)
    assert math.isclose(contributions["w1"]["local"], 2.0)
    assert (contributions["x1"]["before"], contributions["x1"]["after"]) == (
        0.0,
        contributions["x1"]["delta"],
    )


def test_a_foreign_a_plus_a_shows_one_contribution_of_two() -> None:
    a = ForeignValue(3.0, label="a")

    trace = animate(a + a).trace

    (step,) = [frame for frame in trace["frames"] if frame.get("contributions")]
    assert [(c["local"], c["delta"]) for c in step["contributions"]] == [(2.0, 2.0)]
    assert a.grad == 2.0


def test_hostile_labels_cannot_escape_the_notebook_output() -> None:
    fragment = animate(f"a = Value(1.0, label='{PAYLOAD}')\nb = a * 2")._repr_html_()

    # The one image is the still picture, a data: URL; the label never becomes markup.
    assert re.findall(r"<img\b[^>]*>", fragment) == [
        tag for tag in re.findall(r"<img\b[^>]*>", fragment) if 'src="data:image/svg+xml' in tag
    ]
    assert len(re.findall(r"<img\b", fragment)) == 1
    assert "<img" not in inner_document(fragment)
    assert PAYLOAD in {node["label"] for node in trace_in(inner_document(fragment))["nodes"]}


@pytest.mark.parametrize("engine", ["own", "foreign"])
def test_a_graph_from_python_is_under_the_environments_node_limit(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As a program is (BACKPROP_MAX_NODES, SPEC §16): the kernel has no worker to
    # protect it from a graph too big to trace.
    monkeypatch.setenv("BACKPROP_MAX_NODES", "50")
    kind: Any = Value if engine == "own" else ForeignValue
    out = kind(1.0)
    for _ in range(60):
        out = out + kind(2.0)
    with pytest.raises(EngineError, match=r"more than 50 nodes .*BACKPROP_MAX_NODES"):
        animate(out)
    with pytest.raises(EngineError, match=r"more than 50 nodes .*BACKPROP_MAX_NODES"):
        animate(out, gradcheck=engine == "own")


def test_animate_refuses_what_is_neither_a_program_nor_a_value() -> None:
    with pytest.raises(TypeError, match="not int"):
        animate(42)


def test_animate_reports_a_bad_program_with_its_position() -> None:
    with pytest.raises(EngineError) as caught:
        animate("a = Value(1.0)\nb = a * w3")

    assert (caught.value.line, caught.value.column) == (2, 9)


def test_the_package_re_exports_animate() -> None:
    assert backprop_animator.animate is animate
    assert backprop_animator.Animation is Animation


def still_svg_in(fragment: str) -> str:
    match = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', fragment)
    assert match, "no still picture"
    return base64.b64decode(match.group(1)).decode()


def test_the_next_reader_without_the_frame_sees_what_it_is_and_how_to_get_it_back() -> None:
    fragment = animate(NEURON)._repr_html_()

    inside = re.search(r"<iframe\b([^>]*)>(.*?)</iframe>", fragment, re.S)
    assert inside and RESTORE_HINT in html.unescape(inside.group(2))
    assert 'title="' in inside.group(1)
    assert "trust the notebook or run its cells" in inside.group(2)


def test_the_output_carries_a_still_picture_of_the_last_frame() -> None:
    svg = ElementTree.fromstring(still_svg_in(animate(NEURON)._repr_html_()))
    texts = [text.text for text in svg.iter("{http://www.w3.org/2000/svg}text")]

    assert "x1" in texts and "o  (tanh)" in texts
    assert "data 2  grad −1.5" in texts and "data 0.7071  grad 1" in texts


def test_the_still_is_hidden_by_the_outputs_script_when_the_frame_can_run() -> None:
    fragment = animate(NEURON)._repr_html_()
    frame_id = re.search(r'<iframe id="([\w-]+)"', fragment)
    assert frame_id
    assert f'data-backprop-still="{frame_id.group(1)}"' in fragment
    assert f'document.getElementById("{frame_id.group(1)}")' in fragment


def test_a_player_without_the_widget_weighs_a_third_less_than_base64_modules_made_it() -> None:
    static = find_asset_dir("static")
    as_base64 = sum(len((static / path).read_bytes()) for path in collect_modules(static)) * 4 / 3
    import_map = len(bundle().import_map.encode())
    assert import_map < 0.75 * as_base64
    # The whole output against the same output with base64 modules (the neuron: 341 KB
    # against 534 KB once the quiz, the lab and several passes joined the player).
    fragment = len(animate(NEURON)._repr_html_().encode())
    assert fragment < 0.75 * (fragment - import_map + as_base64)


def test_with_the_widget_a_saved_notebook_keeps_only_the_still_a_few_kilobytes() -> None:
    shown = displayed(animate(NEURON))

    assert [list(bundle) for bundle in shown] == [
        ["text/html", "text/plain"],
        ["text/plain", "application/vnd.jupyter.widget-view+json"],
    ]
    assert len(shown[0]["text/html"].encode()) < 10_000
    assert WIDGET_HINT in shown[0]["text/html"] and "<iframe" not in shown[0]["text/html"]


def test_without_anywidget_the_notebook_shows_the_html_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        "backprop_animator.app.notebook.player_widget", lambda *args, **kwargs: None
    )
    (bundle,) = displayed(animate(NEURON))

    assert "<iframe" in bundle["text/html"] and "srcdoc=" in bundle["text/html"]


def test_frame_moves_the_widget_and_reads_where_the_learner_is() -> None:
    animation = animate(NEURON, frame=3)
    widget = animation.widget()
    assert widget is not None and widget.frame == 3 and widget.frame_count == 16

    animation.frame = 9
    assert widget.frame == 9
    widget.frame = 12  # what the page sends when the learner scrubs
    assert animation.frame == 12
    animation.frame = 99
    assert widget.frame == 15 and animation.frame == 15


def test_the_widget_carries_the_standalone_page_at_its_frame() -> None:
    widget = animate(NEURON, frame=5, theme="dark").widget()
    assert widget is not None
    options = re.search(r'id="backprop-options">(.*?)</script>', widget._html)
    assert options and json.loads(options.group(1)) == {"frame": 5, "theme": "dark"}


def test_the_default_height_is_the_pages_own() -> None:
    assert animate(NEURON).height == js_constant("hosts/frame-messages.js", "DEFAULT_FRAME_HEIGHT")


def displayed(animation: Animation) -> list[dict[str, Any]]:
    """What `_ipython_display_` shows, as IPython's display() receives it."""
    import IPython.display

    shown: list[dict[str, Any]] = []

    def record(value: Any, raw: bool = False) -> None:
        bundle = value if raw else value._repr_mimebundle_()
        shown.append(bundle[0] if isinstance(bundle, tuple) else bundle)  # (data, metadata)

    original = IPython.display.display
    IPython.display.display = record
    try:
        animation._ipython_display_()
    finally:
        IPython.display.display = original
    return shown


def test_animate_names_an_option_it_does_not_take_at_once() -> None:
    with pytest.raises(TypeError, match=r"unknown option 'colour'.*theme"):
        animate(NEURON, colour="red")


def test_a_bad_theme_is_refused_by_the_export_with_its_value() -> None:
    with pytest.raises(ValueError, match="'neon'"):
        animate(NEURON, theme="neon").to_html()


def test_a_save_that_fails_leaves_the_existing_file_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "neuron.html"
    target.write_text("kept", encoding="utf-8")
    animation = animate(NEURON)
    animation.title = "\ud800"  # cleaned in the page: the save itself must fail
    animation.to_html = lambda: "<p>\ud800"  # type: ignore[method-assign]

    with pytest.raises(UnicodeEncodeError):
        animation.save(target)

    assert target.read_text(encoding="utf-8") == "kept"
    assert list(tmp_path.iterdir()) == [target]


def test_a_title_with_a_lone_surrogate_is_saved_replaced(tmp_path: Path) -> None:
    path = animate(NEURON, title="neuron \udcff").save(tmp_path / "neuron.html")
    assert "<title>neuron \ufffd</title>" in path.read_text(encoding="utf-8")


def test_a_program_that_never_ends_stops_the_kernel_at_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A kernel has no worker to kill: the engine's deadline is what gives it back.
    monkeypatch.setenv("BACKPROP_MAX_STEPS", str(10**12))
    monkeypatch.setenv("BACKPROP_TRACE_TIME_LIMIT", "0.3")
    with pytest.raises(EngineError, match="BACKPROP_TRACE_TIME_LIMIT"):
        animate("x = 0\nwhile True:\n    x = x + 1\n")


def test_a_hostile_program_is_refused_in_the_kernel_not_crashed() -> None:
    deep = "t = ()\nfor i in range(150000):\n    t = (t,)\ns = {t}\nv = Value(1.0)\nv.backward()\n"
    with pytest.raises(EngineError, match="nested too deeply"):
        animate(deep)


@pytest.mark.parametrize("case", DEEP_CASES, ids=[case.name for case in DEEP_CASES])
def test_a_program_that_raises_its_recursion_limit_ends_cleanly_in_the_kernel(
    case: Case,
) -> None:
    # Up to 10,000 calls deep through sorted/__lt__, generators, __iter__, __repr__...:
    # on the engine's own deep stack, never the kernel's (a segfault would kill it).
    if case.refusal is None:
        assert "<" in animate(case.source)._repr_html_()
        return
    with pytest.raises(EngineError) as caught:
        animate(case.source)
    assert case.refused_as_expected(caught.value.message), caught.value.message


def test_passes_beside_a_big_global_meet_the_step_bound_in_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each pass walks the globals for its nodes' names, up to 200,000 items: with a
    # roomy clock (a kernel's own BACKPROP_TRACE_TIME_LIMIT), 150 two-node passes beside
    # a global of 200,000 numbers were seconds of walking for 33,000 steps, bounded by
    # nothing but that clock. Charged, they meet the step bound, checked passes and all.
    monkeypatch.setenv("BACKPROP_TRACE_TIME_LIMIT", "60")
    monkeypatch.setenv("BACKPROP_MAX_STEPS", "300000")
    source = "big = [0] * 200000\na = Value(1.0)\nb = a * 2\nfor i in range(150):\n"
    source += "    b.backward()\n"
    started = time.process_time()
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        animate(source, gradcheck=True)
    assert time.process_time() - started < 3.0
    assert "<" in animate(source.replace("200000", "20"), gradcheck=True)._repr_html_()


def test_lone_surrogates_in_a_program_make_valid_notebook_html() -> None:
    source = (
        "print('\\ud800')\nfor i in range(2):\n    pass\n"
        "v = Value(1.0, label='\\udc80')\nv.backward()\n"
    )
    animation = animate(source)
    for page in (animation._repr_html_(), animation.still_html("s1", "hint")):
        page.encode("utf-8")  # raises on a lone surrogate
