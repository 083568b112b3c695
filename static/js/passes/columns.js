/**
 * The columns encoding read back into a trace (docs/TRACE.md, "The columns encoding").
 *
 * The server writes it (engine/trace/columns.py) when the page asks for
 * `encoding: "columns"`: a list per field, nodes by index, and without what the page can
 * work out: a contribution's upstream, before, delta and after where the replay below
 * gives them back exactly, and the texts of frames the trace's sentences
 * (`sentences`, from engine/trace/sentences.py) give back. `fromColumns` returns the
 * very trace of schema 1 or 2; a frame's text is written the first time it is read,
 * so a 30,000-frame trace writes only the sentences the learner looks at.
 *
 * The replay here and the encoder's (`_Frames` in engine/trace/columns.py) are the same
 * walk: change one, change the other (tests/app/test_columns.py decodes every trace of a
 * corpus here and compares it with the engine's).
 *
 * Example: readTrace(await response.json()) is a Trace whatever the encoding was.
 */

import { formatValue, operand } from "../player/format.js";

const MINUS = "\u2212";
const PHASES = /** @type {const} */ ({ b: "build", s: "sort", k: "backward", u: "update" });
const KINDS = /** @type {const} */ (["leaf", "const", "op"]);
/** Fields a real program's nodes mostly have, each a column with null where absent. */
const NODE_OPTIONAL_COLUMNS = /** @type {const} */ (["group", "rule", "correct_grad"]);
/**
 * A contribution's `write`, one letter each in `frames.write` ("." for none); `-` is a
 * `+=` that `subtracts` (written `-=`: the API's form, which validateTrace reads as `-=`).
 */
const WRITES = /** @type {const} */ ({ "+": "+=", "-": "+=", "=": "=" });

/**
 * @typedef {import("./trace.js").Trace} Trace
 * @typedef {import("./trace.js").Frame} Frame
 * @typedef {import("./trace.js").Contribution} Contribution
 * @typedef {{
 *   encoding: "columns", version: 1, schema: 1 | 2, source: string, granularity: "packed" | "expanded",
 *   nodes: {label: string[], name: (string | null)[], op: string[], kind: number[], data: number[],
 *     grad: number[], id?: string[], group?: (string | null)[],
 *     rule?: ({line: number, end_line: number} | null)[], correct_grad?: (number | null)[],
 *     more?: Record<string, Record<string, unknown>>},
 *   edges: number[], topo: number[], output: number,
 *   passes: {output: number, topo: number[] | null, data: number, names: Record<string, string>,
 *     correct_grads?: Record<string, number>,
 *     backward?: {line: number, end_line: number, call: number | null}}[],
 *   ops: Record<string, unknown>, sentences: Record<string, string>, rules: Record<string, string>,
 *   frames: FrameColumns, mistake?: string, engine_check?: unknown
 * }} Columns
 * @typedef {{
 *   phase: string, node: number[], line: number[], count: number[], to: number[],
 *   local: (number | null)[], pass?: number[], text?: Record<string, string>,
 *   write?: string, write_line?: number[],
 *   symbolic?: Record<string, string>, swapped?: number[], more?: Record<string, Record<string, unknown>>,
 *   prints?: Record<string, string[]>, contribution_more?: Record<string, Record<string, unknown>>,
 *   kept_upstream?: Record<string, number>, kept_before?: Record<string, number>,
 *   kept_delta?: Record<string, number>, kept_after?: Record<string, number>
 * }} FrameColumns
 */

/**
 * A trace as the server sent it, in either encoding.
 * @param {unknown} answer
 * @returns {unknown} the trace of schema 1 or 2 (validateTrace checks it)
 */
export function readTrace(answer) {
  const columns = /** @type {{encoding?: unknown}} */ (answer);
  return columns && typeof columns === "object" && columns.encoding === "columns"
    ? fromColumns(/** @type {Columns} */ (answer))
    : answer;
}

/**
 * `{one}`s of a sentence filled in: fill("{a} and {b}", {a: "x", b: "y"}) -> "x and y".
 * @param {string} sentence
 * @param {Record<string, string>} blanks
 */
export function fill(sentence, blanks) {
  return fillParts(partsOf(sentence), blanks);
}

/** Each sentence split once: literal text at even indices, blank names at odd ones. */
const PARTS = new Map();

/** @param {string} sentence */
function partsOf(sentence) {
  let parts = PARTS.get(sentence);
  if (!parts) {
    parts = sentence.split(/\{(\w+)\}/);
    if (PARTS.size < 64) PARTS.set(sentence, parts);
  }
  return /** @type {string[]} */ (parts);
}

/**
 * @param {string[]} parts
 * @param {Record<string, string>} blanks
 */
function fillParts(parts, blanks) {
  let text = parts[0];
  for (let i = 1; i < parts.length; i += 2) text += (blanks[parts[i]] ?? "") + parts[i + 1];
  return text;
}

/** ordinal(2) -> "2nd", ordinal(11) -> "11th", ordinal(22) -> "22nd" (narrate.ordinal). */
export function ordinal(/** @type {number} */ n) {
  const suffix =
    n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th");
  return `${n}${suffix}`;
}

/**
 * An op over its operands' numbers as a build frame works it out (sentences.worked_out):
 * workedOut("*", ["2", "−3"]) -> "2 × −3"; workedOut("**2", ["−3"]) -> "(−3)**2";
 * workedOut("-", ["1.099", "2"]) -> "1.099 − 2" (another engine's own `-`).
 * @param {string} op
 * @param {string[]} operands
 */
export function workedOut(op, operands) {
  let terms = operands;
  if (op.startsWith("**") && terms.length <= 2 && terms[0].startsWith(MINUS))
    terms = [`(${terms[0]})`, ...terms.slice(1)]; // `(−1.5)**3`
  if (terms.length === 1 && (op === "+" || op === "*")) return `${op}(${terms[0]})`;
  if (op === "+") return terms.join(" + ");
  if (op === "*") return terms.join(" × ");
  if (op.startsWith("**") && terms.length === 1) return `${terms[0]}${op}`;
  // Another engine's own `-`, `/` and `**` (a Value exponent) of two (ops.INFIX).
  if (terms.length === 2 && op === "**") return `${terms[0]}**${terms[1]}`;
  if (terms.length === 2 && (op === "-" || op === "/"))
    return terms.join(op === "-" ? ` ${MINUS} ` : " / ");
  return `${op}(${terms.join(", ")})`;
}

/**
 * The trace the columns encode.
 * @param {Columns} columns
 * @returns {Trace}
 */
export function fromColumns(columns) {
  const nodes = decodeNodes(columns.nodes);
  const ids = nodes.map((node) => node.id);
  const topo = columns.topo.map((i) => ids[i]);
  const edges = [];
  for (let i = 0; i < columns.edges.length; i += 2)
    edges.push({ source: ids[columns.edges[i]], target: ids[columns.edges[i + 1]] });
  const passes = columns.passes.map((entry) => ({
    ...entry,
    output: ids[entry.output],
    topo: entry.topo === null ? [...topo] : entry.topo.map((i) => ids[i]),
  }));
  /** @type {Record<string, unknown>} */
  const trace = {
    schema: columns.schema,
    source: columns.source,
    granularity: columns.granularity,
    nodes,
    edges,
    topo,
    output: ids[columns.output],
    frames: new Replay(columns, nodes, passes).frames(),
    ops: columns.ops,
    passes,
  };
  if ("mistake" in columns) trace.mistake = columns.mistake;
  if ("engine_check" in columns) trace.engine_check = columns.engine_check;
  return /** @type {Trace} */ (/** @type {unknown} */ (trace));
}

/** @param {Columns["nodes"]} columns */
function decodeNodes(columns) {
  return columns.label.map((label, i) => {
    const node = {
      id: columns.id ? columns.id[i] : `n${i}`,
      label,
      name: columns.name[i] ?? label,
      op: columns.op[i],
      kind: KINDS[columns.kind[i]],
      data: columns.data[i],
      grad: columns.grad[i],
    };
    /** @type {Record<string, unknown>} */
    const optional = {};
    for (const key of NODE_OPTIONAL_COLUMNS) {
      const value = columns[key]?.[i];
      if (value !== undefined && value !== null) optional[key] = value;
    }
    const more = columns.more?.[i];
    return /** @type {import("./trace.js").TraceNode} */ ({ ...node, ...optional, ...more });
  });
}

/** A frame whose text is written when it is first read. */
class LazyFrame {
  /** @type {string | undefined} */ #text;
  /** @type {Replay} */ #replay;
  /** @type {number} */ #index;

  /**
   * @param {Replay} replay
   * @param {number} index
   */
  constructor(replay, index) {
    this.#replay = replay;
    this.#index = index;
  }

  get text() {
    this.#text ??= this.#replay.say(
      this.#index,
      /** @type {Frame} */ (/** @type {unknown} */ (this)),
    );
    return this.#text;
  }

  /** JSON.stringify sees the text too. */
  toJSON() {
    return { ...this, text: this.text };
  }
}

/**
 * The encoder's walk (engine/trace/columns.py `_Frames`): data and gradients as they
 * change, and each child's count of `+=`s in its pass.
 */
class Replay {
  /**
   * @param {Columns} columns
   * @param {import("./trace.js").TraceNode[]} nodes
   * @param {import("./trace.js").TracePass[]} passes
   */
  constructor(columns, nodes, passes) {
    this.columns = columns;
    this.f = columns.frames;
    this.nodes = nodes;
    this.passes = passes;
    this.ids = nodes.map((node) => node.id);
    this.index = new Map(this.ids.map((id, i) => [id, i]));
    this.operands = nodes.map(() => /** @type {number[]} */ ([]));
    for (let i = 0; i < columns.edges.length; i += 2)
      this.operands[columns.edges[i + 1]].push(columns.edges[i]);
    this.data = Float64Array.from(columns.nodes.data);
    this.grads = new Float64Array(nodes.length);
    this.dataChanges = this.firstData();
    const frameCount = this.f.phase.length;
    // What a backward frame's text reads later: its node's gradient when its rule ran,
    // and each `+=`'s count for its child in the pass.
    this.frameGrad = new Float64Array(frameCount);
    this.nth = new Int32Array(this.f.to.length);
    this.swapped = new Set(this.f.swapped ?? []);
    /** @type {Int32Array | null} each frame's first contribution, once a text needs it */
    this.starts = null;
    /** @type {Map<number, string>} numbers as texts write them: the same ones recur */
    this.formatted = new Map();
  }

  /** formatValue(x), remembered. */
  number(/** @type {number} */ x) {
    let text = this.formatted.get(x);
    if (text === undefined) {
      text = formatValue(x);
      this.formatted.set(x, text);
    }
    return text;
  }

  /** Every node's data before the first write to it; whether anything writes data. */
  firstData() {
    const more = this.f.more ?? {};
    const keys = Object.keys(more)
      .map(Number)
      .sort((a, b) => b - a);
    let any = false;
    for (const k of keys) {
      const changes = /** @type {import("./trace.js").Change[] | undefined} */ (more[k].changes);
      for (const change of [...(changes ?? [])].reverse()) {
        if (change.field !== "data") continue;
        this.data[/** @type {number} */ (this.index.get(change.node))] = change.before;
        any = true;
      }
    }
    return any;
  }

  /** @returns {Frame[]} */
  frames() {
    const f = this.f;
    const out = [];
    let received = new Map();
    let at = 0; // the next contribution
    for (let k = 0; k < f.phase.length; k++) {
      const frame = /** @type {Record<string, unknown>} */ (
        /** @type {unknown} */ (new LazyFrame(this, k))
      );
      const phase = PHASES[/** @type {keyof typeof PHASES} */ (f.phase[k])];
      const node = f.node[k];
      const pass = f.pass ? f.pass[k] : -1;
      frame.phase = phase;
      if (node >= 0) frame.node = this.ids[node];
      if (f.line[k] >= 0) frame.line = f.line[k];
      if (pass >= 0) frame.pass = pass;
      const more = f.more?.[k];
      if (more) Object.assign(frame, more);
      const literal = f.text?.[k];
      if (literal !== undefined)
        Object.defineProperty(frame, "text", { value: literal, enumerable: true });
      const passIndex = Math.max(pass, 0);
      if (phase === "backward") {
        this.frameGrad[k] = this.grads[node];
        frame.contributions = this.contributions(node, f.count[k], at, received);
        at += f.count[k];
      } else if (phase === "sort") {
        const step = /** @type {string | undefined} */ (frame.step);
        if (step === undefined || step === "seed") {
          received = new Map();
          if (Array.isArray(frame.changes)) this.apply(frame.changes);
          else
            this.grads[/** @type {number} */ (this.index.get(this.passes[passIndex].output))] = 1;
        }
      } else if (phase === "update") {
        this.apply(/** @type {import("./trace.js").Change[]} */ (frame.changes));
      } else if (this.dataChanges && literal === undefined) {
        // Data changes later: the build's numbers are the ones it had now.
        Object.defineProperty(frame, "text", {
          value: this.built(k, node, passIndex),
          enumerable: true,
        });
      }
      const prints = f.prints?.[k];
      if (prints) frame.prints = prints;
      out.push(/** @type {Frame} */ (/** @type {unknown} */ (frame)));
    }
    return out;
  }

  /** @param {import("./trace.js").Change[]} changes */
  apply(changes) {
    for (const change of changes) {
      const values = change.field === "grad" ? this.grads : this.data;
      values[/** @type {number} */ (this.index.get(change.node))] = change.after;
    }
  }

  /**
   * @param {number} node
   * @param {number} count
   * @param {number} start  the frame's first contribution
   * @param {Map<number, number>} received
   * @returns {Contribution[]}
   */
  contributions(node, count, start, received) {
    const f = this.f;
    const grads = this.grads;
    const upstream = grads[node];
    const out = [];
    for (let c = start; c < start + count; c++) {
      const child = f.to[c];
      const local = f.local[c];
      const replayed = grads[child];
      const delta = f.kept_delta?.[c] ?? /** @type {number} */ (local) * upstream;
      const after = f.kept_after?.[c] ?? replayed + delta;
      /** @type {Contribution} */
      const contribution = {
        to: this.ids[child],
        local,
        upstream: f.kept_upstream?.[c] ?? upstream,
        delta,
        before: f.kept_before?.[c] ?? replayed,
        after,
      };
      const write = f.write?.[c];
      if (write === "+" || write === "-" || write === "=") {
        contribution.write = WRITES[write];
        contribution.line = f.write_line?.[c];
        if (write === "-") contribution.subtracts = true;
      }
      const more = f.contribution_more?.[c];
      out.push(more ? { ...contribution, ...more } : contribution);
      grads[child] = after;
      const nth = (received.get(child) ?? 0) + 1;
      received.set(child, nth);
      this.nth[c] = nth;
    }
    return out;
  }

  /**
   * A node's name in a pass's texts.
   * @param {number} node
   * @param {number} pass
   */
  name(node, pass) {
    return this.passes[pass]?.names[this.ids[node]] ?? this.nodes[node].name;
  }

  /**
   * Frame k's text, from the sentences.
   * @param {number} k
   * @param {Frame} frame
   */
  say(k, frame) {
    const pass = Math.max(frame.pass ?? 0, 0);
    const node = this.f.node[k];
    if (frame.phase === "build") return this.built(k, node, pass);
    if (frame.phase === "sort") {
      const entry = this.passes[pass];
      const count = entry.topo.length;
      const output = /** @type {number} */ (this.index.get(entry.output));
      return fill(this.columns.sentences.sorted_nodes, {
        count: String(count),
        nodes: count === 1 ? "node" : "nodes",
        output: operand(this.name(output, pass)),
      });
    }
    const rule = /** @type {import("./trace.js").BackwardFrame} */ (frame);
    return this.ruleRan(k, node, pass, rule.contributions ?? []);
  }

  /**
   * @param {number} k
   * @param {number} node
   * @param {number} pass
   */
  built(k, node, pass) {
    const sentences = this.columns.sentences;
    const data = this.data;
    const own = this.name(node, pass);
    const shown = this.number(data[node]);
    const operands = this.operands[node].map((child) => this.number(data[child]));
    const op = this.nodes[node].op;
    const numeric = workedOut(op, this.swapped.has(k) ? operands.reverse() : operands);
    const symbolic = this.f.symbolic?.[k];
    if (symbolic !== undefined)
      return fill(sentences.built_named, { own, symbolic, numeric, data: shown });
    // An op of constants, whose numbers are its name: `exp(0) = 1` (a trace made before
    // `built_bare` says it twice, as its engine did).
    if (numeric === own && sentences.built_bare !== undefined)
      return fill(sentences.built_bare, { own, data: shown });
    return fill(sentences.built, { own, numeric, data: shown });
  }

  /**
   * @param {number} k
   * @param {number} node
   * @param {number} pass
   * @param {Contribution[]} contributions
   */
  ruleRan(k, node, pass, contributions) {
    const sentences = this.columns.sentences;
    const own = this.name(node, pass);
    const op = this.nodes[node].op;
    // A node with no operands is a leaf, whatever op its class gave it (`_op="leaf"`).
    if (contributions.length === 0 && this.nodes[node].kind !== "op") {
      return fill(sentences.leaf_rule, {
        own,
        what: this.nodes[node].kind === "const" ? "constant" : "leaf",
        grad: this.number(this.frameGrad[k]),
      });
    }
    const first = this.firstContribution(k);
    const steps = contributions.map((c, j) => {
      const nth = this.nth[first + j];
      const blanks = {
        child: operand(this.name(/** @type {number} */ (this.index.get(c.to)), pass)),
        local: c.local === null ? "" : this.number(c.local),
        upstream: this.number(c.upstream),
        after: this.number(c.after),
      };
      // The first `+=` of the pass into a gradient an earlier pass left (no zero_grad)
      // says what it held (a trace from before that sentence has none: it says first_add).
      const held = c.before !== 0 && sentences.held_add !== undefined;
      if (nth === 1 && !held) return fill(sentences.first_add, blanks);
      if (nth === 1)
        return fill(sentences.held_add, {
          ...blanks,
          before: this.number(c.before),
          delta: this.number(c.delta),
        });
      return fill(sentences.later_add, {
        ...blanks,
        nth: ordinal(nth),
        before: this.number(c.before),
        delta: this.number(c.delta),
      });
    });
    return fill(sentences.rule_ran, {
      own,
      op,
      upstream: this.number(contributions.length ? contributions[0].upstream : this.frameGrad[k]),
      rule: this.columns.rules[op] ?? "",
      steps: steps.join("; "),
    });
  }

  /** The index of frame k's first contribution (counts summed once, then looked up). */
  firstContribution(/** @type {number} */ k) {
    if (!this.starts) {
      const counts = this.f.count;
      const starts = new Int32Array(counts.length + 1);
      for (let i = 0; i < counts.length; i++) starts[i + 1] = starts[i] + Math.max(counts[i], 0);
      this.starts = starts;
    }
    return this.starts[k];
  }
}
