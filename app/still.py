"""A still picture of a trace's graph at its last frame, as SVG, for readers without the player.

A notebook saved with a player in it is opened later by someone whose JupyterLab
strips the player (an untrusted notebook, GitHub, nbconvert without scripts) or who
has no kernel for the widget. They still see this picture: every value as a box
with its label, operation, data and final gradient, and edges from children to
parents, laid out in columns by depth like the player (leaves on the left, the
output on the right). It is plain SVG (text, rectangles, paths; no script, no
style sheet, no link), so sanitizers keep it, and small.

Not here: the player's own layout (dagre) or any animation. Graphs past
`MAX_STILL_NODES` get no picture: it would be too large to read or to carry.

Example: `still_svg(trace_source("a = Value(3.0); b = a + a; b.backward()"))`
-> `'<svg xmlns="http://www.w3.org/2000/svg" width="…" … role="img">…'` with two boxes.
"""

from __future__ import annotations

import base64
import html
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from backprop_animator.engine.trace.narrate import fmt

MAX_STILL_NODES = 300
CHAR_WIDTH = 7.2  # px per character of 12px monospace text
BOX_HEIGHT = 44
ROW_GAP = 16
COLUMN_GAP = 56
PADDING = 12
OUTPUT_STROKE = "#b45309"


def still_svg(trace: Mapping[str, Any]) -> str | None:
    """The graph at the last frame as an SVG document, or None past MAX_STILL_NODES."""
    nodes: Sequence[Mapping[str, Any]] = trace["nodes"]
    if not nodes or len(nodes) > MAX_STILL_NODES:
        return None
    children: dict[str, list[str]] = defaultdict(list)
    for edge in trace["edges"]:
        children[edge["target"]].append(edge["source"])
    columns = depth_columns([node["id"] for node in nodes], children)
    texts = {node["id"]: box_texts(node) for node in nodes}
    width_of = {
        node_id: max(len(line) for line in lines) * CHAR_WIDTH + 16
        for node_id, lines in texts.items()
    }
    column_widths = [max(width_of[node_id] for node_id in column) for column in columns]
    tallest = max(len(column) for column in columns)
    position: dict[str, tuple[float, float]] = {}
    x = float(PADDING)
    for column, column_width in zip(columns, column_widths, strict=True):
        top = PADDING + (tallest - len(column)) * (BOX_HEIGHT + ROW_GAP) / 2
        for row, node_id in enumerate(column):
            position[node_id] = (x, top + row * (BOX_HEIGHT + ROW_GAP))
        x += column_width + COLUMN_GAP
    width = x - COLUMN_GAP + PADDING
    height = PADDING * 2 + tallest * (BOX_HEIGHT + ROW_GAP) - ROW_GAP

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}"'
        f' viewBox="0 0 {width:.0f} {height:.0f}" role="img" font-family="monospace"'
        ' font-size="12">',
        f"<title>{html.escape(still_description(trace))}</title>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
    ]
    for parent, sources in children.items():
        px, py = position[parent]
        for child in sources:
            cx, cy = position[child]
            start = (cx + width_of[child], cy + BOX_HEIGHT / 2)
            end = (px, py + BOX_HEIGHT / 2)
            middle = (start[0] + end[0]) / 2
            parts.append(
                f'<path d="M{start[0]:.1f},{start[1]:.1f} C{middle:.1f},{start[1]:.1f}'
                f' {middle:.1f},{end[1]:.1f} {end[0]:.1f},{end[1]:.1f}"'
                ' fill="none" stroke="#94a3b8" stroke-width="1.5"/>'
            )
    for node in nodes:
        node_id = node["id"]
        bx, by = position[node_id]
        stroke = OUTPUT_STROKE if node_id == trace["output"] else "#475569"
        fill = "#f1f5f9" if node["kind"] != "op" else "#ffffff"
        parts.append(
            f'<rect x="{bx:.1f}" y="{by:.1f}" width="{width_of[node_id]:.1f}"'
            f' height="{BOX_HEIGHT}" rx="6" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'
        )
        head, values = texts[node_id]
        parts.append(
            f'<text x="{bx + 8:.1f}" y="{by + 18:.1f}" fill="#0f172a" font-weight="bold">'
            f"{html.escape(head)}</text>"
            f'<text x="{bx + 8:.1f}" y="{by + 35:.1f}" fill="#334155">{html.escape(values)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def depth_columns(ids: Sequence[str], children: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Node ids in columns: a node one past its deepest child, a leaf just before its
    first user. Within a column, nodes keep the trace's order.

    Example: ids ["a", "b", "c", "d"], children {"c": ["a", "b"], "d": ["c", "b"]}
    -> [["a", "b"], ["c"], ["d"]].
    """
    depth: dict[str, int] = {}
    for root in ids:
        stack = [root]
        while stack:  # depth-first without recursion: a chain may be thousands long
            node_id = stack[-1]
            pending = [c for c in children.get(node_id, ()) if c not in depth]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            depth[node_id] = 1 + max((depth[c] for c in children.get(node_id, ())), default=-1)
    parents: dict[str, list[str]] = defaultdict(list)
    for node_id, sources in children.items():
        for child in sources:
            parents[child].append(node_id)
    for node_id in ids:  # a leaf sits just before its first user, not far left of it
        if not children.get(node_id) and parents[node_id]:
            depth[node_id] = min(depth[parent] for parent in parents[node_id]) - 1
    columns: list[list[str]] = [[] for _ in range(max(depth.values()) + 1)]
    for node_id in ids:
        columns[depth[node_id]].append(node_id)
    return columns


def box_texts(node: Mapping[str, Any]) -> tuple[str, str]:
    """The two lines of a node's box: its name (the engine's, as the player shows it) and
    operation, then data and grad."""
    name = node.get("name") or node["label"] or ("constant" if node["kind"] == "const" else "")
    head = f"{name}  ({node['op']})" if name and node["op"] else name or node["op"]
    if len(head) > 40:
        head = head[:39] + "…"
    return head, f"data {fmt(node['data'])}  grad {fmt(node['grad'])}"


def still_description(trace: Mapping[str, Any]) -> str:
    """One sentence for screen readers and the picture's title."""
    output = next(node for node in trace["nodes"] if node["id"] == trace["output"])
    name = output["label"] or "the output"
    return (
        f"The graph after backpropagation: {len(trace['nodes'])} values; {name} = "
        f"{fmt(output['data'])}, every box shows its data and final gradient."
    )


def still_image(trace: Mapping[str, Any]) -> str:
    """An `<img>` of the still (a data: URL survives sanitizers that drop inline SVG),
    or a sentence when the graph is too large to draw."""
    svg = still_svg(trace)
    if svg is None:
        return (
            f"<p>(A graph of {len(trace['nodes'])} values is too large for a still picture;"
            " the player shows it.)</p>"
        )
    encoded = base64.b64encode(svg.encode()).decode()
    return (
        f'<img class="backprop-animator-still" alt="{html.escape(still_description(trace))}"'
        f' src="data:image/svg+xml;base64,{encoded}" style="max-width: 100%; height: auto;">'
    )
