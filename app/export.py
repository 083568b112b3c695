"""One self-contained HTML file that plays a trace with no server and no network.

`render_standalone(trace, rules, title=...)` inlines everything the player needs:
the trace and the engine's rule sources as JSON data blocks, the CSS in one
`<style>`, and every ES module the entry (`static/js/standalone.js`) reaches as a
`data:` URL in an import map. Browsers refuse to load modules from `file://`, and a
module loaded from a `data:` URL cannot resolve `./svg.js` against its own URL, so
each relative import is rewritten to a bare name (`backprop-animator/js/player/svg.js`)
that the import map resolves. The page's own Content-Security-Policy allows exactly
those inline blocks (by hash) and `data:` scripts, and no connections at all.

Used by `backprop-animator export`, `GET /export` and notebooks (`app.notebook`).
Not here: tracing (the caller passes a finished trace).

Example: `rewrite_imports('import { html } from "./svg.js";', "js/player/player.js")`
-> `'import { html } from "backprop-animator/js/player/svg.js";'`.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader

from backprop_animator.app import __version__
from backprop_animator.app.page_constants import js_constant
from backprop_animator.app.paths import find_asset_dir
from backprop_animator.app.security import csp_hash
from backprop_animator.engine.trace.text import clean_text

ENTRY = "js/standalone.js"
STYLESHEETS = (
    "css/player.css",
    "css/quiz.css",
    "css/lab.css",
    "css/passes.css",
    "css/document.css",
    "css/standalone.css",
)
BARE_PREFIX = "backprop-animator/"
# Third-party modules and the licence files that travel with them.
LICENCES = {"vendor/dagre/dagre.esm.js": ("vendor/dagre/LICENSE", "vendor/dagre/LICENSE.graphlib")}

# `from "./x.js"`, `import "./x.js"` and `import("./x.js")`: the forms our modules use.
RELATIVE_IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"'\s]+)\2""")
ENTRY_SCRIPT = f'import "{BARE_PREFIX}{ENTRY}";'


def rewrite_imports(text: str, path: str) -> str:
    """The module at `path` (relative to static/) with its relative imports made bare."""

    def bare(match: re.Match[str]) -> str:
        keyword, quote, specifier = match.groups()
        return f"{keyword}{quote}{BARE_PREFIX}{resolve(path, specifier)}{quote}"

    return RELATIVE_IMPORT.sub(bare, text)


def resolve(path: str, specifier: str) -> str:
    """A module's import as a path in static/.

    Example: `resolve("js/layout/layout-runner.js", "../../vendor/dagre/dagre.esm.js")`
    -> `"vendor/dagre/dagre.esm.js"`.
    """
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), specifier))
    if resolved.startswith("../"):
        raise ValueError(f"{path} imports {specifier!r}, which is outside static/")
    return resolved


def collect_modules(static_dir: Path, entry: str = ENTRY) -> dict[str, str]:
    """Every module `entry` reaches, statically or by `import()`, as {path: rewritten text}.

    JSDoc type imports (`import("./timeline.js").Timeline`) count too: they name real
    modules, and carrying one more is cheaper than parsing comments.
    """
    modules: dict[str, str] = {}
    pending = [entry]
    while pending:
        path = pending.pop()
        if path in modules:
            continue
        file = static_dir / path
        if not file.is_file():
            raise FileNotFoundError(f"the player's module {path} is missing from {static_dir}")
        text = file.read_text(encoding="utf-8")
        own = path.startswith("js/")  # vendored files keep their comments (licences)
        modules[path] = rewrite_imports(strip_comment_lines(text) if own else text, path)
        pending.extend(resolve(path, match[3]) for match in RELATIVE_IMPORT.finditer(text))
    return dict(sorted(modules.items()))


def data_url(text: str) -> str:
    """A `data:` URL of a module, percent-encoding only what a URL or the import map's
    JSON would otherwise change or end (about 5 % larger than the text, not base64's 33 %).

    Example: `data_url('a("%")\\n')` -> `'data:text/javascript,a(%22%25%22)%0A'`.
    """
    return "data:text/javascript," + URL_UNSAFE.sub(lambda m: f"%{ord(m[0]):02X}", text)


# `%` and `#` mean something in a URL, a URL drops tabs and newlines, `"` and `\` would be
# escaped in JSON, `&` in an attribute (notebooks put the page in `srcdoc`), and `<` could
# end the inline block.
URL_UNSAFE = re.compile(r'[%#"\\\t\n\r&<>\x00-\x1f\x7f]')


def strip_comment_lines(text: str) -> str:
    """The module without its lines that are only comments (`//…` and `/* … */` blocks that
    start a line), which are a fifth of the player's code; a comment after code stays,
    and so does anything inside a multi-line template literal.

    Example: `strip_comment_lines("/**\\n * Doc.\\n */\\nconst a = 1; // one\\n")`
    -> `"const a = 1; // one\\n"`.
    """
    kept = []
    in_block = in_template = False
    for line in text.splitlines(keepends=True):
        bare = line.strip()
        if in_block:
            end = line.find("*/")
            if end < 0:
                continue
            in_block = False
            line = line[end + 2 :]
            bare = line.strip()
            if not bare:
                continue
        elif not in_template and bare.startswith("//"):
            continue
        elif not in_template and bare.startswith("/*"):
            end = bare.find("*/", 2)
            if end < 0:
                in_block = True
                continue
            if end == len(bare) - 2:
                continue  # `/** @type {X} */ (value)` is code after a comment: kept
        kept.append(line)
        if line.count("`") % 2:
            in_template = not in_template
    return "".join(kept)


def json_block(value: Any) -> str:
    """JSON that is safe inside `<script type="application/json">`: no `<`, `>` or `&`.

    Example: `json_block({"s": "</script>"}) == '{"s":"\\\\u003c/script\\\\u003e"}'`.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if not text.isascii():
        # A lone surrogate (`"\ud800"`) cannot be written as UTF-8; see engine.trace.text.
        text = clean_text(text)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def licence_notice(static_dir: Path, modules: Mapping[str, str]) -> str:
    """The third-party licences of the inlined modules, for an HTML comment."""
    parts = []
    for module, files in LICENCES.items():
        if module in modules:
            texts = "\n".join((static_dir / file).read_text(encoding="utf-8") for file in files)
            parts.append(f"{module} is inlined below under these terms:\n{texts}")
    return "\n".join(parts).replace("--", "- -")


class Bundle:
    """What every export shares: styles, import map, entry, their hashes, the policy."""

    def __init__(self, static_dir: Path) -> None:
        modules = collect_modules(static_dir)
        self.styles = "\n".join(
            (static_dir / path).read_text(encoding="utf-8") for path in STYLESHEETS
        )
        if "</style" in self.styles.lower():
            raise ValueError("a stylesheet contains </style, which would end the inline block")
        imports = {BARE_PREFIX + path: data_url(text) for path, text in modules.items()}
        self.import_map = json.dumps({"imports": imports}, indent=1)
        self.entry = ENTRY_SCRIPT
        self.licences = licence_notice(static_dir, modules)
        self.policy = "; ".join(
            [
                "default-src 'none'",
                f"script-src data: {csp_hash(self.import_map)} {csp_hash(self.entry)}",
                f"style-src {csp_hash(self.styles)}",
                "img-src data:",
                "connect-src 'none'",
                "worker-src 'none'",
                "object-src 'none'",
                "base-uri 'none'",
                "form-action 'none'",
            ]
        )


@cache
def bundle(static_dir: Path | None = None) -> Bundle:
    return Bundle(static_dir or find_asset_dir("static"))


@cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(find_asset_dir("templates")),
        autoescape=True,
        keep_trailing_newline=True,
    )


def standalone_title(source: str) -> str:
    """A page title from the program's first line of code: static/js/hosts/program-title.js's
    rule, with its prefix and length.

    Example: `standalone_title("# neuron\\no = tanh(x)")
    == "backprop-animator: o = tanh(x)"`.
    """
    prefix = js_constant("hosts/program-title.js", "TITLE_PREFIX")
    limit = js_constant("hosts/program-title.js", "TITLE_MAX_CHARS")
    lines = (line.strip() for line in re.split(r"\r?\n", source))
    first = next((line for line in lines if line and not line.startswith("#")), "")
    if len(first) > limit:
        first = first[: limit - 1] + "…"
    return f"{prefix}: {first}" if first else str(prefix)


def export_options(frame: int, theme: str, quiz: bool) -> dict[str, Any]:
    """The player's options as the page reads them; `quiz` only when on, so files
    exported without it stay as they were.

    Example: `export_options(3, "dark", True) == {"frame": 3, "theme": "dark", "quiz": True}`.
    """
    options: dict[str, Any] = {"frame": max(0, frame), "theme": theme}
    if quiz:
        options["quiz"] = True
    return options


def render_standalone(
    trace: Mapping[str, Any],
    rules: Mapping[str, str],
    *,
    title: str,
    frame: int = 0,
    theme: str = "auto",
    quiz: bool = False,
    mistake: str | None = None,
    sort_steps: bool = False,
    gradcheck: Mapping[str, Any] | None = None,
) -> str:
    """The whole HTML document. `frame` is where it opens (past the end: the last frame);
    `theme` is `auto` (the reader's system setting), `light` or `dark`; `quiz` turns the
    player into the quiz of SPEC §10.

    `mistake` and `sort_steps` say which options the trace was made with, and
    `gradcheck` is a finished gradient check (`engine.gradcheck_source`) to show in the
    panel; each goes into the options block only when set, as
    `{"mistake": …, "sort_steps": true, "gradcheck": {"output", "checks"}}`.
    """
    if theme not in ("auto", "light", "dark"):
        raise ValueError(f"theme must be auto, light or dark, not {theme!r}")
    options = export_options(frame, theme, quiz)
    if mistake is not None:
        options["mistake"] = mistake
    if sort_steps:
        options["sort_steps"] = True
    if gradcheck is not None:
        options["gradcheck"] = dict(gradcheck)
    shared = bundle()
    template = environment().get_template("export.html")
    return template.render(
        title=clean_text(title),
        version=__version__,
        policy=shared.policy,
        styles=shared.styles,
        import_map=shared.import_map,
        entry=shared.entry,
        licences=shared.licences,
        trace_json=json_block(trace),
        rules_json=json_block(dict(rules)),
        options_json=json_block(options),
    )
