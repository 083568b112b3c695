# `match` with every kind of pattern, as a course on Python 3.10+ might write an evaluator.
from dataclasses import dataclass


@dataclass
class Point:
    x: float
    y: float = 0.0


class Op:
    __match_args__ = ("name", "arity")

    def __init__(self, name, arity):
        self.name = name
        self.arity = arity


def describe(thing):
    match thing:
        case None:
            return "nothing"
        case True | False:
            return f"a bool {thing}"
        case 0 | 0.0:
            return "zero"
        case int(n) if n < 0:
            return f"negative int {n}"
        case int() | float():
            return f"number {thing}"
        case "+" | "-" as sign:
            return f"sign {sign}"
        case str(s):
            return f"string {s!r}"
        case []:
            return "empty list"
        case [x]:
            return f"one item {x}"
        case [first, *rest] if len(rest) > 2:
            return f"long sequence from {first}, {len(rest)} more"
        case (a, b):
            return f"pair {a} {b}"
        case [a, b, *_, c]:
            return f"sequence {a} {b} ... {c}"
        case {"op": "**", "k": k}:
            return f"power {k}"
        case {"op": op, **others}:
            return f"op {op} with {sorted(others)}"
        case Point(x=0, y=0):
            return "origin"
        case Point(x, y) if x == y:
            return f"diagonal {x}"
        case Point(x=px):
            return f"point at x={px}"
        case Op("tanh", 1) | Op("exp", 1):
            return "unary function"
        case Op(name, arity=2):
            return f"binary {name}"
        case _:
            return "something else"


class P2:
    def __init__(self, x):
        self.x = x


__match_args__ = None
things = [None, True, 0, -3, 7, 2.5, "+", "-", "abc", [], [1], [1, 2, 3, 4], (1, 2), [1, 2, 3],
          {"op": "**", "k": 3}, {"op": "+", "a": 1, "b": 2}, Point(0, 0), Point(2, 2),
          Point(1, 5), Op("tanh", 1), Op("*", 2), Op("?", 3), P2(1), {"x": 1}]
for t in things:
    print(describe(t))
match Point(3, 4):
    case Point(x=x, y=y):
        print("bound", x, y)
try:
    match P2(1):
        case P2(1):
            print("no")
except TypeError as e:
    print("TypeError:", e)

# And a node, as every program of this folder ends: its value picked by a match.
w = Value(2.0)
match describe(Point(1, 1)):
    case "diagonal 1":
        out = w * w
    case _:
        out = w
out.backward()
print(w.grad)
