"""A node class made with @dataclass, its graph and sort the learner's own."""

from dataclasses import dataclass, field
from typing import Callable, List, Tuple


@dataclass(eq=False)
class Node:
    data: float
    parents: Tuple["Node", ...] = ()
    op: str = ""
    grad: float = 0.0
    _backward: Callable[[], None] = field(default=lambda: None, repr=False)

    def __add__(self, other: "Node") -> "Node":
        out = Node(self.data + other.data, (self, other), "+")

        def back():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = back
        return out

    def __mul__(self, other: "Node") -> "Node":
        out = Node(self.data * other.data, (self, other), "*")

        def back():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = back
        return out

    def backward(self) -> None:
        order: List[Node] = []
        done = set()

        def walk(node: "Node") -> None:
            if id(node) in done:
                return
            done.add(id(node))
            for p in node.parents:
                walk(p)
            order.append(node)

        walk(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


@dataclass
class Config:
    lr: float = 0.1
    history: List[float] = field(default_factory=list)


cfg = Config()
a, b = Node(2.0), Node(-3.0)
c = a * b + a
c.backward()
cfg.history.append(c.data)
print(a.grad, b.grad, c)
print(cfg, Config() == Config(), Config(0.2) == cfg)
v = Value(1.0)
v.backward()


@dataclass
class Tracked(Config):
    name: str = "run"


run = Tracked(0.5, name="second")
run.history.append(1.0)
print(run, Tracked().history)
