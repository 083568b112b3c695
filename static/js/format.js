/**
 * Numbers for people. The graph shows four decimals like the article's figures
 * (`data 0.7071`); code lines show a few significant digits (`2.0 × 0.5`); test
 * hooks use exact `String(x)` elsewhere. Display text uses a true minus sign (−).
 *
 * Examples: formatValue(-1.4999999999999993) -> "−1.5000"; formatValue(22026.4658) ->
 * "22026.4658"; formatValue(5.2e21) -> "5.200e+21"; formatCode(2) -> "2.0";
 * formatCode(0.4999999999999998) -> "0.5"; formatSigned(0.1464466) -> "+0.1464".
 */

const MINUS = "\u2212";

/** @param {string} text */
const withMinus = (text) => (text.startsWith("-") ? MINUS + text.slice(1) : text);

/** @param {number} x */
const isZero = (x) => x === 0 || Object.is(x, -0);

/**
 * Fixed four decimals, switching to exponent form where that would hide the value.
 * @param {number} x
 */
export function formatValue(x) {
  if (isZero(x)) return "0.0000";
  const size = Math.abs(x);
  if (size >= 1e6 || size < 1e-4) return withMinus(x.toExponential(3));
  return withMinus(x.toFixed(4));
}

/**
 * Like formatValue with an explicit sign, for amounts added to a gradient.
 * @param {number} x
 */
export function formatSigned(x) {
  const text = formatValue(x);
  return text.startsWith(MINUS) ? text : `+${text}`;
}

/**
 * Short, Python-looking numbers for substituted code: four significant digits,
 * integers keep a ".0" so a float still reads as a float.
 * @param {number} x
 */
export function formatCode(x) {
  if (isZero(x)) return "0.0";
  const size = Math.abs(x);
  if (size >= 1e6 || size < 1e-4) return withMinus(x.toExponential(3));
  const short = Number(x.toPrecision(4));
  return withMinus(Number.isInteger(short) ? short.toFixed(1) : String(short));
}
