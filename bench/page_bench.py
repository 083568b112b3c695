"""How fast the player page is in headless Chromium, on a ~2,000-node MLP-like program.

Prints: the trace request alone; Run -> graph drawn (median and worst of several
runs, the first one cold); scrubbing to random frames (p50/p95 of the update
itself and of the time to the next painted frame), then again with the table of
values open; and the two layouts on the same
graph (dagre vs the fast layered one), which is why big graphs do not use dagre.
Targets from issue 4: Run -> drawn <= 1.5 s, scrubbing p95 <= 50 ms.

Usage: .venv/bin/python bench/page_bench.py [--nodes 2000] [--runs 5] [--scrubs 200]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.harness import CHROMIUM_ARGS, live_server
from bench.programs import mlp_program

RUN_AND_WAIT = """async (source) => {
  const editor = document.querySelector('[data-testid=source]');
  editor.value = source;
  const before = document.querySelector('.player');
  const started = performance.now();
  document.querySelector('[data-testid=run]').click();
  await new Promise((resolve) => {
    const check = () => {
      const player = document.querySelector('.player');
      const ready = document.querySelector('#player[data-ready=true]');
      if (player && player !== before && ready) resolve();
      else requestAnimationFrame(check);
    };
    check();
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return {millis: performance.now() - started, nodes: document.querySelectorAll('.node').length,
          counter: document.querySelector('[data-testid=frame-counter]').textContent};
}"""

SCRUB = """async (count) => {
  const scrubber = document.querySelector('[data-testid=scrubber]');
  const frames = Number(scrubber.max) + 1;
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const update = [], paint = [];
  for (let i = 0; i < count; i++) {
    const k = Math.floor(random() * frames);
    const started = performance.now();
    scrubber.value = String(k);
    scrubber.dispatchEvent(new Event('input', {bubbles: true}));
    document.querySelector('.graph-svg').getBoundingClientRect();
    update.push(performance.now() - started);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    paint.push(performance.now() - started);
    const shown = document.querySelector('[data-testid=frame-counter]').textContent;
    if (shown !== `${k + 1} / ${frames}`) {
      throw new Error(`scrubbed to ${k} but the counter shows ${shown}`);
    }
  }
  return {update, paint};
}"""

LAYOUTS = """async () => {
  const {layoutGraph, layoutInput, dagreLayout} = await import('/static/js/layout.js');
  const dagre = (await import('/static/vendor/dagre/dagre.esm.js')).default;
  const source = document.querySelector('[data-testid=source]').value;
  const response = await fetch('/api/trace', {method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({source, granularity: 'packed'})});
  const input = layoutInput(await response.json());
  let started = performance.now();
  layoutGraph(input);
  const layered = performance.now() - started;
  started = performance.now();
  dagreLayout(dagre, input);
  return {layered, dagre: performance.now() - started};
}"""

TRACE_ONLY = """async (source) => {
  const started = performance.now();
  const response = await fetch('/api/trace', {method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({source, granularity: 'packed'})});
  const text = await response.text();
  return {millis: performance.now() - started, bytes: text.length, status: response.status};
}"""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scrubs", type=int, default=200)
    parser.add_argument(
        "--skip-dagre", action="store_true", help="do not time dagre on the big graph"
    )
    args = parser.parse_args()
    source = mlp_program(args.nodes)
    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    with live_server() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(f"{base}/")
        page.wait_for_selector("#player[data-ready=true]")
        trace = page.evaluate(TRACE_ONLY, source)
        print(f"program: {args.nodes}-node target, {len(source.splitlines())} lines")
        print(f"trace request alone: {trace['millis']:.0f} ms, {trace['bytes'] / 1e6:.2f} MB JSON")
        runs = []
        for _ in range(args.runs):
            result = page.evaluate(RUN_AND_WAIT, source)
            runs.append(result["millis"])
        print(f"graph: {result['nodes']} values, {result['counter'].split(' / ')[1]} frames")
        print(
            f"Run -> graph drawn: median {statistics.median(runs):.0f} ms, "
            f"worst {max(runs):.0f} ms, "
            f"first (cold) {runs[0]:.0f} ms  [target <= 1500 ms]"
        )
        scrub = page.evaluate(SCRUB, args.scrubs)
        print(
            f"scrub to random frames ({args.scrubs}): "
            f"update p50 {percentile(scrub['update'], 0.5):.1f} ms, "
            f"p95 {percentile(scrub['update'], 0.95):.1f} ms; to next paint p50 "
            f"{percentile(scrub['paint'], 0.5):.1f} ms, "
            f"p95 {percentile(scrub['paint'], 0.95):.1f} ms  "
            "[target p95 <= 50 ms]"
        )
        page.locator(".node-table summary").click()
        table = page.evaluate(SCRUB, args.scrubs)
        print(
            f"scrub with the table of values open: "
            f"update p50 {percentile(table['update'], 0.5):.1f} ms, "
            f"p95 {percentile(table['update'], 0.95):.1f} ms; to next paint p95 "
            f"{percentile(table['paint'], 0.95):.1f} ms"
        )
        if not args.skip_dagre:
            layouts = page.evaluate(LAYOUTS)
            print(
                f"layout of this graph: layered {layouts['layered']:.0f} ms, "
                f"dagre {layouts['dagre']:.0f} ms "
                "(dagre is used up to 150 values only)"
            )
        browser.close()


if __name__ == "__main__":
    main()
