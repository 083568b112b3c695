"""Real programs (SPEC §11) print what CPython prints for the same code.

Each program prints what it computes; the same source runs under CPython with
micrograd's `Value`, and the two outputs are compared number by number.
"""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython

TAIL = "\nv = Value(1.0)\nv.backward()\n"  # every trace needs a Value to end with

PROGRAMS = {
    "functions with defaults, keywords, *args and **kwargs": """
def scale(x, factor=2, *rest, offset=0, **extra):
    return x * factor + offset + sum(rest) + len(extra)
print(scale(3), scale(3, 4), scale(3, 4, 5, 6), scale(1, offset=10, a=1, b=2))
""",
    "closures and recursion": """
def counter():
    count = 0
    def bump():
        nonlocal count
        count += 1
        return count
    return bump
c = counter()
c(); c()
print(c())
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(15)])
""",
    "generator expressions are lazy": """
def make(x):
    print('make', x)
    return x * 2
for y in (make(x) for x in [1, 2]):
    print('got', y)
print(any(1 / x > 0 for x in [1, 0]), all(1 / x < 0 for x in [1, 0]))
g = (x * k for x in [1, 2])
k = 10
print(sum(g), sum(g))
pairs = (a * b for a in (x for x in range(3)) for b in map(abs, [-1, 2]))
print(list(pairs))
""",
    "lambdas, sorted, min and max with keys": """
pairs = [(3, 'c'), (1, 'a'), (2, 'b')]
print(sorted(pairs, key=lambda p: -p[0]), min(pairs), max(pairs, key=lambda p: p[1]))
print(sorted([5, 2, 9], reverse=True), sorted('hello'))
""",
    "while, break, continue and else": """
n = 0
total = 0
while True:
    n += 1
    if n % 2 == 0:
        continue
    if n > 15:
        break
    total += n
print(n, total)
for i in range(3):
    pass
else:
    print('done', i)
k = 3
while k > 0:
    k -= 1
else:
    print('ran out', k)
def first_over(xs, limit):
    i = 0
    while i < len(xs):
        for x in xs[i:]:
            if x > limit:
                return x
            break
        i += 1
    else:
        return None
print(first_over([1, 5, 9], 4), first_over([1, 2], 4))
""",
    "lists, tuples, dicts, sets, slices and unpacking": """
xs = [1, 2, 3, 4, 5, 6]
a, *middle, b = xs
print(a, middle, b, xs[1:4], xs[::-2], xs[-1])
d = {'w': 1.5, 'b': -0.5}
d['x'] = 3
for k, v in d.items():
    print(k, v)
print(sorted(d), d.get('z', 0), 'w' in d, len(d))
s = {3, 1, 2}
s.add(1)
print(len(s), 2 in s, sorted(s))
t = tuple(x * x for x in range(4))
print(t, t[2], list(zip(xs, t)), list(enumerate('ab', 1)))
xs[0] = 10
xs.append(7)
xs.extend([8, 9])
print(xs.pop(), xs, xs.index(3), xs.count(4))
""",
    "comprehensions, generator expressions and conditional expressions": """
grid = [[i * j for j in range(3)] for i in range(3)]
print(grid, sum(x for row in grid for x in row if x % 2 == 0))
print({i: i * i for i in range(4)}, ['even' if i % 2 == 0 else 'odd' for i in range(3)])
print(any(x > 3 for x in [1, 5]), all([]), list(map(lambda x: x + 1, [1, 2])))
""",
    "integers, floats and the math module": """
import math
print(7 // 2, -7 // 2, 7 % 3, -7 % 3, 2 ** 10, 2 ** -1, 1 / 3, 10 ** 18)
print(math.sqrt(2), math.exp(1), math.log(10), math.log(8, 2), math.tanh(0.5), math.pi)
print(math.floor(-2.5), math.ceil(2.1), abs(-3), round(2.675, 2), round(3.5))
print(int(7.9), float('1.5'))
print(True + True, 3 < 4 < 5, not 0, 1 == 1.0, 5 if 0 else 6)
""",
    "strings, f-strings, format specs and %": """
name = 'w1'
x = 3.14159
print(f'{name}={x:.3f}', f'{x:>10.2e}|', f'{42:05d}', f'{name!r}', f'{x:{8}.{2}f}')
print('%s is %.2f and %d%%' % (name, x, 7), 'a' + 'b' * 3, ', '.join(['x', 'y']))
print(str(1.0), repr('q'), 'abc'.upper(), ' pad '.strip(), 'a,b'.split(','))
print([1, 'two', (3,), {'k': None}, True])
""",
    "classes with inheritance, operators, __call__ and __repr__": """
class Shape:
    sides = 0
    def __init__(self, size):
        self.size = size
    def area(self):
        return 0
    def describe(self):
        return f'{type_name(self)} with {self.sides} sides, area {self.area()}'
def type_name(obj):
    return 'Square' if isinstance(obj, Square) else 'Shape'
class Square(Shape):
    sides = 4
    def area(self):
        return self.size ** 2
    def __add__(self, other):
        return Square(self.size + (other.size if isinstance(other, Square) else other))
    def __radd__(self, other):
        return self + other
    def __call__(self, k):
        return self.size * k
    def __repr__(self):
        return f'Square({self.size})'
    def __eq__(self, other):
        return isinstance(other, Square) and self.size == other.size
    def __lt__(self, other):
        return self.size < other.size
s = Square(2)
print(s.describe(), s + Square(3), 1 + s, s(5), sum([Square(1), Square(2)], Square(0)))
print(s == Square(2), s != Square(3), s < Square(3), Shape(1).describe(), repr(s))
print(sorted([Square(3), Square(1)], key=lambda q: q.size), [str(q) for q in [s]])
""",
    "super() and class attributes": """
class Base:
    def __init__(self, n):
        self.n = n
    def hello(self):
        return 'base' + str(self.n)
class Child(Base):
    def __init__(self, n):
        super().__init__(n * 2)
    def hello(self):
        return 'child+' + super().hello()
print(Child(3).hello(), Child(1).n)
""",
    "assert passes quietly when true": """
assert 1 + 1 == 2, 'maths'
print('ok')
""",
    "random is CPython's generator, seeded or not": """
import random
print(random.random(), random.uniform(-1, 1))
random.seed(42)
xs = list(range(10))
random.shuffle(xs)
print(random.random(), random.gauss(0, 1), random.choice(['a', 'b', 'c']), xs)
print(random.randint(1, 6), random.sample(range(20), 3))
print(random.sample(xs, k=4), random.sample(['a', 'b', 'c'], k=0))
""",
    "reading and writing .data and .grad of a Value": """
a = Value(2.0)
b = Value(-3.0)
c = a * b + a
c.backward()
print(a.grad, b.grad, c.data)
a.data -= 0.1 * a.grad
print(a.data, a.data > 1, a.grad == 1 - 3)
""",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_program_prints_what_cpython_prints(name: str) -> None:
    source = PROGRAMS[name]
    trace = trace_source(source + TAIL)

    assert_same_output(printed_lines(trace), run_in_cpython(source))


def test_an_error_inside_a_function_names_its_line_and_the_call_chain() -> None:
    source = "def neuron(x):\n    return x / 0\n\ndef layer():\n    return neuron(1)\n\nlayer()\n"
    with pytest.raises(EngineError) as caught:
        trace_source(source)

    error = caught.value
    assert (error.line, error.column) == (2, 12)
    assert "in neuron(), called from line 5" in error.message
    assert "in layer(), called from line 7" in error.message


def test_a_failed_assert_is_an_error_with_its_message_and_line() -> None:
    with pytest.raises(EngineError) as caught:
        trace_source("x = 1\nassert x > 2, 'too small'\n")
    assert caught.value.message == "AssertionError: too small"  # as CPython's traceback ends
    assert caught.value.line == 2


def test_a_set_of_strings_iterates_in_insertion_order() -> None:
    trace = trace_source("s = set()\nfor x in 'eadad':\n    s.add(x)\nprint(list(s))" + TAIL)
    assert printed_lines(trace) == ["['e', 'a', 'd']"]


def test_a_set_of_numbers_iterates_in_cpythons_order() -> None:
    # CPython's order of ints and floats is the same in every run: its table's.
    source = (
        "s = set()\nfor x in [5, 1, 4, 1, 3, 37, 13, 2.5, (1, 2)]:\n    s.add(x)\n"
        "print(list(s), {37, 2, 13}, set([40, 8]), {x for x in range(40, 0, -3)})\n"
        "t = set(range(50))\nfor i in range(45):\n    t.discard(i)\n"
        "u = {33, 1}\nu |= {65, 2}\n"
        "print(t, t.pop(), t, u, u | {97}, u & {65, 1, 9}, u - {1}, u ^ {129, 2})\n"
        "print(u.union([161, 3]), set(u), u.copy(), sorted(u), [x * 2 for x in u])\n"
        "e = set()\nb = set([26, 37, 4, -2, 30, 7, 28])\n"
        "print(e.union(b, [99]), e.union(b), b.difference([4]), b.symmetric_difference({1000}))\n"
        "print({-1, -2, 7}, {0.5, 1.5, 2.0}, {True, 2, 0})\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_an_unseeded_program_draws_the_numbers_of_seed_zero() -> None:
    source = "import random\nprint(random.random())\n"
    trace = trace_source(source + TAIL)
    assert printed_lines(trace) == run_in_cpython("import random\nrandom.seed(0)\n" + source)


def test_the_output_is_the_last_expression_when_nothing_calls_backward() -> None:
    trace = trace_source("def f(x):\n    return x * 2\na = Value(3.0)\nf(a)\n")
    output = next(n for n in trace["nodes"] if n["id"] == trace["output"])
    assert output["data"] == 6.0
    assert next(n for n in trace["nodes"] if n["label"] == "a")["grad"] == 2.0


def test_a_name_assigned_inside_a_function_labels_its_node() -> None:
    trace = trace_source(
        "def neuron(x, w):\n    act = x * w\n    return act.tanh()\n"
        "o = neuron(Value(1.0), Value(0.5))\no.backward()\n"
    )
    assert [n["label"] for n in trace["nodes"]] == ["", "", "act", "o"]


def test_a_program_without_a_value_is_refused() -> None:
    with pytest.raises(EngineError, match="not a Value"):
        trace_source("x = [1, 2]\nx\n")


@pytest.mark.parametrize(
    "ending",
    ["print(y.data)\n", "y.label = 'o'\n", "y.label = 'o'\nprint(f'{y.data:.1f}')\n"],
    ids=["print", "label", "label-then-print"],
)
def test_a_final_print_or_label_is_not_the_result_as_in_straight_line_programs(
    ending: str,
) -> None:
    # Reading .data makes these real programs; SPEC §2's output rule still holds.
    trace = trace_source("x = Value(3.0)\ny = x * x\n" + ending)

    output = next(n for n in trace["nodes"] if n["id"] == trace["output"])
    assert output["data"] == 9.0
    assert next(n for n in trace["nodes"] if n["label"] == "x")["grad"] == 6.0


def test_a_program_that_only_prints_still_has_no_result() -> None:
    with pytest.raises(EngineError, match="has no result"):
        trace_source("print(Value(3.0).data)\nprint(Value(2.0).grad)\n")


@pytest.mark.parametrize("granularity", ["packed", "expanded"])
def test_the_straight_line_functions_work_inside_real_programs(granularity: str) -> None:
    source = (
        "def neuron(x, w, b):\n    return tanh(x * w + b)\n"
        "o = neuron(Value(2.0), Value(-3.0), Value(6.8813735870195432))\n"
        "o.backward()\nprint(tanh(0.0), exp(0.0), relu(-1.0), log(1.0), sigmoid(0.0))\n"
    )
    trace = trace_source(source, granularity)
    assert printed_lines(trace) == ["0.0 1.0 0.0 0.0 0.5"]
    leaves = [n["grad"] for n in trace["nodes"] if n["kind"] == "leaf"]
    assert leaves == pytest.approx([-1.5, 1.0, 0.5])
    assert len(trace["nodes"]) == (6 if granularity == "packed" else 14)


def test_printing_a_value_matches_micrograds_repr() -> None:
    # Gradients start as the int 0 and the seed is the int 1, as in micrograd; relu keeps
    # an int 0. (After backward the engine's rules add floats where micrograd may add ints,
    # so only the numbers are compared there.)
    source = (
        "a = Value(2.0)\nb = Value(0)\nc = (a * b).relu() + (a * -1).relu()\nprint(c, a, b)\n"
        "c.backward()\nprint(c.grad, a.grad, b.grad, c.data)\n"
    )
    ours = printed_lines(trace_source(source))
    theirs = run_in_cpython(source)
    assert (
        ours[0]
        == theirs[0]
        == "Value(data=0.0, grad=0) Value(data=2.0, grad=0) Value(data=0, grad=0)"
    )
    assert_same_output(ours[1:], theirs[1:])


def test_a_generator_expression_makes_its_nodes_as_the_consumer_asks_as_cpython_does() -> None:
    # micrograd's Neuron: each product is made just before it is added to the sum.
    trace = trace_source(
        "w = [Value(0.5), Value(-2.0)]\nb = Value(1.0)\nx = [3.0, 4.0]\n"
        "act = sum((wi * xi for wi, xi in zip(w, x)), b)\nact.backward()\n"
    )
    builds = [f["node"] for f in trace["frames"] if f["phase"] == "build"]
    ops = {n["id"]: n["op"] for n in trace["nodes"]}
    assert [ops[node] for node in builds] == ["*", "+", "*", "+"]


def test_unpacking_errors_are_cpythons_value_errors() -> None:
    source = (
        "for xs in [[1], [1, 2, 3], []]:\n"
        "    try:\n        a, b = xs\n    except ValueError as e:\n        print(e)\n"
        "    try:\n        a, *b, c = xs\n    except ValueError as e:\n        print(e)\n"
        "    try:\n        a, b = iter(xs)\n    except Exception as e:\n"
        "        print(type(e).__name__, e)\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_format_errors_are_cpythons_and_caught_by_class() -> None:
    source = (
        "class P:\n    pass\n"
        "for spec in ['r', '>8', '.3f', ',s', 'abc', '+s', '=5', '.2d', 'x', '{0.__class__}']:\n"
        "    for v in [1, 'a', 1.5, None, [1], (1,), True, P()]:\n"
        "        try:\n            print(format(v, spec), f'{v:{spec}}')\n"
        "        except (ValueError, TypeError) as e:\n            print(type(e).__name__, e)\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_argument_errors_are_cpythons_type_errors() -> None:
    source = """
def f(a, b=2, *, c, d=4):
    return a
def g():
    return 1
def h(a, b, c):
    return 1
class A:
    def m(self, x):
        return x
class B:
    pass
calls = [
    lambda: f(), lambda: f(1), lambda: f(1, 2, 3), lambda: f(1, 2, 3, c=1),
    lambda: f(1, c=1, z=2), lambda: f(1, a=2, c=1), lambda: g(1), lambda: g(1, 2),
    lambda: h(), lambda: h(1), lambda: A().m(), lambda: A().m(1, 2), lambda: B(1),
    lambda: f(1, 2, 3, c=1, d=2),
]
for call in calls:
    try:
        call()
    except TypeError as e:
        print(e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_built_in_errors_are_caught_with_cpythons_class_and_words() -> None:
    source = """
def gen():
    yield 1
    return 'r'
g = gen()
next(g)
tests = [
    lambda: next(g), lambda: next(iter([])), lambda: len(5), lambda: len(None),
    lambda: min([]), lambda: max([], key=abs), lambda: abs('a'), lambda: [1].remove(3),
    lambda: (1).missing, lambda: 'a'.missing, lambda: None.missing, lambda: {1}.missing,
    lambda: (2.0).data,
]
for t in tests:
    try:
        t()
    except Exception as e:
        print(type(e).__name__, repr(str(e)), e.args)
print(hasattr(2.0, 'data'), hasattr([], 'zz'), getattr(1, 'q', 0))
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_sets_compare_as_cpythons() -> None:
    source = (
        "print({1, 2} == {2, 1}, {1} != {1}, [{1}] == [{1}], {'a': {3}} == {'a': {3}})\n"
        "print({1, 2} < {1, 2, 3}, {1} <= {1}, {3} > {4}, {1, 2} >= {2}, {1} < {1})\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_string_methods_take_cpythons_arguments_and_raise_its_errors() -> None:
    source = """
calls = [
    lambda: 'a,b,c'.split(',', maxsplit=1), lambda: 'a b c'.rsplit(None, 1),
    lambda: 'abc'.index('z'), lambda: 'abcb'.rindex('b'), lambda: 'abc'.index('b', 2),
    lambda: 'x\\ty'.expandtabs(4), lambda: 'a\\nb\\n'.splitlines(keepends=True),
    lambda: 'hi'.startswith(('x', 'h')), lambda: 'Ab'.istitle(), lambda: 'a1'.isidentifier(),
    lambda: 'abc'.find('c', -1), lambda: 'aaa'.count('a', 1), lambda: 'abc'.split(sep=''),
    lambda: 'abc'.index(), lambda: 'a'.strip(None), lambda: 'abc'.split(x=1),
    lambda: 'xyx'.strip('x'), lambda: 'abc'.endswith('c', 0, 2),
]
for call in calls:
    try:
        print(repr(call()))
    except Exception as e:
        print(type(e).__name__, e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_a_dicts_views_print_as_cpythons() -> None:
    source = (
        "d = {'a': 1, 2: [3]}\n"
        "print(d.keys(), d.values(), d.items(), list(d.keys()), str(d.items()), [d.keys()])\n"
        "print(f'{d.keys()}', sorted(d.values(), key=str), len(d.items()))\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_issubclass_replace_count_and_index_errors_are_cpythons() -> None:
    source = """
class A:
    pass
class B(A):
    pass
class E(ValueError):
    pass
print(issubclass(B, A), issubclass(A, B), issubclass(E, Exception), issubclass(A, object))
print(issubclass(E, (KeyError, ValueError)), issubclass(A, A))
print('aaa'.replace('a', 'b', 2), 'aaa'.replace('a', 'b', 0), 'aaa'.replace('a', 'b', -1))
k, w = 1.5, 'a'
for f in [lambda: [1][k], lambda: (1,)[k], lambda: 'a'[k], lambda: [1][w], lambda: int(None)]:
    try:
        f()
    except TypeError as e:
        print(e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_percent_format_errors_are_cpythons() -> None:
    source = """
calls = [
    lambda: 'abc' % 3, lambda: '%d %d' % (1,), lambda: '%d' % 'a', lambda: '%s' % (),
    lambda: '%x' % 1.5, lambda: '%5.2f|%-4d|%s|%c|%3c' % (3.14159, 7, [1], 'z', 65),
    lambda: '%f' % None, lambda: '%c' % 'ab', lambda: '%o' % 'a',
]
for call in calls:
    try:
        print(call())
    except TypeError as e:
        print(e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_stop_iteration_value_dict_union_and_math_type_errors_are_cpythons() -> None:
    source = """
import math
def gen():
    yield 1
    return 5
g = gen()
next(g)
try:
    next(g)
except StopIteration as e:
    print(e.value, e.args)
try:
    raise StopIteration(7)
except StopIteration as e:
    print(e.value)
try:
    next(iter([]))
except StopIteration as e:
    print(e.value)
d = {'a': 1}
e = d
d |= {'b': 2}
print(d | {'a': 0, 'c': 3}, e, {'x': 1} | {})
for f in [lambda: math.log('a'), lambda: math.gcd(1.5, 2), lambda: math.sqrt(None)]:
    try:
        f()
    except TypeError as err:
        print(err)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_number_tuple_and_dict_methods_and_type_members_are_cpythons() -> None:
    source = """
print(sorted(['b', 'A', 'c'], key=str.lower), list(map(str.upper, 'ab')), str.join('-', 'ab'))
print((255).bit_length(), (-1).bit_length(), (7).bit_count(), (2.0).is_integer())
print((1, 2, 1).index(1), (1, 2, 1).count(1), dict.fromkeys('abc', 0), dict.fromkeys([1, 2]))
d = {'a': 1, 'b': 2}
print(d.popitem(), d)
print(oct(8), oct(-9), int('ff', 16), int('101', 2), int(' 17 ', 8), int('0x1f', 0))
calls = [
    lambda: (1,).index(5), lambda: {}.popitem(), lambda: str.lower(5),
    lambda: (1).bit_length(2), lambda: int('9', 8), lambda: int(5, 2), lambda: divmod(1.0, 0),
    lambda: divmod(1, 0), lambda: pow(2, 3, 0), lambda: pow(2, -1, 4), lambda: divmod(1, 'a'),
]
for f in calls:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_an_uncaught_built_in_error_starts_with_cpythons_class_and_words() -> None:
    cases = {
        "def f(x):\n    return [1][x]\nf(3)\n": (
            "IndexError: list index out of range — index 3 is out of range "
            "(in f(), called from line 3)"
        ),
        "def f():\n    return 1 / 0\nf()\n": (
            "ZeroDivisionError: division by zero (in f(), called from line 3)"
        ),
        "d = {}\nfor k in 'a':\n    d[k]\n": "KeyError: 'a' — key 'a' is not in the dict",
        "for x in [1]:\n    a, b = [x]\n": (
            "ValueError: not enough values to unpack (expected 2, got 1)"
        ),
        "for x in [1]:\n    assert x > 1\n": "AssertionError",
        "for x in ['x']:\n    int(x)\n": (
            "ValueError: invalid literal for int() with base 10: 'x'"
        ),
    }
    for source, message in cases.items():
        with pytest.raises(EngineError) as caught:
            trace_source(source + TAIL)
        assert caught.value.message == message


def test_iterating_a_number_and_hashing_a_list_are_cpythons_type_errors() -> None:
    source = """
for call in [lambda: list(5), lambda: {[1]: 2}, lambda: {1}.add([]), lambda: {}[{1}]]:
    try:
        call()
    except TypeError as e:
        print(e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)
    with pytest.raises(EngineError) as caught:
        trace_source("for x in [1]:\n    {[x]: 1}\n" + TAIL)
    assert caught.value.message.startswith("TypeError: unhashable type: 'list' (a list cannot")


def test_set_of_a_tuple_of_objects_is_cpythons_set() -> None:
    # `set(children)` of objects of the program's, made without `PSet.__init__` where
    # the first is hashed by identity (`Library.set_`): a duplicate kept once, a
    # `__hash__` and `__eq__` of the program's run as CPython runs them, an unhashable
    # object, too many arguments and a keyword refused in CPython's words.
    source = """
class K:
    def __init__(self, k):
        self.k = k
    def __hash__(self):
        return self.k
    def __eq__(self, o):
        return isinstance(o, K) and o.k == self.k
class P:
    pass
class U:
    def __eq__(self, o):
        return True
a, b = P(), P()
for i in range(3):
    s = set((a, b, a))
    s.add(b)
    print(len(s), a in s, sorted(x is a for x in s))  # (CPython's order is its addresses')
    t = set((K(1), K(2), K(1)))
    print(len(t), K(2) in t)
    for call in [lambda: set((a, U())), lambda: set((1, 2), 3), lambda: set(x=(a,))]:
        try:
            call()
        except TypeError as e:
            print(e)
    print(sorted(set((3, 1, 2))), set(), frozenset((a,)) == frozenset((a, a)))
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_isinstance_of_one_class_of_the_programs_is_cpythons() -> None:
    # One class of the program's as the second argument is answered at once
    # (`Library.isinstance_`): a subclass's object, another class's, a number, a class
    # itself, `object`, a tuple, and a wrong count of arguments, as CPython answers them.
    source = """
class A:
    pass
class B(A):
    pass
class C:
    pass
for value in [A(), B(), C(), 1, A, None]:
    print(isinstance(value, A), isinstance(value, B), isinstance(value, object),
          isinstance(value, (C, B)), isinstance(value, C))
try:
    isinstance(A())
except TypeError as e:
    print("TypeError")
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_center_pads_as_cpythons_str_center() -> None:
    source = (
        "for w in range(12):\n"
        "    print(repr(\"it's\".center(w, '*')), 'ab'.center(w) + '|', 'abc'.center(w, '-'))\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_frozen_dataclasses_format_getitem_iteration_and_delitem_are_cpythons() -> None:
    source = """
from dataclasses import dataclass, FrozenInstanceError
@dataclass(frozen=True)
class P:
    x: int
    y: int = 0
class Q(P):
    pass
p = P(1)
for obj in [p, Q(2, 3)]:
    try:
        obj.x = 5
    except AttributeError as e:
        print(type(e).__name__, e, isinstance(e, FrozenInstanceError))
print(p, hash(p) == hash(P(1)), {p} == {P(1, 0)})
class S:
    def __init__(self):
        self.d = [1, 2, 3]
    def __getitem__(self, i):
        return self.d[i]
    def __delitem__(self, i):
        del self.d[i]
    def __format__(self, spec):
        return 'S<' + spec + '>'
class N:
    pass
s = S()
print(list(s), 2 in s, 9 in s, sum(s), f'{s}', f'{s:>5}', format(s, 'x'))
del s[0]
print(list(s))
for f in [lambda: 1 in 5, lambda: 1 in N(), lambda: list(N()), lambda: 1 in 'a']:
    try:
        f()
    except TypeError as e:
        print(e)
def d():
    t = (1,)
    del t[0]
try:
    d()
except TypeError as e:
    print(e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_classes_and_types_print_and_name_themselves_as_cpythons() -> None:
    source = """
class A:
    def m(self):
        pass
class E(ValueError):
    pass
print(A, type(A()), [E], ValueError, object, type(None), type(None).__name__, int, type(1))
print(type(print).__name__, type(A().m).__name__, type(A).__name__, type(int).__name__)
for f in [lambda: len(print), lambda: list(A), lambda: 1 in int]:
    try:
        f()
    except TypeError as e:
        print(e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)


def test_join_sum_and_sort_errors_are_cpythons_and_lists_sort() -> None:
    source = """
print(sorted([[2, 1], [1, 2]]), max([[1], [2]]), sorted([(1, [2]), (1, [1])]))
for f in [lambda: ', '.join(['a', 1]), lambda: sum(['a', 'b'], ''), lambda: sorted([1, 'a'])]:
    try:
        f()
    except TypeError as e:
        print(e)
"""
    assert printed_lines(trace_source(source + TAIL)) == run_in_cpython(source)
