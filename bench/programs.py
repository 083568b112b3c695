"""Generated programs for benchmarks: MLP-like networks of tanh neurons.

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
