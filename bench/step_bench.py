"""Stepping micrograd's nn.py training with an arrow key held, in headless Chromium.

The learner's program (tests.support.programs: micrograd's nn.py and a training loop,
4,181 frames, its neurons folded) is run on the page; then `--steps` ArrowRight presses
from each of three frames (a build, the first backward pass, a later pass), each timed
from the key to the second animation frame after it (the frame that shows it painted).
The reference, measured in the same run on the same page: two animation frames with no
step, the measure's own floor (33 ms at 60 Hz). With `--baseline DIR` another checkout
is measured too, the two taking turns. Prints p50/p95/max per start and in all, and the
ratio to the floor. Goal (issue 24): p95 <= 50 ms.

Usage: .venv/bin/python -m bench.step_bench [--steps 150] [--rounds 3] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tests.support.harness import CHROMIUM_ARGS, ROOT, live_server
from tests.support.programs import nn_source, nn_training

STARTS = (0, 380, 1200)

STEPS = """async ([count, start]) => {
  const scrubber = document.querySelector('[data-testid=scrubber]');
  scrubber.value = String(start);
  scrubber.dispatchEvent(new Event('input', {bubbles: true}));
  const twoFrames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await new Promise((r) => setTimeout(r, 400));
  await twoFrames();
  const steps = [];
  const floor = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await twoFrames();
    floor.push(performance.now() - t0);
  }
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    await twoFrames();
    steps.push(performance.now() - t0);
  }
  return {steps, floor};
}"""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def open_page(browser: Any, base: str, source: str) -> Any:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{base}/")
    page.wait_for_selector("#player[data-ready=true]")
    page.get_by_test_id("source").fill(source)
    before = page.get_by_test_id("frame-counter").inner_text()
    page.get_by_test_id("run").click()
    page.wait_for_function(
        "(before) => document.querySelector('[data-testid=frame-counter]')?.textContent !== before"
        " && document.querySelector('#player[data-ready=true]')",
        arg=before,
        timeout=60_000,
    )
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout, measured the same run")
    args = parser.parse_args()
    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    source = nn_source() + "\n" + nn_training()
    builds = [("this build", ROOT)]
    if args.baseline:
        builds.append((f"baseline {args.baseline}", args.baseline.resolve()))
    figures: dict[str, dict[int, dict[str, list[float]]]] = {}
    with sync_playwright() as playwright, contextlib.ExitStack() as stack:
        pages = []
        for name, checkout in builds:
            base = stack.enter_context(live_server(cwd=checkout))
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            stack.callback(browser.close)
            pages.append((name, open_page(browser, base, source)))
            figures[name] = {start: {"steps": [], "floor": []} for start in STARTS}
        for _round in range(args.rounds):
            for name, page in pages:
                for start in STARTS:
                    got = page.evaluate(STEPS, [args.steps, start])
                    figures[name][start]["steps"] += got["steps"]
                    figures[name][start]["floor"] += got["floor"]
    print(
        f"nn.py training, 1366x768, {args.rounds} rounds of {args.steps} ArrowRight steps "
        f"from frames {', '.join(map(str, STARTS))}; load average {os.getloadavg()[0]:.2f}"
    )
    for name, by_start in figures.items():
        every: list[float] = []
        floor: list[float] = []
        for start, got in by_start.items():
            every += got["steps"]
            floor += got["floor"]
            print(
                f"  {name}, from frame {start}: p50 {percentile(got['steps'], 0.5):.1f} ms, "
                f"p95 {percentile(got['steps'], 0.95):.1f} ms, max {max(got['steps']):.1f} ms"
            )
        p95 = percentile(every, 0.95)
        print(
            f"{name}: step p50 {percentile(every, 0.5):.1f} ms, p95 {p95:.1f} ms "
            f"[goal p95 <= 50 ms]; floor (two frames, no step) p50 "
            f"{percentile(floor, 0.5):.1f} ms, p95 {percentile(floor, 0.95):.1f} ms; "
            f"step p95 / floor p95 {p95 / percentile(floor, 0.95):.2f}x"
        )


if __name__ == "__main__":
    main()
