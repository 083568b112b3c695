"""The standalone export: `app.export`, `backprop-animator export` and `GET /export`."""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import running
from service_helpers import NEURON, assert_error_shape, client_for

from backprop_animator.app.export import (
    BARE_PREFIX,
    RELATIVE_IMPORT,
    bundle,
    collect_modules,
    data_url,
    json_block,
    render_standalone,
    resolve,
    rewrite_imports,
    standalone_title,
    strip_comment_lines,
)
from backprop_animator.app.main import create_app
from backprop_animator.app.paths import find_asset_dir
from backprop_animator.app.settings import Settings
from backprop_animator.engine import trace_source
from backprop_animator.engine.rules import rule_sources

SCRIPT = Path(sys.executable).parent / "backprop-animator"
PAYLOAD = "</script><img src=x onerror=alert(1)>"
HOSTILE = f"a = Value(3.0, label='{PAYLOAD}')\nb = a * 2\n"
NETWORK_LINK = re.compile(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:|//|/)""", re.IGNORECASE)


def inline_block(document: str, tag: str, attributes: str = "") -> str:
    match = re.search(rf"<{tag}{attributes}>(.*?)</{tag}>", document, flags=re.DOTALL)
    assert match, f"no <{tag}{attributes}> block"
    return match.group(1)


def data_block(document: str, element_id: str) -> Any:
    return json.loads(
        inline_block(document, "script", f' type="application/json" id="{element_id}"')
    )


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def neuron_page(**options: Any) -> str:
    return render_standalone(trace_source(NEURON), rule_sources(), title="Neuron", **options)


def test_standalone_page_links_nothing_on_the_network() -> None:
    document = neuron_page()

    assert NETWORK_LINK.findall(document) == []
    assert "<link" not in document


def test_standalone_page_carries_the_trace_rules_and_options_as_data() -> None:
    document = neuron_page(frame=15, theme="dark")

    assert data_block(document, "backprop-trace") == trace_source(NEURON)
    assert data_block(document, "backprop-rules") == rule_sources()
    assert data_block(document, "backprop-options") == {"frame": 15, "theme": "dark"}


def test_standalone_policy_allows_exactly_its_inline_blocks_and_no_connections() -> None:
    document = neuron_page()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', document)
    assert policy
    text = html.unescape(policy.group(1))
    directives = dict(part.strip().split(" ", 1) for part in text.split(";"))

    assert directives["default-src"] == "'none'"
    assert directives["connect-src"] == "'none'"
    import_map = inline_block(document, "script", ' type="importmap"')
    entry = inline_block(document, "script", ' type="module"')
    styles = inline_block(document, "style")
    assert directives["script-src"] == f"data: {sha256(import_map)} {sha256(entry)}"
    assert directives["style-src"] == sha256(styles)


def test_import_map_holds_every_module_with_no_relative_import_left() -> None:
    document = neuron_page()
    imports = json.loads(inline_block(document, "script", ' type="importmap"'))["imports"]
    modules = {
        name.removeprefix(BARE_PREFIX): urllib.parse.unquote(url.split(",", 1)[1])
        for name, url in imports.items()
    }

    assert {"js/standalone.js", "js/player/player.js", "vendor/dagre/dagre.esm.js"} <= set(modules)
    for name, text in modules.items():
        assert RELATIVE_IMPORT.search(text) is None, name
        for specifier in re.findall(rf"""["']({BARE_PREFIX}[^"']+)["']""", text):
            assert specifier in imports, f"{name} imports {specifier}, which is not in the map"


def test_data_urls_carry_each_module_unchanged_and_nothing_that_ends_a_block_or_attribute() -> None:
    text = 'const a = "%#&<\\/script>";\n\t// ü → `x`\r\n'
    url = data_url(text)
    assert urllib.parse.unquote(url.removeprefix("data:text/javascript,")) == text
    assert not set('"\\<>&#\n\r\t') & set(url.removeprefix("data:"))


def test_comment_lines_leave_the_module_but_code_and_template_text_stay() -> None:
    module = (
        "/**\n * The doc.\n */\nconst a = 1; // why\n  // a note\n"
        "/** @type {X} */ (b).c = 2;\n/* one */\nconst t = `\n// text, not a comment\n`;\n"
    )
    assert strip_comment_lines(module) == (
        "const a = 1; // why\n/** @type {X} */ (b).c = 2;\n"
        "const t = `\n// text, not a comment\n`;\n"
    )


def test_every_module_of_the_export_still_parses_without_its_comment_lines(
    tmp_path: Path,
) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed for this test (the JS unit tests need it too)")
    modules = collect_modules(find_asset_dir("static"))
    assert modules
    sent = tmp_path / "modules.json"
    sent.write_text(json.dumps(modules), encoding="utf-8")
    # One Node for all of them: each is parsed as `node --check` parses an .mjs file (a
    # module, with its early errors), not run: `vm.SourceTextModule` compiles only.
    checked = subprocess.run(
        [node, "--experimental-vm-modules", "--no-warnings", "--input-type=module", "-e",
         PARSE_EACH, str(sent)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout) == {path: "parsed" for path in modules}


# Writes {path: "parsed" or the SyntaxError} for the modules of the JSON file named.
PARSE_EACH = """
import { readFileSync } from "node:fs";
import vm from "node:vm";
const modules = JSON.parse(readFileSync(process.argv[1], "utf8"));
const out = {};
for (const [path, text] of Object.entries(modules)) {
  try {
    new vm.SourceTextModule(text, { identifier: path });
    out[path] = "parsed";
  } catch (error) {
    out[path] = String(error);
  }
}
process.stdout.write(JSON.stringify(out));
"""


def test_rewrite_imports_makes_every_relative_form_bare() -> None:
    text = (
        'import { a } from "./a.js";\nimport "./b.js";\nconst c = () => import("../vendor/c.js");'
    )

    assert rewrite_imports(text, "js/x.js") == (
        'import { a } from "backprop-animator/js/a.js";\n'
        'import "backprop-animator/js/b.js";\n'
        'const c = () => import("backprop-animator/vendor/c.js");'
    )


def test_resolve_refuses_an_import_outside_the_static_folder() -> None:
    with pytest.raises(ValueError, match="outside static"):
        resolve("js/x.js", "../../secret.js")


def test_json_block_cannot_end_its_script_element() -> None:
    assert json_block({"label": PAYLOAD}) == (
        '{"label":"\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e"}'
    )


def test_hostile_labels_and_titles_are_escaped_in_the_page() -> None:
    document = render_standalone(
        trace_source(HOSTILE), rule_sources(), title=standalone_title(HOSTILE)
    )

    assert "<img" not in document
    assert document.count("</script>") == 5  # importmap, entry and three data blocks
    labels = {node["label"] for node in data_block(document, "backprop-trace")["nodes"]}
    assert PAYLOAD in labels


def test_standalone_title_is_the_first_line_of_code() -> None:
    assert standalone_title("# a neuron\n\nx = 2.0\ny = x * 3") == "backprop-animator: x = 2.0"
    assert standalone_title("") == "backprop-animator"
    assert standalone_title("x" * 100).endswith("…")


def test_render_standalone_names_a_bad_theme() -> None:
    with pytest.raises(ValueError, match="'sepia'"):
        neuron_page(theme="sepia")


def test_bundle_is_built_once_per_process() -> None:
    assert bundle() is bundle()


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_export_command_writes_the_standalone_page(tmp_path: Path) -> None:
    target = tmp_path / "neuron.html"

    result = run("export", NEURON, "-o", str(target), "--frame", "15")

    assert result.returncode == 0, result.stderr
    document = target.read_text(encoding="utf-8")
    assert len(data_block(document, "backprop-trace")["frames"]) == 16
    assert data_block(document, "backprop-options") == {"frame": 15, "theme": "auto"}
    assert "<title>backprop-animator: x1 = 2.0</title>" in document


def test_export_command_reads_stdin_and_writes_stdout_given_dashes() -> None:
    result = run("export", "-", "-o", "-", "--granularity", "expanded", stdin=NEURON)

    assert result.returncode == 0, result.stderr
    assert len(data_block(result.stdout, "backprop-trace")["frames"]) == 29


def test_export_command_of_a_bad_program_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "bad.html"

    result = run("export", "a = Value(1.0)\nb = a * w3\n", "-o", str(target))

    assert result.returncode == 2
    assert "line 2, column 9" in result.stderr
    assert not target.exists()


@pytest.mark.parametrize(
    "args",
    [("export", "a"), ("export", "a", "-o", "x.html", "--frame", "-1")],
    ids=["no output", "negative frame"],
)
def test_export_command_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    result = run(*args)

    assert result.returncode == 2
    assert "usage: backprop-animator" in result.stderr


@pytest.mark.anyio
async def test_export_route_downloads_the_page_and_may_not_be_framed(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/export", params={"source": NEURON, "frame": 5})

    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-disposition"] == (
        'attachment; filename="backprop-animator.html"'
    )
    assert response.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert "connect-src 'none'" in response.headers["content-security-policy"]
    assert data_block(response.text, "backprop-options") == {"frame": 5, "theme": "auto"}


@pytest.mark.anyio
async def test_export_route_refuses_a_bad_program_with_the_api_error(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/export", params={"source": "a = w"})

    error = assert_error_shape(response, 400)
    assert (error["line"], error["column"]) == (1, 5)


@pytest.mark.anyio
async def test_export_route_escapes_a_hostile_program(client: httpx.AsyncClient) -> None:
    response = await client.get("/export", params={"source": HOSTILE})

    assert response.status_code == 200
    assert "<img" not in response.text


@pytest.mark.anyio
@pytest.mark.parametrize(("path", "frameable"), [("/embed", True), ("/", False)])
async def test_only_the_embed_page_may_be_framed(
    client: httpx.AsyncClient, path: str, frameable: bool
) -> None:
    response = await client.get(path, params={"source": HOSTILE})

    policy = response.headers["content-security-policy"]
    assert ("frame-ancestors *" in policy) is frameable
    assert ("x-frame-options" not in response.headers) is frameable
    assert "<img" not in response.text  # the page never echoes the program


@pytest.mark.anyio
async def test_export_route_renders_the_page_in_a_worker_not_in_the_server(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def not_here(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("the server process rendered an export")

    monkeypatch.setattr("backprop_animator.app.export.render_standalone", not_here)

    response = await client.get("/export", params={"source": NEURON, "frame": 3})

    assert response.status_code == 200, response.text
    assert data_block(response.text, "backprop-options") == {"frame": 3, "theme": "auto"}
    assert response.text == render_standalone(
        trace_source(NEURON), rule_sources(), title=standalone_title(NEURON), frame=3
    )


@pytest.mark.anyio
async def test_export_route_sends_the_page_gzipped_from_the_worker(
    client: httpx.AsyncClient,
) -> None:
    request = client.build_request("GET", "/export", params={"source": NEURON})
    request.headers["Accept-Encoding"] = "gzip"

    response = await client.send(request, stream=True)
    raw = b"".join([chunk async for chunk in response.aiter_raw()])

    assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(raw).startswith(b"<!doctype html>")


@pytest.mark.anyio
async def test_an_export_heavier_than_its_limit_is_refused_naming_the_variable() -> None:
    settings = Settings(trace_workers=1, max_export_trace_bytes=2_500)
    async for app in running(create_app(settings)):
        async with client_for(app) as client:
            small = await client.get("/export", params={"source": "a = Value(1.0)\na + a"})
            large = await client.get("/export", params={"source": NEURON})

    assert small.status_code == 200
    error = assert_error_shape(large, 400)
    assert "BACKPROP_MAX_EXPORT_BYTES" in str(error["message"])
