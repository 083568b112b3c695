"""Ops as members of an Enum dispatched with `match` in backward(), operands kept as
`(node, local)` NamedTuples (`Edge`), `__slots__`, PEP 604 annotations under
`from __future__ import annotations` and a `functools.cached_property` the pass never
reads: a typed engine as Python 3.10+ tutorials write one."""

from __future__ import annotations

import functools
import math
from enum import Enum, auto
from typing import NamedTuple


class Op(Enum):
    LEAF = auto()
    ADD = auto()
    MUL = auto()
    EXP = auto()


class Edge(NamedTuple):
    node: "Node"
    local: float


class Node:
    __slots__ = ("data", "grad", "op", "parents")

    def __init__(self, data: float, op: Op = Op.LEAF, parents: tuple[Edge, ...] = ()):
        self.data = data
        self.grad = 0.0
        self.op = op
        self.parents = parents

    def __add__(self, other: Node | float) -> Node:
        other = other if isinstance(other, Node) else Node(float(other))
        return Node(self.data + other.data, Op.ADD, (Edge(self, 1.0), Edge(other, 1.0)))

    def __mul__(self, other: Node | float) -> Node:
        other = other if isinstance(other, Node) else Node(float(other))
        return Node(self.data * other.data, Op.MUL, (Edge(self, other.data), Edge(other, self.data)))

    __radd__ = __add__
    __rmul__ = __mul__

    def exp(self) -> Node:
        e = math.exp(self.data)
        return Node(e, Op.EXP, (Edge(self, e),))

    @functools.cached_property
    def depth(self) -> int:
        return 1 + max((e.node.depth for e in self.parents), default=0)

    def backward(self) -> None:
        order: list[Node] = []
        seen: set[int] = set()

        def visit(n: Node) -> None:
            if id(n) in seen:
                return
            seen.add(id(n))
            for e in n.parents:
                visit(e.node)
            order.append(n)

        visit(self)
        self.grad = 1.0
        for n in reversed(order):
            match n.op:
                case Op.LEAF:
                    continue
                case Op.ADD | Op.MUL | Op.EXP:
                    for child, local in n.parents:
                        child.grad += local * n.grad
                case _:
                    raise ValueError(n.op)


x = Node(0.5)
y = Node(-1.5)
z = (x * y + 2).exp() * x + y
z.backward()
print(f"{z.data:.6f} {x.grad:.6f} {y.grad:.6f}", z.op, z.op.name, Op.MUL.value)
print(sorted(Op, key=lambda o: o.value)[-1], Edge(x, 2.0)._replace(local=3.0).local, len(Edge._fields))
