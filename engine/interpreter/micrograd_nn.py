"""`micrograd.nn` (micrograd 0.1.0, MIT licence, by Andrej Karpathy) as the interpreter
runs it: `from micrograd.nn import Neuron, Layer, MLP, Module` compiles this source in
the interpreter's own language, so its classes are traced like the learner's code
(their neurons name the groups, their nodes are the engine's `Value`s) and behave as
micrograd's do: the same random draws in the same order, the same ReLU on every layer
but the last, the same `repr`s.

Lines of this source never reach a trace: its statements keep the position of the
learner's statement that called into it (`Compiler(library=True)`).
"""

from __future__ import annotations

NN_SOURCE = """
import random


class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        kind = "ReLU" if self.nonlin else "Linear"
        return f"{kind}Neuron({len(self.w)})"


class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        inner = ", ".join(str(n) for n in self.neurons)
        return f"Layer of [{inner}]"


class MLP(Module):
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [
            Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1) for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        inner = ", ".join(str(layer) for layer in self.layers)
        return f"MLP of [{inner}]"
"""

NN_NAMES = frozenset({"Module", "Neuron", "Layer", "MLP"})
