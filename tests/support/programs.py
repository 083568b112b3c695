"""Generated programs for tests and benchmarks: MLP-like networks of tanh neurons, and
micrograd's own `nn.py` with training code to append to it.

`mlp_program(2_000)` writes a program of about 2,000 nodes: layers of neurons with
fan-in 10, each `h = tanh(w1*x1 + ... + w10*x10 + b)` with weights as number literals
(so each weight is a constant leaf), ending in one output neuron.

`nn_source() + nn_training()` is micrograd's `nn.py`, pasted as it is, training an
`MLP(3, [4, 4, 1])` for six steps.

`own_value_program("'sin'")` is a learner's own micrograd-style `class V` whose product
node gets the op the given Python expression makes, traced for `c = a * b`.
"""

from __future__ import annotations

import random
from functools import partial
from importlib import resources

FAN_IN = 10
NODES_PER_NEURON = 3 * FAN_IN + 3  # weights, products, sums, bias, tanh


def mlp_layers(target_nodes: int, fan_in: int = FAN_IN) -> int:
    """How many hidden layers of `fan_in` neurons make about `target_nodes` nodes."""
    per_layer = fan_in * NODES_PER_NEURON
    return max(1, (target_nodes - fan_in - NODES_PER_NEURON) // per_layer)


def _inputs(rng: random.Random, fan_in: int) -> tuple[list[str], list[str]]:
    """The input lines `x0 = ...`, `x1 = ...` with random values, and their names."""
    lines = [f"x{i} = {rng.uniform(-1, 1):.3f}" for i in range(fan_in)]
    return lines, [f"x{i}" for i in range(fan_in)]


def _neuron(rng: random.Random, name: str, sources: list[str]) -> str:
    """One neuron's line: `name = tanh(w*s + ... + b)` with random weights and bias."""
    terms = " + ".join(f"{rng.uniform(-1, 1):.3f}*{s}" for s in sources)
    return f"{name} = tanh({terms} + {rng.uniform(-0.5, 0.5):.3f})"


def mlp_program(target_nodes: int, fan_in: int = FAN_IN, seed: int = 0) -> str:
    rng = random.Random(seed)
    lines, inputs = _inputs(rng, fan_in)
    neuron = partial(_neuron, rng)
    for layer in range(mlp_layers(target_nodes, fan_in)):
        names = [f"h{layer}_{j}" for j in range(fan_in)]
        lines += [neuron(name, inputs) for name in names]
        inputs = names
    lines.append(neuron("out", inputs))
    return "\n".join(lines) + "\n"


def written_program(target_nodes: int, fan_in: int = FAN_IN, seed: int = 0) -> str:
    """`mlp_program`'s network as a learner writes it out by hand: a line per term, a
    running sum per neuron (`s0_3 = s0_3 + 0.412*x7`), then `h0_3 = tanh(s0_3 + b)`.
    About three nodes a line: at 20,000 nodes some 7,000 lines, the kind of program
    issue 24 measured (7,295 lines, 194 KB).

    Example: written_program(100) starts `x0 = ...` (10 lines), then
    `s0_0 = 0.xxx*x0`, `s0_0 = s0_0 + 0.xxx*x1`, ...
    """
    rng = random.Random(seed)
    lines, inputs = _inputs(rng, fan_in)
    layers = mlp_layers(target_nodes, fan_in)
    for layer in range(layers + 1):
        names = [f"h{layer}_{j}" for j in range(fan_in)] if layer < layers else ["out"]
        for j, name in enumerate(names):
            total = f"s{layer}_{j}"
            for i, source in enumerate(inputs):
                term = f"{rng.uniform(-1, 1):.3f}*{source}"
                lines.append(f"{total} = {term}" if i == 0 else f"{total} = {total} + {term}")
            lines.append(f"{name} = tanh({total} + {rng.uniform(-0.5, 0.5):.3f})")
        inputs = names
    return "\n".join(lines) + "\n"


def dense_program(depth: int = 160, repeats: int = 2) -> str:
    """A short program that is a lot of work: `tanh` nested `depth` deep, `repeats` times.

    Under 2,000 characters; expanded, `dense_program()` builds about 2,900 nodes, which
    is why the server routes traces by estimated work, not by length.
    """
    line = "b = " + "tanh(" * depth + "b" + ")" * depth
    return "b = Value(0.1)\n" + "\n".join([line] * repeats) + "\n"


def fanout_nodes(width: int, fan_in: int = FAN_IN) -> int:
    """The node count of `fanout_program` with `width` first-layer neurons: each neuron
    is `fan_in` weights, products and sums, a bias and a tanh (at most: a last, smaller
    group of a layer makes a neuron with fewer inputs).

    Example: fanout_nodes(55) -> 10 + 32 * (55 + 6 + 1) = 1,994; the program has 1,967.
    """
    neurons, layer = 0, width
    while True:
        neurons += layer
        if layer == 1:
            break
        layer = -(-layer // fan_in)
    return fan_in + (3 * fan_in + 2) * neurons


def fanout_width(target_nodes: int, fan_in: int = FAN_IN) -> int:
    """The widest first layer whose `fanout_program` stays within `target_nodes` nodes."""
    width = fan_in
    while fanout_nodes(width + 1, fan_in) <= target_nodes:
        width += 1
    return width


def fanout_program(target_nodes: int, fan_in: int = FAN_IN, seed: int = 0) -> str:
    """A network as wide as real ones: `fan_in` inputs feed every neuron of a wide
    first layer (each input has hundreds of parents at ~20,000 nodes), then layers
    of neurons with fan-in `fan_in` narrow it down to one output.

    Example: fanout_program(2000) has 10 inputs, 55 first-layer neurons, then 6, then 1
    (1,967 nodes).
    """
    rng = random.Random(seed)
    lines, inputs = _inputs(rng, fan_in)
    neuron = partial(_neuron, rng)
    width = fanout_width(target_nodes, fan_in)
    layer = 0
    names = [f"h0_{j}" for j in range(width)]
    lines += [neuron(name, inputs) for name in names]
    while len(names) > 1:
        layer += 1
        groups = [names[i : i + fan_in] for i in range(0, len(names), fan_in)]
        names = [f"h{layer}_{j}" if len(groups) > 1 else "out" for j in range(len(groups))]
        lines += [neuron(name, group) for name, group in zip(names, groups, strict=True)]
    return "\n".join(lines) + "\n"


def with_new_inputs(source: str, seed: int) -> str:
    """The same program with new values for its inputs `x0`, `x1`, ...: the same graph
    structure and labels (its weights are literals, drawn as their values, so new
    weights would change the labels), new numbers everywhere downstream.

    Example: with_new_inputs("x0 = 0.100\\nh = tanh(2*x0)\\n", 1)
    -> "x0 = -0.731\\nh = tanh(2*x0)\\n"
    """
    rng = random.Random(seed)
    lines = [
        f"{line.split(' = ')[0]} = {rng.uniform(-1, 1):.3f}" if line.startswith("x") else line
        for line in source.splitlines()
    ]
    return "\n".join(lines) + "\n"


def nn_source() -> str:
    """micrograd's `nn.py` as it is, read from the installed `micrograd` package (MIT
    licence, test extra) rather than copied into the repository."""
    return resources.files("micrograd").joinpath("nn.py").read_text(encoding="utf-8")


def nn_training(seed: int = 1337, *, prints: bool = True) -> str:
    """Code to append to `nn_source()`: an `MLP(3, [4, 4, 1])` seeded with `seed`, six
    steps of gradient descent (learning rate 0.05) on four samples. With `prints`, each
    step prints its loss, and the end prints the model, its parameters and gradients.

    Example: `nn_source() + nn_training(7, prints=False)` trains silently.
    """
    lines = [
        f"random.seed({seed})",
        "model = MLP(3, [4, 4, 1])",
        "xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]",
        "ys = [1.0, -1.0, -1.0, 1.0]",
        "for k in range(6):",
        "    ypred = [model(x) for x in xs]",
        "    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))",
        "    model.zero_grad()",
        "    loss.backward()",
        "    for p in model.parameters():",
        "        p.data += -0.05 * p.grad",
    ]
    if prints:
        lines += [
            "    print(k, loss.data)",
            "print(model)",
            "print([p.data for p in model.parameters()])",
            "print([p.grad for p in model.parameters()])",
        ]
    return "\n" + "\n".join(lines) + "\n"


OWN_VALUE_PROGRAM = """\
class V:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __mul__(self, other):
        out = V(self.data * other.data, (self, other), OP)

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a = V(2.0)
b = V(3.0)
c = a * b
c.backward()
"""


def own_value_program(op: str) -> str:
    """A learner's own engine whose product nodes get the op `op` (Python source) makes."""
    return OWN_VALUE_PROGRAM.replace("OP)", f"{op})", 1)


# A two-layer MLP written as in micrograd's lecture, trained 3 steps: several passes,
# drawn one at a time on the page (the browser tests of its edges and its camera).
MLP_TRAINED_THREE_STEPS = """\
import random
from micrograd.engine import Value


class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP:
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


random.seed(2)
n = MLP(2, [3, 1])
xs = [[2.0, 3.0], [3.0, -1.0], [0.5, 1.0], [1.0, 1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
for k in range(3):
    ypred = [n(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))
    for p in n.parameters():
        p.grad = 0.0
    loss.backward()
    for p in n.parameters():
        p.data += -0.1 * p.grad
"""
