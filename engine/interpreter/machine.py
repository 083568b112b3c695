"""The object model: calling, attributes, operators and truth, for every program value.

Each operation looks at the types of its operands and does only what this table says:
plain numbers are computed by Python (integers kept within 4,096 bits and charged by
their size, powers and shifts measured first), strings and containers are measured
before they are made, engine `Value`s build graph nodes that the recorder adopts, and
the program's own instances get their class's methods (`__add__`, `__radd__`...).
Anything else is a clean error.
Attributes come from allow-lists only; Python's `getattr` is never used on a value.
"""

from __future__ import annotations

import builtins as _host_builtins
import importlib
import io
import math
import operator
import sys
import weakref
from collections.abc import Callable, Iterable, Iterator
from types import GeneratorType, MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn

from backprop_animator.engine.errors import NO_REAL_RESULT, arithmetic_reason
from backprop_animator.engine.interpreter import collection_kinds as kinds
from backprop_animator.engine.interpreter import sets
from backprop_animator.engine.interpreter.builtin_dunders import (
    bound_dunder,
    call_method,
    container_dunder,
)
from backprop_animator.engine.interpreter.exceptions import error_matches
from backprop_animator.engine.interpreter.namedtuples import TUPLE_FILLER, tuple_filler
from backprop_animator.engine.interpreter.objects import (
    BUILTIN_BASE_KEY,
    ENDLESS,
    ENUM_KEY,
    ENUM_MIXIN_KEY,
    FROZEN,
    GENERIC_ALIASES,
    GRAD_NAMES,
    LOG_KIND,
    MISSING,
    NO_READS,
    PARTIAL_METHOD,
    Annotation,
    BoundMethod,
    Builtin,
    CallFrame,
    Frame,
    Function,
    Inert,
    Maker,
    NativeMethod,
    NodeRule,
    Partial,
    PartialMethod,
    PClass,
    PClassMethod,
    PInstance,
    PModule,
    PProperty,
    PSet,
    PStaticMethod,
    PSuper,
    Shape,
    Stream,
    TextBuffer,
    TypeMethod,
    TypeObject,
    class_dict,
    enum_member_map,
    enum_member_named,
    enum_members,
    enum_mixin_value,
    find_shape,
    is_bare_object,
    is_data_descriptor,
    is_descriptor,
    is_dunder,
    is_enum,
    is_tuple_field,
    pairs_hold_instance,
    reads_of,
    type_union,
    union_members,
    unit_shape,
)
from backprop_animator.engine.interpreter.os_module import refusal as os_refusal
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MAX_INT_BITS,
    MAX_ITEMS,
    MOVES_PER_STEP,
    SMALL_INT,
    ProgramError,
    SlotDict,
    State,
    caught_as,
    too_deep,
)
from backprop_animator.engine.interpreter.text import (
    ITERATOR_CODES,
    ITERATOR_NAMES,
    NO_METHOD,
    VIEW_NAMES,
    Texts,
    a_type,
    cpython_type,
    python_type_name,
    type_name,
)
from backprop_animator.engine.interpreter.type_hints import (
    HINTS,
    class_annotations,
    function_annotations,
)
from backprop_animator.engine.ops import FUNCTIONS, OPS
from backprop_animator.engine.value import Value, creation_order, mark_written_left

if TYPE_CHECKING:
    from backprop_animator.engine.trace.recorder import Recorder

NUMBERS = frozenset({int, float, bool})
# A dict's views, CPython's own objects (live, their `in` a hash lookup); the keys and
# items views are set-like (`==` with a set, `&`, `|`, `-`, `^`).
VIEWS: frozenset[type] = frozenset(VIEW_NAMES)
SET_LIKE_VIEWS: frozenset[type] = frozenset({type({}.keys()), type({}.items())})
HOLDS_A_LIST = "this item cannot be put in a set (it holds a list)"
SIZED: frozenset[type] = frozenset(
    {list, tuple, dict, str, PSet, range, bytes, MappingProxyType, *VIEWS}
)
# Keys whose hash CPython computes in constant time (a string caches its hash; nodes and
# the program's instances hash by identity).
SIMPLE_KEYS: frozenset[type] = frozenset(
    {int, float, bool, str, bytes, type(None), Value, PInstance}
)
UNHASHABLE: frozenset[type] = frozenset({list, dict, PSet, MappingProxyType, slice, *VIEWS})
RETURN: Any = object()  # the signal a `return` statement hands up to its function
BREAK: Any = object()  # and those `break` and `continue` hand up to their loop
CONTINUE: Any = object()
GENERIC_BASES = frozenset({"Generic", "Protocol"})  # typing's classes a program subscripts

_FORWARD = {
    "+": "__add__",
    "-": "__sub__",
    "*": "__mul__",
    "/": "__truediv__",
    "//": "__floordiv__",
    "%": "__mod__",
    "**": "__pow__",
    "@": "__matmul__",  # a matrix class of Values (`A @ X @ W`)
    "&": "__and__",
    "|": "__or__",
    "^": "__xor__",
    "<<": "__lshift__",
    ">>": "__rshift__",
}
_REFLECTED = {op: "__r" + name[2:] for op, name in _FORWARD.items()}
FORWARD_DUNDERS = _FORWARD  # `a + b` of a program's instance calls its class's `__add__`
# How deep a program's `__hash__`/`__eq__` may nest inside Python's own container code
# (`Machine.call_from_python`): each level may hold a tuple's C recursion besides.
MAX_CALLBACK_DEPTH = 32

_COMPARE = {
    "<": "__lt__",
    "<=": "__le__",
    ">": "__gt__",
    ">=": "__ge__",
    "==": "__eq__",
    "!=": "__ne__",
}
_SWAPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
# The `operator` module's functions are Python's own operators (`operator.add(a, b)` is
# `a + b`, reflected methods included), without a Python frame of their own.
_NUMBER_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    ">>": operator.rshift,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "@": operator.matmul,  # a TypeError for every number, in CPython's words
}
_VALUE_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "**": operator.pow,
}
# A call of a program's function costs several steps: binding its arguments and making
# its frame is several statements' worth of work.
CALL_STEPS = 5
_bare = object.__new__  # a PInstance made without __init__: its maker sets the slots


class Machine:
    """Calls, attributes and operators over the program's values."""

    detached = False  # the recorder's re-runs of ops' calls are running (`op_rerun`)

    def __init__(self, state: State, recorder: Recorder, expanded: bool) -> None:
        self.state = state
        self.recorder = recorder
        self.expanded = expanded
        self.texts = Texts(state, self.call_dunder)
        self.methods: dict[type, dict[str, Callable[[Any], Builtin]]] = {}
        # The same methods unbound, where a method is the same for every object of the
        # type (`call(obj, args, kwargs)`): a call `obj.append(x)` runs it at once.
        self.direct: dict[type, dict[str, Callable[[Any, list[Any], dict[str, Any]], Any]]] = {}
        # `str.lower`, `dict.fromkeys`: a built-in type's member, or MISSING (the library's).
        self.type_member: Callable[[TypeObject, str], Any] = lambda kind, name: MISSING
        # The built-in exception classes by name (`engine.interpreter.exceptions`).
        self.exceptions: dict[str, PClass] = {}
        # A class's built-in methods as its `__dict__` shows them (`class_view`), one each
        # (by the ids of the method and the class, both kept alive by it).
        self.native_views: dict[tuple[int, int], Builtin] = {}
        # Dicts and lists that `collections` made (by id, with the object kept alive so
        # the id stays its own): what a missing key gives, and which deque methods apply.
        # `(obj, kind, factory)`, kind "defaultdict", "Counter", "OrderedDict" or "deque".
        self.collections: dict[int, tuple[Any, str, Any]] = {}
        self.texts.collections = self.collections
        # `collections`' types by kind, once the module is made (`type(c)` of a Counter);
        # and whether any deque has a `maxlen` (then a list's `append` asks if it is one).
        self.collection_types: dict[str, Any] = {}
        self.bounded_deques = False
        # The registry's size at which it is next pruned: twice what a pruning left, so
        # a program that keeps its deques alive does not have them all looked at again
        # for each new one.
        self.prune_at = PRUNE_AT
        # Each `def`'s annotations, by its lines (`Function.span`), for `get_type_hints`
        # (`engine.interpreter.type_hints`).
        self.hints: dict[tuple[int, int], list[tuple[str, Any]]] = {}
        # `object`, last of every class's `__mro__` (the library makes it)
        # The docstrings of the program's functions, by their lines (`Function.span`)
        self.function_docs: dict[tuple[int, int], str] = {}
        self.object_class: PClass | None = None
        # An Enum's mixed-in `str` or `int` class (by its id) and the built-in type it
        # stands for in an `__mro__` (the enum module sets them)
        self.mixin_types: dict[int, Any] = {}
        # The classes standing for `list` and `dict` as bases of the program's classes
        # (`builtin_bases`), made when a class statement first names one
        self.builtin_bases: dict[type, PClass] = {}
        self.full_mros: weakref.WeakKeyDictionary[PClass, tuple[PClass, ...]] = (
            weakref.WeakKeyDictionary()
        )
        # The spans of methods named with a pass's word that do no pass's work
        # (`register_backward_hook`): called on a graph node, no pass (`does_pass_work`).
        self.no_passes: set[tuple[int, int]] = set()
        # The spans of the program's functions of no pass's name that do a pass's work on
        # the node they are given first, by name (`expressions.seeding_passes`).
        self.seeding_passes: dict[str, frozenset[tuple[int, int]]] = {}
        # The names a node's gradient may have: GRAD_NAMES, then those the program's
        # classes give it in words of their own (`expressions.own_gradient_names`).
        self.grad_names: tuple[str, ...] = GRAD_NAMES
        # The program's classes whose objects are leaves beside op classes that keep their
        # operands, though they keep none (`expressions.leaf_classes`).
        self.leaf_classes: frozenset[str] = frozenset()
        # The built-in types a generic alias of theirs calls (`list[int]([1, 2])`), by name.
        self.alias_origins: dict[str, Any] = {}
        # The run's modules (`Library.modules`), and CPython's objects their members and
        # the built-ins stand for, by the ids of the members (each kept, so its id stays
        # its own), as of how many members the modules made had (`host_twin`)
        self.module_table: Any = None
        self.host_twins: dict[int, tuple[Any, Any]] = {}
        self.host_twins_of = -1
        # Each engine Value's `_backward` the program read (`node_rule`), one a node.
        self.node_rules: dict[Value, NodeRule] = {}

    def register(self, obj: Any, kind: str, factory: Any = None) -> None:
        """Keep `obj` in `collections` as a `kind` (`collection_kinds`), with its factory
        (a defaultdict's, a deque's maxlen)."""
        registry = self.collections
        if len(registry) >= self.prune_at:
            # Forget the ones only the registry still holds (a loop's temporary deques).
            for key, (held, _, _) in list(registry.items()):
                if sys.getrefcount(held) <= UNUSED_REFCOUNT:
                    del registry[key]
            self.prune_at = max(PRUNE_AT, 2 * len(registry))
        registry[id(obj)] = (obj, kind, factory)

    # Calls

    def call(self, func: Any, args: list[Any], kwargs: dict[str, Any] | None = None) -> Any:
        kind = type(func)
        if kind is BoundMethod:
            if not kwargs:  # `fn.enter`: `call_function`, or its body's own (`codegen`)
                function = func.function
                return function.enter(function, [func.self, *args])
            return self.call_function(func.function, [func.self, *args], kwargs)
        if kind is Function:
            if not kwargs:
                return func.enter(func, args)
            return self.call_function(func, args, kwargs)
        if isinstance(func, Builtin):
            self.state.charge(1)
            return func.call(args, kwargs or {})
        if kind is PClass:
            return self.instantiate(func, args, kwargs)
        if kind is PInstance:
            method = func.cls.lookup("__call__")
            if type(method) is Function:
                if not kwargs:
                    return method.enter(method, [func, *args])
                return self.call_function(method, [func, *args], kwargs)
            if type(method) is PClassMethod:  # jack-norrie/autodiff's `Function.__call__`
                return self.call(method.function, [func.cls, *args], kwargs)
            if type(method) is PStaticMethod:
                return self.call(method.function, args, kwargs)
            if method is not MISSING and method is not None:  # `__call__ = print`
                result = self.unbound_dunder(func, "__call__", method, tuple(args), kwargs)
                if result is not NO_METHOD:
                    return result
        if kind is PStaticMethod:  # read off a class's `__dict__`: callable, as CPython's
            return self.call(func.function, args, kwargs)
        if isinstance(func, Inert):
            raise ProgramError(f"{func.name} is not available here (nothing is drawn or imported)")
        if kind is Annotation and func.name in self.alias_origins:
            return self.call(self.alias_origins[func.name], args, kwargs)  # `list[int](xs)`
        if kind is Annotation and func.origin is not None:
            return self.call(func.origin, args, kwargs)  # `Batch[int](xs)`, its class's
        if kind in _NOT_CALLABLE or (kind is PInstance and func.cls.lookup("__call__") is MISSING):
            # `model(x)` of a class with no `__call__`, `loss.data()`: CPython's TypeError
            message = f"'{cpython_type(func)}' object is not callable"
            raise ProgramError(message, kind="TypeError")
        raise ProgramError(f"{a_type(func)} cannot be called")

    def rule_on_operand(self, obj: PInstance, rule: Function) -> None:
        """`self.backward_fn = fn` in `__mul__`: a node's rule set, while an op's method
        runs, on one of that method's operands, where the rule is a closure of another
        node's (`rule_owner`: the node its frame made of the others, `out`): the op's
        rule is kept on the operand, and the node it is of keeps none of its own
        (`Recorder.rule_kept_on`). The usual `out._backward = _backward` sets it on no
        operand: one look at the method's arguments, charged by their count."""
        making = self.state.making
        if making is None:
            return
        args = making[1]
        self.state.charge(len(args) // ITEMS_PER_STEP)
        if not any(arg is obj for arg in args):
            return
        closure = rule.closure
        self.state.charge(1 + len(closure.vars) // ITEMS_PER_STEP if closure else 1)
        owner = rule_owner(closure)
        if owner is not None and owner is not obj:
            self.recorder.rule_kept_on(owner, obj, rule)

    def call_function(
        self, fn: Function, args: list[Any], kwargs: dict[str, Any] | None = None
    ) -> Any:
        if fn.tape_rule:
            # A node's rule kept where its node is not (a tape: `for _, run in
            # reversed(TAPE): run()`): the run of that node's rule it is, as
            # `node._backward()` would be (`Recorder.user_rule`). One its node keeps
            # (`out._rules`, a list of them) is run as the writes say (`loop_write`).
            rec = self.recorder
            if rec.pass_output is not None and rec.in_rule is None and not rec.hand_pass:
                closure = fn.closure
                # The look at its frame's names and its node's attributes, charged.
                self.state.charge(1 + len(closure.vars) // ITEMS_PER_STEP if closure else 1)
                owner = rule_owner(closure)
                if owner is not None:
                    self.state.charge(len(owner.attrs) // ITEMS_PER_STEP)
                # (Not one handed a node, `_compute_grad_of_parents(node)` called in a loop
                # over the order: that is the node's rule, as the writes say, `loop_write`.)
                if owner is not None and not holds(owner, fn) and not _hands_node(args):
                    return rec.tape_rule(
                        owner, fn.span, lambda: self.call_function(fn, args, kwargs)
                    )
        state = self.state
        state.steps += CALL_STEPS
        if state.steps > state.next_check:
            state.checkpoint()
        if state.depth >= state.max_call_depth:
            raise too_deep(state, "calls are nested too deeply (recursion)")
        params = fn.params
        count = len(args)
        if not kwargs and fn.simple and count == len(params):
            # Displays, not dict(zip(...)): a third of the time for the usual few.
            if count == 1:
                variables = {params[0]: args[0]}
            elif count == 2:
                variables = {params[0]: args[0], params[1]: args[1]}
            elif count == 3:
                variables = {params[0]: args[0], params[1]: args[1], params[2]: args[2]}
            elif count == 4:  # `Value(x, (self, other), "*")`'s `__init__`
                variables = {
                    params[0]: args[0],
                    params[1]: args[1],
                    params[2]: args[2],
                    params[3]: args[3],
                }
            elif count == 0:  # a node's `_backward()`
                variables = {}
            else:
                variables = dict(zip(params, args, strict=True))
        elif not kwargs and fn.simple and len(params) - len(fn.defaults) <= count < len(params):
            # `Value(1.0)` of `__init__(self, data, children=())`: `bind`'s answer, sooner
            # (the defaults are the last parameters').
            defaults = fn.defaults
            if count == 2 and len(params) == 3:
                variables = {params[0]: args[0], params[1]: args[1], params[2]: defaults[-1]}
            elif (
                count == 2 and len(params) == 4
            ):  # micrograd's `(self, data, _children=(), _op='')`
                variables = {
                    params[0]: args[0],
                    params[1]: args[1],
                    params[2]: defaults[-2],
                    params[3]: defaults[-1],
                }
            else:
                first_default = len(params) - len(defaults)
                variables = dict(
                    zip(params, [*args, *defaults[count - first_default :]], strict=True)
                )
        else:
            variables = self.bind(fn, args, kwargs or {})
        state.depth += 1
        if fn.uses_super:
            variables[" class"] = fn.owner
        owner = state.owner
        making = state.making
        if fn.makes is not None:
            state.making = (fn.makes, args)
        if args and fn.owner is not None:
            self_ = args[0]
            if type(self_) is PInstance and not self_.cls.is_node_class:
                state.owner = self_
        elif fn.owner is None and fn.name != "<lambda>":
            state.owner = (owner, fn.name)
        position = state.position
        frame = CallFrame()  # `Frame(variables, fn.closure)` without its __init__ call
        frame.vars = variables
        frame.parent = fn.closure
        frame.ret = None
        try:
            signal = fn.body(frame)
        except ProgramError as error:
            if error.pending is None:
                error.pending = fn.name
            raise
        finally:
            state.depth -= 1
            state.owner = owner
            state.making = making
            state.position = position
        return frame.ret if signal is RETURN else None

    def bind(self, fn: Function, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        params = fn.params
        variables: dict[str, Any] = {}
        if len(args) > len(params) and fn.vararg is None:
            raise too_many_arguments(fn, len(args), kwargs)
        variables.update(zip(params, args, strict=False))
        if fn.vararg is not None:
            rest = args[len(params) :]
            self.state.check_nesting(rest)
            variables[fn.vararg] = tuple(rest)
        extra: dict[str, Any] = {}
        if fn.posonly and kwargs and fn.kwarg is None:
            positional_only(fn, kwargs)
        for name, value in kwargs.items():
            if name in fn.posonly:  # (the function has `**kwargs`: `positional_only`)
                extra[name] = value
            elif name in variables and name != fn.vararg:  # (`f(args=1)` of `f(*args, **kw)`)
                raise ProgramError(
                    f"{qualified(fn)}() got multiple values for argument '{name}'",
                    kind="TypeError",
                )
            elif name in params or name in fn.kwonly:
                variables[name] = value
            elif fn.kwarg is not None:
                extra[name] = value
            else:
                raise ProgramError(
                    f"{qualified(fn)}() got an unexpected keyword argument '{name}'",
                    kind="TypeError",
                )
        first_default = len(params) - len(fn.defaults)
        missing: list[str] = []
        for i, name in enumerate(params):
            if name not in variables:
                if i >= first_default:
                    variables[name] = fn.defaults[i - first_default]
                else:
                    missing.append(name)
        if missing:
            raise missing_arguments(fn, missing, "positional")
        for name in fn.kwonly:
            if name not in variables:
                if name not in fn.kwdefaults:
                    missing.append(name)
                else:
                    variables[name] = fn.kwdefaults[name]
        if missing:
            raise missing_arguments(fn, missing, "keyword-only")
        if fn.kwarg is not None:
            variables[fn.kwarg] = extra
        return variables

    def instantiate(self, cls: PClass, args: list[Any], kwargs: dict[str, Any] | None) -> Any:
        state = self.state
        state.steps += 1  # `state.charge(1)`, inline
        if state.steps > state.next_check:
            state.checkpoint()
        if cls.abstract:
            if type(cls.abstract) is Maker:  # `NamedTuple("Batch", [...])`: a class
                return cls.abstract.make(args, kwargs or {})
            raise ProgramError(
                f"Can't instantiate abstract class {cls.name} with abstract method"
                f"{'s' if len(cls.abstract) > 1 else ''} {', '.join(cls.abstract)}",
                kind="TypeError",
            )
        if not cls.equipped:
            self.equip(cls)
        instance = _bare(PInstance)  # `PInstance(cls)` without its __init__ call
        instance.cls = cls
        attrs = instance.attrs = {} if cls.slots is None else SlotDict(cls)
        instance.reads = NO_READS if cls.shadowed else attrs  # `reads_of`, inline
        instance.mirror = None
        if cls.exception:  # `BaseException.__new__`'s: whatever `__init__` does after
            instance.fields = {"args": tuple(args)}
        own = cls.namespace  # its MRO's first: `lookup`'s answer, sooner
        init = own["__init__"] if "__init__" in own else cls.lookup("__init__")
        if cls.has_properties:  # (a named tuple's class has: its fields are guarded)
            filler = tuple_filler(cls)
            if filler is not None and filler is not init:  # `class Q(Pt): def __init__`
                filler.call([instance, *args], dict(kwargs) if kwargs else {})
        if type(init) is Function:
            if kwargs:
                returned = self.call_function(init, [instance, *args], kwargs)
            else:  # `init.enter`: `call_function`, or its body's own (`codegen._enter`)
                returned = init.enter(init, [instance, *args])
            if returned is not None:  # `return self` in `__init__`: CPython's TypeError
                message = f"__init__() should return None, not '{cpython_type(returned)}'"
                raise ProgramError(message, kind="TypeError")
        elif isinstance(init, NativeMethod):
            init.call([instance, *args], kwargs or {})
        elif init is not MISSING and init is not _OBJECT_INIT:  # `__init__ = 5`, a static
            # method: as CPython calls it (`__init__ = object.__init__` is none of its own)
            returned = self.unbound_dunder(instance, "__init__", init, tuple(args), kwargs)
            if returned is not None:
                message = f"__init__() should return None, not '{cpython_type(returned)}'"
                raise ProgramError(message, kind="TypeError")
        elif (args or kwargs) and not _new_of_its_own(cls):  # (object_init says nothing)
            raise ProgramError(f"{cls.name}() takes no arguments", kind="TypeError")
        shape = cls.shape or find_shape(cls, instance.attrs, self.grad_names, self.leaf_classes)
        if shape is not None and (not self.leaf_classes or self.numbered(instance, shape)):
            cls.shape = shape
            self.recorder.register_instance(instance, args, kwargs)
        return instance

    def numbered(self, instance: PInstance, shape: Shape) -> bool:
        """Whether an object of one of the program's leaf classes (`leaf_classes`) holds
        a number, and so is a leaf: a course's `Variable("a", x * y)` keeps an expression
        as its value, and is no node (as it was before such classes were leaves). Any
        other class's object is a node by its shape alone."""
        if instance.cls.name not in self.leaf_classes:
            return True
        kind = type(instance.attrs.get(shape.number))
        return kind is float or kind is int

    def new_instance(self, cls: PClass, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`C(...)` of a class with its own `__new__` (a singleton's, a cache's): called
        with the class and the arguments, as CPython's `type.__call__` calls it (a static
        method, whether it says so or not); what it gives, when it is an object of `C`,
        then has its class's `__init__` run with the same arguments (again, for an object
        made before: CPython's), and anything else is the result as it is."""
        new = cls.lookup("__new__")
        if type(new) is PStaticMethod:
            new = new.function
        made = self.call(new, [cls, *args], kwargs or None)
        if type(made) is not PInstance or cls not in made.cls.mro:
            return made
        init = made.cls.lookup("__init__")
        if init is not MISSING:
            returned = self.call(self.get_attr(made, "__init__"), args, kwargs or None)
            if returned is not None:  # `return self` in `__init__`: CPython's TypeError
                message = f"__init__() should return None, not '{cpython_type(returned)}'"
                raise ProgramError(message, kind="TypeError")
        shape = made.cls.shape or find_shape(
            made.cls, made.attrs, self.grad_names, self.leaf_classes
        )
        if shape is not None and made.mirror is None and self.numbered(made, shape):
            made.cls.shape = shape
            self.recorder.register_instance(made, args, kwargs)
        return made

    def object_new(self, args: list[Any], kwargs: dict[str, Any]) -> PInstance:
        """`object.__new__(cls)`, `super().__new__(cls)` that reaches it: a new object of
        the program's class `cls`, its `__init__` not run (an exception's, CPython's
        `BaseException.__new__`, keeps the other arguments as its `args`)."""
        if not args:
            raise ProgramError("object.__new__(): not enough arguments", kind="TypeError")
        cls, extra = args[0], args[1:]
        if type(cls) is not PClass:
            if isinstance(cls, TypeObject):
                words = f"object.__new__({cls.name}) is not safe, use {cls.name}.__new__()"
            else:
                words = f"object.__new__(X): X is not a type object ({cpython_type(cls)})"
            raise ProgramError(words, kind="TypeError")
        if cls.builtin or (type(cls.abstract) is Maker and cls.lookup("__new__") is MISSING):
            # `object.__new__(ValueError)`, of an Enum or a named tuple: made otherwise here
            raise ProgramError(f"object.__new__({cls.name}) is not available here")
        if type(cls.abstract) is list and cls.abstract:
            methods = ", ".join(cls.abstract)
            raise ProgramError(
                f"Can't instantiate abstract class {cls.name} with abstract method"
                f"{'s' if len(cls.abstract) > 1 else ''} {methods}",
                kind="TypeError",
            )
        # A named tuple's subclass's `super().__new__(cls, x, y)`: the named tuple's own,
        # which fills the fields (`tuple_filler`), as CPython's `tuple.__new__` does.
        filler = tuple_filler(cls)
        if (extra or kwargs) and not cls.exception and filler is None:
            words = "object.__new__() takes exactly one argument (the type to instantiate)"
            raise ProgramError(words, kind="TypeError")
        self.state.charge(1)
        if not cls.equipped:
            self.equip(cls)
        instance = PInstance(cls)
        if cls.slots is not None:
            instance.attrs = SlotDict(cls)
            instance.reads = reads_of(instance)
        if cls.exception:
            instance.fields = {"args": tuple(extra)}
        if filler is not None:
            filler.call([instance, *extra], dict(kwargs) if kwargs else {})
        return instance

    def hold_units(self) -> None:
        """A run where the objects that made the nodes keep their operands (the
        recorder's `holder_pass`, the "Hacker's guide" gates): `instantiate` (read by
        the compiler, so set before it compiles) also adopts an object holding a number
        and a gradient as a leaf, or as an op of the nodes it keeps (`unit_shape`,
        `Recorder.own_operands`: a tape's node objects), lets the methods of a
        class whose objects are no nodes own the nodes they make (its `is_node_class`,
        from a `backward` method, cleared: `owner_of`), and tells the recorder which node
        such a method made (`made_in_holder`). Every other run's `instantiate` is the
        class's own, untouched."""
        plain = self.instantiate
        recorder = self.recorder
        recorder.hold_units()
        state = self.state
        units: weakref.WeakSet[PClass] = weakref.WeakSet()  # the classes `unit_shape` shaped

        def instantiate(cls: PClass, args: list[Any], kwargs: dict[str, Any] | None) -> Any:
            mark = len(recorder.held_made)
            instance = plain(cls, args, kwargs)
            if type(instance) is not PInstance or cls.builtin or cls.exception:
                return instance
            if instance.mirror is None and cls.shape is None:
                shape = unit_shape(instance.attrs, self.grad_names)
                if shape is None:
                    cls.is_node_class = False  # a gate's methods own what they make
                    if len(recorder.held_made) > mark:
                        recorder.made_in_init(instance, mark)  # its parameters
                    return instance
                cls.shape = shape
                units.add(cls)
                recorder.register_instance(instance, args, kwargs)
            if cls in units:
                recorder.own_operands(instance)  # `Multiply(left, right)` on a tape
            owner = state.owner
            if instance.mirror is not None and type(owner) is PInstance and owner.mirror is None:
                recorder.made_in_holder(owner, instance)
            if instance.mirror is not None and state.making is not None:
                recorder.made_op(instance)  # a Wengert list's record may link it
            return instance

        self.instantiate = instantiate  # type: ignore[method-assign]

    def equip(self, cls: PClass) -> None:
        """How `cls`'s instances hash and compare in sets and dict keys, as in CPython:
        by identity, unless a class of its MRO defines `__hash__` (its code runs) or
        defines `__eq__` without `__hash__` (then the instances are unhashable)."""
        cls.equipped = True
        hash_method: Any = MISSING
        for c in cls.mro:
            if "__hash__" in c.namespace:
                hash_method = c.namespace["__hash__"]
                break
            if c.hash_none:
                hash_method = None  # CPython sets `__hash__ = None` in such a class
                break
        if hash_method is not MISSING and hash_method is not OBJECT_HASH:
            cls.hash_rule = self.hash_rule(cls, self.as_method("__hash__", hash_method))
        eq = self.as_method("__eq__", cls.lookup("__eq__"))
        if type(eq) is Function or type(eq) is NativeMethod:
            truthy = self.truthy

            def eq_rule(instance: PInstance, other: Any) -> Any:
                result = self.call_from_python(eq, [instance, other])
                return NotImplemented if result is NotImplemented else truthy(result)

            cls.eq_rule = eq_rule

    def reequip(self, cls: PClass) -> None:
        """`A.__eq__ = f`, `A.__hash__ = None`, `del A.__eq__` once the class is made: how
        its objects, and its subclasses', hash and compare in sets and dicts made again,
        as CPython's type updates its slots (an object already in a set stays where its
        old hash put it, as in CPython). A step for each class looked at, and one for
        each ten classes of its MRO, which it walks (for `__hash__`, then `__eq__`)."""
        stack, seen = [cls], set()
        while stack:
            c = stack.pop()
            if id(c) in seen:
                continue
            seen.add(id(c))
            self.state.charge(1 + len(c.mro) // ITEMS_PER_STEP)
            if c.equipped:
                c.hash_rule = c.eq_rule = None
                self.equip(c)
            stack.extend(c.subclasses)

    def as_method(self, name: str, method: Any) -> Any:
        """A class's `__hash__` or `__eq__` that is no function (`__hash__ = id`, `__eq__ =
        operator.eq`) as a method of the object, called as `unbound_dunder` calls it, so
        sets and dicts run it as CPython does; anything else as it is."""
        kind = type(method)
        if kind is Function or kind is NativeMethod or method is None or method is MISSING:
            return method
        # (also what is not callable, `__hash__ = 5`: CPython's TypeError when it runs)
        return NativeMethod(
            name, lambda a, k: self.unbound_dunder(a[0], name, method, tuple(a[1:]))
        )

    def hash_rule(self, cls: PClass, method: Any) -> Callable[[PInstance], int]:
        if type(method) is not Function and type(method) is not NativeMethod:

            def unhashable(instance: PInstance) -> int:
                raise ProgramError(f"unhashable type: '{cls.name}'", kind="TypeError")

            return unhashable

        state = self.state

        def hashed(instance: PInstance) -> int:
            # Whether the value hangs on a string's or an identity's hash (different in
            # every CPython run): `hash()` and `id()` say so in `state.hash_taint`.
            outer = state.hash_taint
            state.hash_taint = False
            try:
                result = self.call_from_python(method, [instance])
            finally:
                tainted = state.hash_taint
                state.hash_taint = outer or tainted
            if type(result) is not int and type(result) is not bool:
                raise ProgramError("__hash__ method should return an integer", kind="TypeError")
            instance.hashed = None if tainted else int(result)  # a set's order (PSet)
            return int(result)  # Python folds one past 64 bits as CPython's `hash` does

        return hashed

    def call_from_python(self, method: Function | NativeMethod, args: list[Any]) -> Any:
        """A program's `__hash__` or `__eq__` called by Python's own set, dict or list code.

        Python's C code (hashing a tuple, comparing in a dict) takes C stack the
        interpreter's depth limits do not see, so these callbacks nest at most
        `MAX_CALLBACK_DEPTH` deep: `hash(t)` inside a `__hash__` inside a nested tuple
        ... is refused, not a crash of the process: CPython's RecursionError, which the
        program may catch (the nesting never passes the bound)."""
        state = self.state
        if state.callbacks >= MAX_CALLBACK_DEPTH:
            error = state.limits.exceeded(
                "max_depth", "hashing or comparing in a container nests too deeply"
            )
            failed = ProgramError(error.message, kind="RecursionError")
            failed.args_seen = ("maximum recursion depth exceeded",)
            raise failed
        state.callbacks += 1
        try:
            return self.call_method(method, args)
        finally:
            state.callbacks -= 1

    def call_method(self, method: Function | NativeMethod, args: list[Any]) -> Any:
        if isinstance(method, Function):
            return method.enter(method, args)
        return method.call(args, {})

    def call_dunder(self, instance: PInstance, name: str, *args: Any) -> Any:
        method = instance.cls.lookup(name)
        if type(method) is Function:
            return method.enter(method, [instance, *args])
        if type(method) is NativeMethod:
            return method.call([instance, *args], {})
        if method is MISSING:
            mro = len(instance.cls.mro)
            if mro >= ITEMS_PER_STEP:  # (each class's names looked in: `deep_lookup`)
                self.state.charge(mro // ITEMS_PER_STEP)
            return NO_METHOD
        return self.unbound_dunder(instance, name, method, args)

    def index_of(self, value: PInstance) -> Any:
        """An object's own `__index__` (`xs[i]`, `range(n)` of an object defining it): the
        int it gives, CPython's TypeError for anything else; NO_METHOD where its class
        has none."""
        result = self.call_dunder(value, "__index__")
        if type(result) is int or result is NO_METHOD:
            return result
        if type(result) is bool:  # (CPython's DeprecationWarning, then the int)
            return int(result)
        words = f"__index__ returned non-int (type {cpython_type(result)})"
        raise ProgramError(words, kind="TypeError")

    def unbound_dunder(
        self,
        instance: PInstance,
        name: str,
        method: Any,
        args: tuple[Any, ...],
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        """An operator method that is no function of the class (`__add__ = max`, a
        `setattr(C, '__neg__', abs)`): CPython calls it without the object, as a built-in
        binds to none (`a + b` is `max(b)`), a static method so too and a class method with
        the class first; a method of a built-in type's (`int.__add__`) is a descriptor,
        bound. `__add__ = None` is CPython's TypeError (but where None means "none": an
        `__iter__`, `__contains__` or `__hash__` of None); a property read off the object
        and what it gives called; anything else called as it is, so what is not callable
        is CPython's TypeError (`__len__ = 5`: `'int' object is not callable`)."""
        kind = type(method)
        if kind is TypeMethod or kind is NativeMethod or method is OBJECT_HASH:
            given, function = [instance, *args], method  # a descriptor: bound
        elif kind is PStaticMethod:
            given, function = list(args), method.function
        elif kind is PClassMethod:
            given, function = list(args), self.class_bound(method.function, instance.cls)
        elif kind is BoundMethod or kind is PClass or isinstance(method, Builtin):
            given, function = list(args), method
        elif method is None:
            if name in _NONE_MEANS_NO_METHOD:
                return NO_METHOD
            raise ProgramError("'NoneType' object is not callable", kind="TypeError")
        elif kind is PProperty and method.fget is not None:
            # `__eq__ = property(...)`: read off the object, then what it gives is called
            given, function = list(args), self.call(method.fget, [instance])
        else:  # `__len__ = 5`: CPython's TypeError (`'int' object is not callable`), or an
            given, function = list(args), method  # object of the program's `__call__`
        # A call of the program's, counted as one: `__call__ = partial(obj)` of the object
        # itself calls it again and again with no function of the program's in between.
        state = self.state
        if state.depth >= state.max_call_depth:
            raise too_deep(state, "calls are nested too deeply (recursion)")
        state.depth += 1
        try:
            return self.call(function, given, kwargs)
        finally:
            state.depth -= 1

    # Attributes

    def get_attr(self, obj: Any, name: str) -> Any:
        kind = type(obj)
        if kind is PInstance:
            attrs = obj.reads
            if name in attrs:
                return attrs[name]
            if attrs is not obj.attrs:
                return self.shadowed_attr(obj, name)
            return self.class_attr_of(obj, name)
        if kind is Value:
            if name == "data":
                return obj.data
            if name == "grad":
                return obj.grad
            return self.value_attr(obj, name)
        if kind is PModule:
            if name.startswith("_") or name not in obj.members:
                made_as = obj.members.get(LOG_KIND)  # `logging`'s, named by the program
                if made_as is not None:
                    what = f"the logger '{obj.name}'" if made_as == "Logger" else f"a {made_as}"
                    raise ProgramError(f"{what} has no attribute '{name}' here")
                # `os.listdir`: a refusal naming it, which no `except` catches
                raise module_miss(obj.name, name)
            return obj.members[name]
        if kind is TextBuffer:  # an `io.StringIO()`: its methods only
            member = None if name.startswith("_") else obj.member(name)
            if member is not None:
                return member
            if name in _STRING_IO_NAMES:  # `b.closed`, `b.readlines`: CPython's has them
                raise ProgramError(f"io.StringIO's {name} is not available here")
            missing = f"'_io.StringIO' object has no attribute '{name}'"
            raise ProgramError(missing, kind="AttributeError")
        if kind is PClass:
            return self.class_attr(obj, name)
        if kind is PProperty:
            return self.property_attr(obj, name)
        if name == "__name__":
            named = _plain_name(obj)
            if named is not MISSING:
                return named
        if name in CLASS_FACTS:
            return self.other_fact(obj, name)
        if kind is PSuper:
            return self.super_attr(obj, name)
        table = self.methods.get(kind)
        if table is not None and name in table:
            return table[name](obj)
        if kind is TypeObject:  # `dict.fromkeys`, `str.lower`
            if name in obj.members:
                return obj.members[name]
            member = self.type_member(obj, name)
            if member is not MISSING:
                return member
        if kind in NUMBERS and name in ("backward", "data", "grad", *FUNCTIONS):
            # Uncaught, a hint; caught (`hasattr(x, 'data')`), CPython's AttributeError.
            error = ProgramError(
                f"'{type_name(obj)}' object has no attribute '{name}' here: {_PLAIN_NUMBER_HINT}",
                kind="AttributeError",
            )
            error.args_seen = (f"'{type_name(obj)}' object has no attribute '{name}'",)
            raise error
        return self.other_attr(obj, name)

    def other_attr(self, obj: Any, name: str) -> Any:
        """`get_attr` of what has no attribute table of its own: `sys.stdout`'s few
        members, else CPython's AttributeError where CPython has none either."""
        kind = type(obj)
        if kind is Function and not is_dunder(name):  # what the program set on it, only
            found = getattr(obj, "attrs", {}).get(name, MISSING)
            if found is MISSING:
                words = f"'function' object has no attribute '{name}'"
                raise ProgramError(words, kind="AttributeError")
            return found
        if kind is Stream:  # `sys.stdout.reconfigure(...)`
            return _stream_member(obj, name)
        if name == "__call__":  # `f.__call__`: a function's, a built-in's (builtin_dunders)
            found = call_method(self, obj)
            if found is not None:
                return found
        method = container_dunder(self, kind, name)
        if method is not None:  # `xs.__len__`: the operation itself (builtin_dunders)
            return bound_dunder(name, method, obj)
        if kind is Partial and not is_dunder(name):  # CPython's AttributeError, caught
            words = f"'functools.partial' object has no attribute '{name}'"
            raise ProgramError(words, kind="AttributeError")
        python_type = PYTHON_TYPES.get(kind)
        if python_type is not None and not hasattr(set() if kind is PSet else obj, name):
            # CPython has no such attribute either: its AttributeError, caught as one.
            shown = python_type.__name__
            if self.collections and (
                kind is dict or kind is list
            ):  # 'Counter', 'collections.deque'
                shown = kinds.QUALIFIED.get(kinds.kind_of(self.collections, obj) or "", shown)
            raise ProgramError(f"'{shown}' object has no attribute '{name}'", kind="AttributeError")
        if name == "__args__":  # (a union's and a generic alias's: `Library.annotation_args`)
            words = (
                f"type object '{obj.name}' has no attribute '{name}'"
                if kind is TypeObject
                else f"'{cpython_type(obj)}' object has no attribute '{name}'"
            )
            raise ProgramError(words, kind="AttributeError")
        if isinstance(obj, Builtin) and not name.startswith("_"):
            missing = _host_has_no(self.host_twin(obj), name)
            if missing is not None:  # `getattr(len, 'x', 0)`: CPython's AttributeError
                raise ProgramError(missing, kind="AttributeError")
        raise ProgramError(f"'{type_name(obj)}' object has no attribute '{name}' here")

    def host_twin(self, obj: Builtin) -> Any:
        """CPython's object that the engine's built-in `obj` stands for, or None: found by
        `obj` itself among the built-ins and the members of the modules made so far that
        CPython's modules are asked about (`_HOST_MODULES`), else by its engine-made dotted
        name (`random.uniform` of a `random.Random(1)`, `dict.fromkeys`); never by a name
        the program chose (a cached `def sqrt`, a list's `copy`: None), and never from
        what the host process happened to import (the same program, the same trace)."""
        table = self.module_table
        made = table.made() if table is not None else {}
        size = sum(len(module.members) for module in made.values())  # (a module made, or
        if self.host_twins_of != size:  # a member the library adds to one since)
            twins: dict[int, tuple[Any, Any]] = {}
            for module_name, module in made.items():
                if module_name == "builtins" or module_name in _HOST_MODULES:
                    host = (
                        _host_builtins
                        if module_name == "builtins"
                        else importlib.import_module(module_name)
                    )
                    for member, value in module.members.items():
                        if isinstance(value, Builtin) and id(value) not in twins:
                            twins[id(value)] = (value, getattr(host, member, None))
            self.host_twins, self.host_twins_of = twins, size
        held = self.host_twins.get(id(obj))
        if held is not None and held[0] is obj:
            return held[1]
        head, dot, member = obj.name.partition(".")
        if not dot or not member.isidentifier() or member.startswith("_"):
            return None
        if head in _HOST_MODULES:
            return getattr(importlib.import_module(head), member, None)
        kind = getattr(_host_builtins, head, None)
        return getattr(kind, member, None) if type(kind) is type else None

    def shadowed_attr(self, obj: PInstance, name: str) -> Any:
        """`get_attr` of an instance whose class has a property: the property first, then
        the instance's own attribute, then the class's (CPython's order)."""
        found = obj.cls.lookup(name)
        hidden = (type(found) is PProperty and found.data) or (
            is_data_descriptor(found) and is_descriptor(found)
        )
        if name in obj.attrs and not hidden:
            return obj.attrs[name]
        return self.class_attr_of(obj, name)

    def class_attr_of(self, obj: PInstance, name: str) -> Any:
        """`get_attr` of an instance's attribute that is not its own: its class's."""
        if name == "__hash__" and hash_is_none(obj.cls):
            return None  # `__eq__` without `__hash__`: CPython's `__hash__ = None`
        cls = obj.cls
        found = cls.namespace.get(name, MISSING)
        if found is MISSING:  # its bases', looked for class by class (`deep_lookup`)
            found = self.deep_lookup(cls, name)
        kind = type(found)
        if kind is Function:
            return BoundMethod(found, obj)
        if kind is PProperty:
            return self.described(obj, name, found.fget, [obj])
        if kind is NativeMethod:
            return bind_native(found, obj)
        if kind is PStaticMethod:
            return found.function
        if kind is PClassMethod:
            return self.class_bound(found.function, obj.cls)
        if found is OBJECT_HASH:  # `__hash__ = object.__hash__`, read off an object: bound
            return self.object_method(obj, name)
        if found is _OBJECT_INIT:  # `C.__init__ = object.__init__`, read off one: bound
            return self.object_method(obj, "__init__")
        if kind is PInstance and is_descriptor(found):  # a descriptor of the program's
            return self.described(obj, name, self.get_attr(found, "__get__"), [obj, obj.cls])
        if found is not MISSING:
            return found
        mro = len(obj.cls.mro)
        if mro >= ITEMS_PER_STEP:  # a miss looks in each class's names again (`__getattr__`)
            self.state.charge(mro // ITEMS_PER_STEP)
        if name in _OBJECT_METHODS:  # `a.__eq__`: object's own, found before `__getattr__`
            return self.object_method(obj, name)
        if name == "__module__" or name == "__doc__":  # its class's
            return self.class_fact(obj.cls, name)
        if name == "__annotations__":  # the first of its classes' with annotations
            annotated = next((c for c in obj.cls.mro if HINTS in c.namespace), None)
            if annotated is not None:
                return class_annotations(self, annotated)
        fallback = obj.cls.lookup("__getattr__")  # called when the lookup fails, as CPython
        if type(fallback) is Function:
            return self.call_function(fallback, [obj, name])
        if fallback is not MISSING:  # `__getattr__ = 5`, a built-in: as CPython calls it
            return self.unbound_dunder(obj, "__getattr__", fallback, (name,))
        plain = enum_mixin_value(obj)
        if plain is not obj and any(name in k.__dict__ for k in type(plain).__mro__):
            return self.get_attr(plain, name)  # an IntEnum's or a StrEnum's member: `.upper()`
        raise ProgramError(
            f"'{obj.cls.name}' object has no attribute '{name}'", kind="AttributeError"
        )

    def described(self, obj: PInstance, name: str, getter: Any, args: list[Any]) -> Any:
        """An attribute of `obj` a property's getter or a descriptor's `__get__` gives
        (`getter` called with `args`); its AttributeError calls the class's own
        `__getattr__` next, as CPython's."""
        try:
            return self.call(getter, args)
        except ProgramError as error:
            fallback = obj.cls.lookup("__getattr__")
            wanted = self.exceptions.get("AttributeError")
            if type(fallback) is not Function or wanted is None:
                raise
            if not error_matches(error, wanted, self.exceptions):
                raise
            return self.call_function(fallback, [obj, name])

    def descriptor_call(self, descriptor: PInstance, method: str, args: list[Any]) -> None:
        """A data descriptor's `__set__(obj, value)` or `__delete__(obj)`; one its class
        lacks is CPython's AttributeError, which names the method."""
        if descriptor.cls.lookup(method) is MISSING:
            raise ProgramError(method, kind="AttributeError")
        self.call(self.get_attr(descriptor, method), args)

    def getattr_fallback(self, obj: PInstance, name: str) -> Any:
        """`obj.__getattr__(name)` of its class's own, as CPython calls it when the
        lookup fails (`hasattr(p, '__len__')` of a proxy too)."""
        fallback = obj.cls.lookup("__getattr__")
        if type(fallback) is Function:
            return self.call_function(fallback, [obj, name])
        return self.unbound_dunder(obj, "__getattr__", fallback, (name,))

    def object_method(self, obj: PInstance, name: str) -> Any:
        """`a.__eq__`, `a.__ne__`, `a.__hash__`, `a.__repr__`, `a.__str__`, `a.__init__` of an
        object whose class does not define it: `object`'s method, bound, as CPython's."""
        if name == "__hash__" and hash_is_none(obj.cls):
            return None  # a class defining `__eq__` alone is unhashable: CPython's None

        def method(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if name == "__init__":  # `d.__init__()` of a class with none of its own
                return object_init(obj, args, kwargs)
            _object_method_arguments(name, args, kwargs)
            if name == "__eq__":
                return True if args[0] is obj else NotImplemented
            if name == "__ne__":
                return self.object_ne(obj, args[0])
            if name == "__hash__":
                self.state.hash_taint = True  # an identity's hash
                if not obj.cls.equipped:
                    self.equip(obj.cls)
                return hash(obj)
            return self.texts.to_repr(obj) if name == "__repr__" else self.texts.to_str(obj)

        return Builtin(name, method)

    def object_ne(self, obj: PInstance, other: Any) -> Any:
        """`object.__ne__`: the class's `__eq__` (its own or object's), inverted."""
        own = obj.cls.lookup("__eq__")
        if own is MISSING:
            return NotImplemented if other is not obj else False
        result = self.call(self.get_attr(obj, "__eq__"), [other])
        return result if result is NotImplemented else not self.truthy(result)

    def value_attr(self, obj: Value, name: str) -> Any:
        """`get_attr` of an engine Value's attribute other than `data` and `grad`."""
        if name == "label":
            return obj.label
        if name == "_op":
            return obj._op
        if name == "_prev":  # micrograd's `set(_children)`: `set()` for a leaf, `a * a` has {a}
            return PSet(obj._prev)
        if name in FUNCTIONS:
            return Builtin(name, lambda args, kwargs: self.value_method(obj, name, args))
        if name == "backward":
            return Builtin(name, lambda args, kwargs: self.value_backward(obj, args, kwargs))
        if name == "_backward":
            return self.node_rule(obj)
        raise ProgramError(f"a Value has no attribute '{name}' that programs can use")

    def node_rule(self, node: Value) -> NodeRule:
        """`v._backward`, the node's rule, the same object each time it is read (as
        micrograd's closure is): called, it runs as one called by hand."""
        rule = self.node_rules.get(node)
        if rule is None:
            name = rule_name(node)

            def call(args: list[Any], kwargs: dict[str, Any]) -> None:
                if kwargs:
                    word = next(iter(kwargs))
                    raise _closure_type_error(
                        f"{name}() got an unexpected keyword argument '{word}'"
                    )
                if args:
                    count = len(args)
                    raise _closure_type_error(
                        f"{name}() takes 0 positional arguments but {count} "
                        f"{'was' if count == 1 else 'were'} given"
                    )
                self.recorder.engine_rule(node)

            rule = self.node_rules[node] = NodeRule(name, call, node)
        return rule

    def class_fact(self, cls: PClass, name: str) -> Any:
        """`C.__qualname__`, `C.__module__`, `C.__doc__` (its docstring, None without
        one: not a base's) and `C.__annotations__` (its body's own, `{}` where it has none,
        as CPython 3.11's)."""
        if name == "__qualname__":
            return cls.qualname
        if name == "__module__":
            module = self.texts.class_modules.get(cls)  # `abc.ABC`, `graphlib.CycleError`
            if module is not None:
                return module[:-1]
            return "builtins" if cls.builtin else "__main__"
        if name == "__doc__":
            if cls.builtin:  # `ValueError.__doc__`: CPython's own text
                return getattr(getattr(_host_builtins, cls.name, None), "__doc__", None)
            return cls.doc
        return class_annotations(self, cls)

    def other_fact(self, obj: Any, name: str) -> Any:
        """`f.__qualname__`, `f.__module__`, `f.__doc__` (its docstring as written, None
        without one) and `f.__annotations__` of a function of the program's (what
        `functools.wraps` copied: the wrapped function's); the facts of what is not the
        program's class, object or function are refused."""
        kind = type(obj)
        function = obj.function if kind is BoundMethod else obj
        if type(function) is Function:
            if name == "__qualname__":
                return function.qualname
            if name == "__module__":
                return "__main__"
            source = getattr(function, "wrapped", function)
            if name == "__doc__":
                return self.function_docs.get(source.span) if source.span != (0, 0) else None
            return function_annotations(self, source)
        raise ProgramError(
            f"`.{name}` is read here of the program's classes and functions, not of {a_type(obj)}"
        )

    def deep_lookup(self, cls: PClass, name: str) -> Any:
        """`cls.lookup(name)` of a name not in its own namespace, charged a step per ten
        classes of its MRO, where it has ten or more: the walk is Python's, a class at a
        time (`a.x` found at the root of a chain 190 deep took 1.7 µs a step, past the time
        limit before the step bound; CPython's is one look in a cache)."""
        mro = len(cls.mro)
        if mro >= ITEMS_PER_STEP:
            self.state.charge(mro // ITEMS_PER_STEP)
        return cls.lookup(name)

    def class_attr(self, obj: PClass, name: str) -> Any:
        """`get_attr` of a program's class."""
        if name == "__hash__" and hash_is_none(obj):
            return None  # `V.__hash__ is None` for a class defining `__eq__` alone
        found = obj.namespace.get(name, MISSING)
        if found is MISSING:
            found = self.deep_lookup(obj, name)
        if found is MISSING:
            if name == "__name__":
                return obj.name
            if name == "__members__" and any(ENUM_KEY in c.namespace for c in obj.mro):
                self.state.charge(len(obj.namespace) // ITEMS_PER_STEP)  # (each name read)
                return enum_member_map(obj)  # `Op.__members__`, aliases too
            if name in CLASS_FACTS:  # `C.__qualname__`, `C.__annotations__`…
                return self.class_fact(obj, name)
            if name == "__mro__":  # its classes, `object` last: the program's and ours
                self.state.charge(len(obj.mro) // ITEMS_PER_STEP)
                kept = self.full_mros.get(obj)  # (the same tuple each time, as CPython's)
                if kept is None:
                    last = self.object_class
                    mro = [self.mixin_types.get(id(c), c) for c in obj.mro]  # `str`, not ours
                    tail = () if last is None or obj.mro[-1] is last else (last,)
                    kept = self.full_mros[obj] = (*mro, *tail)
                return kept
            if name == "__init__":  # `object.__init__(self)`, `D.__init__(d)`: object's
                return _OBJECT_INIT
            if name == "__setattr__":  # `object.__setattr__(self, name, value)`
                return Builtin("__setattr__", self.object_setattr)
            if name == "__delattr__":  # `object.__delattr__(self, name)`
                return Builtin("__delattr__", self.object_delattr)
            if name == "__new__":  # `object.__new__(cls)`
                return Builtin("__new__", self.object_new)
            if name == "__hash__":  # `__hash__ = object.__hash__`: hashed by identity
                return OBJECT_HASH
            raise ProgramError(
                f"type object '{obj.name}' has no attribute '{name}'", kind="AttributeError"
            )
        if type(found) is PStaticMethod:
            return found.function
        if type(found) is PClassMethod:
            return self.class_bound(found.function, obj)
        if type(found) is NativeMethod:
            if name == "__init__" and found is tuple_filler(obj):
                return _OBJECT_INIT  # a named tuple's, CPython's `object.__init__` in the slot
            return unbound_native(found, obj)
        if type(found) is PInstance and is_descriptor(found):  # `__get__(None, cls)`
            return self.call(self.get_attr(found, "__get__"), [None, obj])
        return found

    def class_bound(self, function: Any, cls: PClass) -> Any:
        """A class method read off its class or an object: bound to the class. A
        BoundMethod holds a program's function only (`call` enters it); anything else a
        class method wraps (a named tuple's `_make`, `classmethod(len)`) is called through
        `call` with the class first."""
        if type(function) is Function:
            return BoundMethod(function, cls)
        name = function.name if isinstance(function, Builtin) else "method"
        return Builtin(name, lambda args, kwargs: self.call(function, [cls, *args], kwargs))

    def class_view(self, cls: PClass) -> MappingProxyType[str, Any]:
        """`C.__dict__` and `vars(C)` of a program's class (`objects.class_dict`): a step
        per ten attributes; its built-in methods as read off the class (`unbound_native`:
        `D.__dict__['__repr__'](1)` is refused, not run on what it cannot read), the same
        one each time, so two views of a class compare equal."""
        self.state.charge(len(cls.namespace) // ITEMS_PER_STEP)
        annotated = class_annotations(self, cls) if HINTS in cls.namespace else None
        return class_dict(cls, self.native_view, annotated)

    def native_view(self, method: NativeMethod, cls: PClass) -> Builtin:
        key = (id(method), id(cls))
        if key not in self.native_views:
            self.native_views[key] = unbound_native(method, cls)
        return self.native_views[key]

    def object_setattr(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        """`object.__setattr__(obj, name, value)`: the write itself, past any class's own
        `__setattr__` (which calls it to write)."""
        if kwargs or len(args) != 3:
            words = f" expected 2 arguments, got {len(args) - 1}"  # (CPython's leading space)
            if kwargs:
                words = "wrapper __setattr__() takes no keyword arguments"
            elif not args:
                words = "descriptor '__setattr__' of 'object' object needs an argument"
            raise ProgramError(words, kind="TypeError")
        obj, name, value = args
        if type(name) is not str:
            message = f"attribute name must be string, not '{cpython_type(name)}'"
            raise ProgramError(message, kind="TypeError")
        if type(obj) is PClass or isinstance(obj, TypeObject):
            message = "can't apply this __setattr__ to type object"
            raise ProgramError(message, kind="TypeError")
        if type(obj) is not PInstance:
            message = f"'{cpython_type(obj)}' object has no attribute '{name}'"
            raise ProgramError(message, kind="AttributeError")
        if is_dunder(name):  # as `setattr` refuses them
            raise ProgramError("object.__setattr__(): dunder attributes are not available here")
        if name.startswith(" "):  # the interpreter keeps its own entries under such names
            raise ProgramError(f"no attribute is named {name!r} here", kind="AttributeError")
        # Past a frozen dataclass's refusal too, as CPython's (its `__post_init__` sets a
        # field so).
        self.set_attr(obj, name, value, hook=False, initial=True)

    def object_delattr(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        """`object.__delattr__(obj, name)`: the deletion itself, past any class's own
        `__delattr__` (which calls it to delete)."""
        if kwargs or len(args) != 2:
            words = f"expected 1 argument, got {len(args) - 1}"
            if kwargs:
                words = "wrapper __delattr__() takes no keyword arguments"
            elif not args:
                words = "descriptor '__delattr__' of 'object' object needs an argument"
            raise ProgramError(words, kind="TypeError")
        obj, name = args
        if type(name) is not str:
            message = f"attribute name must be string, not '{cpython_type(name)}'"
            raise ProgramError(message, kind="TypeError")
        if type(obj) is PClass or isinstance(obj, TypeObject):
            raise ProgramError("can't apply this __delattr__ to type object", kind="TypeError")
        if is_dunder(name) or name.startswith(" "):  # as `delattr` refuses them
            raise ProgramError("object.__delattr__(): dunder attributes are not available here")
        self.del_attr(obj, name, hook=False)

    def set_class_attr(self, cls: PClass, name: str, value: Any) -> None:
        """`C.x = v`, `setattr(C, 'x', v)` of a program's class (`object` and the built-in
        exceptions take none); a new `__eq__` or `__hash__` is followed (`reequip`), a
        property read first by its objects from then on."""
        if cls.builtin:
            raise immutable_type(name, cls.name)
        if type(value) is PartialMethod:  # `setattr(Tensor, 'mul', partialmethod(...))`
            value = value.method
        if name == "__new__":  # (a class's own `__new__` is read when the class is made)
            raise ProgramError("setting `__new__` of a class once it is made is not done here")
        cls.namespace[name] = value
        if name == "__eq__" or name == "__hash__":
            if name == "__hash__":
                cls.hash_none = False  # (its own now, in the place of CPython's None)
            self.reequip(cls)
        if type(value) is PProperty or is_data_descriptor(value):
            # its instances made from now on read it first
            cls.has_properties = True
            self.state.charge(sum(len(c.namespace) for c in cls.mro) // ITEMS_PER_STEP)
            cls.find_properties()

    def del_class_attr(self, cls: PClass, name: str) -> None:
        """`del C.x`, `delattr(C, 'x')`: the class's own attribute removed, as CPython's
        (its AttributeError when the class itself has none, its TypeError of a built-in
        class); a property's removal is seen as its setting is. Not of a dunder (the
        methods a class was equipped with stay), nor of an Enum's member."""
        self.state.charge(1)
        if cls.builtin:
            raise immutable_type(name, cls.name)
        if (is_dunder(name) and name not in _REEQUIPPED) or name.startswith(" "):
            raise ProgramError(f"deleting a class's attribute {name!r} is not available here")
        if any(ENUM_KEY in c.namespace for c in cls.mro):
            raise ProgramError(f"deleting an Enum's attribute ('{name}') is not available here")
        if name == "__hash__" and cls.hash_none and name not in cls.namespace:
            cls.hash_none = False  # CPython's `__hash__ = None` deleted: object's again
            self.reequip(cls)
            return
        if name not in cls.namespace:
            words = f"type object '{cls.name}' has no attribute '{name}'"
            failed = ProgramError(words, kind="AttributeError")
            failed.args_seen = (words,)
            raise failed
        removed = cls.namespace.pop(name)
        if name in _REEQUIPPED:
            self.reequip(cls)
        if type(removed) is PProperty or is_data_descriptor(removed):
            # its instances' reads look at it no longer
            self.state.charge(sum(len(c.namespace) for c in cls.mro) // ITEMS_PER_STEP)
            cls.find_properties()

    def del_attr(self, obj: Any, name: str, hook: bool = True) -> None:
        """`del obj.name` of an object of the program's: its property's deleter, its
        class's own `__delattr__`, or its own attribute removed (CPython's AttributeError
        when it has none); a graph node's number, gradient and operands stay (the trace
        reads them), and anything not the program's own object is refused."""
        if type(obj) is PClass:
            self.del_class_attr(obj, name)
            return
        if isinstance(obj, TypeObject) and (not obj.types or obj.name in _BUILTIN_TYPES):
            raise immutable_type(name, _BUILTIN_TYPES.get(obj.name, obj.name))  # `del int.x`
        if type(obj) is Value:
            raise ProgramError(f"deleting a Value's attribute ('{name}') is not available here")
        if type(obj) is PModule:  # (CPython deletes it: refused as a write is)
            raise ProgramError(module_write_refused(obj, name, "deleting"))
        if type(obj) is Stream:
            raise ProgramError(stream_write_refused(name, "deleting"))
        if type(obj) is Function and name in getattr(obj, "attrs", ()):
            del obj.attrs[name]  # what the program set on it
            return
        if type(obj) is not PInstance:  # Python's own values take no attributes of a program's
            plain = self.plain_value_attr_error(obj, name, MISSING)
            if plain is not None:
                raise plain
            words = f"'{cpython_type(obj)}' object has no attribute '{name}'"
            failed = ProgramError(words, kind="AttributeError")
            failed.args_seen = (words,)
            raise failed
        cls = obj.cls
        own = cls.lookup("__delattr__")
        if hook and type(own) is Function:  # (not for `object.__delattr__`, which it calls)
            self.call_function(own, [obj, name])
            return
        if cls.has_properties:
            if cls.lookup(FROZEN) is True:
                raise ProgramError(f"cannot delete field '{name}'", kind="FrozenInstanceError")
            if is_tuple_field(cls, name):  # a named tuple's field
                raise ProgramError("can't delete attribute", kind="AttributeError")
            if (name == "value" or name == "name") and cls.lookup(ENUM_KEY) is not MISSING:
                raise enum_field_error("delete", name)
            prop = cls.lookup(name)
            if type(prop) is PProperty:
                if prop.fdel is None:
                    raise ProgramError(
                        f"property '{name}' of '{cls.name}' object has no deleter",
                        kind="AttributeError",
                    )
                self.call(prop.fdel, [obj])
                return
            if is_data_descriptor(prop):
                self.descriptor_call(prop, "__delete__", [obj])
                return
        shape = cls.shape
        if (
            obj.mirror is not None
            and shape is not None
            and name in (shape.grad, shape.number, shape.operands, shape.second)
            # tinygrad's `del t0._ctx` once its rule ran: the record of the op that made
            # the node, its operands already read when it was made (the graph stays drawn)
            and not (shape.held and name == shape.operands)
        ):
            raise ProgramError(f"deleting a graph node's '{name}' is not available here")
        if name not in obj.attrs:
            missing = ProgramError(
                f"'{cls.name}' object has no attribute '{name}'", kind="AttributeError"
            )
            if cls.slots and name in cls.slots:  # an empty slot: CPython says its name
                missing.args_seen = (name,)
            raise missing
        del obj.attrs[name]

    def property_attr(self, obj: PProperty, name: str) -> Any:
        """`get_attr` of a property: its `setter`, `getter` and `deleter` decorators."""
        if name in ("setter", "getter", "deleter"):
            prop = obj
            return Builtin(
                name,
                lambda args, kwargs: (
                    PProperty(prop.fget, args[0], prop.fdel)
                    if name == "setter"
                    else PProperty(prop.fget, prop.fset, args[0])
                    if name == "deleter"
                    else PProperty(args[0], prop.fset, prop.fdel)
                ),
            )
        raise ProgramError(f"a property has no attribute '{name}' here")

    def super_attr(self, obj: PSuper, name: str) -> Any:
        """`get_attr` of `super()`: the first class after the owner in the mro that has it,
        bound as CPython binds it: a method to the object, a class method to its class; in
        a class method (`super()` of the class itself) a plain function as it is, but
        `__init_subclass__`, a class method whether it says so or not."""
        target = obj.self
        of_class = type(target) is PClass
        owner_of: PClass = target if isinstance(target, PClass) else target.cls
        mro = owner_of.mro
        start = mro.index(obj.owner) + 1 if obj.owner in mro else len(mro)
        for cls in mro[start:]:
            if name in cls.namespace:
                found = cls.namespace[name]
                if type(found) is NativeMethod:
                    return bind_native(found, obj.self)
                if found is _OBJECT_INIT and type(target) is PInstance:  # `= object.__init__`
                    return self.object_method(target, "__init__")
                if type(found) is PClassMethod:
                    return self.class_bound(found.function, owner_of)
                if type(found) is PStaticMethod:
                    return found.function
                if type(found) is Function and (not of_class or name == "__init_subclass__"):
                    return BoundMethod(found, obj.self)
                return found
            if ENUM_MIXIN_KEY in cls.namespace and not of_class:  # `str` in `Op(str, Enum)`
                plain = enum_mixin_value(target)
                table = self.methods.get(type(plain))
                # (a number's `__str__` is no method of its own type's in CPython, but
                # object's, found past Enum's: `super().__str__()` of `L(int, Enum)` is 'L.A')
                if (
                    table is not None
                    and name in table
                    and (name != "__str__" or type(plain) is str)
                ):
                    return table[name](plain)  # `super().upper()`: the member's str's own
                method = container_dunder(self, type(plain), name)
                if method is not None:  # `super().__getitem__(0)`
                    return bound_dunder(name, method, plain)
        if name == "__init__":  # `super().__init__()` that reaches `object`'s: nothing to do
            return Builtin(
                "object.__init__", lambda args, kwargs: object_init(target, args, kwargs)
            )
        if name == "__new__":  # `super().__new__(cls)` that reaches `object`'s
            return Builtin("object.__new__", self.object_new)
        if name == "__init_subclass__":  # object's, which takes no keywords
            return Builtin(
                "object.__init_subclass__",
                lambda args, kwargs: _object_init_subclass(owner_of.name, args, kwargs),
            )
        if name == "__setattr__":  # `super().__setattr__(name, value)` that reaches object's
            self_ = obj.self
            return Builtin("__setattr__", lambda a, k: self.object_setattr([self_, *a], k))
        if name == "__delattr__":  # `super().__delattr__(name)` that reaches object's
            self_ = obj.self
            return Builtin("__delattr__", lambda a, k: self.object_delattr([self_, *a], k))
        raise ProgramError(f"'super' object has no attribute '{name}'", kind="AttributeError")

    def guarded_write(
        self, obj: PInstance, name: str, value: Any, hook: bool, initial: bool
    ) -> bool:
        """`set_attr` of an object whose class looks before it writes (`has_properties`):
        refused (an `object()`, a frozen dataclass, a named tuple's field), or done by its
        class's own `__setattr__` or a property's setter (True); else False, a plain write."""
        cls = obj.cls
        if is_bare_object(obj):
            raise ProgramError(f"'object' object has no attribute '{name}'", kind="AttributeError")
        if not initial and cls.lookup(FROZEN) is True:
            raise ProgramError(f"cannot assign to field '{name}'", kind="FrozenInstanceError")
        if hook:
            own = cls.lookup("__setattr__")
            if type(own) is Function:
                self.call_function(own, [obj, name, value])
                return True
        if is_tuple_field(cls, name):  # a named tuple's field: CPython's `_tuplegetter`'s
            raise ProgramError("can't set attribute", kind="AttributeError")
        if (name == "value" or name == "name") and cls.lookup(ENUM_KEY) is not MISSING:
            raise enum_field_error("set", name)  # `Op.ADD.value = 5`
        prop = cls.lookup(name)
        if type(prop) is PProperty:
            if prop.fset is None:
                raise ProgramError(
                    f"property '{name}' of '{cls.name}' object has no setter",
                    kind="AttributeError",
                )
            self.call(prop.fset, [obj, value])
            return True
        if is_data_descriptor(prop):  # a descriptor of the program's: its `__set__`
            self.descriptor_call(prop, "__set__", [obj, value])
            return True
        return False

    def node_attr(self, obj: PInstance, name: str, value: Any) -> bool:
        """`set_attr` of a graph node's attribute other than its number and gradient:
        whether it is stored already (its operands, its op: told the recorder)."""
        if self.detached:  # a re-run of an op's call (`op_rerun`): no write to a node
            raise ProgramError(f"a re-run may not set .{name} of a node")
        shape = obj.cls.shape
        assert shape is not None
        if name == shape.operands or name == shape.second:
            obj.attrs[name] = value
            self.recorder.relink(obj)  # `out._prev = [a, b]` after `__init__`
            return True
        if name == shape.op:
            obj.attrs[name] = value
            self.recorder.renamed(obj)  # `out._op = '+'` after `__init__`
            return True
        if name == shape.rule and type(value) is Function:
            self.rule_on_operand(obj, value)
        return False

    def set_attr(
        self, obj: Any, name: str, value: Any, hook: bool = True, initial: bool = False
    ) -> None:
        """`obj.name = value`: through its class's own `__setattr__` when it has one
        (`hook`; not for `object.__setattr__`, which that one calls to write); `initial`:
        a dataclass's own `__init__` setting a field (which a frozen one's may, as
        CPython's `object.__setattr__` does)."""
        kind = type(obj)
        if kind is PInstance:
            attrs = obj.attrs
            if obj.cls.has_properties and self.guarded_write(obj, name, value, hook, initial):
                return
            if obj.mirror is not None:
                shape = obj.cls.shape
                assert shape is not None
                if name == shape.grad or name == shape.number:
                    field = "grad" if name == shape.grad else "data"
                    value = self.recorder.write(obj, field, attrs.get(name), value)
                elif self.node_attr(obj, name, value):
                    return
            attrs[name] = value
            return
        if kind is Value:
            if name == "data" or name == "grad":
                if type(value) not in NUMBERS:
                    raise ProgramError(
                        f"a Value's .{name} must be a number, not {type_name(value)}"
                    )
                if type(value) is float and not math.isfinite(value):
                    raise ProgramError(f"a Value's .{name} must be a finite number, not {value}")
                before = obj.data if name == "data" else obj.grad
                value = self.recorder.write(obj, name, before, value)
                if name == "data":
                    obj.data = value
                else:
                    obj.grad = value
                return
            if name == "label":
                if type(value) is not str:
                    raise ProgramError("a label must be a string, like x.label = 'x1'")
                obj.label = value
                return
            raise ProgramError(f"only .data, .grad and .label of a Value can be set, not .{name}")
        if kind is PClass:
            self.set_class_attr(obj, name, value)
            return
        if kind is TypeObject and (not obj.types or obj.name in _BUILTIN_TYPES):
            raise immutable_type(name, _BUILTIN_TYPES.get(obj.name, obj.name))
        if kind is Builtin and obj.name in _BUILTIN_TYPES:
            raise immutable_type(name, obj.name)  # `type`, `property`, `range`…
        if kind is PModule:
            writable = obj.members.get(WRITABLE)
            if writable is not None and name in writable:  # `logger.propagate = False`
                obj.members[name] = writable[name](value)
                return
            raise ProgramError(module_write_refused(obj, name))
        if kind is Stream:  # `sys.stdout.write = f`, `setattr(sys.stdout, ...)`
            raise ProgramError(stream_write_refused(name))
        if kind is Function and not is_dunder(name):  # `wrapper.calls = 0`, as CPython's
            attrs = getattr(obj, "attrs", None)
            if attrs is None:
                attrs = obj.attrs = {}
            attrs[name] = value
            return
        plain = self.plain_value_attr_error(obj, name, value)
        if plain is not None:
            raise plain
        refused = ProgramError(f"cannot set attributes on {a_type(obj)}")
        if isinstance(obj, Builtin):
            refused.kind = "AttributeError"
            refused.args_seen = (f"'{cpython_type(obj)}' object has no attribute '{name}'",)
            if kind is Partial and name in self.methods[Partial]:  # `p.func = g`
                refused.args_seen = ("readonly attribute",)
        raise refused

    def plain_value_attr_error(self, obj: Any, name: str, value: Any) -> ProgramError | None:
        """`x.grad = 0` (`value`; MISSING: `del x.grad`) of a float, an int, a str, a
        list... : CPython's AttributeError in CPython's words, asked of CPython itself on
        an empty value of the same built-in type (none takes an attribute, so nothing
        changes): `'float' object has no attribute 'grad'`, `'list' object attribute
        'append' is read-only`, `attribute 'real' of 'float' objects is not writable`.
        Uncaught, `.data` or `.grad` of a number says what to do. None for anything
        else (a deque, a Counter: not a plain list or dict)."""
        kind = type(obj)
        sample = _PLAIN_SAMPLES.get(kind, MISSING)
        if kind is PSet:
            sample = frozenset() if obj.frozen else set()
        registry = self.collections
        if sample is MISSING or (registry and kinds.kind_of(registry, obj) is not None):
            return None
        try:
            if value is MISSING:
                delattr(sample, name)
            else:
                setattr(sample, name, None)
        except (AttributeError, TypeError) as error:
            words = str(error)
            made = ProgramError(words, kind=type(error).__name__)
            made.args_seen = (words,)
            if kind in NUMBERS and name in ("data", "grad"):
                made.message = f"{words} here: {_PLAIN_NUMBER_HINT}"
            return made
        return None  # (never: no such value takes an attribute)

    # Engine Values

    def value_method(self, value: Value, name: str, args: list[Any]) -> Any:
        if args:
            raise ProgramError(f".{name}() takes no arguments")
        mark = next(creation_order)
        try:
            expanded = OPS[name].expanded
            if self.expanded and expanded is not None:
                result = expanded(value)
                self.recorder.expansions[result] = mark  # (its rule by hand: all of it)
            else:
                result = getattr(value, name)()  # name is one of FUNCTIONS
                if name == "relu":
                    # micrograd's relu keeps x itself unless x < 0 (so 0 stays an int 0).
                    result.data = 0 if value.data < 0 else value.data
        except (ArithmeticError, ValueError, TypeError) as error:
            raise number_error(name, error) from None
        self.recorder.adopt(result, mark)
        return result

    def value_backward(self, value: Value, args: list[Any], kwargs: dict[str, Any]) -> None:
        if args or kwargs:
            raise ProgramError("backward() takes no arguments")
        self.recorder.engine_pass(value)

    # Operators

    def binary(self, op: str, left: Any, right: Any) -> Any:
        lt = type(left)
        rt = type(right)
        if lt in NUMBERS and rt in NUMBERS:
            return self.numbers(op, left, right)
        if (lt is Value or rt is Value) and (
            (lt is Value or lt in NUMBERS) and (rt is Value or rt in NUMBERS)
        ):
            return self.values(op, left, right)
        if lt is PInstance or rt is PInstance:
            return self.dunder_binary(op, left, right)
        return self.sequences(op, left, right)

    def numbers(self, op: str, left: Any, right: Any) -> Any:
        try:
            if op == "**":
                result = self.power(left, right)
            elif op == "<<":
                if left != 0 and right > 0 and abs(left).bit_length() + right > MAX_INT_BITS:
                    raise ProgramError(
                        f"this shift makes an integer of more than {MAX_INT_BITS:,} bits",
                        kind="OverflowError",
                    )
                result = left << right
            else:
                result = _NUMBER_OPS[op](left, right)
        except (ZeroDivisionError, OverflowError) as error:
            failed = number_error(op, error)
            if failed.kind == "ZeroDivisionError":
                failed.args_seen = (str(error),)  # CPython's words, for `except ... as e`
            raise failed from None
        except TypeError:
            raise unsupported(op, left, right) from None
        except ValueError as error:  # `1 << -1`: CPython's ValueError, which `except` catches
            raise caught_as(f"{op}: {error}", error) from None
        if type(result) is int and not -SMALL_INT <= result <= SMALL_INT:
            self.state.check_int(result)
        return result

    def power(self, base: Any, exponent: Any) -> Any:
        if type(base) is not float and type(exponent) is not float and exponent > 0:
            bits = abs(int(base)).bit_length()
            if bits > 1 and (bits - 1) * exponent > MAX_INT_BITS:
                raise ProgramError(
                    f"this power makes an integer of more than {MAX_INT_BITS:,} bits (use a "
                    "float base, like 10.0)",
                    kind="OverflowError",
                )
        return base**exponent  # `(-8) ** 0.5` is complex, as in CPython

    def values(self, op: str, left: Any, right: Any) -> Any:
        apply = _VALUE_OPS.get(op)
        if apply is None:
            raise ProgramError(f"the operator {op} is not defined for Values")
        if op == "**":
            if type(right) is Value:
                raise _value_exponent(left)
            if type(left) is Value and type(left.data) is int and type(right) is not float:
                self.power(left.data, right)  # only measures: refuses a huge integer
        mark = next(creation_order)
        try:
            result = apply(left, right)
        except (ArithmeticError, ValueError, TypeError) as error:
            raise number_error(op, error) from None
        if op == "*" and type(left) is not Value:
            mark_written_left(result)
        self.recorder.adopt(result, mark)
        return result

    def dunder_binary(self, op: str, left: Any, right: Any) -> Any:
        if type(left) is PInstance and op in _FORWARD:
            method = left.cls.lookup(_FORWARD[op])
            if type(method) is Function:
                result = method.enter(method, [left, right])
                if result is not NotImplemented:
                    return result
            elif type(method) is NativeMethod:
                result = method.call([left, right], {})
                if result is not NotImplemented:
                    return result
            elif method is not MISSING:  # `__add__ = max`: called with `right` alone
                result = self.unbound_dunder(left, _FORWARD[op], method, (right,))
                if result is not NO_METHOD and result is not NotImplemented:
                    return result
        return self.reflected(op, left, right)

    def reflected(self, op: str, left: Any, right: Any) -> Any:
        """`dunder_binary` once the left operand's own method did not answer: the right
        operand's reflected method, else the error. As in CPython, not when both are of
        one class: `B(1) + B(2)` whose `__add__` answers NotImplemented is a TypeError.
        A string's or bytes' `%` formats the object first (no `__rmod__`), as CPython's."""
        if op == "%" and (type(left) is str or type(left) is bytes):
            return self.sequences(op, left, right)
        if (
            type(right) is PInstance
            and op in _REFLECTED
            and (type(left) is not PInstance or left.cls is not right.cls)
        ):
            result = self.call_dunder(right, _REFLECTED[op], left)
            if result is not NO_METHOD and result is not NotImplemented:
                return result
        if op == "*" and (type(left) in _REPEATED or type(right) in _REPEATED):
            # `[0] * n` of an object defining `__index__`: a sequence repeated, as CPython's
            count = right if type(left) in _REPEATED else left
            index = self.index_of(count) if type(count) is PInstance else NO_METHOD
            if index is not NO_METHOD:
                return self.sequences(op, *((left, index) if count is right else (index, right)))
        raise unsupported(op, left, right)

    def sequences(self, op: str, left: Any, right: Any) -> Any:
        lt = type(left)
        rt = type(right)
        state = self.state
        if self.collections and (lt is dict or lt is list or rt is dict or rt is list):
            made = self.collection_binary(op, left, right)
            if made is not NotImplemented:
                return made
        if op == "+" and lt is rt and lt in (str, list, tuple, bytes):
            if lt is str or lt is bytes:
                state.check_str(len(left) + len(right))
            else:
                state.check_items(len(left) + len(right))
            return left + right
        if op == "*" and (lt in (str, list, tuple, bytes) and rt in (int, bool)):
            return self.repeat(left, right)
        if op == "*" and (rt in (str, list, tuple, bytes) and lt in (int, bool)):
            return self.repeat(right, left)
        if op == "%" and lt is str:
            return self.texts.percent(left, right, self.get_item)
        if op == "%" and lt is bytes:
            return self.texts.bytes_percent(left, right)
        if op == "|" and {lt, rt} <= {dict, MappingProxyType} and MappingProxyType in (lt, rt):
            # `C.__dict__ | {...}`, `C.__dict__ | D.__dict__`
            return self.sequences(op, dict(left), dict(right))  # (a view's items: a copy)
        if op == "|" and lt is dict and rt is dict:  # `a | b` of two dicts: a new dict
            state.check_items(len(left) + len(right))
            state.charge(len(left) + len(right))
            return {**left, **right}
        if (lt in SET_LIKE_VIEWS or rt in SET_LIKE_VIEWS) and op in sets.SET_OPERATORS:
            return self.views_combined(op, left, right)
        combined = sets.operator_result(state, op, left, right)  # `a | b` of two sets
        if combined is not None:
            return combined
        union = type_union(op, left, right, state.charge)  # `int | float`, its members charged
        if union is not None:
            return union
        if lt is complex or rt is complex:
            return self.complex_numbers(op, left, right)
        raise unsupported(op, left, right)

    def collection_binary(self, op: str, left: Any, right: Any) -> Any:
        """`a + b` and the others where a `collections` kind differs from the dict or
        list it is: two Counters' arithmetic; a deque joined only to a deque; a Counter
        with a plain dict, or a deque with a list, CPython's TypeError."""
        registry = self.collections
        left_kind, right_kind = kinds.kind_of(registry, left), kinds.kind_of(registry, right)
        if left_kind is None and right_kind is None:
            return NotImplemented
        if op in ("+", "-", "|", "&") and "Counter" in (left_kind, right_kind):
            if left_kind == right_kind == "Counter":
                return kinds.counter_binary(self, op, left, right)
            if op != "|" or type(left) is not dict or type(right) is not dict:
                raise self.kinds_unsupported(op, left, right, left_kind, right_kind)
        if op == "+" and "deque" in (left_kind, right_kind):
            if left_kind == right_kind == "deque":
                self.state.check_items(len(left) + len(right))
                joined = left + right
                maxlen = kinds.factory_of(registry, left)
                if maxlen is not None:
                    kinds.trim(joined, maxlen, from_left=True)
                self.register(joined, "deque", maxlen)
                return joined
            if left_kind == "deque":
                words = f'can only concatenate deque (not "{cpython_type(right)}") to deque'
                raise ProgramError(words, kind="TypeError")
            if type(left) in (list, tuple):
                mine = type(left).__name__
                words = f'can only concatenate {mine} (not "collections.deque") to {mine}'
                raise ProgramError(words, kind="TypeError")
        if op == "*" and "deque" in (left_kind, right_kind):
            # `deque([1]) * 3`: a deque, with the maxlen and its last items, as CPython's
            queue, count = (left, right) if left_kind == "deque" else (right, left)
            if type(count) is int or type(count) is bool:
                repeated = self.repeat(queue, count)
                maxlen = kinds.factory_of(registry, queue)
                if maxlen is not None:
                    kinds.trim(repeated, maxlen, from_left=True)
                self.register(repeated, "deque", maxlen)
                return repeated
        return NotImplemented

    def kinds_unsupported(
        self, op: str, left: Any, right: Any, left_kind: str | None, right_kind: str | None
    ) -> ProgramError:
        named = [
            kinds.QUALIFIED.get(kind or "", cpython_type(value))
            for value, kind in ((left, left_kind), (right, right_kind))
        ]
        words = f"unsupported operand type(s) for {op}: '{named[0]}' and '{named[1]}'"
        failed = ProgramError(words, kind="TypeError")
        failed.args_seen = (words,)
        return failed

    def views_combined(self, op: str, left: Any, right: Any) -> PSet:
        """`d.keys() & other` and the others: a new set, as CPython makes it of the view
        and any iterable."""
        made = []
        for side in (left, right):
            if type(side) is PSet:
                made.append(side)
                continue
            items = list(self.iterate(side))
            self.state.charge(len(items))
            for item in items:
                self.key(item)
            try:
                made.append(PSet(items))
            except TypeError as error:  # an items view's pair that holds a list
                raise caught_as(
                    "this item cannot be put in a set (it holds a list)", error
                ) from None
        return sets.combine(self.state, sets.SET_OPERATORS[op], made[0], made[1])

    def complex_numbers(self, op: str, left: Any, right: Any) -> complex:
        """Arithmetic with a complex number (`(-8) ** 0.5` makes one): Python's own on
        two plain numbers, which are two floats whatever the operation."""
        if (
            (type(left) in NUMBERS or type(left) is complex)
            and (type(right) in NUMBERS or type(right) is complex)
            and op in ("+", "-", "*", "/", "**")
        ):
            try:
                return left**right if op == "**" else _NUMBER_OPS[op](left, right)  # type: ignore[no-any-return]
            except (ZeroDivisionError, OverflowError) as error:
                failed = number_error(op, error)
                failed.args_seen = (str(error),)
                raise failed from None
        raise unsupported(op, left, right)

    def repeat(self, sequence: Any, times: int) -> Any:
        count = len(sequence) * max(times, 0)
        if type(sequence) is str or type(sequence) is bytes:
            self.state.check_str(count)
        else:
            self.state.check_items(count)
        return sequence * times

    def unary(self, op: str, operand: Any) -> Any:
        kind = type(operand)
        if op == "not":
            return not self.truthy(operand)
        if kind in NUMBERS:
            if op == "-":
                return -operand
            if op == "+":
                return +operand
            if kind is not float:
                return ~operand
        if kind is Value and op in "-+":
            if op == "+":
                return operand
            mark = next(creation_order)
            result = -operand
            self.recorder.adopt(result, mark)
            return result
        if kind is PInstance:
            name = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}[op]
            result = self.call_dunder(operand, name)
            if result is not NO_METHOD:
                return result
        if kind is complex and op != "~":
            return -operand if op == "-" else +operand
        if kind is dict and op != "~" and kinds.kind_of(self.collections, operand) == "Counter":
            return kinds.counter_unary(self, op, operand)
        failed = ProgramError(
            f"bad operand type for unary {op}: '{type_name(operand)}'", kind="TypeError"
        )
        named = cpython_type(operand)
        if self.collections and (kind is dict or kind is list):  # 'Counter', 'collections.deque'
            named = kinds.QUALIFIED.get(kinds.kind_of(self.collections, operand) or "", named)
        failed.args_seen = (f"bad operand type for unary {op}: '{named}'",)
        raise failed

    def truthy(self, value: Any) -> bool:
        kind = type(value)
        if kind is bool:
            return bool(value)
        if kind is PInstance:
            result = self.call_dunder(value, "__bool__")
            if result is NO_METHOD:
                result = self.call_dunder(value, "__len__")
                return True if result is NO_METHOD else length_of(result) > 0
            if type(result) is not bool:
                raise ProgramError(
                    f"__bool__ should return bool, returned {python_type_name(result)}",
                    kind="TypeError",
                )
            return result
        if kind in NUMBERS or kind in SIZED or value is None or kind is complex:
            return bool(value)
        return True

    def compare(self, op: str, left: Any, right: Any, raw: bool = False) -> bool:
        """`left op right` as a bool, as Python's own code asks (`in`, a sort, a list's
        `==`); `raw` (the program's own `a < b`), what a program's object's `__lt__`...
        returned, as it is (`rich_compare`)."""
        if op == "is":
            return left is right
        if op == "is not":
            return left is not right
        if op == "in" or op == "not in":
            found = self.contains(right, left)
            return found if op == "in" else not found
        lt = type(left)
        rt = type(right)
        if lt is PInstance or rt is PInstance:
            if raw:  # (then any value: declared a bool for the callers that ask for one)
                return self.rich_compare(op, left, right)  # type: ignore[no-any-return]
            if left is right and (op == "==" or op == "!="):
                return op == "=="  # CPython's `PyObject_RichCompareBool`: identity first
            result = self.rich_compare(op, left, right)
            return result if result is True or result is False else self.truthy(result)
        if op == "==":
            self.charge_compare(left, right)
            if self.collections and (lt is dict or lt is list) and lt is rt:
                return self.kinds_equal(left, right)
            if lt in VIEWS or rt in VIEWS:
                return self.views_equal(left, right)
            return bool(left == right)
        if op == "!=":
            if (self.collections and (lt is dict or lt is list)) or lt in VIEWS or rt in VIEWS:
                return not self.compare("==", left, right)
            self.charge_compare(left, right)
            return not bool(left == right)
        elif (lt in NUMBERS and rt in NUMBERS) or (lt is rt and lt in (str, list, tuple, bytes)):
            self.charge_compare(left, right)
            if (lt is list or lt is tuple) and pairs_hold_instance(left, right, self.state.charge):
                # `(priority, node) < (priority, other)`: item by item as CPython's, each
                # `__eq__` and `__lt__` of the program's called once (Python's own
                # comparison would call `__eq__` first, then ours again after its error).
                return self.compare_items(op, left, right, raw)
            try:
                return bool(_ORDER[op](left, right))
            except TypeError:
                if lt is list or lt is tuple:
                    return self.compare_items(op, left, right, raw)
        elif (lt is PSet or lt in SET_LIKE_VIEWS) and (rt is PSet or rt in SET_LIKE_VIEWS):
            # subset and superset, as CPython's sets and a dict's keys and items order
            self.state.charge(min(len(left), len(right)))
            try:
                return bool(
                    _ORDER[op](
                        left.items.keys() if lt is PSet else left,
                        right.items.keys() if rt is PSet else right,
                    )
                )
            except TypeError as error:  # an items view's pair that holds a list
                raise caught_as(
                    "this item cannot be put in a set (it holds a list)", error
                ) from None
        elif lt is dict and rt is dict and self.collections:
            ordered = kinds.counters_ordered(self, op, left, right)  # two Counters
            if ordered is not None:
                return ordered
        return self.compare_failed(op, left, right)

    def compare_failed(self, op: str, left: Any, right: Any) -> NoReturn:
        """CPython's TypeError of an ordering neither operand answers."""
        lt, rt = type(left), type(right)
        hint = "; compare their .data" if lt is Value or rt is Value else ""
        failed = ProgramError(
            f"'{op}' is not supported between '{type_name(left)}' and '{type_name(right)}'{hint}",
            kind="TypeError",
        )
        types = f"'{self.kind_name(left)}' and '{self.kind_name(right)}'"
        failed.args_seen = (f"'{op}' not supported between instances of {types}",)
        raise failed

    def rich_compare(self, op: str, left: Any, right: Any) -> Any:
        """`a < b`, `a == b`, `a != b` where either is a program's object: what its
        `__lt__`... returned, whatever it is (a Value, None), as CPython's. The reflected
        method (`__gt__` for `<`) of the right operand when the left's is missing or
        NotImplemented, or first when the right's class is a subclass of the left's;
        `!=` without `__ne__` is object's, `not __eq__`; none answering, `==` and `!=`
        are identity and an ordering CPython's TypeError."""
        if type(left) is not PInstance and type(right) is not PInstance:
            return self.compare(op, left, right)
        reflected = _COMPARE[_SWAPPED[op]]
        right_first = (
            type(right) is PInstance
            and type(left) is PInstance
            and right.cls is not left.cls
            and left.cls in right.cls.mro
        )
        if right_first:
            result = self.compare_dunder(right, reflected, left)
            if result is not NotImplemented:
                return result
        if type(left) is PInstance:
            result = self.compare_dunder(left, _COMPARE[op], right)
            if result is not NotImplemented:
                return result
        if type(right) is PInstance and not right_first:
            result = self.compare_dunder(right, reflected, left)
            if result is not NotImplemented:
                return result
        if op == "==":
            return left is right
        if op == "!=":
            return left is not right
        return self.compare_failed(op, left, right)

    def compare_dunder(self, obj: PInstance, name: str, other: Any) -> Any:
        """`obj.__lt__(other)` of its class, NotImplemented where it has none; `__ne__`
        without one is object's: `__eq__`'s answer inverted."""
        result = self.call_dunder(obj, name, other)
        if result is NO_METHOD:
            if name != "__ne__":
                return NotImplemented
            result = self.call_dunder(obj, "__eq__", other)
            if result is NO_METHOD:
                return False if other is obj else NotImplemented
            if result is not NotImplemented:
                return not self.truthy(result)
        return result

    def kind_name(self, value: Any) -> str:
        """`cpython_type`, a `collections` kind by CPython's name (`Counter`)."""
        if self.collections and (type(value) is dict or type(value) is list):
            kind = kinds.kind_of(self.collections, value)
            if kind is not None:
                return kinds.QUALIFIED[kind]
        return cpython_type(value)

    def views_equal(self, left: Any, right: Any) -> bool:
        """`d.keys() == {'a'}`: a keys or items view equals a set (or such a view) of the
        same items, as CPython's; a values view only itself."""
        if type(left) not in SET_LIKE_VIEWS:
            left, right = right, left
        if type(left) not in SET_LIKE_VIEWS:
            return left is right
        if type(right) is PSet:
            right = right.items.keys()
        elif type(right) not in SET_LIKE_VIEWS:
            return False
        self.state.charge(min(len(left), len(right)))
        return bool(left == right)

    def kinds_equal(self, left: Any, right: Any) -> bool:
        """`==` where a `collections` kind differs from its dict or list: Counters count
        a missing key as 0, OrderedDicts mind their order, a deque equals only a deque."""
        registry = self.collections
        left_kind, right_kind = kinds.kind_of(registry, left), kinds.kind_of(registry, right)
        if left_kind == right_kind == "Counter":
            return kinds.counters_equal(self, left, right)
        equal = bool(left == right)
        if left_kind == right_kind == "OrderedDict":
            return kinds.ordered_equal(left, right, equal)
        if (left_kind == "deque") != (right_kind == "deque"):
            return False
        return equal

    def compare_items(self, op: str, left: Any, right: Any, raw: bool = False) -> bool:
        """`left < right` of two lists (or tuples) whose items Python cannot order: as
        CPython's, the first items that differ are compared, so the error names their
        types (`'<' not supported between instances of 'str' and 'int'`) and a class's
        own `__lt__` answers, what it returned as it is where `raw` (the walk was charged
        by `charge_compare`)."""
        for a, b in zip(left, right, strict=False):
            if a is not b and not self.compare("==", a, b):
                return self.compare(op, a, b, raw)
        return bool(_ORDER[op](len(left), len(right)))

    def contains(self, container: Any, item: Any) -> bool:
        kind = type(container)
        if kind is PClass:
            members = self.enum_members(container)
            if members is not None:  # `op in Op`: CPython 3.11's, Enum members only
                if type(item) is PInstance and is_enum(item.cls):
                    return item.cls is container and any(m is item for m in members)
                words = (
                    f"unsupported operand type(s) for 'in': '{python_type_name(item)}' "
                    "and 'EnumType'"
                )
                raise ProgramError(words, kind="TypeError")
        if kind is PInstance:
            result = self.call_dunder(container, "__contains__", item)
            if result is not NO_METHOD:
                return self.truthy(result)
        if kind is dict or kind is PSet or kind is MappingProxyType:
            # A hash table: the key's hash and one comparison, whatever the length.
            self.key(item)
            try:
                if kind is not PSet:
                    return item in container
                if type(item) is PInstance and item.cls.hash_rule is not None:
                    return PSet.holds(container, item)  # by its hash now, as CPython's set
                return item in container.items
            except TypeError:
                raise ProgramError(f"{a_type(item)} cannot be a key") from None
        if kind in SET_LIKE_VIEWS:  # `k in d.keys()`, `(k, v) in d.items()`: a hash lookup
            if type(item) is tuple:
                self.state.charge_walk(item)
            try:
                return item in container
            except TypeError:
                raise self.unhashable(item[0] if type(item) is tuple else item) from None
        if kind is range:
            # An integer is answered by arithmetic; anything else is compared with every
            # number of the range, as CPython does.
            if type(item) is not int and type(item) is not bool:
                self.state.charge(len(container))
            return item in container
        if kind in SIZED:
            if kind is str:
                if type(item) is PInstance:  # `op in 'add mul'` of a StrEnum's member
                    item = enum_mixin_value(item)
                if type(item) is not str:
                    raise ProgramError(
                        "'in <string>' requires string as left operand, not "
                        f"{python_type_name(item)}",
                        kind="TypeError",
                    )
                self.state.charge(len(container) // 10)
            else:
                self.state.charge(len(container))
                self.state.charge_walk(item)
                if kind is bytes:
                    return _in_bytes(container, item)
            return item in container
        iterable = kind is not PInstance or any(
            type(container.cls.lookup(name)) is not type(MISSING)
            for name in ("__iter__", "__getitem__")
        )
        if iterable and (kind is PInstance or kind in ITERATOR_TYPES or kind is TextBuffer):
            # No `__contains__`: CPython compares with each item its iteration gives.
            for candidate in self.iterate(container):
                self.state.charge(1)
                if self.compare("==", candidate, item):
                    return True
            return False
        raise ProgramError(
            f"argument of type '{python_type_name(container)}' is not iterable", kind="TypeError"
        )

    def charge_compare(self, left: Any, right: Any) -> None:
        """Charge for the work Python does comparing two values: the items it walks."""
        kind = type(left)
        if kind is str:
            if type(right) is str:
                self.state.charge(min(len(left), len(right)) // 10)
        elif type(right) is kind and kind in (list, tuple, dict, PSet):
            # Each measured as far as the comparison can reach: a list's or tuple's first
            # items, as many as the shorter one has; dicts and sets of different sizes
            # not at all (CPython's are unequal at once). Both were measured whole, for
            # the smaller's steps: `[0] * 10**6 < [1]` walked a million items for a step.
            shorter = min(len(left), len(right))
            if kind is list or kind is tuple:
                if len(left) > shorter:
                    left = left[:shorter]
                if len(right) > shorter:
                    right = right[:shorter]
            elif len(left) != len(right):
                return
            state = self.state
            state.charge(min(state.measure(left), state.measure(right)))
        elif kind is Annotation and type(right) is Annotation:  # two unions: their members
            self.state.charge(min(len(left.args), len(right.args)) // ITEMS_PER_STEP)

    def unhashable(self, key: Any) -> ProgramError:
        if type(key) is PSet and key.frozen:  # CPython hashes one; not here (a refusal)
            return ProgramError("a frozenset as a set item or dict key is not available here")
        words = f"unhashable type: '{python_type_name(key)}'"
        unhashable = ProgramError(
            f"{words} ({a_type(key)} cannot be put in a set or used as a key)", kind="TypeError"
        )
        unhashable.args_seen = (words,)
        return unhashable

    def key(self, key: Any) -> Any:
        """`key` checked and charged as a set item or dict key: hashing a tuple walks it."""
        kind = type(key)
        if kind in SIMPLE_KEYS:
            return key
        if kind in UNHASHABLE:
            raise self.unhashable(key)
        if kind is tuple:
            self.state.charge_walk(key)
            inside = _set_inside(key)
            if inside is not None:  # (hashed by identity, it would find no equal set)
                raise self.unhashable(inside)
        return key

    # Iteration, items

    def iterate(self, value: Any) -> Iterator[Any]:
        kind = type(value)
        if kind is dict:
            return _live(value, "dictionary")
        if kind is PSet:
            return _live(value.ordered(), "Set")
        if kind in VIEWS:  # a dict changed while its view is walked: CPython's RuntimeError
            return _live(value, "dictionary")
        if kind in SIZED or kind in ITERATOR_TYPES:
            return iter(value)
        if kind is TextBuffer:  # `for line in buffer`: its lines, as CPython's
            return self._buffer_lines(value)
        if kind is PInstance:
            found = self.instance_iterator(value)
            return self._nexted(found) if type(found) is PInstance else found
        if kind is PClass:  # `for op in Op`: an Enum's members
            members = self.enum_members(value)
            if members is not None:
                return iter(members)
        raise ProgramError(f"'{python_type_name(value)}' object is not iterable", kind="TypeError")

    def enum_members(self, cls: PClass) -> list[PInstance] | None:
        """`objects.enum_members`, charged for the names of the class's own it looks at."""
        self.state.charge(1 + len(cls.namespace) // ITEMS_PER_STEP)
        return enum_members(cls)

    def unpack_items(self, value: Any) -> Iterator[Any]:
        """What a tuple target walks (`a, b = value`, `for a, b in pairs`): as `iterate`,
        but a value that cannot be walked is CPython's own words for an unpacking
        (`cannot unpack non-iterable NoneType object`), not a loop's."""
        if type(value) is PInstance:
            cls = value.cls
            if cls.lookup("__iter__") is MISSING and cls.lookup("__getitem__") is MISSING:
                message = f"cannot unpack non-iterable {python_type_name(value)} object"
                raise ProgramError(message, kind="TypeError")
            return self.iterate(value)
        try:
            return self.iterate(value)
        except ProgramError as error:  # not an object of the program's: nothing else ran
            message = f"cannot unpack non-iterable {python_type_name(value)} object"
            raise ProgramError(message, kind="TypeError") from error

    def loop_items(self, value: Any) -> Iterable[Any]:
        """What a `for` statement walks, whose iterator the program never sees: as
        `iterate`, but a list or tuple as it is and an empty set's nothing without a
        generator made for it (a leaf's `for child in v._prev`, half a sort's visits):
        with no item, no change of the set can be seen."""
        kind = type(value)
        if kind is PSet:
            return _live(value.ordered(), "Set") if value.items else ()
        if kind is list or kind is tuple:
            items: Iterable[Any] = value
            return items
        return self.iterate(value)

    def iter_of(self, value: Any) -> Any:
        """`iter(x)`: as `iterate`, but the program's own iterator as it is, as CPython's
        (`iter(it) is it` of a class whose `__iter__` returns self), and an `io.StringIO()`
        itself, its own iterator as CPython's is."""
        if type(value) is PInstance:
            return self.instance_iterator(value)
        if type(value) is TextBuffer:
            return value
        return self.iterate(value)

    def instance_iterator(self, value: PInstance) -> Any:
        """What iterating over an object of the program's goes through: its `__iter__`'s
        result, an object of the program's with `__next__` or an iterator of Python's (a
        container it returned is CPython's TypeError, `return self.items`), else its
        `__getitem__` by index; else CPython's TypeError."""
        result = self.call_dunder(value, "__iter__")
        if type(result) is PInstance:  # `return self` of an iterator class
            if result.cls.lookup("__next__") is MISSING:
                message = f"iter() returned non-iterator of type '{result.cls.name}'"
                raise ProgramError(message, kind="TypeError")
            return result
        if result is not NO_METHOD:
            if type(result) in _NOT_ITERATORS:  # a container, a number, None: not iterators
                named = cpython_type(result)
                message = f"iter() returned non-iterator of type '{named}'"
                raise ProgramError(message, kind="TypeError")
            return self.iterate(result)
        if type(value.cls.lookup("__getitem__")) is not type(MISSING):
            return self._indexed(value)
        raise ProgramError(f"'{python_type_name(value)}' object is not iterable", kind="TypeError")

    def _buffer_lines(self, value: TextBuffer) -> Iterator[Any]:
        """An `io.StringIO()`'s lines from where it stands, read one by one (its `readline`,
        charged as it charges), until one is empty."""
        readline = value.methods["readline"]
        buffer = value.buffer
        while line := readline(buffer, [], {}):
            yield line

    def _nexted(self, iterator: PInstance) -> Iterator[Any]:
        """CPython's iterator protocol: `iterator.__next__()` until it raises StopIteration
        (each call a call of the program's, charged as one)."""
        stop = self.exceptions.get("StopIteration")
        while True:
            try:
                item = self.call_dunder(iterator, "__next__")
            except ProgramError as error:
                if stop is not None and error_matches(error, stop, self.exceptions):
                    return
                raise
            yield item

    def _indexed(self, value: PInstance) -> Iterator[Any]:
        """CPython's old sequence protocol: a class with `__getitem__` and no `__iter__`
        is iterated by `obj[0]`, `obj[1]`... until its `__getitem__` raises IndexError."""
        index = 0
        while True:
            try:
                item = self.call_dunder(value, "__getitem__", index)
            except ProgramError as error:
                if error.kind in ("IndexError", "StopIteration"):
                    return
                raise
            yield item
            index += 1

    def alias(self, name: str, key: Any) -> Annotation:
        """`List[Value]`, `dict[str, float]`: an alias of what it was subscripted with,
        charged for its arguments (each read for its hash as it is made)."""
        args = key if type(key) is tuple else (key,)
        if len(args) >= ITEMS_PER_STEP:
            self.state.charge(len(args) // ITEMS_PER_STEP)
        return Annotation(name, args)

    def get_item(self, obj: Any, key: Any) -> Any:
        kind = type(obj)
        if kind is Annotation:  # `Optional[float]`, `List[Value]`: still just an annotation
            if (
                (obj.name in GENERIC_ALIASES or obj.name == "|" or obj.origin is not None)
                and obj.args
                and all(type(arg) is not Annotation for arg in obj.args)
            ):  # `list[int][0]`: no type variable to fill in, CPython's TypeError
                words = f"{self.texts.to_repr(obj)} is not a generic class"
                raise ProgramError(words, kind="TypeError")
            if obj.name == "Union" and not obj.args:
                made = Annotation("Union", key if type(key) is tuple else (key,))
                # (a step per member walked, a Python loop's: as `|` and `isinstance` walk it)
                members = union_members(made, self.state.charge)
                # flattened as CPython's (a Union nested in it gives its members, so one
                # made of another again and again stays flat); `Union[int]` is `int`
                return members[0] if len(members) == 1 else Annotation("Union", tuple(members))
            if key == () and type(key) is tuple and obj.name == "Tuple":
                return Annotation("Tuple", ((),))  # `Tuple[()]`, shown so, as `tuple[()]`
            return self.alias(obj.name, key)
        if kind is PClass and any(c.name in GENERIC_BASES and not c.mro[1:] for c in obj.mro):
            return obj  # `class Stack(Generic[T])`, `Stack[int]`
        if kind is PInstance:
            result = self.call_dunder(obj, "__getitem__", key)
            if result is not NO_METHOD:
                return result
        elif kind is MappingProxyType:  # `C.__dict__['f']`: a dict's, on a copy of the view
            self.state.charge(len(obj) // ITEMS_PER_STEP)
            return self.get_item(obj.copy(), key)
        elif kind is dict:
            self.key(key)
            try:
                return obj[key]
            except KeyError:
                special = self.collections.get(id(obj))
                if special is not None and special[0] is obj:
                    return self.missing_key(obj, key, special[1], special[2])
                failed = ProgramError(
                    f"key {self.texts.to_repr(key)[:80]} is not in the dict", kind="KeyError"
                )
                failed.args_seen = (key,)
                raise failed from None
            except TypeError:
                raise ProgramError(f"{a_type(key)} cannot be a dict key") from None
        elif kind in (list, tuple, str, range, bytes):
            if type(key) is slice:
                if kind is list and self.collections:
                    self.no_deque_slice(obj)
                size = _slice_length(key, len(obj))
                if kind is str or kind is bytes:
                    self.state.check_str(size)
                else:
                    self.state.check_items(size)
                return obj[key]
            if type(key) in (int, bool):
                try:
                    return obj[key]
                except IndexError as error:
                    failed = ProgramError(f"index {key} is out of range", kind="IndexError")
                    failed.args_seen = tuple(error.args)  # CPython's "list index out of range"
                    raise failed from None
            if type(key) is PInstance and enum_mixin_value(key) is not key:
                return self.get_item(obj, enum_mixin_value(key))  # `xs[Level.HIGH]`
            if type(key) is PInstance and (index := self.index_of(key)) is not NO_METHOD:
                return self.get_item(obj, index)  # its class's `__index__`
            raise bad_index(obj, key)
        if isinstance(obj, TypeObject) and obj.name in GENERIC_ALIASES:
            # `Vector = list[Value]`: CPython's generic alias, an alias as `List[Value]` is
            # (`tuple[()]`, the empty tuple's, keeps its `()` to be shown so)
            return self.alias(obj.name, key if type(key) is not tuple or key else ((),))
        # CPython's words: `v[0]` of a `Value`, `x[0]` of a float, `V[0]` of a class
        if kind is PClass:  # `Op['MUL']`, `C[int]`
            return self.class_item(obj, key)
        if isinstance(obj, TypeObject):
            message = f"type '{obj.name}' is not subscriptable"
        else:
            message = f"'{cpython_type(obj)}' object is not subscriptable"
        raise ProgramError(message, kind="TypeError")

    def class_item(self, cls: PClass, key: Any) -> Any:
        """`C[key]` of a class of the program's: by its own `__class_getitem__`, a class
        method whether it says so or not, as CPython's `type.__new__` makes it (a static
        method: the key alone; None: not subscriptable), an Enum's member by its name first
        (its metaclass's `__getitem__` comes before the class's own), else CPython's
        TypeError."""
        if any(ENUM_KEY in c.namespace for c in cls.mro):
            return self.enum_item(cls, key)
        getter = cls.lookup("__class_getitem__")
        if type(getter) is Function:
            return self.call_function(getter, [cls, key])
        if type(getter) is PClassMethod:
            return self.call(getter.function, [cls, key])
        if type(getter) is PStaticMethod:
            return self.call(getter.function, [key])
        if getter is not MISSING and getter is not None:
            words = "(CPython's generic alias, or the class's __class_getitem__)"
            raise ProgramError(f"{cls.name}[...] is not available here {words}")
        if getter is MISSING and any(c in self.builtin_bases.values() for c in cls.mro):
            # `class Batch(list)`, `Batch[int]`: list's own `__class_getitem__`, CPython's
            # generic alias of the program's class (`__main__.Batch[int]`)
            # (`S[()]` keeps its `()` to be shown so, as `list[()]`)
            empty = type(key) is tuple and not key
            made = self.alias(f"__main__.{cls.qualname}", ((),) if empty else key)
            return Annotation(made.name, made.args, cls)
        raise ProgramError(f"type '{cls.name}' is not subscriptable", kind="TypeError")

    def enum_item(self, cls: PClass, key: Any) -> PInstance:
        """`Op['MUL']`: the member of that name, or CPython's KeyError of the key."""
        found = enum_member_named(cls, self.key(key))
        if found is None:
            failed = ProgramError(
                f"{self.texts.to_repr(key)[:80]} is not a member of {cls.name}", kind="KeyError"
            )
            failed.args_seen = (key,)
            raise failed
        return found

    def missing_key(self, obj: dict[Any, Any], key: Any, kind: str, factory: Any) -> Any:
        """A missing key of a `defaultdict` (made by its factory, and kept) or of a
        `Counter` (0, not kept), as CPython's `__missing__` gives it."""
        if kind == "Counter":
            return 0
        if factory is None:
            failed = ProgramError(f"key {self.texts.to_repr(key)[:80]} is not in the dict")
            failed.kind, failed.args_seen = "KeyError", (key,)
            raise failed
        value = self.call(factory, [])
        self.set_item(obj, key, value)
        return value

    def set_item(self, obj: Any, key: Any, value: Any) -> None:
        kind = type(obj)
        if kind is dict:
            self.key(key)
            if len(obj) >= MAX_ITEMS and key not in obj:
                self.state.check_items(len(obj) + 1)
            try:
                obj[key] = value
            except TypeError:
                raise ProgramError(f"{a_type(key)} cannot be a dict key") from None
            return
        if kind is list:
            if type(key) in (int, bool):
                try:
                    obj[key] = value
                except IndexError as error:
                    failed = ProgramError(f"index {key} is out of range", kind="IndexError")
                    failed.args_seen = tuple(error.args)  # "list assignment index out of range"
                    raise failed from None
                return
            if type(key) is slice:
                if self.collections:
                    self.no_deque_slice(obj)
                removed = _slice_length(key, len(obj))
                try:
                    items = self.bounded_list(value, MAX_ITEMS - len(obj) + removed)
                except ProgramError as error:  # of what is no iterable, CPython's words
                    if error.message != f"'{python_type_name(value)}' object is not iterable":
                        raise
                    words = (
                        "can only assign an iterable"
                        if key.step is None or key.step == 1
                        else "must assign iterable to extended slice"
                    )
                    raise ProgramError(words, kind="TypeError") from None
                self.state.check_items(len(obj) - removed + len(items))
                self.state.charge(len(obj) // MOVES_PER_STEP)
                try:
                    obj[key] = items
                except ValueError as error:  # an extended slice's size: CPython's, catchable
                    raise caught_as(str(error), error) from None
                return
            if type(key) is PInstance and (index := self.index_of(key)) is not NO_METHOD:
                self.set_item(obj, index, value)  # its class's `__index__`
                return
            raise bad_index(obj, key)
        if kind is PInstance:
            result = self.call_dunder(obj, "__setitem__", key, value)
            if result is not NO_METHOD:
                return
        raise ProgramError(
            f"'{python_type_name(obj)}' object does not support item assignment", kind="TypeError"
        )

    def bounded_list(self, value: Any, room: int) -> list[Any]:
        """The items of `value` as a list, a step per item, refused as soon as they pass
        `room` (so `x[0:1] = range(10**8)` never builds the list it refuses)."""
        if type(value) in SIZED and type(value) is not dict:
            count = len(value)
            if count > room:
                self.state.check_items(count + MAX_ITEMS - room)
            self.state.charge(count // ITEMS_PER_STEP)
            return list(value.ordered() if type(value) is PSet else value)
        out: list[Any] = []
        state = self.state
        for item in self.iterate(value):
            state.charge(1)
            out.append(item)
            if len(out) > room:
                state.check_items(len(out) + MAX_ITEMS - room)
        return out

    def no_deque_slice(self, obj: list[Any]) -> None:
        """A deque (a program list here) takes no slice: CPython's TypeError."""
        if kinds.kind_of(self.collections, obj) == "deque":
            raise kinds.typed("sequence index must be integer, not 'slice'")

    def del_item(self, obj: Any, key: Any) -> None:
        kind = type(obj)
        try:
            if kind is dict or (kind is list and type(key) in (int, bool, slice)):
                if kind is list:  # deleting shifts every item after it: that is work too
                    if type(key) is slice and self.collections:
                        self.no_deque_slice(obj)
                    if type(key) is slice:
                        _slice_length(key, len(obj))  # a step of 0: CPython's ValueError
                    self.state.charge(len(obj) // MOVES_PER_STEP)
                else:
                    self.key(key)
                del obj[key]
                return
        except KeyError:
            if self.collections and kinds.kind_of(self.collections, obj) == "Counter":
                return  # a Counter's `__delitem__` lets a missing key be
            missing = ProgramError("del: no such key", kind="KeyError")
            missing.args_seen = (key,)  # a KeyError shows its key
            raise missing from None
        except IndexError:
            raise caught_as(
                "del: no such index", IndexError("list assignment index out of range")
            ) from None
        # `del stack[i]`: the class's own `__delitem__`.
        if kind is PInstance and self.call_dunder(obj, "__delitem__", key) is not NO_METHOD:
            return
        if kind is list and type(key) is PInstance:
            index = self.index_of(key)  # its class's `__index__`
            if index is not NO_METHOD:
                self.del_item(obj, index)
                return
            raise bad_index(obj, key)
        if kind is list:  # `del xs['a']`: CPython's TypeError of the index
            raise bad_index(obj, key)
        raise ProgramError(
            f"'{python_type_name(obj)}' object doesn't support item deletion", kind="TypeError"
        )


ITERATOR_TYPES = frozenset(
    {
        GeneratorType,
        *ENDLESS,
        type(iter([])),
        type(iter(())),
        type(iter("")),
        type(iter(range(0))),
        type(iter({}.keys())),
        type(reversed([])),
        type(reversed(range(0))),
        type(reversed("")),
        zip,
        enumerate,
        reversed,
        map,
        filter,
    }
)


# The registry of `collections` objects is pruned when it reaches this size; an object
# referred to only by its registry entry (and the pruning loop) has this refcount.
PRUNE_AT = 10_000
UNUSED_REFCOUNT = 3

# The built-in types whose attributes are CPython's (the name looked up on the type
# itself, never on a program's value): an attribute none of them has is a plain
# AttributeError; one CPython has and this interpreter lacks is refused as not available.
PYTHON_TYPES: dict[type, type] = {
    kind: kind
    for kind in (int, float, bool, complex, str, bytes, list, tuple, dict, range, type(None))
}
PYTHON_TYPES[PSet] = set
PYTHON_TYPES[MappingProxyType] = MappingProxyType
PYTHON_TYPES.update({view: view for view in VIEWS})  # (`.mapping` in their method tables)


def enum_field_error(verb: str, name: str) -> ProgramError:
    """CPython's AttributeError for `Op.ADD.value = 5` (`del`: `delete`): the words of
    the property `Enum` itself defines, named by `Enum` whatever the member's class."""
    return ProgramError(f"<enum 'Enum'> cannot {verb} attribute '{name}'", kind="AttributeError")


def bad_index(obj: Any, key: Any) -> ProgramError:
    """CPython's TypeError for `xs[1.5]`, `'ab'[None]`."""
    name = python_type_name(key)
    if type(obj) is str:
        return ProgramError(f"string indices must be integers, not '{name}'", kind="TypeError")
    return ProgramError(
        f"{type(obj).__name__} indices must be integers or slices, not {name}", kind="TypeError"
    )


def qualified(fn: Function) -> str:
    """The name CPython's argument errors give a function, its `__qualname__`: `Vec.add`
    for a method, `Value.__mul__.<locals>._backward` for a closure."""
    return fn.qualname


def too_many_arguments(fn: Function, given: int, kwargs: dict[str, Any]) -> ProgramError:
    """CPython's words: `f() takes from 1 to 2 positional arguments but 3 were given`."""
    most = len(fn.params)
    least = most - len(fn.defaults)
    takes = f"from {least} to {most}" if least != most else str(most)
    plural = "" if takes == "1" else "s"
    were = "was" if given == 1 else "were"
    keywords = sum(1 for name in kwargs if name in fn.kwonly)
    if keywords:  # `but 3 positional arguments (and 1 keyword-only argument) were given`
        were = (
            f"positional argument{'' if given == 1 else 's'} (and {keywords} keyword-only "
            f"argument{'' if keywords == 1 else 's'}) were"
        )
    return ProgramError(
        f"{qualified(fn)}() takes {takes} positional argument{plural} but {given} {were} given",
        kind="TypeError",
    )


def missing_arguments(fn: Function, names: list[str], which: str) -> ProgramError:
    """CPython's words: `f() missing 2 required positional arguments: 'a' and 'b'`."""
    quoted = [f"'{name}'" for name in names]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) == 2:
        listed = f"{quoted[0]} and {quoted[1]}"
    else:
        listed = ", ".join(quoted[:-1]) + f", and {quoted[-1]}"
    plural = "" if len(names) == 1 else "s"
    return ProgramError(
        f"{qualified(fn)}() missing {len(names)} required {which} argument{plural}: {listed}",
        kind="TypeError",
    )


def length_of(result: Any) -> int:
    """What a program's `__len__` returned, as CPython takes it for `len()` and truth: a
    whole number from 0 to `sys.maxsize`, else CPython's TypeError, ValueError or
    OverflowError."""
    if type(result) is bool:
        return int(result)
    if type(result) is not int:
        raise ProgramError(
            f"'{python_type_name(result)}' object cannot be interpreted as an integer",
            kind="TypeError",
        )
    if result < 0:
        raise ProgramError("__len__() should return >= 0", kind="ValueError")
    if result > sys.maxsize:
        raise ProgramError("cannot fit 'int' into an index-sized integer", kind="OverflowError")
    return result


def _live(table: Iterable[Any], what: str) -> Iterator[Any]:
    """Iterate a dict's keys (or a set's items) without copying them, as CPython does:
    changing its size meanwhile is the error CPython raises, not a copy per loop."""
    try:
        yield from table
    except RuntimeError:
        raise ProgramError(f"{what} changed size during iteration", kind="RuntimeError") from None


ITERATOR_CODES[_live.__code__] = "live"  # (`iter(d)`: its name, `text.iterator_name`)

_ORDER: dict[str, Callable[[Any, Any], Any]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _object_init_subclass(name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
    if args or kwargs:
        words = f"{name}.__init_subclass__() takes no keyword arguments"
        failed = ProgramError(words, kind="TypeError")
        failed.args_seen = (words,)
        raise failed


def module_miss(module: str, name: str) -> ProgramError:
    """The error for `module.name` the module here has not: a refusal naming it where
    CPython's module has it (`os.listdir`: no `except` catches that); CPython's
    AttributeError, which a program may catch (`hasattr(itertools, 'batched')`, 3.12's),
    where CPython's module has no such name either."""
    refused = os_refusal(module, name)
    if refused is not None:
        return ProgramError(refused)
    host = importlib.import_module(module) if module in _HOST_MODULES else None
    if (module == "micrograd" and not name.startswith("_")) or (
        host is not None and not name.startswith("_") and not hasattr(host, name)
    ):
        # (micrograd's package is empty until its modules are imported)
        return ProgramError(f"module '{module}' has no attribute '{name}'", kind="AttributeError")
    # (a `random.Random(seed)` instance is an object, as CPython names it)
    what = "'Random' object" if module == "Random" else f"module '{module}'"
    return ProgramError(f"{what} has no attribute '{name}' here")


# CPython's own modules of the names a program imports here, asked only whether they
# have a name (imported then, once: a module of CPython's lacking it is its AttributeError)
_HOST_MODULES = frozenset(
    {"math", "itertools", "functools", "operator", "collections", "json", "heapq", "bisect",
     "string", "statistics", "copy", "random", "sys", "time", "typing", "dataclasses", "enum",
     "abc", "numbers", "graphlib", "warnings", "contextlib", "logging", "os", "posixpath"}
)  # fmt: skip


def positional_only(fn: Function, kwargs: dict[str, Any]) -> None:
    """CPython's TypeError for keyword arguments naming parameters before `/` of a function
    with no `**kwargs` (where it has one, they go into it: `f(1, a=2)` of `def f(a, /,
    **kw)` is `kw == {'a': 2}`)."""
    named = [name for name in fn.posonly if name in kwargs]
    if named:
        raise ProgramError(
            f"{qualified(fn)}() got some positional-only arguments passed as keyword "
            f"arguments: '{', '.join(named)}'",
            kind="TypeError",
        )


def bind_native(method: NativeMethod, self_: Any) -> Builtin:
    return Builtin(method.name, lambda args, kwargs: method.call([self_, *args], kwargs))


def unbound_native(method: NativeMethod, owner: PClass) -> Builtin:
    """A built-in class's method read off a class (`Exception.__init__(self, message)`):
    like CPython's method descriptors it takes an object of that class first, and says
    so to anything else (rather than run on what it cannot read)."""

    descriptor = method.descriptor
    if descriptor == PARTIAL_METHOD:
        # CPython's partialmethod read off a class: a function taking the object first,
        # which binds again when a class keeps it (`Tensor.__mul__ = Tensor.mul`)
        return method
    if descriptor is not None and method.name == "__init__":
        # Each of CPython's exception classes has an `__init__` of its own.
        descriptor = next((c.name for c in owner.mro if c.builtin), descriptor)
    cls = next((c for c in owner.mro if c.name == descriptor and c.builtin), owner)

    def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if not args or type(args[0]) is not PInstance or cls not in args[0].cls.mro:
            if not args and descriptor is None:
                return method.call(args, kwargs)  # a Python function's words: `missing 'self'`
            if not args:
                words = f"descriptor '{method.name}' of '{descriptor}' object needs an argument"
            elif descriptor is None or cls.name != descriptor:  # (a named tuple's, of tuple)
                words = f"descriptor '{method.name}' requires a '{owner.name}' object"
            else:
                received = cpython_type(args[0])
                words = (
                    f"descriptor '{method.name}' requires a '{descriptor}' object "
                    f"but received a '{received}'"
                )
            raise ProgramError(words, kind="TypeError")
        return method.call(args, kwargs)

    return Builtin(method.name, call)


# Python's own types a program can name, each as CPython's messages name it; none of
# them takes attributes (`int.x = 1`, `list.append = f`).
_BUILTIN_TYPES: dict[str, str] = {
    **{
        name: name
        for name in (
            "int", "float", "bool", "str", "list", "tuple", "dict", "set", "type",
            "property", "staticmethod", "classmethod", "range", "zip", "enumerate", "map",
            "filter", "reversed", "object", "super",
        )
    },
    **{name: name for name in ITERATOR_NAMES},  # `type(iter([]))`, `type(gen)`
    "defaultdict": "collections.defaultdict",
    "deque": "collections.deque",
    "None": "NoneType",  # `type(None)`, as `type` names it
    "NoneType": "NoneType",
    "class": "type",
}  # fmt: skip


# What a class tells of itself besides its attributes (`Machine.class_fact`).
CLASS_FACTS = frozenset({"__qualname__", "__module__", "__doc__", "__annotations__"})


def _plain_name(obj: Any) -> Any:
    """`obj.__name__` of a function, a built-in, a bound method or a typing name, as
    CPython's; MISSING for anything else."""
    kind = type(obj)
    if kind is Partial:  # CPython's partial has none
        words = "'functools.partial' object has no attribute '__name__'"
        raise ProgramError(words, kind="AttributeError")
    if kind is Function or isinstance(obj, Builtin):
        # a built-in's without its module (`math.sqrt.__name__`: 'sqrt'), as CPython's
        return getattr(
            obj, "alias", obj.name.rpartition(".")[2] if kind is not Function else obj.name
        )
    if kind is BoundMethod:
        return getattr(obj.function, "alias", obj.function.name)
    if kind is Annotation and not obj.args and obj.origin is None:
        # `Iterable.__name__`, `typing.List.__name__`, a TypeVar's: its name, as CPython's
        return obj.name.removeprefix("~")
    return MISSING


# An empty value of each of Python's own types that take no attribute, whose refusal
# `Machine.plain_value_attr_error` asks CPython for (a set's by its kind).
_PLAIN_SAMPLES: dict[type, Any] = {
    int: 0, float: 0.0, bool: False, str: "", bytes: b"", complex: 0j, list: [], tuple: (),
    dict: {}, range: range(0), slice: slice(None), type(None): None,
}  # fmt: skip
_PLAIN_NUMBER_HINT = (
    "this is a plain number. In a program with functions, loops, several backward() "
    "calls or other Python, numbers stay numbers; make inputs with Value(2.0)"
)


def immutable_type(name: str, type_name: str) -> ProgramError:
    """`int.x = 1`, `object.__repr__ = f`: CPython's TypeError, which a program may catch."""
    message = f"cannot set '{name}' attribute of immutable type '{type_name}'"
    return ProgramError(message, kind="TypeError")


def unsupported(op: str, left: Any, right: Any) -> ProgramError:
    """`1 + 'a'`: the engine's sentence, and CPython's for `except TypeError as e`."""
    pair = f"{op}: '{type_name(left)}' and '{type_name(right)}'"
    made = ProgramError(f"unsupported operand types for {pair}", kind="TypeError")
    made.args_seen = (unsupported_words(op, left, right),)
    return made


_SEQUENCES = (str, list, tuple)
_REPEATED = frozenset({str, list, tuple, bytes})


def unsupported_words(op: str, left: Any, right: Any) -> str:
    """CPython's message for `left op right` that no operand answers: a sequence's own
    words for `+` and `*` (`can only concatenate str (not "int") to str`), else the
    operand types as CPython names them ('NoneType', 'function')."""
    if type(left) is bytes and op == "+":
        return f"can't concat {cpython_type(right)} to bytes"
    if op == "*" and (type(left) is bytes or type(right) is bytes):
        other = right if type(left) is bytes else left
        return f"can't multiply sequence by non-int of type '{cpython_type(other)}'"
    if op == "+" and type(left) in _SEQUENCES:
        name = type(left).__name__
        return f'can only concatenate {name} (not "{cpython_type(right)}") to {name}'
    if op == "*" and (type(left) in _SEQUENCES or type(right) in _SEQUENCES):
        other = right if type(left) in _SEQUENCES else left
        return f"can't multiply sequence by non-int of type '{cpython_type(other)}'"
    return _unsupported_pair("** or pow()" if op == "**" else op, left, right)


def _unsupported_pair(shown: str, left: Any, right: Any) -> str:
    types = f"'{cpython_type(left)}' and '{cpython_type(right)}'"
    return f"unsupported operand type(s) for {shown}: {types}"


def in_place_words(error: ProgramError, op: str, left: Any, right: Any) -> None:
    """`x op= y` that no operand answers says `op=` in CPython's words (`for +=:`), as
    long as the error is this operation's own (not one raised inside a method it ran);
    a sequence's own words (`can only concatenate`) stay."""
    words = unsupported_words(op, left, right)
    if error.line is None and error.args_seen == (words,) and words.startswith("unsupported"):
        error.args_seen = (_unsupported_pair(f"{op}=", left, right),)


def _value_exponent(base: Any) -> ProgramError:
    """`x ** y` with a Value exponent, refused as micrograd 0.1.0 refuses it, so that a
    program may catch it: its `__pow__`'s `assert isinstance(other, (int, float))` for a
    Value base, CPython's TypeError for a number's (micrograd's Value has no `__rpow__`)."""
    words = "the exponent of ** must be a plain number, not a Value"
    if type(base) is Value:
        failed = ProgramError(words, kind="AssertionError")
        failed.args_seen = ("only supporting int/float powers for now",)
        return failed
    failed = ProgramError(words, kind="TypeError")
    failed.args_seen = (
        f"unsupported operand type(s) for ** or pow(): '{cpython_type(base)}' and 'Value'",
    )
    return failed


def _slice_length(key: slice, length: int) -> int:
    """How many items `key` takes of a sequence of `length`; a step of 0 is CPython's
    ValueError (`slice step cannot be zero`), which the program may catch."""
    try:
        return len(range(*key.indices(length)))
    except ValueError as error:
        raise caught_as(str(error), error) from None


def number_error(what: str, error: BaseException) -> ProgramError:
    """Floating-point trouble in an operation, said the way the straight-line language says
    it, as the built-in exception class a program's `except` sees."""
    kind = next((name for cls, name in _NUMBER_ERROR_KINDS if isinstance(error, cls)), "TypeError")
    # A ValueError is math's domain error; anything else is said in its own words.
    domain = NO_REAL_RESULT if kind == "ValueError" else None
    made = ProgramError(f"{what}: {arithmetic_reason(error, domain=domain)}", kind=kind)
    # What `except ValueError as e: print(e)` shows is CPython's own words ("math domain
    # error", "math range error"): its arguments, plain strings and integers only.
    if error.args and all(type(arg) in (str, int) for arg in error.args):
        made.args_seen = tuple(error.args)
    return made


_NUMBER_ERROR_KINDS: tuple[tuple[type[BaseException], str], ...] = (
    (ZeroDivisionError, "ZeroDivisionError"),
    (OverflowError, "OverflowError"),
    (ValueError, "ValueError"),
)


# What CPython's `io.StringIO()` has that ours does not: refused, not an AttributeError
# a program could take for an answer (`hasattr(b, "closed")`).
_STRING_IO_NAMES = frozenset(dir(io.StringIO))


def _host_has_no(found: Any, name: str) -> str | None:
    """CPython's own words where its object `found` (`Machine.host_twin`: a built-in
    function, type or bound method) has no attribute `name` (`type object
    'itertools.chain' has no attribute 'x'`), else None."""
    if found is None or not callable(found):
        return None
    try:
        getattr(found, name)
    except AttributeError as error:
        return str(error)
    return None


def _stream_member(stream: Stream, name: str) -> Any:
    """`sys.stdout.x`: a member of the panel's; one CPython's stream has and this has not
    (`write`, `fileno`) refused; else CPython's AttributeError (a program may catch it)."""
    if name in stream.members:
        return stream.members[name]
    if name in _TEXT_STREAM_NAMES and not name.startswith("_"):
        raise ProgramError(f"sys.stdout's {name} is not available here")
    missing = f"'_io.TextIOWrapper' object has no attribute '{name}'"
    raise ProgramError(missing, kind="AttributeError")


_TEXT_STREAM_NAMES = frozenset(dir(io.TextIOWrapper))

# What an `__iter__` may not return: CPython's "iter() returned non-iterator".
_NOT_ITERATORS = frozenset(
    {*SIZED, int, float, bool, complex, type(None), Value, Function, BoundMethod, PClass}
)

# Values CPython's call refuses with "'float' object is not callable".
_NOT_CALLABLE = frozenset(
    {int, float, bool, complex, str, bytes, list, tuple, dict, PSet, Value, type(None), TextBuffer}
)


def hash_is_none(cls: PClass) -> bool:
    """Whether CPython's `cls.__hash__` is None: the first class of its MRO that defines
    `__hash__` or `__eq__` defines `__eq__` alone (CPython then sets `__hash__ = None`)."""
    for c in cls.mro:
        if "__hash__" in c.namespace:
            return c.namespace["__hash__"] is None
        if c.hash_none:
            return True
    return False


# The methods of `object` that an object of the program's has when its class does not
# define them (`Machine.object_method`).
_OBJECT_METHODS = frozenset({"__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__init__"})


def _object_method_arguments(name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
    """CPython's words for a call of one of `_OBJECT_METHODS` with wrong arguments."""
    if kwargs:
        raise ProgramError(f"wrapper {name}() takes no keyword arguments", kind="TypeError")
    wanted = 1 if name in ("__eq__", "__ne__") else 0
    if len(args) != wanted:
        s = "" if wanted == 1 else "s"
        message = f"expected {wanted} argument{s}, got {len(args)}"
        raise ProgramError(message, kind="TypeError")


def object_init(instance: Any, args: list[Any], kwargs: dict[str, Any]) -> None:
    """`object.__init__` of `instance`, given `args` after it: nothing, or CPython's
    TypeError for arguments, worded by the instance's class as CPython's `object_init`
    words it: `object.__init__()` where the class has an `__init__` of its own (a
    `super().__init__(1)`), `D.__init__()` where it has neither that (`object.__init__`
    set as its own is none, nor a named tuple's) nor a `__new__`, and no error where it
    has only a `__new__` (its own, or an exception's, a named tuple's, list's or dict's:
    `_new_of_its_own`)."""
    if not args and not kwargs:
        return
    name = "object"
    own = instance.cls.lookup("__init__") if type(instance) is PInstance else None
    if (
        own is MISSING
        or own is _OBJECT_INIT
        or (own is not None and own is tuple_filler(instance.cls))
    ):
        if instance.cls.lookup("__new__") is not MISSING or _new_of_its_own(instance.cls):
            return
        name = instance.cls.name
    raise ProgramError(
        f"{name}.__init__() takes exactly one argument (the instance to initialize)",
        kind="TypeError",
    )


def _object_hash(args: list[Any], kwargs: dict[str, Any]) -> int:
    """`object.__hash__(x)`: x's identity hash, as a class without `__hash__` hashes."""
    if kwargs or len(args) != 1:
        raise ProgramError(f"expected 1 argument, got {len(args)}", kind="TypeError")
    return id(args[0]) >> 4  # as CPython's, for any object


# `object.__hash__`, one object: a class that sets `__hash__ = object.__hash__` (to keep
# identity hashing beside its own `__eq__`) hashes as a class without either.
OBJECT_HASH = Builtin("__hash__", _object_hash)
# The methods a class sets to None to say it has none (CPython's own special cases).
# A class's methods it may lose (`del A.__eq__`): the ones `Machine.reequip` follows, and
# the comparisons, looked up each time they are asked.
_REEQUIPPED = frozenset({"__eq__", "__hash__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"})
_NONE_MEANS_NO_METHOD = frozenset({"__iter__", "__contains__", "__hash__", "__reversed__"})


def _object_init_descriptor(args: list[Any], kwargs: dict[str, Any]) -> None:
    """`object.__init__` read off a class, called with the instance first."""
    if not args:
        message = "descriptor '__init__' of 'object' object needs an argument"
        raise ProgramError(message, kind="TypeError")
    object_init(args[0], args[1:], kwargs)


# `object.__init__`, read off any class that has none of its own: one object, as CPython's
# (`D.__init__ is object.__init__`).
_OBJECT_INIT = Builtin("__init__", _object_init_descriptor)


def _new_of_its_own(cls: PClass) -> bool:
    """Whether CPython's `__new__` of `cls` is another than object's, which alone says
    `C() takes no arguments` (its `object_new`): an exception's, a named tuple's, list's
    or dict's (a class with a `__new__` of the program's is made by `new_instance`)."""
    return cls.exception or any(
        TUPLE_FILLER in c.namespace or BUILTIN_BASE_KEY in c.namespace for c in cls.mro
    )


def _in_bytes(container: bytes, item: Any) -> bool:
    """`x in data`: an integer (a byte) or bytes, as CPython's; else its TypeError."""
    if type(item) is bytes:
        return item in container
    if type(item) is not int and type(item) is not bool:
        raise ProgramError(
            f"a bytes-like object is required, not '{python_type_name(item)}'", kind="TypeError"
        )
    if not 0 <= item < 256:
        raise ProgramError("byte must be in range(0, 256)", kind="ValueError")
    return item in container


def rule_owner(frame: Frame | None) -> PInstance | None:
    """The node a closure made in `frame` is the rule of: of the graph nodes the frame
    holds (`self`, `other`, `out`), the one made of all the others (`out`), where there
    are two to eight; else None."""
    if frame is None:
        return None
    nodes = [v for v in frame.vars.values() if type(v) is PInstance and v.mirror is not None]
    if not 2 <= len(nodes) <= 8:  # (an op's few: more is no op's frame, and costs more)
        return None
    for node in nodes:
        mirror = node.mirror
        assert mirror is not None
        operands = mirror._prev
        if operands and all(
            other is node or any(other.mirror is operand for operand in operands) for other in nodes
        ):
            return node
    return None


def _hands_node(args: list[Any]) -> bool:
    """Whether a call's arguments hold a graph node (among the first eight)."""
    return any(type(a) is PInstance and a.mirror is not None for a in args[:8])


def holds(node: PInstance, fn: Function) -> bool:
    """Whether the node keeps `fn` itself, as an attribute or in a list or tuple of them
    (among its first 16 items)."""
    for value in node.attrs.values():
        if value is fn:
            return True
        kind = type(value)
        # (A node's few rules: the first 16 items, so a long list costs no more.)
        if (kind is list or kind is tuple) and any(item is fn for item in value[:16]):
            return True
    return False


# In a module's table (a logger's): the names a program may set, each with what it
# makes of the value it is given (or refuses).
WRITABLE = "_writable"


def module_write_refused(module: PModule, name: str, doing: str = "setting") -> str:
    """Why `math.foo = 1` (or `logger.propagate = False`) is refused: the modules here,
    and the loggers and handlers of `logging`, are the interpreter's own tables, which
    the library's own code reads too (CPython would set the attribute)."""
    made_as = module.members.get(LOG_KIND)  # `logging`'s, told apart by what they are
    if made_as == "Logger":
        what = f"the logger {module.name!r}"
    elif made_as is not None:
        what = f"a {made_as}"
    elif module.name == "Random":
        what = f"a {module.name}"
    else:
        what = f"the module {module.name!r}"
    done = "set" if doing == "setting" else "delete"
    return (
        f"{doing} .{name} of {what} is not available here: its attributes are the "
        f"interpreter's own, which a program reads but does not change (CPython would {done} it)"
    )


def stream_write_refused(name: str, doing: str = "setting") -> str:
    """Why `sys.stdout.write = f` (or `setattr(sys.stdout, name, value)`) is refused:
    `sys.stdout` is the print panel, read through `print`, whose few members are the
    interpreter's own."""
    done = "set" if doing == "setting" else "delete"
    return (
        f"{doing} .{name} of sys.stdout is not available here: sys.stdout is the print "
        "panel, which print() writes to; its members (reconfigure, flush, encoding) are "
        f"the interpreter's own, which a program uses but does not change (CPython would "
        f"{done} it, or refuse a read-only one)"
    )


def _set_inside(key: tuple[Any, ...]) -> PSet | None:
    """A set (or frozenset) a tuple holds, at any depth of tuples in it (which CPython
    cannot hash, or hashes by its items: not the interpreter's set's identity)."""
    level = [key]
    while level:
        inner: list[tuple[Any, ...]] = []
        for t in level:
            for item in t:
                if type(item) is PSet:
                    return item
                if type(item) is tuple:
                    inner.append(item)
        level = inner
    return None


# The methods of micrograd's `Value` (and the lecture's) that make each op's node, whose
# rule is a closure of theirs: `Value.__mul__.<locals>._backward` (`rule_name`).
_RULE_METHODS = {"+": "__add__", "*": "__mul__"}


def rule_name(node: Value) -> str:
    """The qualified name CPython gives an engine node's `_backward` of micrograd's:
    `Value.__mul__.<locals>._backward`, and a leaf's `Value.__init__.<locals>.<lambda>`."""
    if not node._prev:
        return "Value.__init__.<locals>.<lambda>"
    op = node._op
    method = _RULE_METHODS.get(op) or ("__pow__" if op.startswith("**") else op)
    return f"Value.{method}.<locals>._backward"


def _closure_type_error(words: str) -> ProgramError:
    """CPython's TypeError of a call of a closure with arguments it does not take."""
    error = ProgramError(words, kind="TypeError")
    error.args_seen = (words,)
    return error
