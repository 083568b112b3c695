"""The one reference engine the benches measure against: a plain micrograd-style `Value`.

Written the way micrograd writes it: children in a set, a recursive sort, one closure
per op, the op's name kept as `_op`; `+ * **`, `relu`, `tanh` and the composites
(`- /`, negation, the reflected forms). Nothing is watched or recorded: no labels, no
tapes, no limits, no frames, so its cost is the floor any engine that does the same
arithmetic must pay.

Two benches use it:
- `bench.interpreter_bench` executes a real program with CPython, this `Value` standing
  in for `micrograd.engine.Value`;
- `bench.engine_bench` turns a straight-line benchmark program
  (`tests.support.programs.mlp_program`) into a function that builds the same graph
  with this `Value` (`compile_program`), so both engines run the very same network.

Example: `a = Value(3.0); b = a * a + a; b.backward()` leaves `a.grad == 7.0`.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable


class Value:
    def __init__(self, data: float, children: tuple[Value, ...] = (), op: str = "") -> None:
        self.data = data
        self.grad = 0.0
        self._backward: Callable[[], None] = lambda: None
        self._prev = set(children)
        self._op = op

    def __add__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, k: float) -> Value:
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward() -> None:
            self.grad += (k * self.data ** (k - 1)) * out.grad

        out._backward = _backward
        return out

    def relu(self) -> Value:
        out = Value(0 if self.data < 0 else self.data, (self,), "relu")

        def _backward() -> None:
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def tanh(self) -> Value:
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward() -> None:
            self.grad += (1 - t**2) * out.grad

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

    def __neg__(self) -> Value:
        return self * -1

    def __radd__(self, other: float) -> Value:
        return self + other

    def __sub__(self, other: Value | float) -> Value:
        return self + (-other)

    def __rsub__(self, other: float) -> Value:
        return other + (-self)

    def __rmul__(self, other: float) -> Value:
        return self * other

    def __truediv__(self, other: Value | float) -> Value:
        return self * other**-1

    def __rtruediv__(self, other: float) -> Value:
        return other * self**-1


Env = dict[str, Value]
Step = Callable[[Env], Value | float]


def compile_program(source: str) -> Callable[[], Value]:
    """Parse once; return a function that builds the program's graph and returns its
    last assignment. A number assigned to a name is a leaf, as in the product. It
    understands only what the straight-line benchmark programs use: assignments of
    names, numbers, `+`, `*` and `tanh(...)`.

    Example: `compile_program("x = 2.0\\ny = x * x")().data == 4.0`.
    """
    statements = []
    for statement in ast.parse(source).body:
        if not (isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name)):
            raise ValueError(f"the reference loader only reads assignments, not {statement}")
        statements.append((statement.targets[0].id, _compile(statement.value)))

    def run() -> Value:
        env: Env = {}
        result: Value | None = None
        for name, step in statements:
            value = step(env)
            result = env[name] = value if isinstance(value, Value) else Value(value)
        assert result is not None
        return result

    return run


def _compile(node: ast.expr) -> Step:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        number = float(node.value)
        return lambda env: number
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        operand = _compile(node.operand)
        return lambda env: -operand(env)  # only ever a number in these programs
    if isinstance(node, ast.Name):
        name = node.id
        return lambda env: env[name]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult):
        left, right = _compile(node.left), _compile(node.right)
        if isinstance(node.op, ast.Add):
            return lambda env: left(env) + right(env)  # type: ignore[operator]
        return lambda env: left(env) * right(env)  # type: ignore[operator]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tanh":
        argument = _compile(node.args[0])
        return lambda env: argument(env).tanh()  # type: ignore[union-attr]
    raise ValueError(f"the reference loader does not understand {ast.unparse(node)!r}")
