/**
 * The primitive ops' facts as the engine sends them (the trace's `ops`, made from the
 * one registry, engine/ops.py): what the graph draws for an op, how the code panel and
 * the quiz write its local derivative, which slips the quiz recognises. This module
 * holds no facts of its own; it only fills in the engine's templates and computes its
 * formulas. An op with no facts (another engine's `ReLU`, an old trace) is drawn with
 * its own name and its local derivative is written `local`.
 *
 * Templates: `{out}`, `{child}`, `{other}` are nodes' `.data` as the caller writes
 * them; `{k}` and `{k-1}` a power's exponent and the exponent less one.
 * Formulas: Python syntax over out, child, other, k (numbers, `+ - * / **`, `>` as 1 or
 * 0, brackets, and exp log sqrt sin cos tanh of one argument). Example: evaluate("k * child**(k - 1)", {k: 2, child: 3}) -> 6.
 *
 * @typedef {{glyph: string, local: string, slips: Array<{text: string, value: string}>}} OpFacts
 * @typedef {Record<string, OpFacts>} OpTable  the trace's `ops`, by op (`**` for every `**k`)
 */

/**
 * The key of a node's op in the trace's `ops` (and in /api/rules): `**-1.0` -> `**`.
 * @param {string} op
 */
export const opKey = (op) => (op.startsWith("**") ? "**" : op);

/**
 * The facts for a node's op, or null when the engine sent none. Only the table's own
 * entries count: a program's own class may name its op `constructor` or `__proto__`.
 * @param {OpTable | undefined} ops
 * @param {string} op
 * @returns {OpFacts | null}
 */
export const factsOf = (ops, op) => {
  const key = opKey(op);
  return ops && Object.hasOwn(ops, key) ? ops[key] : null;
};

/**
 * A power's exponent (`**-1.0` -> -1), NaN for any other op.
 * @param {string} op
 */
export const exponentOf = (op) => (op.startsWith("**") ? Number(op.slice(2)) : Number.NaN);

/**
 * A template with its `{names}` replaced; a name with no value stays as written.
 * Example: fill("(1 − {out}²)", {out: "o.data"}) -> "(1 − o.data²)".
 * @param {string} template
 * @param {Record<string, string>} values
 */
export const fill = (template, values) =>
  template.replace(/\{(\w+(?:-1)?)\}/g, (whole, key) => values[key] ?? whole);

/**
 * What the graph draws for an op: the engine's glyph, else the op itself.
 * Example: opGlyph(ops, "*") -> "×"; opGlyph(ops, "**2") -> "^2"; opGlyph({}, "ReLU") -> "ReLU".
 * @param {OpTable | undefined} ops
 * @param {string} op
 */
export function opGlyph(ops, op) {
  const facts = factsOf(ops, op);
  return facts ? fill(facts.glyph, { k: String(exponentOf(op)) }) : op;
}

/** The functions a formula may call: engine/ops.py FORMULA_FUNCTIONS (a test checks they agree). */
const FORMULA_FUNCTIONS = ["exp", "log", "sqrt", "sin", "cos", "tanh"];

const TOKEN = /\s*(\d+(?:\.\d*)?(?:e[-+]?\d+)?|[a-z_]\w*|\*\*|[-+*/()>])/iy;

/**
 * A formula's value; throws a SyntaxError for anything outside the formulas' syntax.
 * Example: evaluate("out * (1 - out)", {out: 0.5}) -> 0.25; evaluate("child > 0", {child: -1}) -> 0.
 * @param {string} formula
 * @param {Record<string, number>} vars
 * @returns {number}
 */
export function evaluate(formula, vars) {
  /** @type {string[]} */ const tokens = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < formula.trimEnd().length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(formula);
    if (!match) throw new SyntaxError(`formula ${formula}: unexpected ${formula.slice(at)}`);
    tokens.push(match[1]);
  }
  let i = 0;
  const peek = () => tokens[i];
  const take = (/** @type {string} */ expected) => {
    if (tokens[i] !== expected) throw new SyntaxError(`formula ${formula}: expected ${expected}`);
    i += 1;
  };
  /** @returns {number} */
  const atom = () => {
    const token = tokens[i++];
    if (token === "(") {
      const value = compare();
      take(")");
      return value;
    }
    if (token !== undefined && /^[\d.]/.test(token)) return Number(token);
    if (token !== undefined && FORMULA_FUNCTIONS.includes(token) && peek() === "(") {
      i += 1;
      const argument = compare();
      take(")");
      const math = /** @type {(x: number) => number} */ (Math[/** @type {keyof Math} */ (token)]);
      return math(argument);
    }
    if (token !== undefined && Object.hasOwn(vars, token)) return vars[token];
    throw new SyntaxError(`formula ${formula}: unknown ${token ?? "end"}`);
  };
  /** @returns {number} */
  const unary = () => {
    if (peek() === "-") {
      i += 1;
      return -unary();
    }
    const base = atom();
    if (peek() !== "**") return base;
    i += 1;
    return base ** unary(); // right to left, and `2**-1` is allowed, as in Python
  };
  const product = () => {
    let value = unary();
    while (peek() === "*" || peek() === "/")
      value = tokens[i++] === "*" ? value * unary() : value / unary();
    return value;
  };
  const sum = () => {
    let value = product();
    while (peek() === "+" || peek() === "-")
      value = tokens[i++] === "+" ? value + product() : value - product();
    return value;
  };
  const compare = () => {
    const value = sum();
    if (peek() !== ">") return value;
    i += 1;
    return value > sum() ? 1 : 0;
  };
  const value = compare();
  if (i !== tokens.length) throw new SyntaxError(`formula ${formula}: unexpected ${tokens[i]}`);
  return value;
}
