"""Generated programs for tests and benchmarks: MLP-like networks of tanh neurons.

`mlp_program(2_000)` writes a program of about 2,000 nodes: layers of neurons with
fan-in 10, each `h = tanh(w1*x1 + ... + w10*x10 + b)` with weights as number literals
(so each weight is a constant leaf), ending in one output neuron.
"""

from __future__ import annotations

import random

FAN_IN = 10
NODES_PER_NEURON = 3 * FAN_IN + 3  # weights, products, sums, bias, tanh


def mlp_layers(target_nodes: int, fan_in: int = FAN_IN) -> int:
    """How many hidden layers of `fan_in` neurons make about `target_nodes` nodes."""
    per_layer = fan_in * NODES_PER_NEURON
    return max(1, (target_nodes - fan_in - NODES_PER_NEURON) // per_layer)


def mlp_program(target_nodes: int, fan_in: int = FAN_IN, seed: int = 0) -> str:
    rng = random.Random(seed)
    lines = [f"x{i} = {rng.uniform(-1, 1):.3f}" for i in range(fan_in)]
    inputs = [f"x{i}" for i in range(fan_in)]

    def neuron(name: str, sources: list[str]) -> str:
        terms = " + ".join(f"{rng.uniform(-1, 1):.3f}*{s}" for s in sources)
        return f"{name} = tanh({terms} + {rng.uniform(-0.5, 0.5):.3f})"

    for layer in range(mlp_layers(target_nodes, fan_in)):
        names = [f"h{layer}_{j}" for j in range(fan_in)]
        lines += [neuron(name, inputs) for name in names]
        inputs = names
    lines.append(neuron("out", inputs))
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
    lines = [f"x{i} = {rng.uniform(-1, 1):.3f}" for i in range(fan_in)]
    inputs = [f"x{i}" for i in range(fan_in)]

    def neuron(name: str, sources: list[str]) -> str:
        terms = " + ".join(f"{rng.uniform(-1, 1):.3f}*{s}" for s in sources)
        return f"{name} = tanh({terms} + {rng.uniform(-0.5, 0.5):.3f})"

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
