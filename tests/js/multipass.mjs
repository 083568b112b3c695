// Schema-2 traces (SPEC §11) for the page's unit tests, written by a tiny recorder
// that does what the engine does (micrograd's rules, depth-first sort, `+=` into
// children, one pass per backward()), so every number in them is consistent.
// Until the engine emits several passes, these are the page's multi-pass fixtures.

/**
 * A micrograd-like recorder. `mul`, `add`, `tanh` build nodes and build frames;
 * `backward(out)` adds a pass; `update([[node, field, after]], line)` adds an
 * update frame; `print(text)` queues a line for the next frame; `inGroup(path, fn)`
 * makes the nodes fn builds carry that group.
 */
export function recorder(source = "") {
  const nodes = [];
  const edges = [];
  const frames = [];
  const passes = [];
  let pending = [];
  let group = "";
  const operandsOf = new Map();

  const push = (frame) => {
    frame.pass = passes.length;
    if (pending.length) frame.prints = pending;
    pending = [];
    frames.push(frame);
  };
  const node = (label, op, kind, data) => {
    const record = { id: `n${nodes.length}`, label, op, kind, data, grad: 0, group };
    nodes.push(record);
    operandsOf.set(record.id, []);
    return record;
  };
  const op = (opName, operands, data, locals, { label = "", line } = {}) => {
    const out = node(label, opName, "op", data);
    for (const operand of operands) {
      edges.push({ source: operand.id, target: out.id });
      operandsOf.get(out.id).push(operand);
    }
    out.locals = locals;
    push({ phase: "build", node: out.id, text: `build ${out.id}`, ...(line ? { line } : {}) });
    return out;
  };
  const self = {
    leaf: (label, data) => node(label, "", "leaf", data),
    constant: (data) => node("", "", "const", data),
    mul: (a, b, options) => op("*", [a, b], a.data * b.data, () => [b.data, a.data], options),
    add: (a, b, options) => op("+", [a, b], a.data + b.data, () => [1, 1], options),
    tanh: (a, options) => op("tanh", [a], Math.tanh(a.data), (out) => [1 - out.data ** 2], options),
    inGroup(path, fn) {
      const saved = group;
      group = path;
      try {
        return fn();
      } finally {
        group = saved;
      }
    },
    print(text) {
      pending.push(text);
    },
    backward(out) {
      const topo = [];
      const seen = new Set();
      const visit = (v) => {
        if (seen.has(v.id)) return;
        seen.add(v.id);
        for (const child of operandsOf.get(v.id)) visit(child);
        topo.push(v);
      };
      visit(out);
      out.grad = 1;
      push({ phase: "sort", text: "sort" });
      for (const v of [...topo].reverse()) {
        const contributions = [];
        if (v.kind === "op") {
          const locals = v.locals(v);
          operandsOf.get(v.id).forEach((child, i) => {
            const before = child.grad;
            const delta = locals[i] * v.grad;
            child.grad = before + delta;
            contributions.push({
              to: child.id,
              local: locals[i],
              upstream: v.grad,
              delta,
              before,
              after: child.grad,
            });
          });
        }
        push({ phase: "backward", node: v.id, text: `run ${v.id}`, contributions });
      }
      passes.push({ output: out.id, topo: topo.map((v) => v.id), data: out.data, names: {} });
      // Frames after this belong to the next pass until the program ends.
    },
    update(changes, line) {
      const list = changes.map(([target, field, after]) => {
        const before = target[field];
        target[field] = after;
        return { node: target.id, field, before, after };
      });
      push({
        phase: "update",
        changes: list,
        text: `update ${list.length}`,
        ...(line ? { line } : {}),
      });
    },
    trace() {
      // Update frames after the last backward belong to the last pass.
      for (const frame of frames) frame.pass = Math.min(frame.pass, passes.length - 1);
      // Lines printed after the last frame belong to it.
      if (pending.length)
        frames[frames.length - 1].prints = [
          ...(frames[frames.length - 1].prints ?? []),
          ...pending,
        ];
      pending = [];
      const last = passes[passes.length - 1];
      return {
        schema: 2,
        source,
        granularity: "packed",
        // The engine names nodes; here a label (set at any time), else the id.
        nodes: nodes.map(({ locals, ...rest }) => ({ ...rest, name: rest.label || rest.id })),
        edges,
        topo: last.topo,
        output: last.output,
        frames,
        passes,
      };
    },
  };
  return self;
}

/** `c = a*b + a` with a = 2, b = -3, and backward() twice: a.grad ends at -7. */
export function forgotZeroGrad() {
  const r = recorder("a = Value(2.0)\nb = Value(-3.0)\nc = a*b + a\nc.backward()\nc.backward()");
  const a = r.leaf("a", 2);
  const b = r.leaf("b", -3);
  const ab = r.mul(a, b, { line: 3 });
  const c = r.add(ab, a, { label: "c", line: 3 });
  r.backward(c);
  r.print(`${a.grad}`);
  r.backward(c);
  return r.trace();
}

/** loss = w*w twice, each time zeroing w.grad, then w.data -= 0.1 * w.grad. */
export function optimizerSteps() {
  const source =
    "w = Value(1.0)\nfor step in range(2):\n    loss = w*w\n    w.grad = 0.0\n    loss.backward()\n    w.data -= 0.1 * w.grad\n    print(loss.data)";
  const r = recorder(source);
  const w = r.leaf("w", 1);
  for (let step = 0; step < 2; step++) {
    const loss = r.mul(w, w, { label: "loss", line: 3 });
    r.update([[w, "grad", 0]], 4);
    r.backward(loss);
    r.update([[w, "data", w.data - 0.1 * w.grad]], 6);
    r.print(String(loss.data));
  }
  return r.trace();
}

/**
 * Two tanh neurons of one input (a layer) and a sum of their outputs, trained for
 * `steps` passes: groups "Layer.neurons[0]", "Layer.neurons[1]", the loss at top level.
 */
export function tinyLayer(steps = 2) {
  const r = recorder("layer training");
  const x = r.leaf("x", 0.5);
  const params = [0, 1].map((i) =>
    r.inGroup(`Layer.neurons[${i}]`, () => [r.leaf("w", 0.3 + i), r.leaf("b", -0.1)]),
  );
  for (let step = 0; step < steps; step++) {
    const outs = params.map(([w, b], i) =>
      r.inGroup(`Layer.neurons[${i}]`, () => r.tanh(r.add(r.mul(w, x), b))),
    );
    const loss = r.add(outs[0], outs[1], { label: "loss" });
    r.update(
      params.flat().map((p) => [p, "grad", 0]),
      9,
    );
    r.backward(loss);
    r.update(
      params.flat().map((p) => [p, "data", p.data - 0.1 * p.grad]),
      11,
    );
  }
  return r.trace();
}

/**
 * micrograd's MLP(3, [4, 4, 1]) on four samples, trained `steps` passes with
 * zero_grad and a 0.05 step: groups MLP.layers[i].neurons[j], weights made in
 * them, inputs as constants inside the neurons (as micrograd's numbers become).
 */
export function mlpTraining(steps = 3) {
  const source = [
    "model = MLP(3, [4, 4, 1])",
    "xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]",
    "ys = [1.0, -1.0, -1.0, 1.0]",
    "for k in range(3):",
    "    ypred = [model(x) for x in xs]",
    "    loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))",
    "    for p in model.parameters():",
    "        p.grad = 0.0",
    "    loss.backward()",
    "    for p in model.parameters():",
    "        p.data += -0.05 * p.grad",
    "    print(k, loss.data)",
  ].join("\n");
  const r = recorder(source);
  const sizes = [3, 4, 4, 1];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648) * 2 - 1;
  };
  const layers = sizes.slice(1).map((size, l) =>
    Array.from({ length: size }, (_, n) =>
      r.inGroup(`MLP.layers[${l}].neurons[${n}]`, () => ({
        w: Array.from({ length: sizes[l] }, () => r.leaf("", random())),
        b: r.leaf("", random()),
      })),
    ),
  );
  const params = layers.flatMap((layer) => layer.flatMap((neuron) => [...neuron.w, neuron.b]));
  const xs = [
    [2, 3, -1],
    [3, -1, 0.5],
    [0.5, 1, 1],
    [1, 1, -1],
  ];
  const ys = [1, -1, -1, 1];
  for (let step = 0; step < steps; step++) {
    const ypred = xs.map((x) => {
      let inputs = x.map((v) => ({ value: v }));
      layers.forEach((layer, l) => {
        inputs = layer.map((neuron, n) =>
          r.inGroup(`MLP.layers[${l}].neurons[${n}]`, () => {
            let act = neuron.b;
            neuron.w.forEach((w, i) => {
              const xi = inputs[i].value !== undefined ? r.constant(inputs[i].value) : inputs[i];
              act = r.add(act, r.mul(w, xi), { line: 5 });
            });
            return r.tanh(act, { line: 5 });
          }),
        );
      });
      return inputs[0];
    });
    let loss = null;
    ypred.forEach((yout, i) => {
      const diff = r.add(yout, r.constant(-ys[i]), { line: 6 });
      const square = r.mul(diff, diff, { line: 6 });
      loss = loss === null ? square : r.add(loss, square, { line: 6 });
    });
    loss.label = "loss";
    r.update(
      params.map((p) => [p, "grad", 0]),
      8,
    );
    r.backward(loss);
    r.update(
      params.map((p) => [p, "data", p.data - 0.05 * p.grad]),
      11,
    );
    r.print(`${step} ${loss.data}`);
  }
  return r.trace();
}
