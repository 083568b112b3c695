#!/usr/bin/env python3
"""Train a single tanh neuron on a few points.

usage: python train.py [--steps N] [--lr LR] [--seed SEED] [--quiet]
"""
import argparse
import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

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


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Train a single tanh neuron.")
    parser.add_argument("--steps", type=int, default=8, help="gradient steps")
    parser.add_argument("--lr", type=float, default=0.1, help="learning rate")
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--quiet", action="store_true", help="print the last loss only")
    return parser.parse_args(argv)


def main(args):
    rng = random.Random(args.seed)
    w = [Value(rng.uniform(-1, 1)) for _ in range(2)]
    b = Value(0.0)
    data = [((1.0, 0.5), 0.8), ((-0.5, 1.0), -0.3), ((0.25, -1.0), 0.1)]
    for step in range(args.steps):
        loss = Value(0.0)
        for (x0, x1), y in data:
            out = (w[0] * x0 + w[1] * x1 + b).tanh()
            diff = out + (-y)
            loss = loss + diff * diff
        for p in w + [b]:
            p.grad = 0.0
        loss.backward()
        for p in w + [b]:
            p.data -= args.lr * p.grad
        if not args.quiet or step == args.steps - 1:
            print(f"step {step}: loss {loss.data:.6f}")
    return loss.data


if __name__ == "__main__":
    args = parse_args()
    print(args)
    main(args)
    print(parse_args(["--steps", "2", "--quiet"]))
