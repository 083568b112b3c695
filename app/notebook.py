"""The player in Jupyter, or in a file, from Python: `animate(program or Value)`.

`animate` takes a program of the input language, or the output of a graph built in
Python with `engine.Value` or any micrograd-compatible engine (objects with
`data`, `grad`, `_prev`, `_op`, `_backward`, optionally `label`), and returns an
`Animation`. Jupyter shows it inline through `_repr_html_`: the standalone export
(`app.export`) inside an `<iframe srcdoc>`, so several players in one notebook
share no ids, styles or scripts, and nothing is fetched. `.save(path)` writes the
same page as a file.

Example:
    >>> from backprop_animator import animate
    >>> a = animate("a = Value(3.0); b = a + a; b.backward()")
    >>> len(a.trace["frames"])
    4
"""

from __future__ import annotations

import html
import os
import uuid
from pathlib import Path
from typing import Any

from app.atomic_file import write_text_atomically
from app.export import render_standalone, standalone_title
from engine import gradcheck_source, trace_source, trace_value
from engine.gradcheck import gradcheck_graph
from engine.rules import rule_sources
from engine.value import Value

DEFAULT_HEIGHT = 760
# The frame reports its content's height (static/js/embed-height.js); this sizes it.
RESIZE_SCRIPT = """<script>
(() => {
  const frame = document.getElementById("%(id)s");
  addEventListener("message", (event) => {
    const data = event.data;
    if (!frame || event.source !== frame.contentWindow) return;
    if (data && data.type === "backprop-animator:height") frame.style.height = data.height + "px";
  });
})();
</script>"""


class Animation:
    """A traced program, ready to show: `_repr_html_` for Jupyter, `save` for a file."""

    def __init__(
        self,
        trace: dict[str, Any],
        *,
        title: str,
        frame: int = 0,
        height: int = DEFAULT_HEIGHT,
        quiz: bool = False,
        gradcheck: dict[str, Any] | None = None,
    ) -> None:
        self.trace = trace
        self.title = title
        self.frame = frame
        self.height = height
        self.quiz = quiz
        self.gradcheck = gradcheck  # the gradient check shown in the panel, if asked for

    def to_html(self) -> str:
        """The standalone page (the same file `backprop-animator export` writes)."""
        return render_standalone(
            self.trace,
            rule_sources(),
            title=self.title,
            frame=self.frame,
            quiz=self.quiz,
            mistake=self.trace.get("mistake"),
            sort_steps=any("step" in frame for frame in self.trace["frames"]),
            gradcheck=self.gradcheck,
        )

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the standalone page to `path`; returns the path. A write that fails
        leaves any file already there as it was."""
        return write_text_atomically(path, self.to_html())

    def _repr_html_(self) -> str:
        frame_id = f"backprop-animator-{uuid.uuid4().hex}"
        # A sandboxed frame of its own: an opaque origin, so it reaches neither the
        # notebook's cookies nor its DOM; scripts still run, and postMessage sizes it.
        iframe = (
            f'<iframe id="{frame_id}" class="backprop-animator" sandbox="allow-scripts" '
            f'title="{html.escape(self.title)}" srcdoc="{html.escape(self.to_html())}" '
            f'style="width: 100%; height: {int(self.height)}px; border: 0;"></iframe>'
        )
        return f"<div>{iframe}{RESIZE_SCRIPT % {'id': frame_id}}</div>"

    def __repr__(self) -> str:
        frames = len(self.trace["frames"])
        return f"<Animation {self.title!r}: {len(self.trace['nodes'])} nodes, {frames} frames>"


def animate(
    program: Any,
    *,
    granularity: str = "packed",
    frame: int = 0,
    title: str | None = None,
    height: int = DEFAULT_HEIGHT,
    quiz: bool = False,
    mistake: str | None = None,
    sort_steps: bool = False,
    gradcheck: bool = False,
) -> Animation:
    """Trace `program` and return an `Animation` of it.

    `program` is source text (SPEC §2), or a `Value` output built in Python, with
    `engine.Value` or a micrograd-compatible engine: its gradients are reset and
    recomputed, and hold the final ones afterwards. `granularity` applies to source
    text only (a graph from Python is shown as it was built). Raises
    `engine.EngineError` for a bad program or option and `TypeError` for anything else.
    `quiz=True` asks the learner for each gradient before showing it (SPEC §10); in
    Jupyter its scores are posted to the notebook page as `backprop-animator:quiz`
    messages. `mistake` runs a bug-lab engine (`"assign"`, `"append-first"`,
    `"no-sort"`), `sort_steps=True` shows the sort call by call, `gradcheck=True` adds
    the gradient-check panel (programs and `engine.Value` graphs).
    """
    if not isinstance(quiz, bool):
        raise TypeError(f"quiz must be True or False, not {quiz!r}")
    check = None
    if isinstance(program, str):
        trace = trace_source(program, granularity, mistake=mistake, sort_steps=sort_steps)
        default_title = standalone_title(program)
        if gradcheck:
            check = gradcheck_source(program, granularity, mistake=mistake)
    elif isinstance(program, Value) or _looks_like_a_value(program):
        if gradcheck and not isinstance(program, Value):
            raise TypeError(
                "gradcheck=True needs a program or an engine.Value graph: another engine's "
                "forward pass cannot be recomputed here"
            )
        trace = trace_value(program, mistake=mistake, sort_steps=sort_steps)
        if gradcheck:
            check = gradcheck_graph(program, mistake=mistake)
        output = next(node for node in trace["nodes"] if node["id"] == trace["output"])
        default_title = f"backprop-animator: {output['label'] or 'a graph from Python'}"
    else:
        raise TypeError(
            "animate() takes a program (str) or a Value-like output "
            f"(with data, grad, _prev, _op, _backward), not {type(program).__name__}"
        )
    return Animation(
        trace,
        title=title or default_title,
        frame=frame,
        height=height,
        quiz=quiz,
        gradcheck=check,
    )


def _looks_like_a_value(candidate: Any) -> bool:
    return all(hasattr(candidate, name) for name in ("data", "grad", "_prev", "_op", "_backward"))
