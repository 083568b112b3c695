"""The still picture of a trace's last frame (`app.still`)."""

from __future__ import annotations

import base64
import re
from xml.etree import ElementTree

from service_helpers import NEURON

from backprop_animator.app.still import MAX_STILL_NODES, depth_columns, still_image, still_svg
from backprop_animator.engine import trace_source

SVG = "{http://www.w3.org/2000/svg}"
PAYLOAD = "</text><script>alert(1)</script><foreignObject>"


def texts(svg: str) -> list[str]:
    return [element.text or "" for element in ElementTree.fromstring(svg).iter(f"{SVG}text")]


def test_every_value_is_a_box_with_its_data_and_final_gradient() -> None:
    trace = trace_source(NEURON)
    svg = still_svg(trace)
    assert svg is not None

    assert len(ElementTree.fromstring(svg).findall(f"{SVG}rect")) == 1 + len(trace["nodes"])
    for label, grad in {"x1": "−1.5", "w1": "1", "x2": "0.5", "w2": "0", "b": "0.5"}.items():
        box = texts(svg).index(label)
        assert texts(svg)[box + 1].endswith(f"grad {grad}")


def test_each_edge_of_the_trace_is_one_path() -> None:
    trace = trace_source("a = Value(3.0)\nb = a + a\nb.backward()")
    svg = still_svg(trace)
    assert svg is not None
    assert len(ElementTree.fromstring(svg).findall(f"{SVG}path")) == len(trace["edges"]) == 2


def test_a_hostile_label_stays_text_in_well_formed_svg() -> None:
    svg = still_svg(trace_source(f"a = Value(1.0, label='{PAYLOAD[:30]}')\nb = a * 2"))
    assert svg is not None
    assert "<script" not in svg and "<foreignObject" not in svg
    assert any(text.startswith("</text><script>") for text in texts(svg))


def test_columns_follow_depth_with_leaves_just_before_their_first_user() -> None:
    children = {"c": ["a", "b"], "d": ["c", "k"]}
    assert depth_columns(["a", "b", "c", "d", "k"], children) == [["a", "b"], ["c", "k"], ["d"]]


def test_a_long_chain_is_laid_out_without_recursion() -> None:
    ids = [f"n{i}" for i in range(5000)]
    children = {ids[i]: [ids[i - 1]] for i in range(1, 5000)}
    assert len(depth_columns(list(reversed(ids)), children)) == 5000


def test_a_graph_too_large_to_read_gets_a_sentence_not_a_picture() -> None:
    source = "x = Value(1.0)\n" + "".join("x = x * 1.01\n" for _ in range(MAX_STILL_NODES))
    trace = trace_source(source)
    assert still_svg(trace) is None
    assert "too large for a still picture" in still_image(trace)


def test_the_image_is_a_data_url_with_a_description() -> None:
    image = still_image(trace_source(NEURON))
    match = re.search(r'alt="([^"]+)" src="data:image/svg\+xml;base64,([^"]+)"', image)
    assert match
    assert "10 values" in match.group(1)
    assert base64.b64decode(match.group(2)).startswith(b"<svg ")


def test_an_unlabelled_value_is_named_as_the_player_names_it() -> None:
    trace = trace_source("a = 2.0\nb = -3.0\no = (a*b).tanh()\no.backward()")
    unnamed = next(node for node in trace["nodes"] if node["op"] == "*")
    assert not unnamed["label"] and unnamed["name"]
    assert f"{unnamed['name']}  (*)" in texts(still_svg(trace) or "")
