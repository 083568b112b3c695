/**
 * Numbers for people, one format everywhere (the engine's narration makes the same
 * text in `engine/trace/number_format.py`): four significant digits (more where a caller
 * asks, as the gradient check does), trailing zeros dropped, exponent form below 1e-4
 * and from 1e6 on, the true minus sign (−). Rounding is
 * to nearest with ties to even on the exact value, as CPython's, so the graph, the code
 * panel and the narration agree digit for digit. Test hooks use exact `String(x)`.
 *
 * Examples: formatValue(-1.4999999999999993) -> "−1.5"; formatValue(2) -> "2";
 * formatValue(0.04289321881345) -> "0.04289"; formatValue(22026.4658) -> "22026.5";
 * formatValue(5.2e21) -> "5.2e+21"; formatValue(14.003, 6) -> "14.003";
 * formatSigned(0.1464466) -> "+0.1464".
 */

const MINUS = "\u2212";
const SIGNIFICANT = 4;
/** At most this many digits, as number_format.MAX_DIGITS. */
const MAX_DIGITS = 6;
const SMALL = 1e-4;
const LARGE = 1e6;
/** [threshold, digits before the point minus one], as in engine/trace/number_format.py */
const MAGNITUDES = [
  [1e5, 5],
  [1e4, 4],
  [1e3, 3],
  [100, 2],
  [10, 1],
  [1, 0],
  [0.1, -1],
  [0.01, -2],
  [0.001, -3],
];

/**
 * Trailing zeros off: "1.5000" -> "1.5", "2.000" -> "2".
 * @param {string} text
 */
function trim(text) {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/**
 * `digits` decimal digits of `text` (a number's exact decimal digits, a point in it
 * or not), rounded half to even. "2.125", 2 -> "2.12"; "2.135", 2 -> "2.14".
 * @param {string} text
 * @param {number} decimals
 */
function roundDigits(text, decimals) {
  const [whole, fraction = ""] = text.split(".");
  const kept = (whole + fraction.padEnd(decimals, "0").slice(0, decimals)).split("");
  const rest = fraction.slice(decimals);
  const last = Number(kept[kept.length - 1]);
  const up = /^5[0]*$/.test(rest) ? last % 2 === 1 : /^[5-9]/.test(rest);
  if (up) {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === "9") kept[i--] = "0";
    if (i < 0) kept.unshift("1");
    else kept[i] = String(Number(kept[i]) + 1);
  }
  const point = kept.length - decimals;
  const digits = kept.join("");
  return decimals > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : digits;
}

/**
 * A positive finite number's exact decimal expansion (every double has one).
 * @param {number} size
 */
function exactDecimal(size) {
  if (Number.isInteger(size)) return BigInt(size).toString();
  // Below 1e21 toFixed gives the exact digits; a double of at least 1e-7 has at most
  // 76 binary (so decimal) places.
  if (size >= 1e-7) return size.toFixed(100).replace(/0+$/, "");
  return "";
}

/**
 * @param {number} size positive, finite
 * @param {number} digits significant digits
 */
function exponentForm(size, digits) {
  const exact = exactDecimal(size);
  let mantissa;
  let exponent;
  if (exact && Number.isInteger(size)) {
    exponent = exact.length - 1;
    mantissa = roundDigits(`${exact[0]}.${exact.slice(1)}`, digits - 1);
    if (mantissa.startsWith("10")) {
      mantissa = `1.${mantissa.slice(3)}`;
      exponent += 1;
    }
  } else {
    // No tie is possible here (a double below 1e-4 or a fraction above 1e6 never lies
    // exactly half way at the fifth significant digit), so toExponential's rounding is
    // CPython's.
    const [m, e] = size.toExponential(digits - 1).split("e");
    mantissa = m;
    exponent = Number(e);
  }
  return `${trim(mantissa)}e${exponent >= 0 ? "+" : MINUS}${Math.abs(exponent)}`;
}

/**
 * The one display of a number.
 * @param {number} x
 * @param {number} [digits] significant digits (4; 1 to 6)
 */
export function formatValue(x, digits = SIGNIFICANT) {
  digits = Math.min(Math.max(digits, 1), MAX_DIGITS);
  if (Number.isNaN(x)) return "nan";
  if (x === 0) return "0";
  const size = Math.abs(x);
  const sign = x < 0 ? MINUS : "";
  if (size === Number.POSITIVE_INFINITY) return `${sign}inf`;
  if (size >= LARGE || size < SMALL) return sign + exponentForm(size, digits);
  const found = MAGNITUDES.find(([threshold]) => size >= threshold);
  const exponent = found ? found[1] : -4;
  const decimals = Math.max(1, digits - 1 - exponent);
  // toFixed rounds the exact value as CPython does except at an exact tie, which it
  // rounds up; a tie makes the scaled value's fraction exactly 0.5, so it is caught here.
  const scaled = size * 10 ** decimals;
  const text =
    scaled - Math.floor(scaled) === 0.5
      ? roundDigits(exactDecimal(size), decimals)
      : size.toFixed(decimals);
  return sign + trim(text);
}

/**
 * Like formatValue with an explicit sign, for amounts added to a gradient.
 * @param {number} x
 * @param {number} [digits]
 */
export function formatSigned(x, digits = SIGNIFICANT) {
  const text = formatValue(x, digits);
  return text.startsWith(MINUS) || text === "nan" ? text : `+${text}`;
}

// A name that reads as one operand before `.grad`: a plain name, or a path of attributes
// and subscripts (`x1`, `layers[0].neurons[1].b`); engine/trace/sentences.py's _OPERAND
// (Python's `\w`: letters, numbers and `_`).
const OPERAND =
  /^[\p{L}\p{Nl}\p{No}_][\p{L}\p{N}_]*(?:\.[\p{L}\p{Nl}\p{No}_][\p{L}\p{N}_]*|\[[^[\]]*\])*$/u;

/**
 * A node's name as it stands before `.grad`, bracketed unless it is one operand already,
 * as the engine writes its texts (`operand` in engine/trace/sentences.py).
 * Example: operand("x1*w1") -> "(x1*w1)"; operand("layers[0].b") -> "layers[0].b".
 * @param {string} name
 */
export const operand = (name) => (OPERAND.test(name) ? name : `(${name})`);
