/**
 * The gradient check's numbers for the page (SPEC.md §7), with no DOM: per leaf,
 * which h to show, whether backprop and the difference quotient agree, and the
 * points of the log–log plot of error against h.
 *
 * Which h the row shows: the one of the sweep nearest (on the log scale) to where
 * truncation error and rounding error balance, the textbook step
 * h ≈ √ε·max(1, |x|) for the forward difference and h ≈ ∛ε·max(1, |x|) for the
 * central one (ε = 2.2e-16, x = the leaf's value): about 1.5e-8 and 6e-6 at x = 1.
 * The choice looks at the scheme and x only, never at the quotients or at
 * backprop's answer: a checker that picked the h closest to the gradient it checks
 * would flatter a wrong engine, and one that picked the steadiest quotients is
 * fooled by rounding, which repeats the same wrong quotient over several tiny h.
 *
 * Errors of exactly 0 (a linear function, a lucky rounding) have no logarithm:
 * the plot puts them on a floor one decade below the smallest non-zero error and
 * marks them as exact.
 *
 * Example (f = 3x² − 4x + 5 at x = 3, forward): rows h 0.1 … 1e-14; the row at
 * h = 0.001 has numeric 14.003 and error 0.003; √ε·3 ≈ 4.5e-8 is nearest 1e-7,
 * where the quotient agrees with 14: summarizeCheck(check, {x: 3}).agrees -> true.
 */

/** Relative agreement asked of backprop and the best difference quotient. */
export const AGREEMENT = 1e-4;

/**
 * @typedef {{h: number, numeric: number, error: number}} CheckRow
 * @typedef {{node: string, label: string, analytic: number, rows: CheckRow[]}} Check
 * @typedef {{output: string, checks: Check[]}} GradCheck
 * @typedef {{node: string, label: string, analytic: number, rows: CheckRow[], best: CheckRow | null, agrees: boolean,
 *   name?: string}} CheckSummary  name: what the page calls the leaf (an unlabelled one's `layers[0].neurons[0].w[0]`)
 */

/**
 * Whether a numeric gradient agrees with the analytic one.
 * Example: agrees(14.0000001, 14) -> true; agrees(2, 1) -> false.
 * @param {number} numeric
 * @param {number} analytic
 */
export function agrees(numeric, analytic) {
  return Math.abs(numeric - analytic) <= AGREEMENT * Math.max(1, Math.abs(analytic));
}

/**
 * One leaf's check; `analytic` (default: the check's own) is what the errors are
 * measured against.
 * @param {Check} check
 * @param {{scheme?: "forward" | "central", x?: number, analytic?: number}} [options]  x: the leaf's value
 * @returns {CheckSummary}
 */
export function summarizeCheck(
  check,
  { scheme = "forward", x = 1, analytic = check.analytic } = {},
) {
  const rows = check.rows.map((row) => ({
    h: row.h,
    numeric: row.numeric,
    error: Math.abs(row.numeric - analytic),
  }));
  const best = rowNearest(rows, sensibleH(scheme, x));
  return {
    node: check.node,
    label: check.label,
    analytic,
    rows,
    best,
    agrees: best !== null && agrees(best.numeric, analytic),
  };
}

/**
 * The step where a difference quotient's truncation and rounding errors balance.
 * Example: sensibleH("forward", 3) -> 4.47e-8; sensibleH("central", 0.5) -> 6.06e-6.
 * @param {"forward" | "central"} scheme
 * @param {number} x  the value being nudged
 */
export function sensibleH(scheme, x) {
  const scale = Number.isFinite(x) ? Math.max(1, Math.abs(x)) : 1;
  return (scheme === "central" ? Math.cbrt(Number.EPSILON) : Math.sqrt(Number.EPSILON)) * scale;
}

/**
 * The row whose h is nearest `h` on the log scale (the larger h on a tie); null for no rows.
 * Example: h of 1e-7 and 1e-8, target 4.47e-8 -> the 1e-7 row.
 * @param {CheckRow[]} rows
 * @param {number} h
 * @returns {CheckRow | null}
 */
export function rowNearest(rows, h) {
  let best = null;
  let distance = Infinity;
  for (const row of rows) {
    if (!(row.h > 0) || !Number.isFinite(row.numeric)) continue;
    const d = Math.abs(Math.log10(row.h) - Math.log10(h));
    if (
      d < distance - 1e-12 ||
      (Math.abs(d - distance) <= 1e-12 && best !== null && row.h > best.h)
    ) {
      best = row;
      distance = d;
    }
  }
  return best;
}

/**
 * Check a response's shape before the panel uses it; throws a TypeError naming the
 * first thing that does not fit.
 * @param {unknown} value
 * @returns {GradCheck}
 */
export function validateGradCheck(value) {
  const fail = (/** @type {string} */ what, /** @type {unknown} */ got) => {
    throw new TypeError(`gradcheck${what}, got ${JSON.stringify(got)}`);
  };
  if (value === null || typeof value !== "object") fail(" must be an object", value);
  const g = /** @type {GradCheck} */ (value);
  if (!Array.isArray(g.checks)) fail(".checks must be an array", g.checks);
  g.checks.forEach((check, i) => {
    if (typeof check.node !== "string") fail(`.checks[${i}].node must be a string`, check.node);
    if (!Number.isFinite(check.analytic))
      fail(`.checks[${i}].analytic must be a finite number`, check.analytic);
    if (!Array.isArray(check.rows)) fail(`.checks[${i}].rows must be an array`, check.rows);
    check.rows.forEach((row, j) => {
      if (!(row.h > 0) || !Number.isFinite(row.numeric))
        fail(`.checks[${i}].rows[${j}] must have h > 0 and a finite numeric`, row);
    });
  });
  return g;
}

/**
 * @typedef {{x: number, y: number, zero: boolean, row: CheckRow}} PlotPoint  x, y: log10 h, log10 error
 * @typedef {{
 *   series: Array<{label: string, points: PlotPoint[]}>, x: [number, number], y: [number, number],
 *   xTicks: number[], yTicks: number[], floor: number | null
 * }} PlotData
 * floor: the log10 at which exact (0) errors sit, or null when there are none
 */

/**
 * The log–log plot's points and axes: whole decades, at most ~8 ticks per axis.
 * Example: one series with errors 1e-1 … 1e-8 then 1e-6 -> y from -8 to -1.
 * @param {CheckSummary[]} summaries
 * @returns {PlotData}
 */
export function plotData(summaries) {
  const rows = summaries.flatMap((summary) => summary.rows);
  const hs = rows.map((row) => Math.log10(row.h)).filter(Number.isFinite);
  const errors = rows
    .map((row) => row.error)
    .filter((error) => error > 0 && Number.isFinite(error))
    .map(Math.log10);
  const hasZero = rows.some((row) => row.error === 0);
  const low = errors.length ? Math.floor(Math.min(...errors)) : 0;
  const high = errors.length ? Math.ceil(Math.max(...errors)) : 0;
  const floor = hasZero ? low - 1 : null;
  const y = /** @type {[number, number]} */ ([floor ?? low, Math.max(high, (floor ?? low) + 1)]);
  const x = /** @type {[number, number]} */ (
    hs.length ? [Math.floor(Math.min(...hs)), Math.ceil(Math.max(...hs))] : [-1, 0]
  );
  if (x[0] === x[1]) x[0] -= 1;
  const series = summaries.map((summary) => ({
    label: summary.name || summary.label || summary.node,
    points: summary.rows
      .filter((row) => row.h > 0 && Number.isFinite(row.error))
      .map((row) => ({
        x: Math.log10(row.h),
        y: row.error === 0 ? /** @type {number} */ (floor) : Math.log10(row.error),
        zero: row.error === 0,
        row,
      })),
  }));
  return { series, x, y, xTicks: decades(x), yTicks: decades(y), floor };
}

/**
 * Whole decades across a range, thinned to at most `most` ticks.
 * Example: decades([-14, -1]) -> [-14, -12, -10, -8, -6, -4, -2]
 * @param {[number, number]} range
 * @param {number} [most]
 */
export function decades([from, to], most = 8) {
  const span = to - from;
  const every = Math.max(1, Math.ceil((span + 1) / most));
  const ticks = [];
  for (let t = from; t <= to; t += every) ticks.push(t);
  return ticks;
}

/**
 * A step h for a table: whole decades as decadeLabel writes them, others as numbers.
 * Example: hLabel(1e-5) -> "1e−5"; hLabel(0.1) -> "0.1"; hLabel(0.003) -> "0.003".
 * @param {number} h
 */
export function hLabel(h) {
  const exponent = Math.round(Math.log10(h));
  if (Math.abs(h - 10 ** exponent) <= 1e-12 * h && exponent < -1) return decadeLabel(exponent);
  return String(h);
}

/**
 * A decade as people write it: 0 -> "1", 1 -> "10", -3 -> "1e-3".
 * @param {number} exponent
 */
export function decadeLabel(exponent) {
  if (exponent === 0) return "1";
  if (exponent === 1) return "10";
  return `1e${exponent < 0 ? "\u2212" : ""}${Math.abs(exponent)}`;
}
