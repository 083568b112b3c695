"""The player in Jupyter, or in a file, from Python: `animate(program or Value)`.

`animate` takes a program of the input language, or the output of a graph built in
Python with `engine.Value` or any micrograd-compatible engine (objects with
`data`, `grad`, `_prev`, `_op`, `_backward`, optionally `label`), and returns an
`Animation`. `.save(path)` writes the standalone export (`app.export`) as a file.

In a notebook it shows two outputs. First a still picture of the graph at the last
frame (`app.still`) with a sentence on how to get the player back: that is what a
reader without the kernel sees (an untrusted notebook, GitHub, nbconvert), and all
a saved notebook carries per player (a few kilobytes). Then the player as an
anywidget (`app.widget`), whose `frame` Python can read and set; it hides the still
while it runs. Without anywidget, one HTML output instead: the standalone page in a
sandboxed `<iframe srcdoc>` (several players share no ids, styles or scripts, and
nothing is fetched), with that sentence inside the iframe element, where it shows
only when a sanitizer has stripped the frame, and the still below it, which the
output's script hides when scripts run.

Example:
    >>> from backprop_animator import animate
    >>> a = animate("a = Value(3.0); b = a + a; b.backward()")
    >>> len(a.trace["frames"])
    4
"""

from __future__ import annotations

import html
import importlib
import inspect
import os
import uuid
from pathlib import Path
from typing import Any

from backprop_animator.app.atomic_file import write_text_atomically
from backprop_animator.app.export import render_standalone, standalone_title
from backprop_animator.app.page_constants import height_listener, js_constant
from backprop_animator.app.still import still_image
from backprop_animator.app.widget import player_widget
from backprop_animator.engine import Limits, trace_value, trace_with_check
from backprop_animator.engine.lab.gradcheck import gradcheck_graph
from backprop_animator.engine.rules import rule_sources
from backprop_animator.engine.value import Value

WIDGET_HINT = (
    "A still picture of the graph after backpropagation. The player is a widget: "
    "run this cell to play it."
)
STILL_CAPTION = "The graph after backpropagation, as a still picture."
RESTORE_HINT = (
    "This is a backprop-animator player. It is not shown here because this notebook "
    "is not trusted or its widgets are not running: trust the notebook or run its cells "
    "again to play it."
)
# Shows the still again when the frame cannot run, hides it when it can; sizes the frame.
FALLBACK_SCRIPT = """<script>
(() => {
  const frame = document.getElementById("%(id)s");
  const still = document.querySelector('[data-backprop-still="%(id)s"]');
  if (frame && still) still.hidden = true;
})();
%(listener)s</script>"""


def default_height() -> int:
    height: int = js_constant("hosts/frame-messages.js", "DEFAULT_FRAME_HEIGHT")
    return height


class Animation:
    """A traced program, ready to show: in a notebook, as a file (`save`), as a widget.

    `frame` is where the player is: set it to move the player, read it to see where the
    learner went (live once the widget is shown). `options` are the export's player
    options (`theme`, …), passed through `render_standalone` unchanged.
    """

    def __init__(
        self,
        trace: dict[str, Any],
        *,
        title: str,
        frame: int = 0,
        height: int | None = None,
        **options: Any,
    ) -> None:
        self.trace = trace
        self.title = title
        self.height = height or default_height()
        self.options = options
        self._frame = self._clamp(frame)
        self._widget: Any | None = None
        self._still_id = new_id()

    @property
    def frame(self) -> int:
        if self._widget is not None:
            self._frame = int(self._widget.frame)
        return self._frame

    @frame.setter
    def frame(self, value: int) -> None:
        self._frame = self._clamp(value)
        if self._widget is not None:
            self._widget.frame = self._frame

    @property
    def quiz(self) -> bool:
        """Whether the player asks for each gradient before showing it (SPEC §10)."""
        return bool(self.options.get("quiz", False))

    @property
    def gradcheck(self) -> dict[str, Any] | None:
        """The gradient check the player's panel shows, if one was asked for (SPEC §7)."""
        check: dict[str, Any] | None = self.options.get("gradcheck")
        return check

    def _clamp(self, frame: int) -> int:
        return min(max(0, int(frame)), len(self.trace["frames"]) - 1)

    def to_html(self) -> str:
        """The standalone page (the same file `backprop-animator export` writes)."""
        return render_standalone(
            self.trace,
            rule_sources(),
            title=self.title,
            frame=self.frame,
            mistake=self.trace.get("mistake"),
            sort_steps=any("step" in frame for frame in self.trace["frames"]),
            **self.options,
        )

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the standalone page to `path`; returns the path. A write that fails
        leaves any file already there as it was."""
        return write_text_atomically(path, self.to_html())

    def widget(self) -> Any | None:
        """The anywidget of this player (one per Animation), or None without anywidget.

        In marimo: `mo.ui.anywidget(animate(...).widget())`.
        """
        if self._widget is None:
            self._widget = player_widget(
                self.to_html(),
                title=self.title,
                frame=self._frame,
                frame_count=len(self.trace["frames"]),
                height=self.height,
                still_id=self._still_id,
            )
        return self._widget

    def still_html(self, still_id: str, hint: str) -> str:
        """The still picture of the last frame with `hint`, for readers without the player."""
        return (
            f'<div class="backprop-animator-fallback" data-backprop-still="{still_id}">'
            f"{still_image(self.trace)}<p>{html.escape(hint)}</p></div>"
        )

    def _ipython_display_(self) -> None:
        # IPython is there whenever this is called; importing it here keeps it optional.
        display: Any = importlib.import_module("IPython.display").display
        widget = self.widget()
        if widget is None:
            display({"text/html": self._repr_html_(), "text/plain": repr(self)}, raw=True)
            return
        still = self.still_html(self._still_id, WIDGET_HINT)
        display({"text/html": still, "text/plain": repr(self)}, raw=True)
        display(widget)

    def _repr_html_(self) -> str:
        """The player without anywidget: the page in a sandboxed `<iframe srcdoc>`."""
        frame_id = new_id()
        # A sandboxed frame of its own: an opaque origin, so it reaches neither the
        # notebook's cookies nor its DOM; scripts still run, and postMessage sizes it.
        # Not loading="lazy": JupyterLab's output area never starts a lazy srcdoc frame.
        iframe = (
            f'<iframe id="{frame_id}" class="backprop-animator" data-testid="player-frame" '
            f'sandbox="allow-scripts" '
            f'title="{html.escape(self.title)}" srcdoc="{srcdoc_attribute(self.to_html())}" '
            f'style="width: 100%; height: {int(self.height)}px; border: 0;">'
            f"{html.escape(RESTORE_HINT)}</iframe>"
        )
        script = FALLBACK_SCRIPT % {"id": frame_id, "listener": height_listener()}
        return f"<div>{iframe}{self.still_html(frame_id, STILL_CAPTION)}{script}</div>"

    def __repr__(self) -> str:
        frames = len(self.trace["frames"])
        return f"<Animation {self.title!r}: {len(self.trace['nodes'])} nodes, {frames} frames>"


def new_id() -> str:
    return f"backprop-animator-{uuid.uuid4().hex}"


def srcdoc_attribute(page: str) -> str:
    """`page` escaped for a double-quoted attribute: only `&` and `"` need it, so the
    page's `<` and `>` stay one character each (the notebook file stays smaller)."""
    return page.replace("&", "&amp;").replace('"', "&quot;")


def animate(
    program: Any,
    *,
    granularity: str = "packed",
    frame: int = 0,
    title: str | None = None,
    height: int | None = None,
    quiz: bool = False,
    mistake: str | None = None,
    sort_steps: bool = False,
    gradcheck: bool = False,
    **options: Any,
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
    the gradient-check panel (programs and `engine.Value` graphs). Other `options` go to
    the player as the export takes them (`theme="dark"`).
    """
    if not isinstance(quiz, bool):
        raise TypeError(f"quiz must be True or False, not {quiz!r}")
    check = None
    # The kernel has no worker to kill: the engine's own bounds, time included, are what
    # stop a program that never ends or a graph too big to trace (BACKPROP_* variables,
    # as everywhere).
    limits = Limits.from_env()
    if isinstance(program, str):
        trace, check = trace_with_check(
            program,
            granularity,
            limits,
            mistake=mistake,
            sort_steps=sort_steps,
            gradcheck=gradcheck,
        )
        default_title = standalone_title(program)
    elif isinstance(program, Value) or _looks_like_a_value(program):
        if gradcheck and not isinstance(program, Value):
            raise TypeError(
                "gradcheck=True needs a program or an engine.Value graph: another engine's "
                "forward pass cannot be recomputed here"
            )
        trace = trace_value(program, limits=limits, mistake=mistake, sort_steps=sort_steps)
        if gradcheck:
            check = gradcheck_graph(program, limits, mistake=mistake)
        output = next(node for node in trace["nodes"] if node["id"] == trace["output"])
        prefix = js_constant("hosts/program-title.js", "TITLE_PREFIX")
        default_title = f"{prefix}: {output['label'] or 'a graph from Python'}"
    else:
        raise TypeError(
            "animate() takes a program (str) or a Value-like output "
            f"(with data, grad, _prev, _op, _backward), not {type(program).__name__}"
        )
    check_player_options(options)
    return Animation(
        trace,
        title=title or default_title,
        frame=frame,
        height=height,
        quiz=quiz,
        gradcheck=check,
        **options,
    )


def check_player_options(options: dict[str, Any]) -> None:
    """Refuse, at once, an option the export does not take (rather than at display time)."""
    named = ("title", "frame", "quiz", "mistake", "sort_steps", "gradcheck")  # animate's own
    accepted = {
        name
        for name, parameter in inspect.signature(render_standalone).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and name not in named
    }
    unknown = sorted(set(options) - accepted)
    if unknown:
        raise TypeError(
            f"animate() got an unknown option {unknown[0]!r}; it takes granularity, frame, "
            f"title, height, quiz, mistake, sort_steps, gradcheck and {', '.join(sorted(accepted))}"
        )


def _looks_like_a_value(candidate: Any) -> bool:
    return all(hasattr(candidate, name) for name in ("data", "grad", "_prev", "_op", "_backward"))
