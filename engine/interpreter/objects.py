"""The program's own objects: functions, classes, instances, sets, modules, built-ins.

None of them is a Python object the program could walk from: they have no Python
attributes a program can name (attribute access goes through `attributes.py`, an
allow-list), and Python's own operators are not defined on them, so Python never calls
back into a program behind the interpreter's back. Numbers, strings, lists, tuples and
dicts are Python's, reached only through the same allow-list.

Instances hash and compare inside containers (sets, dict keys, `in`) as CPython's do:
by identity, unless their class defines `__hash__` and `__eq__`, whose program code then
runs through the interpreter, counted and bounded like any call (the one place Python
calls back into a program: `PInstance.__hash__` and `__eq__`, set up per class by
`Machine.equip`). A class that defines `__eq__` without `__hash__` is unhashable, as
in CPython, so a learner's engine that hashes by value merges equal-valued nodes in a
set exactly as it would there.
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


class Frame:
    """One activation: its variables and the frame its function was defined in."""

    __slots__ = ("parent", "ret", "vars")

    def __init__(self, variables: dict[str, Any], parent: Frame | None) -> None:
        self.vars = variables
        self.parent = parent
        self.ret: Any = None  # the value a `return` hands back


class CallFrame(Frame):
    """A call's frame (`Machine.call_function`), its slots set by its maker: made by
    C's own `object.__init__`, without a call of `Frame.__init__` in Python (a third of
    the cost of making one, once per call of a program's function)."""

    __slots__ = ()
    __init__ = object.__init__


class Function:
    """A `def` or `lambda` of the program, closed over the frame it was made in."""

    # `alias`: the `__name__` that `functools.wraps` gave it (unset until then; its
    # `name` stays its code's, which CPython's tracebacks show).
    __slots__ = (
        "abstract",
        "alias",
        "attrs",
        "body",
        "closure",
        "defaults",
        "enter",
        "kwarg",
        "kwdefaults",
        "kwonly",
        "makes",
        "name",
        "owner",
        "params",
        "posonly",
        "qualname",
        "rule_method",
        "simple",
        "span",
        "tape_rule",
        "uses_super",
        "vararg",
        "wrapped",
    )
    # No __init__: its maker (`ExpressionCompiler.function`'s `make`) sets every slot
    # but `alias`, `wrapped` (the function `functools.wraps` copied the docstring and
    # annotations of) and `attrs`, with no call in Python to make one (one per node's
    # `_backward`).
    name: str
    qualname: str  # CPython's `__qualname__`: `Value.__mul__.<locals>._backward`
    params: tuple[str, ...]
    # The first of `params` declared before a `/`: no keyword argument binds them.
    posonly: tuple[str, ...]
    defaults: tuple[Any, ...]
    vararg: str | None
    kwonly: tuple[str, ...]
    kwdefaults: dict[str, Any]
    kwarg: str | None
    # Positional parameters only: a call with as many arguments binds them at once.
    simple: bool
    body: Callable[[Frame], Any]
    # A call with positional arguments only, `fn.enter(fn, args)`: `Machine.call_function`,
    # or once its body is generated, the generated function that binds the arguments, makes
    # the frame and runs the body in one Python call (`codegen.block`'s `enter`).
    enter: Callable[[Any, list[Any]], Any]
    closure: Frame | None
    owner: PClass | None  # the class whose body defined it (for super()), else None
    uses_super: bool
    # The op a method of this name makes (`__mul__`: `*`, `ops.OP_OF_METHOD`): the op of
    # the nodes it makes, when their class keeps none; else None.
    makes: str | None
    abstract: bool  # marked by @abstractmethod
    # A `def` inside a function whose own body writes a gradient (`self.grad += …`): a
    # node's rule, perhaps kept on a tape rather than on its node (`Machine.call_function`).
    tape_rule: bool
    # A method, no pass, whose own body writes another object's gradient (`a.adjoint +=
    # self.adjoint`): the rule of a class per op (`own_rule`).
    rule_method: bool
    # Its first and last line in the source: a program-class node's rule is shown there.
    span: tuple[int, int]
    alias: str
    wrapped: Function
    attrs: dict[str, Any]  # what the program set on it (`wrapper.calls = 0`), once it has


class PClass:
    """A class of the program: a name, its bases' method resolution order, its namespace."""

    __slots__ = (
        "__weakref__",  # (its bases' `subclasses` hold it weakly)
        "abc",
        "abstract",
        "builtin",
        "doc",
        "eq_rule",
        "equipped",
        "exception",
        "has_properties",
        "hash_none",
        "hash_rule",
        "is_node_class",
        "mro",
        "name",
        "namespace",
        "qualname",
        "shadowed",
        "shape",
        "slots",
        "subclasses",
    )

    def __init__(
        self,
        name: str,
        bases: tuple[PClass, ...],
        namespace: dict[str, Any],
        abc: bool = False,
    ) -> None:
        self.name = name
        # CPython's `__qualname__` (`C.Inner`, `f.<locals>.C`), which the compiler sets
        self.qualname = name
        self.namespace = namespace
        self.mro: tuple[PClass, ...] = (self, *_linearize(name, bases))
        # CPython's `__hash__ = None` in the class's dict, which it sets when the class is
        # made defining `__eq__` alone (a `__hash__` set or deleted later replaces it).
        self.hash_none = "__eq__" in namespace and "__hash__" not in namespace
        # Its direct subclasses (`Machine.reequip`: `A.__eq__ = f` changes theirs too),
        # held weakly as CPython's `__subclasses__`: one the program drops is freed.
        self.subclasses: weakref.WeakSet[PClass] = weakref.WeakSet()
        for base in bases:
            base.subclasses.add(self)
        # Its metaclass is `abc.ABCMeta` (`abc.ABC` a base, or `metaclass=ABCMeta`): only
        # then do methods left abstract keep it from being instantiated, as in CPython.
        self.abc: bool = abc or any(c.abc for c in self.mro[1:])
        # Instances of a Value-like class are graph nodes: calling their methods does
        # not start a new `group` (see `engine.interpreter.calls`).
        self.is_node_class = any("backward" in c.namespace for c in self.mro)
        # Which attributes make its instances graph nodes, once one is recognised.
        self.shape: Shape | None = None
        # How its instances hash and compare in containers (None: by identity), set by
        # `Machine.equip` when the first one is made.
        self.hash_rule: Callable[[PInstance], int] | None = None
        self.eq_rule: Callable[[PInstance, Any], Any] | None = None
        self.equipped = False
        # One of Python's own classes (`object`, the exceptions): its attributes cannot be
        # set, as CPython's immutable types' cannot.
        self.builtin = False
        # A subclass of `BaseException` (which `exceptions.exception_classes` marks): its
        # objects keep their `args` in `PInstance.fields`, set when they are made.
        self.exception = False
        for base in bases:  # (no generator: a class is made for each built-in, every run)
            if base.exception:
                self.exception = True
                break
        self.doc: str | None = None  # its docstring: `__doc__` in its `__dict__`
        # Setting an attribute looks for a property, or the class's own `__setattr__`,
        # first only where there is one.
        # (each namespace's keys and values' types gathered in C: a Python loop over
        # them was 1.2 µs a step of a class made of a base of 3,000 names)
        self.has_properties = any(
            "__setattr__" in c.namespace
            or not WRITE_GUARDS.isdisjoint(c.namespace)
            or _holds_property(c.namespace)
            for c in self.mro
        )
        self.shadowed = False
        # The attribute names its instances may hold when every class of its MRO has
        # `__slots__` (none `__dict__`): CPython's instances then have no `__dict__`.
        self.slots = slot_names(self.mro)
        self.find_properties()
        # Methods still abstract here (`@abstractmethod` not overridden): no instances.
        # (Looked up by the names some class marks abstract only, so a class costs the
        # size of its MRO's namespaces, not that times the length of its MRO.)
        marked = {
            key
            for c in (self.mro if self.abc else ())
            for key, value in c.namespace.items()
            if is_abstract(value)
        }
        self.abstract = sorted(key for key in marked if is_abstract(self.lookup(key)))

    def find_properties(self) -> None:
        """Whether a property (a data descriptor) of the class is found before its
        instances' own attributes, as CPython finds it (`self.__dict__['x'] = 5` does not
        hide a property `x`; nor a data descriptor of the program's, an object whose class
        defines `__set__` or `__delete__`): then its instances' attribute reads go by
        `Machine.get_attr` (their `reads` is empty), and every other class's read its
        instances' dict at once."""
        if not any(_holds_property(c.namespace) for c in self.mro):
            self.shadowed = False  # (no property at all: nothing more to look at)
            return
        found: dict[str, Any] = {}  # each name's first value along the MRO: `lookup`'s
        for c in reversed(self.mro):  # (the nearest class's written last)
            found.update(c.namespace)
        self.shadowed = any(
            (type(v) is PProperty and v.data) or is_data_descriptor(v) for v in found.values()
        )

    def lookup(self, name: str) -> Any:
        for cls in self.mro:
            if name in cls.namespace:
                return cls.namespace[name]
        return MISSING


def _holds_property(namespace: dict[str, Any]) -> bool:
    """Whether a class's namespace holds a property or a data descriptor of the program's
    (`is_data_descriptor`), its values' types gathered in C (a Python loop over them was
    1.2 µs a step of a class made of a base of 3,000 names)."""
    kinds = set(map(type, namespace.values()))
    if PProperty in kinds:
        return True
    return PInstance in kinds and any(is_data_descriptor(v) for v in namespace.values())


def is_data_descriptor(value: Any) -> bool:
    """Whether a class attribute is a data descriptor of the program's: an object whose
    class defines `__set__` or `__delete__` (a `Param` whose `__set__` checks what is
    written), which CPython finds before an instance's own attribute of its name."""
    if type(value) is not PInstance:
        return False
    cls = value.cls
    return cls.lookup("__set__") is not MISSING or cls.lookup("__delete__") is not MISSING


def is_descriptor(value: Any) -> bool:
    """Whether a class attribute is a descriptor of the program's: an object whose class
    defines `__get__`, which CPython calls to read it (`__get__(obj, cls)` off an object,
    `__get__(None, cls)` off the class)."""
    return type(value) is PInstance and value.cls.lookup("__get__") is not MISSING


class SlotItemError(TypeError):
    """A `__slots__` item that is not a string (CPython's TypeError, named by the
    compiler with the item's type)."""


class SlotNameError(TypeError):
    """A `__slots__` item that is a string but no identifier: CPython's TypeError."""


def slot_names(mro: tuple[PClass, ...]) -> frozenset[str] | None:
    """The names the `__slots__` of every class of `mro` give, or None where an
    instance has a `__dict__`: a class without `__slots__` (or with `__dict__` in
    them), or a built-in base other than `object` (an exception's instances have one)."""
    names: set[str] = set()
    if mro[0].builtin:
        return None
    for cls in mro:
        if cls.builtin:
            if cls.name == "object" or BUILTIN_BASE_KEY in cls.namespace:
                continue  # (`list` and `dict` have no `__dict__` of their own either)
            return None
        slots = cls.namespace.get("__slots__", MISSING)
        if type(slots) is str:
            slots = (slots,)
        if type(slots) not in (tuple, list):
            return None  # no `__slots__` (or a dict's or a generator's, not read here)
        for one in slots:
            if type(one) is not str:
                raise SlotItemError(one)
            if not one.isidentifier():  # (`__slots__ = (' store',)`, `('a b',)`)
                raise SlotNameError("__slots__ must be identifiers")
        names.update(slots)
    return None if "__dict__" in names else frozenset(names)


def is_bare_object(value: Any) -> bool:
    """Whether `value` is made by `object()`, which has no `__dict__` in CPython."""
    return type(value) is PInstance and value.cls.builtin and value.cls.name == "object"


# The names a Value-like class gives its parts (SPEC §15), in the order they are tried.
OPERAND_NAMES = (
    "_prev", "_children", "children", "prev", "parents", "_parents", "inputs", "_inputs",
    "operands", "_operands", "src", "_src", "sources", "parent_nodes", "_parent_nodes",
    "pairs", "_pairs", "local_gradients", "_local_gradients", "input_nodes", "_input_nodes", "args",
    "prev_list", "_previous", "prevs", "_terms", "next_functions",
    # A Brazilian course's `Valor` (Ilum's "Redes Neurais"), in every student's copy:
    # `progenitor`, `operador_mae`, `rotulo`, the rule `propagar`, `propagar_tudo()`.
    "progenitor", "progenitores",
    "_ancestors", "ancestors",  # a `Scalar(val, …)` whose rule is `_backward_fn`
    # Grokking Deep Learning's `Tensor(data, creators=None, creation_op=None, …)`, whose
    # `children` is a dict of its consumers' ids (no operands: `find_shape` passes it by)
    "creators", "_creators",
)  # fmt: skip
# Operands kept one to an attribute, two attributes a node (tried after OPERAND_NAMES).
OPERAND_PAIRS = (
    ("first_parent", "second_parent"), ("parent1", "parent2"), ("left", "right"),
    ("lhs", "rhs"), ("_left", "_right"), ("child_1", "child_2"), ("child1", "child2"),
    ("v1", "v2"),
)  # fmt: skip
# (`primal` and `adjoint`: reverse mode as the autodiff literature names a node's parts)
# `num`: the `NumberWithGrad(num, depends_on, creation_op)` of Seth Weidman's "Deep Learning
# from Scratch" (its chapter on automatic differentiation)
NUMBER_NAMES = ("data", "value", "val", "_data", "_value", "v", "primal", "num")
# `_grad` behind a `grad` property; Eli Bendersky's rad.py keeps a `Var`'s gradient in `gv`
# (its `grad(gv)` method is the pass: `is_grad_pass`).
GRAD_NAMES = (
    "grad", "_grad", "derivative", "gradient", "gv", "adjoint", "_adjoint", "adj", "g",
    "d",  # a course's reverse mode: a `Variable` whose number is `f`, its adjoint `d`
)  # fmt: skip
RULE_NAMES = (
    "_backward", "backward_fn", "_backward_fn", "grad_fn", "_grad_fn", "backtrack", "grad_fns",
    "fn", "_backwards", "_backprop", "propagar", "rule",
)  # fmt: skip
OP_NAMES = ("_op", "op", "_operation", "operation", "_op_name", "op_name", "operador_mae")
# Where a node says whether it needs a gradient at all (PyTorch's `requires_grad=False` on
# an input or a constant): a rule that skips such a node's share (`if other.requires_grad:
# other.grad += …`) leaves out nothing the program reads (`Recorder.unrequired`).
REQUIRES_NAMES = ("requires_grad", "_requires_grad")
# Where a node with no operands of its own keeps the record of the op that made it, the
# operands inside it (PyTorch's `Function` style: `out._ctx = ctx` with `ctx.parents`,
# `out.grad_fn = MulBackward(a, b)` with its `.inputs`, `out._ctx = (Mul, (a, b))`).
HOLDER_NAMES = (
    "_ctx", "ctx", "_context", "context", "grad_fn", "_grad_fn", "creator", "_creator",
    # axent-pl/axgrad's `Value(value=func(), func=func)`: an `Operation` object that keeps
    # the operands as `left` and `right` (its `parameters()`), and works out the value
    "func",
    # Giully314/Endurance's `out.operation = SumOperation(self, other, out)`: a dataclass
    # with `v1`, `v2` and `out`, whose `backward()` is the node's rule
    "operation",
)  # fmt: skip
# The items of a holder tuple looked at (`(Mul, (a, b))`, `(Mul, ctx)`): a record, not data.
MAX_HOLDER_ITEMS = 4
# The method, of a holder's class or of a class it keeps, that works out the operands'
# shares from the node's gradient (`Mul.backward(ctx, grad)`, `MulBackward.apply(grad)`),
# in the order they are tried (`held_rule`).
HELD_RULE_NAMES = ("backward", "_backward", "apply")


# Words a class's own names for its operands and its rule hold, where no name of the lists
# above is among its attributes (`_previous_nodes`, `child_nodes`, `_backward_function`):
# an attribute of the instance (set in `__init__`) whose name holds one of them, a tuple,
# list or set for the operands (`worded_operands`), a function for the rule.
OPERAND_WORDS = (
    "prev", "child", "parent", "ancestor", "operand", "input", "progenitor",
    "depend",  # FireHead90544/pocketgrad's `self._dependencies = set(_children)`
    "came_from", "made_from", "comes_from", "derived_from",  # `ret.came_from = (self, other)`
    "predecessor",  # Eli Bendersky's rad.py: `self.predecessors = []` of `Predecessor`s
    "source",  # fabian-rudolf/nanograd's `a._source_set = set(_source)`
    "kid",  # a learner's `self._kids = set(children)`
)  # fmt: skip
RULE_WORDS = ("backward", "backprop")
# A node's own function under a name of its own, its rule (`worded_rule`): a pass's words,
# or a derivative's (an op object's bound method, `out.compute_derivatives = op.compute_
# derivatives`, as a course's op classes `Add(a, b)` and `Mul(a, b)` hand it to the node).
RULE_ATTRIBUTE_WORDS = (*RULE_WORDS, "deriv")


def worded_operands(attrs: dict[str, Any]) -> str | None:
    """The first attribute whose name holds a word of OPERAND_WORDS and whose value is a
    tuple, list, set or dict (its keys: child → local derivative; empty for a leaf): a
    class's own name for its operands.

    Example: `worded_operands({"value": 2.0, "_previous_nodes": ()}) == "_previous_nodes"`.
    """
    for name, value in attrs.items():
        kind = type(value)
        if (kind is tuple or kind is list or kind is PSet or kind is dict) and type(name) is str:
            lowered = name.lower()  # (not of a key no string: `vars(obj)[1] = ()`)
            if any(word in lowered for word in OPERAND_WORDS):
                return name
    return None


def numeric_attribute(attrs: dict[str, Any], grad: str) -> str | None:
    """The one attribute holding a plain number (an int or a float, not a bool) other
    than the gradient: a class's own name for its number, where no name of NUMBER_NAMES is
    among its attributes (fabian-rudolf/nanograd's `a.of = of` beside `a.gradient = 0`).
    None where there are several (a node's `a.id = len(made)` beside its `a.of`: which
    is the number is not guessed). `find_shape` takes it only for a node whose rule is its
    own, a function set on it in `__init__` (`a._backpropagate = lambda: None`).

    Example: `numeric_attribute({"of": 2.0, "gradient": 0}, "gradient") == "of"`;
    `numeric_attribute({"id": 0, "of": 2.0, "gradient": 0}, "gradient") is None`.
    """
    found = None
    for name, value in attrs.items():
        kind = type(value)
        if (kind is float or kind is int) and name != grad and type(name) is str:
            if found is not None:
                return None
            found = name
    return found


def worded_rule(attrs: dict[str, Any]) -> str | None:
    """The first attribute whose name holds a word of RULE_ATTRIBUTE_WORDS and whose value
    is a function (`self._backward_function = lambda: None`, `self.compute_derivatives =
    lambda: None`): a class's own name for its rule. Only the instance's own: the class's
    `backward` method is the pass, not a rule. One named for derivatives alone is a rule
    only where it is called with nothing, as a rule is (`self.derivative = lambda g: (g *
    b.data, g * a.data)`, the local derivatives a pass asks for, is none)."""
    for name, value in attrs.items():
        kind = type(value)
        if (kind is Function or kind is BoundMethod) and type(name) is str:
            lowered = name.lower()
            if any(word in lowered for word in RULE_WORDS):
                return name
            if "deriv" in lowered and _called_with_nothing(value):
                return name
    return None


def _called_with_nothing(value: Function | BoundMethod) -> bool:
    """Whether `value()` binds every parameter (a bound method's `self` bound already)."""
    fn = value.function if type(value) is BoundMethod else value
    assert type(fn) is Function
    bound = 1 if type(value) is BoundMethod else 0
    positional = len(fn.params) - len(fn.defaults) - bound
    return positional <= 0 and all(name in fn.kwdefaults for name in fn.kwonly)


class Shape:
    """The attribute names of one Value-like class: its operands (`second`: the other of
    a pair, `left` and `right`), its number, its rule, its op and its gradient (`grad`,
    `gradient`, `derivative`, or `_grad`, behind a `grad` property or not). `said`: the
    gradient's name as the learner's code writes it, the one the trace's words quote
    (`a.gradient += 3 × 1`): `grad` where a `grad` property stands before `_grad`.
    `requires`: the attribute that says whether a node needs a gradient (`requires_grad`,
    `_requires_grad`: `REQUIRES_NAMES`), None where the class has none."""

    __slots__ = ("grad", "held", "number", "op", "operands", "requires", "rule", "said", "second")

    def __init__(
        self,
        operands: str,
        number: str,
        rule: str,
        op: str,
        grad: str,
        second: str | None = None,
        said: str | None = None,
        held: bool = False,
        requires: str | None = None,
    ) -> None:
        self.operands = operands
        self.requires = requires
        self.held = held  # `operands` names a holder of them (`HOLDER_NAMES`), not them
        self.second = second
        self.number = number
        self.rule = rule
        self.op = op
        self.grad = grad
        self.said = grad if said is None else said

    def operands_of(self, attrs: dict[str, Any]) -> Any:
        """An object's operands: what its operands attribute holds, or a pair's two, or
        what the holder of the op that made it keeps (`held_operands`)."""
        if self.held:
            return held_operands(attrs.get(self.operands))
        if self.second is None:
            operands = attrs.get(self.operands)
            if type(operands) is PInstance and operands.mirror is not None:
                return (operands,)  # one operand, itself (`self.operand`: SINGLE_OPERANDS)
            if (
                type(operands) is PInstance
                and operands.mirror is None
                and operands.cls.lookup("__iter__") is MISSING  # (no collection of its own)
            ):
                return object_operands(operands)
            return operands
        pair = (attrs.get(self.operands), attrs.get(self.second))
        return [operand for operand in pair if operand is not None]


def object_operands(holder: PInstance) -> tuple[Any, ...]:
    """The operands an object of the program's keeps under the operands name, where it
    is no collection (3tty0n/micrograd's `_prev = Children(self, other)`, with `.out`,
    `.other` and a `tolist()`): what it keeps under a name of the lists (`held_operands`),
    else its attributes that are nodes, in the order they were set (None, a missing
    operand, left out). One object's attributes, read as they are."""
    found = held_operands(holder)
    if found is not None:
        return tuple(found)
    return tuple(v for v in holder.attrs.values() if type(v) is PInstance and v.mirror is not None)


def held_operands(holder: Any) -> Any:
    """The operands a node's holder keeps (`Shape.held`): an object of the program's that
    is no node (a context, a `Function` instance, a `grad_fn` object) gives its own
    operands attribute's value (`ctx.parents`, `grad_fn.inputs`: the first of
    `OPERAND_NAMES` among its own attributes; PyTorch's `grad_fn.next_functions`, whose
    `(function, input_nr)` pairs name other records, the recorder follows to their
    nodes: `Recorder.operand_mirrors`); a tuple or list gives itself where it
    holds a node (`(Mul, a, b)`), else, of its first `MAX_HOLDER_ITEMS` items, the first
    tuple or list holding a node (`(Mul, (a, b))`) or object holding operands (`(Mul,
    ctx)`); anything else, None. Bounded: one object's attributes and a few items, read
    as they are (a property of the holder's class, no attribute of its own, is never
    run), one level down at most."""
    kind = type(holder)
    if kind is PInstance:
        if holder.mirror is not None:
            return None  # a node is no holder (`out._ctx = a`: not a's operands)
        attrs = holder.attrs
        name = next((name for name in OPERAND_NAMES if name in attrs), None)
        if name is None:  # one to an attribute (`op.left`, `op.right`), a missing one None
            pair = next((p for p in OPERAND_PAIRS if p[0] in attrs and p[1] in attrs), None)
            if pair is None:
                return single_operand(attrs)
            return tuple(attrs[n] for n in pair if attrs[n] is not None)
        return attrs[name]
    if kind is not tuple and kind is not list:
        return None
    items = holder[:MAX_HOLDER_ITEMS]
    if any(type(item) is PInstance and item.mirror is not None for item in items):
        return holder
    for item in items:
        if type(item) is tuple or type(item) is list:
            if any(type(i) is PInstance and i.mirror is not None for i in item[:MAX_HOLDER_ITEMS]):
                return item
        elif type(item) is PInstance and item.mirror is None:
            found = held_operands(item)
            if found is not None:
                return found
    return None


# One operand a node keeps under a name of its own (a unary op's `self.operand` beside a
# binary op's `self.left` and `self.right`): tried after OPERAND_PAIRS, where it is a node.
SINGLE_OPERANDS = ("operand", "_operand")


def _is_node(value: Any) -> bool:
    return type(value) is PInstance and value.mirror is not None


# One operand held under a singular name, by a record of the op with no collection of
# them (a `Function` of "Deep Learning from Scratch 3", DeZero's steps 7 to 10: `f.input`
# beside `f.output`), tried after OPERAND_NAMES and OPERAND_PAIRS.
SINGLE_OPERAND_NAMES = ("input", "_input", "x", "parent", "_parent", "operand", "_operand")


def single_operand(attrs: dict[str, Any]) -> tuple[Any, ...] | None:
    """The one operand a record of an op holds under a name of SINGLE_OPERAND_NAMES,
    where it is a graph node: `(f.input,)`; None where it holds none."""
    for name in SINGLE_OPERAND_NAMES:
        value = attrs.get(name)
        if type(value) is PInstance and value.mirror is not None:
            return (value,)
    return None


def held_rule(holder: Any) -> Function | None:
    """The program's function that works out a node's operands' shares, where the node
    keeps the record of the op that made it (`Shape.held`) and its rule is that record's:
    the holder's class's method (`HELD_RULE_NAMES`: a `Function` instance as the context,
    `Mul.backward(self, grad)`; PyTorch's grad_fn objects, `MulBackward.apply(grad)`), or
    that of a class the holder keeps (`ctx.fn = Mul`, `(Mul, (a, b))`: `Mul.backward(ctx,
    grad)`); None where there is none. Bounded as `held_operands` is: one object's
    attributes, or a holder tuple's first items, read as they are."""
    kind = type(holder)
    if kind is PInstance:
        if holder.mirror is not None:
            return None
        classes = [holder.cls, *(v for v in holder.attrs.values() if type(v) is PClass)]
    elif kind is tuple or kind is list:
        classes = [item for item in holder[:MAX_HOLDER_ITEMS] if type(item) is PClass]
    else:
        return None
    for cls in classes:
        for name in HELD_RULE_NAMES:
            found = cls.lookup(name)
            if type(found) is PStaticMethod or type(found) is PClassMethod:
                found = found.function
            if type(found) is Function and found.span[0] > 0:
                return found
    return None


def own_rule(cls: PClass) -> str | None:
    """The name of the first method, along the class's MRO, that writes the gradients of
    objects other than its own and is not the pass (`Function.rule_method`): the rule of a
    class per op (`class Add(Diff)` with `def d(self): a.adjoint += self.adjoint`), whose
    program runs it node by node. None where there is none (a leaf's `def d(self): pass`).
    """
    for klass in cls.mro:
        for name, value in klass.namespace.items():
            if type(value) is Function and value.rule_method and cls.lookup(name) is value:
                return name
    return None


# Names of RULE_NAMES a node's rule has only where each node keeps it itself, a function
# (or None, a leaf's): `self.rule = lambda: None`, `out.rule = rule`. A class's method
# `rule` (`return "product rule"`, words about the op) or a string kept so is no rule; a
# class's method that is one writes other nodes' gradients (`own_rule` finds it).
OWN_RULE_NAMES = frozenset({"rule"})


def _rule_named(cls: PClass, attrs: dict[str, Any], name: str) -> bool:
    """Whether `name` of RULE_NAMES may be the rule of the node whose attributes are
    `attrs` (`find_shape`): the node's own, or its class's (but OWN_RULE_NAMES)."""
    if name in OWN_RULE_NAMES:
        return name in attrs and (
            attrs[name] is None or type(attrs[name]) is Function or type(attrs[name]) is BoundMethod
        )
    return name in attrs or cls.lookup(name) is not MISSING


def _is_method(cls: PClass, name: str) -> bool:
    return type(cls.lookup(name)) is Function


def gradient_name(attrs: dict[str, Any], grad_names: tuple[str, ...] = GRAD_NAMES) -> str | None:
    """The first of `grad_names` (GRAD_NAMES, with a class's own words for its gradient
    where it has them) an object holds that may be a gradient: not a container or a
    string (`self.d = {}`, a dict of a class that is no engine, keeps none), and a bare
    `d` only beside an `f` (a course lab's `Variable(f)`: a tree's depth `d` beside its
    `data` is none)."""
    for name in grad_names:
        if name in attrs and type(attrs[name]) not in NO_GRADIENTS:
            if name == "d" and "f" not in attrs:
                continue
            return name
    return None


def find_shape(
    cls: PClass,
    attrs: dict[str, Any],
    grad_names: tuple[str, ...] = GRAD_NAMES,
    leaves: frozenset[str] = frozenset(),
) -> Shape | None:
    """The shape of an instance just made, or None if it is not a graph node: it must
    hold `grad` (or another of `grad_names`, the first it holds: `gradient_name`) and a
    number, and have a rule or operands (its own, or its class's), or be of one of the
    program's `leaves` (`expressions.leaf_classes`: a `Variable` beside op classes that
    keep their operands, itself keeping none), a leaf."""
    grad = gradient_name(attrs, grad_names)
    if grad is None:
        return None
    number = next((name for name in NUMBER_NAMES if name in attrs), None)
    own_number = number is None  # a name of its own, taken only beside a rule of its own
    if number is None:
        number = numeric_attribute(attrs, grad)
        if number is None:
            return None

    def first(names: tuple[str, ...]) -> str | None:
        return next(
            (name for name in names if name in attrs or cls.lookup(name) is not MISSING), None
        )

    rule = next((name for name in RULE_NAMES if _rule_named(cls, attrs, name)), None)
    if rule is not None and rule not in attrs:
        # Only the class's method of that name, where each node keeps a function of its
        # own named for a rule (Akash12373/Autograd-engine: `out.backward = backward` in
        # each op, and `def _backward(self)` the sort and the pass): the node's own.
        rule = worded_rule(attrs) or rule
    rule = rule or worded_rule(attrs) or own_rule(cls)
    if own_number and (rule is None or rule not in attrs):
        # (a tape's node object, `output` and `gradient` with a `backward` method, is no
        # node of this shape: `unit_shape` reads it)
        return None
    # Not a method of the class (`def parents(self): return [self.left, self.right]`):
    # the operands are an attribute's, a list or tuple, or one to an attribute; a dict
    # (its keys: `self._prev = {c: 1}`, child → local derivative) only where no other name
    # holds them (Grokking Deep Learning's `children`, its consumers' counts by id,
    # beside its `creators`).
    operands = next(
        (
            name
            for name in OPERAND_NAMES
            if (name in attrs and type(attrs[name]) is not dict)
            or (name not in attrs and cls.lookup(name) is not MISSING and not _is_method(cls, name))
        ),
        None,
    ) or next((name for name in OPERAND_NAMES if type(attrs.get(name)) is dict), None)
    second = None
    if operands is None:
        pair = next((pair for pair in OPERAND_PAIRS if first(pair) == pair[0]), None)
        if pair is not None and first(pair[1:]) is not None:
            operands, second = pair
    if operands is None:
        # One operand under a name of its own (a unary op's `self.operand`), a node
        operands = next((name for name in SINGLE_OPERANDS if _is_node(attrs.get(name))), None)
    if operands is None:
        operands = worded_operands(attrs)
    held = False
    if operands is None:
        # No operands of its own: where a record of the op that made it is kept (set in
        # `__init__`, None for a leaf), the operands it keeps (`held_operands`).
        operands = next((name for name in HOLDER_NAMES if name in attrs), None)
        held = operands is not None
    if rule is None and operands is None and (own_number or cls.name not in leaves):
        return None
    op = first(OP_NAMES) or "_op"
    if held and op == operands:  # `operation` holding the op's object: its class names it
        op = "_op"
    said = "grad" if type(cls.lookup("grad")) is PProperty else grad
    requires = next((name for name in REQUIRES_NAMES if name in attrs), None)
    return Shape(
        operands or "_prev", number, rule or "_backward", op, grad, second, said, held, requires
    )


# A node's number where a tape of node objects keeps it (`self.output`, Schiendorfer's
# `Multiply(left, right)`): taken first, and only, by `unit_shape`, in the run the gates
# get; anywhere else `output` is an attribute like another.
HELD_NUMBER_NAMES = ("output", *NUMBER_NAMES)


def unit_shape(attrs: dict[str, Any], grad_names: tuple[str, ...] = GRAD_NAMES) -> Shape | None:
    """The shape of a unit that holds a number and a gradient (the "Hacker's guide"
    `Unit(value, grad)`, a Wengert list's `Var`, a tape's node object with `output` and
    `gradient`), whose operands are kept beside it by the object that made it, by a
    record, or as its own attributes (`Recorder.fill_holders`, `fill_records`,
    `own_operands`): a leaf's shape, its operands under a name it has not got. None
    where it lacks either."""
    grad = gradient_name(attrs, grad_names)
    number = next((name for name in HELD_NUMBER_NAMES if name in attrs), None)
    if grad is None or number is None:
        return None
    return Shape("_prev", number, "_backward", "_op", grad)


def holds_unit(holder: Any, itself: bool = False) -> bool:
    """Whether an object of the program's that is no graph node keeps, among its first
    attributes, an object holding a number and a gradient but no operands (a gate of
    the "Hacker's guide": `self.u0`, `self.utop`, each a `Unit(value, grad)`), or, with
    `itself`, is one (a Wengert list's `Var`), or keeps a list whose first item is one
    (a tape of node objects, `self.nodes`). Bounded: `MAX_HOLDER_ITEMS` attributes
    looked at, and a list's first item."""
    if type(holder) is not PInstance or holder.mirror is not None:
        return False
    if itself and holder.cls.shape is None and unit_shape(holder.attrs) is not None:
        return True
    for value in itertools.islice(holder.attrs.values(), MAX_HOLDER_ITEMS):
        if type(value) is list and value:
            value = value[0]
        if (
            type(value) is PInstance
            and value.cls.shape is None
            and value is not holder
            and unit_shape(value.attrs) is not None
        ):
            return True
    return False


def missing_part(attrs: dict[str, Any]) -> str:
    """What keeps an object from being a graph node, said for the learner."""
    if gradient_name(attrs) is None:
        return "it has no `grad` attribute"
    if not any(name in attrs for name in NUMBER_NAMES):
        return f"it has no number attribute (one of {', '.join(NUMBER_NAMES)})"
    return (
        f"it has neither operands ({', '.join(OPERAND_NAMES[:4])}…), nor a record of the op "
        "that made it holding them (_ctx, grad_fn…), nor a rule (_backward…)"
    )


class Maker(list[str]):
    """A class's `abstract` list when calling the class makes something else: typing's
    `NamedTuple("Batch", [("inputs", list)])` makes a class (the call takes the branch an
    abstract class's call takes, so no other call pays for it)."""

    def __init__(self, make: Any) -> None:
        super().__init__(["<called to make a class>"])
        self.make = make


class PInstance:
    """An object of a program's class: its class and its own attributes."""

    # `hashed`: what its class's own `__hash__` gave last (set by `Machine.hash_rule`),
    # None when that depended on a string's or an object's identity hash; unset before.
    # `reads`: where attribute reads look first, the instance's own `attrs`, or an empty
    # dict when its class has a property (`PClass.shadowed`), which own attributes of its
    # name do not hide: then reads go by `Machine.get_attr`, which asks the class first.
    # `chain`: an exception's `[__cause__, the error of its __context__,
    # __suppress_context__]` (`exceptions.stamp`), set once it is raised; unset before.
    # `fields`: an exception's `args` (and a StopIteration's `value`, an OSError's
    # `errno`…), which CPython keeps outside its `__dict__`; set when it is made.
    __slots__ = ("attrs", "chain", "cls", "fields", "hashed", "mirror", "reads")
    hashed: int | None
    chain: list[Any]
    fields: dict[str, Any]

    def __init__(self, cls: PClass) -> None:
        self.cls = cls
        self.attrs: dict[str, Any] = {}
        self.reads = reads_of(self)
        self.mirror: Any = None  # its engine Value when it is a traced graph node
        if cls.exception:
            self.fields = {"args": ()}

    def __hash__(self) -> int:
        rule = self.cls.hash_rule
        return id(self) >> 4 if rule is None else rule(self)

    def __eq__(self, other: object) -> Any:
        rule = self.cls.eq_rule
        if rule is None:
            return self is other or NotImplemented
        return rule(self, other)


def holds_instance(value: tuple[Any, ...] | list[Any]) -> bool:
    """Whether a tuple or list holds an object of the program's classes at any depth
    (within the nesting limit its making checked)."""
    stack = [value]
    while stack:
        for item in stack.pop():
            kind = type(item)
            if kind is PInstance:
                return True
            if kind is tuple or kind is list:
                stack.append(item)
    return False


def pairs_hold_instance(
    left: tuple[Any, ...] | list[Any], right: Any, charge: Callable[[int], None]
) -> bool:
    """Whether comparing two lists (or tuples) item by item can reach an object of the
    program's: the items paired, as many as the shorter has, and within each pair of
    lists or tuples the same (each pair once), `charge`d a step per ten pairs. The
    items past the shorter's length are never compared, by CPython or here: both were
    looked through whole (`[0] * 10**6 < [1]` walked the million for a step)."""
    stack = [(left, right)]
    walked: set[tuple[int, int]] | None = None  # (made for the first pair inside)
    while stack:
        mine, theirs = stack.pop()
        count = min(len(mine), len(theirs))
        if count >= _ITEMS_PER_STEP:
            charge(count // _ITEMS_PER_STEP)
        for a, b in zip(mine, theirs, strict=False):  # (to the shorter's end)
            kind, other = type(a), type(b)
            if kind is PInstance or other is PInstance:
                return True
            if (kind is tuple or kind is list) and (other is tuple or other is list):
                if walked is None:
                    walked = set()
                elif (id(a), id(b)) in walked:
                    continue
                walked.add((id(a), id(b)))
                stack.append((a, b))
    return False


def reads_of(instance: PInstance) -> dict[str, Any]:
    """Where `instance`'s attribute reads look first (`PInstance.reads`); never written."""
    return NO_READS if instance.cls.shadowed else instance.attrs


NO_READS: dict[str, Any] = {}


class PProperty:
    """`@property` (and its `.setter`): a getter, and a setter or None; `data`: found
    before an instance's own attribute of its name (False for `cached_property`, which
    CPython's instance dict hides)."""

    __slots__ = ("data", "fdel", "fget", "fset")

    def __init__(self, fget: Any, fset: Any = None, fdel: Any = None) -> None:
        self.fget = fget
        self.fset = fset
        self.fdel = fdel  # its `.deleter`, which `del obj.name` calls
        self.data = True


def is_abstract(value: Any) -> bool:
    """Whether a class attribute is abstract as CPython's `__isabstractmethod__` says: an
    `@abstractmethod` function, a static or class method of one (in either order of the
    decorators), a property with an abstract getter, setter or deleter."""
    kind = type(value)
    if kind is Function:
        return bool(value.abstract)
    if kind is PStaticMethod or kind is PClassMethod:
        return type(value.function) is Function and bool(value.function.abstract)
    if kind is PProperty:
        parts = (value.fget, value.fset, value.fdel)
        return any(type(part) is Function and part.abstract for part in parts)
    return False


class PStaticMethod:
    __slots__ = ("function",)

    def __init__(self, function: Any) -> None:
        self.function = function


class PClassMethod:
    __slots__ = ("function",)

    def __init__(self, function: Any) -> None:
        self.function = function


class BoundMethod:
    __slots__ = ("function", "self")

    def __init__(self, function: Function, self_: Any) -> None:
        self.function = function
        self.self = self_


class PSuper:
    """What `super()` returns: attribute lookup that starts after `owner` in self's MRO."""

    __slots__ = ("owner", "self")

    def __init__(self, owner: PClass, self_: PInstance | PClass) -> None:
        self.owner = owner
        self.self = self_  # the object, or in a class method the class


class Builtin:
    """A built-in function; `call(args, kwargs)` does the work and charges its steps."""

    __slots__ = ("call", "name")

    def __init__(self, name: str, call: Callable[[list[Any], dict[str, Any]], Any]) -> None:
        self.name = name
        self.call = call


class NodeRule(Builtin):
    """An engine Value's `_backward`, read by the program (`o._backward`, micrograd's
    closure): called, the node's rule runs as one called by hand (`Recorder.engine_rule`).
    `name` is the closure's qualified name as CPython gives micrograd's
    (`Value.__mul__.<locals>._backward`), which its repr and its TypeErrors say."""

    __slots__ = ("node",)

    def __init__(
        self, name: str, call: Callable[[list[Any], dict[str, Any]], Any], node: Any
    ) -> None:
        super().__init__(name, call)
        self.node = node


class TypeMethod(Builtin):
    """A method read off a built-in type (`str.upper`, `int.__add__`): its object comes
    first. CPython's is a descriptor, so a class that keeps one as an operator method
    (`__add__ = int.__add__`) binds it to the object, where a built-in function
    (`__add__ = max`) is called without it."""

    __slots__ = ()


class Partial(Builtin):
    """What `functools.partial(func, *args, **keywords)` makes: called, `func` with
    `args` first and `keywords` under the call's own; `.func`, `.args` and `.keywords`
    read-only, as CPython's (its `keywords` the same dict each time, as CPython's)."""

    __slots__ = ("args", "func", "keywords")

    def __init__(
        self,
        call: Callable[[list[Any], dict[str, Any]], Any],
        func: Any,
        args: tuple[Any, ...],
        keywords: dict[str, Any],
    ) -> None:
        super().__init__("partial", call)
        self.func = func
        self.args = args
        self.keywords = keywords


# The `descriptor` of a `functools.partialmethod` (stdlib.py): read off a class, the
# method itself, which binds to an object again wherever a class keeps it.
PARTIAL_METHOD = "<partialmethod>"


class NativeMethod(Builtin):
    """A method of a built-in class (an exception's `__init__`, `__str__`): found on an
    instance, it is bound to it like a program's method; `call` takes `self` first.
    `descriptor` is the class CPython defines it on when CPython's is written in C (read
    off a class it is a descriptor of that class: `descriptor '__str__' of
    'BaseException' object needs an argument`); None when CPython's is a Python function
    (a dataclass's `__eq__`)."""

    __slots__ = ("descriptor",)

    def __init__(
        self,
        name: str,
        call: Callable[[list[Any], dict[str, Any]], Any],
        descriptor: str | None = None,
    ) -> None:
        super().__init__(name, call)
        self.descriptor = descriptor


class PartialMethod(NativeMethod):
    """What `functools.partialmethod(func, *args, **keywords)` makes, as the program holds
    it: not callable (`call` is CPython's TypeError), printed as CPython's; a class that
    keeps it (its body, `setattr`) keeps `method` instead, which binds to the object it
    is read off (`PClass`, `Machine.set_attr`)."""

    __slots__ = ("args", "func", "keywords", "method")

    def __init__(
        self,
        method: NativeMethod,
        refuse: Callable[[list[Any], dict[str, Any]], Any],
        func: Any,
        args: tuple[Any, ...],
        keywords: dict[str, Any],
    ) -> None:
        super().__init__(method.name, refuse, method.descriptor)
        self.method = method
        self.func = func
        self.args = args
        self.keywords = keywords


class TypeObject(Builtin):
    """A built-in type name (`int`, `list`...): callable, and usable in `isinstance`;
    `members`, what a program may read off it (`dict.fromkeys`); `module`, the module
    its `repr` names (`abc.` of `<class 'abc.ABCMeta'>`), none for the built-ins."""

    __slots__ = ("members", "module", "types")

    def __init__(
        self,
        name: str,
        call: Callable[[list[Any], dict[str, Any]], Any],
        types: tuple[type, ...],
        module: str = "",
    ) -> None:
        super().__init__(name, call)
        self.types = types
        self.members: dict[str, Any] = {}
        self.module = module


class PModule:
    """`math` or `random`: a fixed table of what the program may use."""

    __slots__ = ("members", "name")

    def __init__(self, name: str, members: dict[str, Any]) -> None:
        self.name = name
        self.members = members


# In the table of what `logging` makes (`logging_module`): what it is, `Logger`,
# `StreamHandler`, `NullHandler` or `Formatter`, by which it is told apart (its `name` is
# a logger's, which the program chooses: `getLogger('Formatter')`). A program reads no
# member whose name begins with `_`.
LOG_KIND = "_log_kind"
LOG_HANDLERS = ("StreamHandler", "NullHandler")


class TextBuffer:
    """An `io.StringIO()` (stdlib.io_module): CPython's own buffer, which the program
    never reaches, and the table of its methods, each given the buffer when it is read
    (`member`); the program reaches nothing else of it."""

    __slots__ = ("buffer", "methods")

    def __init__(self, buffer: Any, methods: dict[str, Callable[..., Any]]) -> None:
        self.buffer = buffer
        self.methods = methods

    def member(self, name: str) -> Builtin | None:
        """`b.write`: the method, made for this buffer (a new one each time, as
        CPython's bound methods are), or None where there is none of that name."""
        method = self.methods.get(name)
        if method is None:
            return None
        buffer = self.buffer
        return Builtin(f"StringIO.{name}", lambda args, kwargs: method(buffer, args, kwargs))


# `itertools.count()` and `itertools.repeat(x)`, Python's own: endless, but leaves (they
# read no other iterator), so a lazy built-in over one takes its items as it goes.
ENDLESS = (type(itertools.count()), type(itertools.repeat(None)))


class Inert:
    """A name imported only so pasted code runs (`Digraph`); using it is an error."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Stream(Inert):
    """`sys.stdout`, the print panel (`print(x, file=sys.stdout)`): `members`, the few of
    its attributes a program may read (machine.get_attr; stdlib.sys_module makes them)."""

    __slots__ = ("members",)

    def __init__(self, name: str, members: dict[str, Any]) -> None:
        super().__init__(name)
        self.members = members


class Placeholder(Inert):
    """CPython's `__dict__` and `__weakref__` descriptors in a class's `__dict__`: named,
    equal to another of the same name (two views of one class compare equal), unusable."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Placeholder and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


# In the namespace of `enum.Enum`: its subclasses' bodies are members (`stdlib`).
ENUM_KEY = " enum"
# In the namespace of `enum.IntEnum` and `enum.StrEnum`: the type their members are (a
# member stands for its value wherever an int or a str is read: `==`, hashing, arithmetic,
# `isinstance`, f-strings, the str's methods).
ENUM_MIXIN_KEY = " enum mixin"


def enum_mixin_value(value: Any) -> Any:
    """An IntEnum's or StrEnum's member's value (`Op.MUL` -> `'mul'`), the list or dict
    an object of a class inheriting from `list` or `dict` keeps (`store_of`); anything
    else as it is."""
    if type(value) is PInstance:
        for c in value.cls.mro:
            namespace = c.namespace
            if ENUM_MIXIN_KEY in namespace:
                return value.attrs.get("value")
            if BUILTIN_BASE_KEY in namespace:
                return store_of(value, namespace[BUILTIN_BASE_KEY])
    return value


# In the namespace of `collections.ChainMap` (`Compiler.add_library_members`): a
# `MutableMapping` to `isinstance`, as CPython's, whose class has that base.
ABC_MAPPING_KEY = " abc mapping"

# In the namespace of the class standing for `list` or `dict` as a base of a program's
# class (`builtin_bases`): the type; and where its objects keep their list or dict.
BUILTIN_BASE_KEY = " builtin base"
_STORE = " store"


def store_of(instance: PInstance, kind: type) -> Any:
    """The list or dict an object of a class inheriting from `list` or `dict` is, made
    empty the first time it is asked for (before its class's `__init__` fills it, if it
    does), in `fields`, outside its `__dict__`."""
    try:
        fields = instance.fields
    except AttributeError:
        fields = instance.fields = {}
    held = fields.get(_STORE)
    if held is None:
        held = fields[_STORE] = kind()
    return held


def enum_members(cls: PClass) -> list[PInstance] | None:
    """An Enum class's members in their order, an alias's member once (`list(Op)`,
    `for op in Op`, `len(Op)`, as CPython's); None for a class that is no Enum."""
    if not is_enum(cls):
        return None
    members = [v for v in cls.namespace.values() if type(v) is PInstance and v.cls is cls]
    # each once, where its first name is (by identity: no `__eq__` of the program's runs)
    return list({id(member): member for member in members}.values())


def is_enum(cls: PClass) -> bool:
    """Whether `cls` is an Enum class (or a subclass of one)."""
    return any(ENUM_KEY in c.namespace for c in cls.mro)


def enum_member_named(cls: PClass, name: Any) -> PInstance | None:
    """`Op['MUL']`: the member (or alias) of that name, None where there is none."""
    found = cls.namespace.get(name) if type(name) is str else None
    return found if type(found) is PInstance and found.cls is cls else None


def enum_member_map(cls: PClass) -> MappingProxyType[str, PInstance]:
    """`Op.__members__`: every member's name, aliases too, in order, read-only."""
    return MappingProxyType(
        {
            name: value
            for name, value in cls.namespace.items()
            if type(value) is PInstance and value.cls is cls and name.isidentifier()
        }
    )


# In the namespace of a `@dataclass(frozen=True)` class: its fields are set once.
FROZEN = "__dataclass_frozen__"

# In the namespace of a named tuple's class: its field names, which CPython's
# `_tuplegetter` descriptors keep read-only (`p.x = 1`: "can't set attribute").
TUPLE_FIELDS = " tuple fields"


# Namespace entries that make a class's attribute writes look first (`has_properties`).
WRITE_GUARDS = frozenset({FROZEN, TUPLE_FIELDS})


def tuple_dict_refusal(cls: PClass) -> str | None:
    """Why an object of a named tuple's subclass has no `__dict__` here (CPython's holds
    none of the fields, which are the tuple's items; here they are kept with the
    attributes, so the dict would show them and change them), else None."""
    if cls.lookup(TUPLE_FIELDS) is MISSING:
        return None
    return (
        f"the __dict__ of a {cls.name} object (a named tuple's subclass) is not available "
        "here: it would hold the tuple's fields, which are read-only"
    )


def is_tuple_field(cls: PClass, name: str) -> bool:
    """Whether `name` is a field of the named tuple class `cls` (or of one it inherits)."""
    fields = cls.lookup(TUPLE_FIELDS)
    return fields is not MISSING and name in fields


class PSet:
    """A set that iterates in insertion order, so a program's run does not depend on ids.

    CPython orders a set of objects by their addresses, which change from run to run;
    here `for child in v._prev` always visits children in the order they were added.
    A set of numbers (ints, bools, floats and tuples of them, whose hashes are the same
    in every CPython run) is ordered as CPython orders it, so `print({3, 1, 2})` prints
    `{1, 2, 3}`: `mirror` is a Python set of the same items, built and changed by the
    same operations as CPython's (its table, and so its order, is CPython's), or None
    once an item of another kind has been added.

    Objects of a class with its own `__hash__` (whose value is the same in every
    CPython run: numbers, not strings or identities) are ordered by it as CPython orders
    them: the mirror holds an `_Entry` for each, its hash as `__hash__` computed it when
    it was added (so the program's `__hash__` runs once, as in CPython), `entries` the
    entries by that hash.

    `frozen`: a `frozenset` (the same set, refusing every change: library.set_methods).
    """

    __slots__ = ("entries", "frozen", "items", "mirror")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self.items: dict[Any, None] = dict.fromkeys(items)
        self.entries: dict[int, list[_Entry]] | None = None
        self.mirror: set[Any] | None = None
        self.frozen = False
        for first in self.items:
            # `set((self, other))` of a graph's nodes, the usual case: ordered by insertion
            # (as the two tests below find, sooner).
            if type(first) is PInstance and first.cls.hash_rule is None:
                return
            break
        if all(map(ordered_by_hash, self.items)):
            self.mirror = set(tuple(self.items))
        elif all(ordered_by_hash(item) or stored_hash(item) is not None for item in self.items):
            self.mirror = set()
            for item in self.items:
                self._mirror_add(item)

    @staticmethod
    def by_insertion(items: Iterable[Any]) -> PSet:
        """What `PSet(items)` makes where the first item is an object of the program's
        hashed by identity (a node's operands, `set((self, other))`): ordered by insertion,
        no mirror; made without `__init__`'s call and its tests."""
        made = object.__new__(PSet)
        made.items = dict.fromkeys(items)
        made.entries = made.mirror = None
        made.frozen = False
        return made

    def __iter__(self) -> Iterator[Any]:
        return iter(self.ordered())

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item: Any) -> bool:
        return item in self.items

    def holds(self, item: PInstance) -> bool:
        """`item in s` of an object whose class hashes it by its own `__hash__`, as
        CPython's set looks it up: by the hash it has now first, then identity or `==`
        with what has that hash. (The set's dict asks identity first, so it found an
        object whose hash changed since it went in, where CPython's set does not.)"""
        return _Key(item, hash(item)) in self.items

    def __eq__(self, other: object) -> bool:
        """`{1, 2} == {2, 1}`, in a list too: the same items, as CPython's sets compare."""
        return type(other) is PSet and self.items.keys() == other.items.keys()

    __hash__ = object.__hash__  # never a program's key (Machine.key refuses a set)

    def ordered(self) -> Iterable[Any]:
        """The items in the order the program sees them (CPython's, for numbers and
        objects hashed by their class's own `__hash__`)."""
        if self.mirror is None:
            return self.items
        if self.entries:
            return (e.item if type(e) is _Entry else e for e in self.mirror)
        return self.mirror

    def add(self, item: Any) -> None:
        items = self.items
        if self.mirror is None:
            items[item] = None
            return
        size = len(items)
        items[item] = None
        if len(items) != size:  # new: CPython's table changes
            self._mirror_add(item)

    def _mirror_add(self, item: Any) -> None:
        mirror = self.mirror
        assert mirror is not None
        if ordered_by_hash(item):
            mirror.add(item)
            return
        value = stored_hash(item)
        if value is None:
            self.mirror = self.entries = None  # insertion order from now on
            return
        entry = _Entry(item, value)
        if self.entries is None:
            self.entries = {}
        self.entries.setdefault(value, []).append(entry)
        mirror.add(entry)

    def discard(self, item: Any) -> None:
        if not self.entries:
            self.items.pop(item, None)
            if self.mirror is not None:
                self.mirror.discard(item)
            return
        size = len(self.items)
        self.items.pop(item, None)
        if len(self.items) == size:
            return
        assert self.mirror is not None
        if ordered_by_hash(item) and item in self.mirror:
            self.mirror.discard(item)
            return
        entry = self._entry_gone(item)
        if entry is None:
            self.mirror = self.entries = None  # insertion order from now on
        else:
            self.mirror.discard(entry)

    def _entry_gone(self, item: Any) -> _Entry | None:
        """The entry of the object the set's dict just removed for `item` (itself, or an
        equal object of the same hash: the only one of that hash here), or None when
        only `__eq__` could tell which."""
        assert self.entries is not None
        value = stored_hash(item)
        same = self.entries.get(value) if value is not None else None
        if not same:
            return None
        found = next((e for e in same if e.item is item), same[0] if len(same) == 1 else None)
        if found is None:  # objects of one hash: the one no longer in the dict
            gone = [e for e in same if _Probe(e) not in self.items]
            found = gone[0] if len(gone) == 1 else None
        if found is not None:
            same.remove(found)
            if not same:
                del self.entries[found.hash]
        return found

    def pop(self) -> Any:
        """CPython's `set.pop()`: the item its table gives first."""
        item = next(iter(self.items)) if self.mirror is None else self.mirror.pop()
        if type(item) is _Entry:
            assert self.entries is not None
            same = self.entries[item.hash]
            same.remove(item)
            if not same:
                del self.entries[item.hash]
            item = item.item
        del self.items[item]
        return item

    def clear(self) -> None:
        self.items.clear()
        self.entries = None
        if self.mirror is not None:
            self.mirror.clear()


# What no gradient is (`gradient_name`)
NO_GRADIENTS: frozenset[type] = frozenset({list, tuple, dict, PSet, str, bytes})


class _Entry:
    """An object in a set's mirror: hashed as its class's `__hash__` hashed it when it was
    added, equal only to itself (the set's own dict already asked the program's `__eq__`)."""

    __slots__ = ("hash", "item")

    def __init__(self, item: Any, value: int) -> None:
        self.item = item
        self.hash = value

    def __hash__(self) -> int:
        return self.hash  # Python folds it as it folds what the class's `__hash__` gave

    def __eq__(self, other: object) -> bool:
        return type(other) is _Entry and other.item is self.item


class _Key(PInstance):
    """An object looked up in a set's dict by the hash it has now (`PSet.holds`): never
    the dict's own key, so the dict asks each key of that hash `key == item`, as
    CPython's set does (a subclass of the key's type, so Python asks it first)."""

    __slots__ = ("hash", "item")

    def __init__(self, item: PInstance, value: int) -> None:  # no class of the program's
        self.item = item
        self.hash = value

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return other is self.item or bool(other == self.item)


class _Probe(PInstance):
    """Whether an entry's object is still a key of a set's dict, asked without the
    program's `__eq__`: hashed as the entry, and (a subclass of the key's type, so Python
    asks it first) equal only to that object."""

    __slots__ = ("entry",)

    def __init__(self, entry: _Entry) -> None:  # no class of the program's: never seen
        self.entry = entry

    def __hash__(self) -> int:
        return self.entry.hash

    def __eq__(self, other: object) -> bool:
        return other is self.entry.item


def class_dict(
    cls: PClass,
    native: Callable[[NativeMethod, PClass], Any],
    annotations: dict[str, Any] | None = None,
) -> MappingProxyType[str, Any]:
    """`C.__dict__` of a program's class: a read-only view of its own attributes, keys in
    CPython's order (`__module__`, the docstring, the body's names, then `__dict__` and
    `__weakref__` where no base gave them, `__doc__` last when there is no docstring,
    `__hash__` None after it where the class was made with `__eq__` alone;
    `__annotations__` second where the body annotates);
    values the program's own objects (the interpreter's own entries left out; `__dict__`
    and `__weakref__`, CPython's descriptors, placeholders it cannot use; a built-in
    method, a dataclass's `__init__`, as `native` gives it read off the class, which
    checks what it is called on)."""
    own: dict[str, Any] = {"__module__": "__main__"}
    if annotations is not None:  # its body's (`C.__annotations__`), where it annotates
        own["__annotations__"] = annotations
    if cls.doc is not None:
        own["__doc__"] = cls.doc
    own.update(
        (k, native(v, cls) if type(v) is NativeMethod else v)
        for k, v in cls.namespace.items()
        if not k.startswith(" ") and k != FROZEN  # (`setattr(C, 'a b', 1)`'s shown too)
    )
    above = [c for c in cls.mro[1:] if not (c.builtin and c.name == "object")]
    for slot in ("__dict__", "__weakref__"):
        if not above or (slot == "__weakref__" and all(c.builtin for c in above)):
            own[slot] = Placeholder(f"attribute '{slot}' of '{cls.name}' objects")
    own.setdefault("__doc__", None)
    if cls.hash_none:  # CPython's `__hash__ = None` of a class made with `__eq__` alone
        own["__hash__"] = None
    return MappingProxyType(own)


def stored_hash(item: Any) -> int | None:
    """The hash `item`'s class's own `__hash__` gave it last, when that is the same in
    every CPython run; else None."""
    if type(item) is PInstance and item.cls.hash_rule is not None:
        return getattr(item, "hashed", None)
    return None


def ordered_by_hash(item: Any) -> bool:
    """Whether CPython's hash of `item` is the same in every run (so is a set's order)."""
    kind = type(item)
    if kind is int or kind is bool:
        return True
    if kind is float:
        return not math.isnan(item)  # a NaN hashes by its address
    if kind is tuple:
        return all(map(ordered_by_hash, item))
    return False


class Annotation:
    """A `typing` name (`List`, `Optional[float]`): usable in annotations and aliases,
    subscriptable (keeping what it was subscripted with, for `typing.get_args`), and
    nothing else."""

    __slots__ = ("args", "hashed", "name", "origin")

    def __init__(self, name: str, args: tuple[Any, ...] = (), origin: Any = None) -> None:
        self.name = name
        self.args = args
        # The program's own class of `S[int]` where `class S(list)` (CPython's generic
        # alias of it, `__main__.S[int]`; its name then `__main__.S`, no typing name), else
        # None
        self.origin = origin
        # Hashed once, as made, from its arguments' own (an alias's kept): an alias made of
        # aliases, each holding the last twice, was 2**n hashes, in no step (`_arg_key`).
        if args and (name == "|" or name in ("Union", "Optional")):
            # a union's from its members as a set, equal in any order (`union_set`)
            keys = frozenset(map(_arg_key, (*args, None) if name == "Optional" else args))
            self.hashed = hash(("|", keys))
        else:
            made = tuple(map(_arg_key, args))
            self.hashed = hash((name, made) if origin is None else (name, id(origin), made))

    # Equal as CPython's aliases are, by what they name (`list[int] == list[int]`, a key of
    # a dict): the name and the arguments, classes by identity (no code of the program runs).
    # A union equals one of the same members in any order, typing's too, as CPython's
    # (`(int | float) == (float | int)`, `Optional[int] == (int | None)`).
    # Charged a step, and a step per ten members or items walked, to the program that
    # runs (`charging`): Python's dicts and sets call it too, where aliases hash alike
    # (`list[[i]]` for every i: an argument list's hash is its kind's), and a walk of
    # two aliases of equal million-item lists was no step at all.
    def __eq__(self, other: object) -> bool:
        if type(other) is not Annotation or self.hashed != other.hashed:
            return False
        charge = charging.get()
        if charge is not None:
            charge(1 + len(self.args) // _ITEMS_PER_STEP)
        mine = self.union_set()
        if mine is not None:
            theirs = other.union_set()
            if theirs is not None:
                return mine == theirs  # (members hashed and compared one level deep)
        return _same_alias(self, other, charge)

    def __hash__(self) -> int:
        return self.hashed

    def union_set(self) -> frozenset[Any] | None:
        """A union's members, one level deep (`Optional[X]`'s None among them)."""
        if not self.args or self.name not in ("|", "Union", "Optional"):
            return None
        try:
            return frozenset((*self.args, None) if self.name == "Optional" else self.args)
        except TypeError:
            return None


# An argument of an alias compared by value (`list[1]`); anything else by identity, or
# item by item for a list or tuple of them (`Callable[[int], float]`).
_PLAIN_ARGS = frozenset({int, float, bool, complex, str, bytes})


def _arg_key(arg: Any) -> Any:
    """What an alias's hash takes of one argument: equal for equal arguments, and read in
    constant time (a list's or tuple's kind only; another alias's kept hash)."""
    kind = type(arg)
    if kind is Annotation:
        return arg.hashed
    if kind in _PLAIN_ARGS or arg is None:
        return arg
    if kind is list or kind is tuple:
        return kind.__name__
    return id(arg)  # compared by identity (`_same_alias`)


# How a comparison of aliases charges the program that runs: its state's `charge`, set
# while a program runs (`engine.run.trace_program`), else None (nothing to charge).
charging: ContextVar[Callable[[int], None] | None] = ContextVar("alias_charging", default=None)
_ITEMS_PER_STEP = 10  # (runtime's ITEMS_PER_STEP)
_PAIRS_PER_STEP = 4


def _same_alias(
    first: Annotation, second: Annotation, charge: Callable[[int], None] | None = None
) -> bool:
    """Whether two aliases name the same thing, walked without recursion: each pair of
    aliases, lists or tuples once (two aliases of aliases built alike, each holding the
    last twice, were 2**n comparisons; a list holding its own alias, no end); `charge`d
    as it walks, a step a pair of aliases, lists or tuples and a step per four items
    (each a turn of this loop, not a walk in C)."""
    pairs: list[tuple[Any, Any]] = [(first, second)]
    walked: set[tuple[int, int]] = set()
    while pairs:
        a, b = pairs.pop()
        if a is b:
            continue
        kind = type(a)
        if kind is not type(b):
            if kind in _PLAIN_ARGS and type(b) in _PLAIN_ARGS and a == b:
                continue  # `list[1] == list[1.0]`, as CPython's
            return False
        if kind is Annotation:
            if a.hashed != b.hashed:
                return False
            mine, theirs = a.union_set(), b.union_set()
            if mine is not None and theirs is not None:
                # unions (`list[int | str] == list[str | int]`, `list[Optional[int]] ==
                # list[int | None]`): their members paired by hash, equal members hashing
                # alike, as CPython compares them, as sets
                a, b = tuple(sorted(mine, key=hash)), tuple(sorted(theirs, key=hash))
            elif a.name != b.name or a.origin is not b.origin:
                return False
            else:
                a, b = a.args, b.args
        elif kind is not list and kind is not tuple:
            if kind in _PLAIN_ARGS and a == b:
                continue
            return False
        if len(a) != len(b):
            return False
        if (id(a), id(b)) not in walked:
            walked.add((id(a), id(b)))
            if charge is not None:  # (a step a pair of containers, and per four items)
                charge(1 + len(a) // _PAIRS_PER_STEP)
            pairs.extend(zip(a, b, strict=True))
    return True


class _Missing:
    __slots__ = ()


MISSING: Any = _Missing()


def _linearize(name: str, bases: tuple[PClass, ...]) -> list[PClass]:
    """C3 linearization of the bases, as Python computes a class's `__mro__`: the first
    head (of the bases' MROs, then the bases) that is in no other sequence's tail, again
    and again. How many tails hold each class is counted once and kept up to date, so a
    class costs the length of its MRO times the number of its bases, not its square."""
    if len(bases) > 1 and len({id(base) for base in bases}) < len(bases):
        twice = next(base for i, base in enumerate(bases) if base in bases[:i])
        raise TypeError(f"duplicate base class {twice.name}")  # CPython's words
    sequences = [base.mro for base in bases if base.mro] + ([bases] if bases else [])
    at = [0] * len(sequences)  # where each sequence's head is
    in_tails: dict[PClass, int] = {}
    for seq in sequences:
        for cls in seq[1:]:
            in_tails[cls] = in_tails.get(cls, 0) + 1
    result: list[PClass] = []
    while True:
        head = None
        left = False
        for i, seq in enumerate(sequences):
            if at[i] < len(seq):
                left = True
                if not in_tails.get(seq[at[i]]):
                    head = seq[at[i]]
                    break
        if head is None:
            if not left:
                return result
            raise TypeError(_mro_error(bases, sequences, at))
        result.append(head)
        for i, seq in enumerate(sequences):
            if at[i] < len(seq) and seq[at[i]] is head:
                at[i] += 1
                if at[i] < len(seq):
                    in_tails[seq[at[i]]] -= 1  # the new head is no longer in a tail


def _mro_error(bases: tuple[PClass, ...], sequences: list[Any], at: list[int]) -> str:
    """CPython's words for bases with no consistent order: the classes still at the head
    of a sequence, each once, in the order of the sequences."""
    heads: list[PClass] = []
    for i, seq in enumerate(sequences):
        if at[i] < len(seq) and all(seq[at[i]] is not c for c in heads):
            heads.append(seq[at[i]])
    named = ", ".join(c.name for c in heads)
    return f"Cannot create a consistent method resolution\norder (MRO) for bases {named}"


def type_union(op: str, left: Any, right: Any, charge: Callable[[int], None]) -> Any:
    """`int | float` outside annotations: CPython's `types.UnionType`, an annotation here
    (`Annotation("|", members)`), which `isinstance` reads as CPython reads a union, with
    generic aliases among its members too (`dict[str, float] | None`); with a `typing`
    name on either side (`Optional`, `Union`, `List[int]`; not `Any`, a class in 3.11)
    typing's union (`Annotation("Union", members)`: `Optional[int] | str` is `Union[int,
    None, str]`). Each member once in its first place, a union's members in its place,
    one alone itself (`int | int` is `int`);
    None where a side is no class, alias, union or None. `charge` takes the members."""
    if op != "|" or (left is None and right is None):
        return None
    typing_union = False
    members: list[Any] = []
    for side in (left, right):
        if type(side) is Annotation:
            if side.name == "|":
                members.extend(side.args)
            elif side.name in TYPING_UNIONS and side.args:
                typing_union = True
                members.extend(union_members(side, charge))
            elif (
                side.name in GENERIC_ALIASES
                or side.origin is not None  # `S[int] | None` of `class S(list)`
                or (side.name == "Any" and not side.args)
            ):
                members.append(side)  # (`Any` a class in CPython 3.11: `Any | None`)
            else:  # `List[int] | None`: typing's `Optional[List[int]]`, as CPython's
                typing_union = True
                members.append(side)
        elif side is None or isinstance(side, TypeObject) or type(side) is PClass:
            members.append(side)
        else:
            return None
    # A step per four members: each of both sides read, kept once and hashed (about 0.2 µs
    # a member), `int | float | float ...` grown in a loop too.
    charge(len(members) // _MEMBERS_PER_STEP)
    unique = tuple(dict.fromkeys(members))  # each once, in its first place
    if len(unique) == 1:
        return unique[0]
    return Annotation("Union" if typing_union else "|", unique)


TYPING_UNIONS = ("Union", "Optional")
_MEMBERS_PER_STEP = 4


def union_members(union: Annotation, charge: Callable[[int], None]) -> list[Any]:
    """The members of a `typing.Union[...]` or `Optional[...]` (or an `int | float`) as
    CPython's flattened union holds them: a union among them gives its own in its place,
    an Optional's None after its members, each once. Walked with a stack of its own and a
    charge for each member read (a Union nested a million deep is no host recursion, one
    made of itself twice over at every level no endless walk)."""
    found: list[Any] = []
    seen: set[Any] = set()  # each member by identity; an alias by its name and arguments'
    end: Any = _UNION_END
    stack: list[Any] = [end if union.name == "Optional" else None, iter(union.args)]
    while stack:
        top = stack.pop()
        if top is None:
            continue
        if top is end:
            member: Any = None  # an Optional's own None, after its members
        else:
            member = next(top, end)
            if member is end:
                continue
            stack.append(top)
        charge(1)
        if type(member) is Annotation and (
            (member.name in TYPING_UNIONS and member.args) or member.name == "|"
        ):
            stack.append(end if member.name == "Optional" else None)
            stack.append(iter(member.args))
            continue
        key = (
            (member.name, tuple(id(arg) for arg in member.args))
            if type(member) is Annotation
            else id(member)
        )
        if key not in seen:
            seen.add(key)
            found.append(member)
    return found


_UNION_END: Any = object()


# The built-in classes whose subscription is CPython's generic alias (`list[float]`).
GENERIC_ALIASES = frozenset({"list", "dict", "tuple", "set", "frozenset", "type"})
