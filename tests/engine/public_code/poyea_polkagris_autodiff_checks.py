# Copyright (c) 2026 John Law
# SPDX-License-Identifier: MIT

from __future__ import annotations

import math


class Value:
    def __init__(self, data: float, _children: tuple = (), _op: str = ""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, k: float) -> Value:
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def exp(self) -> Value:
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad

        out._backward = _backward
        return out

    def relu(self) -> Value:
        out = Value(max(0.0, self.data), (self,), "relu")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def tanh(self) -> Value:
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self) -> Value:
        # Branch on the sign so the exp argument is never positive; exp(-x) for
        # x = -1000 is the overflow that exp() above walks into head-on.
        if self.data >= 0.0:
            s = 1.0 / (1.0 + math.exp(-self.data))
        else:
            e = math.exp(self.data)
            s = e / (1.0 + e)
        out = Value(s, (self,), "sigmoid")

        def _backward():
            self.grad += s * (1 - s) * out.grad

        out._backward = _backward
        return out

    def backward(self) -> None:
        topo: list[Value] = []
        visited: set[Value] = set()

        def build(v: Value) -> None:
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

    __radd__ = __add__
    __rmul__ = __mul__

    def __neg__(self) -> Value:
        return self * -1.0

    def __sub__(self, other: Value | float) -> Value:
        return self + (-(other if isinstance(other, Value) else Value(other)))

    def __rsub__(self, other: float) -> Value:
        return Value(other) + (-self)

    def __truediv__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        return self * other**-1.0

    def __repr__(self) -> str:
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

# Copyright (c) 2026 John Law
# SPDX-License-Identifier: MIT

"""Runner for the per-component `checks.py` scripts.

Each check is a no-argument function that measures something and returns a
one-line result. Raise `Pending` for a property not established yet, `Skip`
when the platform cannot measure it. An `AssertionError` is a failure.
"""


from collections.abc import Callable, Sequence


class Pending(Exception):
    """Not established yet."""


class Skip(Exception):
    """This machine cannot measure it."""


def run(title: str, checks: Sequence[Callable[[], str]]) -> int:
    print(title)
    failed = 0
    for check in checks:
        label = check.__name__.replace("_", " ")
        try:
            note = check()
        except Pending as exc:
            print(f"  pending  {label}: {exc}")
        except Skip as exc:
            print(f"  skip     {label}: {exc}")
        except AssertionError as exc:
            failed += 1
            print(f"  FAIL     {label}: {exc}")
        else:
            print(f"  ok       {label}: {note}")
    return 1 if failed else 0

# Copyright (c) 2026 John Law
# SPDX-License-Identifier: MIT

"""Run: python -m autodiff.checks"""




def count_nodes(out: Value) -> int:
    seen: set[int] = set()
    stack = [out]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(node._prev)
    return len(seen)


def sigmoid_composed_from_primitives() -> str:
    x = Value(0.7)
    s = (1.0 + (-x).exp()) ** -1.0
    s.backward()
    expected = s.data * (1.0 - s.data)
    assert abs(x.grad - expected) < 1e-12, f"{x.grad} != {expected}"
    return f"d/dx sigmoid(0.7) = {x.grad:.6f} = s(1-s), no new op needed"


def a_reused_node_accumulates_gradient() -> str:
    x = Value(3.0)
    y = x * 2.0 + x * 5.0
    y.backward()
    assert x.grad == 7.0, f"expected 7.0, got {x.grad} (is += still +=?)"
    return "x used twice gives grad 7.0, the sum of both paths"


def every_operation_allocates_a_node() -> str:
    x = Value(1.5)
    y = (x * 2.0 + 1.0).relu()
    n = count_nodes(y)
    assert n == 6, f"expected 6 nodes, counted {n}"
    return f"{n} nodes for one relu(2x+1): x, 2.0, mul, 1.0, add, relu"


def tanh_and_exp_agree_on_their_gradients() -> str:
    x = Value(0.4)
    t = x.tanh()
    t.backward()
    from_tanh = x.grad

    x2 = Value(0.4)
    e2 = (x2 * 2.0).exp()
    manual = (e2 - 1.0) / (e2 + 1.0)
    manual.backward()
    assert abs(from_tanh - x2.grad) < 1e-9, f"{from_tanh} != {x2.grad}"
    return f"tanh backward {from_tanh:.6f} matches the exp-built version"


def reciprocal_has_no_reflected_operator() -> str:
    x = Value(4.0)
    try:
        _ = 1.0 / x
    except TypeError:
        return "1.0 / Value raises TypeError; x ** -1.0 is the way in. Add __rtruediv__?"
    raise AssertionError("__rtruediv__ exists now, so the composed sigmoid above can be simplified")


def fused_sigmoid_op_exists() -> str:
    if hasattr(Value, "sigmoid"):
        x = Value(0.7)
        s = x.sigmoid()
        s.backward()
        expected = s.data * (1.0 - s.data)
        assert abs(x.grad - expected) < 1e-12, f"{x.grad} != {expected}"
        return f"Value.sigmoid backward is correct: {x.grad:.6f}"
    raise Pending("Value has no sigmoid(); the composed form above is used instead")


def break_gradient_accumulation_on_purpose() -> str:
    x = Value(2.0)
    y = x * x
    y.backward()
    assert abs(x.grad - 4.0) < 1e-12, f"expected 4.0, got {x.grad}"
    return f"x*x at x=2 gives {x.grad}; swap a += for = in __mul__ and watch this drop to 2"


def gradients_match_finite_differences() -> str:
    def f(v: float) -> float:
        x = Value(v)
        return ((x * x + x).tanh() * 3.0).data

    v, h = 0.3, 1e-6
    x = Value(v)
    out = (x * x + x).tanh() * 3.0
    out.backward()
    numeric = (f(v + h) - f(v - h)) / (2 * h)
    assert abs(x.grad - numeric) < 1e-6, f"{x.grad} vs {numeric}"
    return f"analytic {x.grad:.6f} vs central difference {numeric:.6f}"


def exp_of_a_large_input_overflows() -> str:
    try:
        Value(1000.0).exp()
    except OverflowError:
        return "exp(1000) overflows; real frameworks subtract the max first"
    raise AssertionError("expected OverflowError from math.exp(1000)")


CHECKS = [
    sigmoid_composed_from_primitives,
    a_reused_node_accumulates_gradient,
    every_operation_allocates_a_node,
    tanh_and_exp_agree_on_their_gradients,
    gradients_match_finite_differences,
    reciprocal_has_no_reflected_operator,
    break_gradient_accumulation_on_purpose,
    exp_of_a_large_input_overflows,
    fused_sigmoid_op_exists,
]

if __name__ == "__main__":
    raise SystemExit(run("autodiff", CHECKS))
