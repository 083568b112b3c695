"""A bare scalar autograd engine: the yardstick the tracer is measured against.

Forward values and one backward pass, nothing else: no labels, no tapes, no limits,
no frames. Children live in a set and the sort recurses, the plainest way to write
it, so its cost is the floor any engine that does the same arithmetic must pay.

`compile_program` turns a benchmark program (`tests.support.programs.mlp_program`) into a
function that builds its graph with this `Value`, so both engines run the very same
network; it understands only what those programs use (names, numbers, `+`, `*`,
`tanh(...)`).

Example: `a = Value(3.0); b = a * a + a; b.backward()` leaves `a.grad == 7.0`.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable


class Value:
    def __init__(self, data: float, children: tuple[Value, ...] = ()) -> None:
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._backward: Callable[[], None] = lambda: None

    def __add__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other))

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other))

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other: float) -> Value:
        return self + other

    def __rmul__(self, other: float) -> Value:
        return self * other

    def tanh(self) -> Value:
        t = math.tanh(self.data)
        out = Value(t, (self,))

        def _backward() -> None:
            self.grad += (1 - t * t) * out.grad

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
        for node in reversed(topo):
            node._backward()


Env = dict[str, Value]
Step = Callable[[Env], Value | float]


def compile_program(source: str) -> Callable[[], Value]:
    """Parse once; return a function that builds the program's graph and returns its
    last assignment. A number assigned to a name is a leaf, as in the product.

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
