"""A block of statements as one generated Python function: `Compiler.in_order` unrolled.

A block's statements were run by a loop over `(code, position, anchors, text)` entries,
each statement's closure called from it. Here the block becomes the source of one
Python function, written by this module alone from a fixed template (nothing of the
program's text is in it: its closures, positions and texts are the arguments of a factory
the source defines), compiled once per shape and cached: each statement's step charge,
position and update group are written in at their place, and one `try` around them all
locates an error at the statement running (`p`). The commonest
statements (an expression statement, an assignment to a local or an attribute, `if`,
`return`) are written in whole, and so are the commonest expressions in them (names,
constants, `a.b` of a local, operators, calls and method calls, up to `MAX_DEPTH`
deep): a name is read in place, an operator or a call is its compiled closure's own
second half (`apply`, `dispatch`) given the operands the generated code computed, and
`order.append(node)`, `seen.add(node)` as statements the list's or set's own work
(`_added`) where nothing of it can fail or run the program's code; the
blocks of an `if`, `for` or `while` are written in the same function (`_if_written`,
`_for_written`, `_while_written`), up to `MAX_NESTED` deep. Any other statement or
expression is its closure, called. Where a fast path does not apply,
the generated code has only read (a local, an object's attributes) and calls the
closure, which reads again and goes its own way. The generated code does exactly what
the closures did, in the same order, so a trace is the same byte for byte. A block is
generated only once it has run `HOT_AFTER` times on the loop (`when_hot`): a program of
many functions called once or never pays no `compile()` for them. Two steps with nothing
between them that could see the count or fail are charged as one sum (a `for` or
`while` turn's and its body's first statement's, `_charge2`; a call's and its body's
first statement's, `_enter`), and where the sum would pass the next checkpoint, one after
the other as before: every limit is met at the statement and step it was met before.

The body of a function with positional parameters only gets a second function in the
same source, `enter(fn, args)` (`_enter`): what `Machine.call_function` does before and
after the body (steps, depth, binding, owner, frame) written around the body's own lines,
so a call of the program's function is one Python call, not three (`Function.enter`).
A `return` written in whole returns its value from `enter` at once, and a name of the
enclosing function is read from its frame's variables fetched once a run (`W`).
An update group is opened only where none was open when the block began (`a_`), and
not at all by a statement inside one that opens its own (`Source.anchored`): in both
cases `in_order`'s own test would find one open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backprop_animator.engine.interpreter.machine import BREAK, CALL_STEPS, CONTINUE, RETURN
from backprop_animator.engine.interpreter.objects import (
    CallFrame,
    Function,
    PInstance,
    PSet,
)
from backprop_animator.engine.interpreter.runtime import (
    LOOP_HINT_TURNS,
    SMALL_INT,
    ProgramError,
    host_failure,
    too_deep,
)
from backprop_animator.engine.interpreter.runtime import (
    MAX_ITEMS as MAX_CONTAINER_ITEMS,
)
from backprop_animator.engine.value import Value

# The file name of the generated functions' code: a generated `enter` (a call of the
# program's function) is known by it and its name (`warnings_module.call_site`).
BLOCK_FILE = "<block>"
# The mark of a function body's first statement's step lines (`_wrapped`, `_owing`).
OWED = "#owed#"
Stmt = Callable[[Any], Any]
Entry = tuple[Stmt, tuple[int, int], bool, str]

# Blocks longer than this stay on the loop (`in_order`): the source stays small.
MAX_STATEMENTS = 40
# Statements one generated function writes, the blocks of its `if`, `for` and `while`
# included (`_fits`): past it a nested block is its closure, called.
MAX_WRITTEN_STATEMENTS = 120
_CACHE_SIZE = 512
# A block's source is bounded whatever its statements nest: past `MAX_WRITTEN` expressions
# written in whole the rest are their closures, and a source still longer than
# `MAX_SOURCE_CHARS` is not compiled (the block stays on the loop). The cache holds at
# most `_CACHE_CHARS` characters of source (about four times as much compiled code).
MAX_WRITTEN = 300
MAX_SOURCE_CHARS = 60_000
# The least source one statement's bookkeeping makes (`_wrapped`'s five lines, indented
# in the function): a block is given up once its statements so far make more than
# `MAX_SOURCE_CHARS` (blocks written in whole may hold thousands).
_LEAST_PER_STATEMENT = 150
_CACHE_CHARS = 3_000_000
_cached_chars = 0
MAX_DEPTH = 6  # expressions written in this deep; deeper ones are their closures
MAX_NESTED = 4  # `if` blocks written in whole this deep (`_if_written`); deeper: closures
HOT_AFTER = 2  # a block runs on the loop this many times before it is generated
# Methods made before their block is hot that are handed its generated function (`Hot`).
MAX_WAITING = 8
MAX_ITEMS = 16  # a display or a call of more items or arguments is its closure
_ITEMS = {"list": 1, "tuple": 1, "call": 2, "method": 3}  # where a shape keeps its items
TOO_DEEP = "the program nests too deeply"
NUMBERS_ = frozenset({int, float, bool})  # `Machine.binary`'s plain numbers (`_numbers`)
_factories: dict[str, Callable[..., Any]] = {}  # a block's `run`, or `(run, enter)`

# What a statement's closure is, when it is one of the shapes written in whole: set by
# the compiler for the closures it makes (`Shapes.note`), keyed by the closure's id while
# the closure lives (it is kept in the entry the block is made of).
#   ("last", expr)            `expr` as a statement: rec.last = expr(f)
#   ("local", expr, name)     `name = expr` in a function: labelled, stored in f.vars
#   ("store", expr, store)    `target = expr`: store(f, expr(f))
#   ("return", expr)          `return expr`
#   ("return_local", expr, name)
#   ("return_none",)
Shape = tuple[Any, ...]
# A function's body (`Hot.signature`): its name (a `def`'s: never "<lambda>"), its
# parameters, how many have defaults, the op its methods make (`Function.makes`), whether
# it uses `super()`, and `Machine.bind`.
# (name, parameters, defaults, the op it makes, uses super(), `Machine.bind`, and for a
# rule that may be kept on a tape `Machine.call_function`, which asks whose rule it is)
Signature = tuple[str, tuple[str, ...], int, "str | None", bool, Callable[..., dict[str, Any]], Any]


class Source:
    """One generated function's source in the making: the values it names (the
    factory's parameters) and its temporaries."""

    def __init__(self, shapes: dict[int, tuple[Shape, Any]], base: dict[str, Any]) -> None:
        self.shapes = shapes
        self.values: dict[str, Any] = dict(base)
        self.temps = 0
        self.written = 0  # expressions written in whole so far (`MAX_WRITTEN`)
        self.least = 0  # the least its source is long already (`_LEAST_PER_STATEMENT`)
        self.statements = 0  # statements written so far, nested ones included (`_fits`)
        # Whether the statements being written are inside one that opens an update group
        # (`_wrapped`): that group stays open while they run (only the statement that
        # opened a group closes it), so theirs would never open and their check is left out.
        self.anchored = False
        # Whether a name of the enclosing function is read (`_enclosing`): its frame's
        # variables are then `W`, read once where the function begins (a frame's `vars`
        # is the same dict from its making on, and a frame's `parent` never changes).
        self.enclosing = False

    def name(self, value: Any, prefix: str) -> str:
        name = f"{prefix}{len(self.values)}"
        self.values[name] = value
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def shape(self, code: Any) -> Shape:
        shape, shaped = self.shapes.get(id(code), (("closure",), None))
        return shape if shaped is code else ("closure",)

    def expr(self, code: Any, depth: int = 0) -> str:
        """Python source computing what the expression closure `code` computes, in the
        same order; a shape not written here (or nested deeper than `MAX_DEPTH`) is its
        closure, called. A fast path that does not apply falls back to the closure after
        reads only (a local, an object's attributes), which the closure reads again."""
        shape = self.shape(code)
        kind = shape[0]
        wide = kind in _ITEMS and len(shape[_ITEMS[kind]]) > MAX_ITEMS
        if depth > MAX_DEPTH or kind not in _EXPRESSIONS or wide or self.written >= MAX_WRITTEN:
            return f"{self.name(code, 'E')}(f)"
        self.written += 1
        return _EXPRESSIONS[kind](self, code, shape, depth + 1)

    def local(self, name: str, code: Any) -> str:
        """The local `name` read, `code` its closure (which says where it is unbound): a
        parameter nothing in the program unbinds (`Scope.always_bound`, noted in the
        closure's shape) is read at once, as it is in the frame from the call on."""
        n = self.name(name, "N")
        shape = self.shape(code)
        if shape[0] == "local" and shape[1] == name and shape[2]:
            return f"V[{n}]"
        return f"(V[{n}] if {n} in V else {self.name(code, 'E')}(f))"


def _const(src: Source, code: Any, shape: Shape, depth: int) -> str:
    return src.name(shape[1], "K")


def _local(src: Source, code: Any, shape: Shape, depth: int) -> str:
    return src.local(shape[1], code)


def _enclosing(src: Source, code: Any, shape: Shape, depth: int) -> str:
    n = src.name(shape[1], "N")
    src.enclosing = True  # (`W`: the enclosing frame's variables, read once a call)
    if shape[2]:  # a parameter of the enclosing function that nothing unbinds
        return f"W[{n}]"
    return f"(W[{n}] if {n} in W else {src.name(code, 'E')}(f))"


def _global(src: Source, code: Any, shape: Shape, depth: int) -> str:
    _, name, lookup, unbound, builtins = shape
    n, g, u, t = src.name(name, "N"), src.name(lookup, "G"), src.name(unbound, "U"), src.temp()
    b = src.name(builtins, "I")  # a built-in's name (`isinstance`): read there next
    fallback = f"({b}[{n}] if {n} in {b} else {src.name(code, 'E')}(f))"
    return f"({t} if ({t} := {g}({n}, {u})) is not {u} else {fallback})"


def _attr_local(src: Source, code: Any, shape: Shape, depth: int) -> str:
    _, local, attr, bound = shape
    n, a, o, d = src.name(local, "N"), src.name(attr, "A"), src.temp(), src.temp()
    read = f"V[{n}]" if bound else f"(V[{n}] if {n} in V else None)"
    return (
        f"({d}[{a}] if type({o} := {read}) is PInstance"
        f" and {a} in ({d} := {o}.reads) else {src.name(code, 'E')}(f))"
    )


def _binary(src: Source, code: Any, shape: Shape, depth: int) -> str:
    """`a op b`: the operator's closure's `apply` given the operands computed in order;
    where both are floats, `+`, `-`, `*`, `<` and `>` computed in place (`apply`'s own
    first answer for them: a float's sum, difference or product is a float, with no
    error and nothing to check); `x in s` and `x not in s` of an object of the
    program's class hashed and compared by identity in a set, its table's own answer
    (`ExpressionCompiler.membership`'s `apply`: no program code runs, nothing fails)."""
    _, left, right, apply, op = shape
    if op not in _FLOAT_IN_PLACE and op != "in" and op != "not in":
        return f"{src.name(apply, 'B')}({src.expr(left, depth)}, {src.expr(right, depth)})"
    a, b = src.temp(), src.temp()
    fallback = f"{src.name(apply, 'B')}({a}, {b})"
    if op in _FLOAT_IN_PLACE:
        return (
            f"({a} {op} {b} if (type({a} := {src.expr(left, depth)}) is float)"
            f" & (type({b} := {src.expr(right, depth)}) is float) else {fallback})"
        )
    h = src.temp()
    return (
        f"({a} {op} {b}.items if (type({a} := {src.expr(left, depth)}) is PInstance)"
        f" & (type({b} := {src.expr(right, depth)}) is PSet_)"
        f" and ({h} := {a}.cls).hash_rule is None and {h}.eq_rule is None else {fallback})"
    )


_FLOAT_IN_PLACE = frozenset({"+", "-", "*", "<", ">"})


def _call(src: Source, code: Any, shape: Shape, depth: int) -> str:
    _, func, args, dispatch = shape
    values = ", ".join(src.expr(arg, depth) for arg in args)
    return f"{src.name(dispatch, 'D')}({src.expr(func, depth)}, [{values}])"


def _method(src: Source, code: Any, shape: Shape, depth: int) -> str:
    _, obj, local, args, dispatch, _, _ = shape
    first = src.local(local, obj) if local is not None else src.expr(obj, depth)
    values = "".join(", " + src.expr(arg, depth) for arg in args)
    return f"{src.name(dispatch, 'D')}([{first}{values}])"


def _attr(src: Source, code: Any, shape: Shape, depth: int) -> str:
    _, obj, attr, slow = shape
    a, o, d = src.name(attr, "A"), src.temp(), src.temp()
    return (
        f"({d}[{a}] if type({o} := {src.expr(obj, depth)}) is PInstance"
        f" and {a} in ({d} := {o}.reads) else {src.name(slow, 'L')}({o}))"
    )


def _ifexp(src: Source, code: Any, shape: Shape, depth: int) -> str:
    _, test, body, orelse, truthy = shape
    t = src.temp()
    return (
        f"({src.expr(body, depth)} if ({t} := {src.expr(test, depth)}) is True"
        f" or ({t} is not False and {src.name(truthy, 'H')}({t})) else {src.expr(orelse, depth)})"
    )


def _list(src: Source, code: Any, shape: Shape, depth: int) -> str:
    return f"[{', '.join(src.expr(item, depth) for item in shape[1])}]"


def _tuple(src: Source, code: Any, shape: Shape, depth: int) -> str:
    """`(a, b)`: the items computed in order into a tuple, which is the value where none
    of them is a tuple (`State.check_nesting` walks nothing then: `(self, other)`);
    else the tuple's items are `tuple_of`'s, which measures their nesting."""
    _, items, tuple_of = shape
    if not items:
        return "()"
    t = src.temp()
    made = f"({t} := ({''.join(src.expr(item, depth) + ', ' for item in items)}))"
    flat = " and ".join(f"type({t}[{i}]) is not tuple" for i in range(len(items)))
    return f"({t} if {made} and {flat} else {src.name(tuple_of, 'W')}([*{t}]))"


_EXPRESSIONS: dict[str, Callable[[Source, Any, Shape, int], str]] = {
    "attr": _attr,
    "ifexp": _ifexp,
    "list": _list,
    "tuple": _tuple,
    "const": _const,
    "local": _local,
    "enclosing": _enclosing,
    "global": _global,
    "attr_local": _attr_local,
    "binary": _binary,
    "call": _call,
    "method": _method,
}


class Hot:
    """What a function made from a block (`Function.body`) calls: `when_hot`'s
    trampoline until the block is generated, then the generated function itself, which
    a function made from then on calls at once (a call of the trampoline fewer each time
    it runs: a node's `_backward`, a sort's `visit` made anew in every `backward()`). A
    method, made once before its block is hot, waits in `waiting` (a few at most, made
    in a class body, which its class keeps alive anyway) to be given the generated
    function when it is made."""

    __slots__ = ("body", "enter", "signature", "waiting")

    def __init__(self, body: Stmt) -> None:
        self.body = body
        self.waiting: list[Function] = []
        # A function's body with positional parameters only: its parameters and the rest of
        # what `Machine.call_function` reads that is the same for every function made of it
        # (`ExpressionCompiler.function` sets it), and once generated, `block`'s `enter`.
        self.signature: Signature | None = None
        self.enter: Callable[[Any, list[Any]], Any] | None = None

    def wait(self, fn: Function) -> None:
        if len(self.waiting) < MAX_WAITING:
            self.waiting.append(fn)


def when_hot(loop: Stmt, make: Callable[[Hot], Stmt | None]) -> tuple[Stmt, Hot]:
    """`loop` (`Compiler.in_order`'s) for a block's first `HOT_AFTER` runs, then the
    function `make` generates, made then and used from there on: a block that never
    runs, or runs once or twice, costs no `compile()` (a program of many functions
    compiles as fast as before, and what it compiles is what it runs often). With it,
    its `Hot`: the function a function made of the block is to call."""
    runs = 0
    made: Stmt | None = None

    def run(f: Any) -> Any:
        nonlocal runs, made
        if made is not None:
            return made(f)
        runs += 1
        if runs <= HOT_AFTER:
            return loop(f)
        made = make(hot) or loop  # (a block whose source would be too long stays on the loop)
        hot.body = made
        for fn in hot.waiting:
            if fn.body is run:
                fn.body = made
                if made is not loop and hot.enter is not None:
                    fn.enter = hot.enter
        hot.waiting.clear()
        return made(f)

    hot = Hot(run)
    return run, hot


def block(
    entries: list[Entry],
    shapes: dict[int, tuple[Shape, Stmt]],
    state: Any,
    rec: Any,
    hot: Hot | None = None,
) -> Stmt | None:
    """One function running `entries` as `Compiler.in_order`'s loop runs them: one `try`
    around them all, `p` the position of the statement running (None while a checkpoint
    runs, whose own error `in_order` located at `c`, the statement's, and let anything
    else through). None where its source would be longer than `MAX_SOURCE_CHARS`.
    A function's body (`hot.signature` set) gets its `enter` too, in `hot.enter`."""
    src = Source(shapes, _base(state, rec))
    try:
        lines, ends = _entries(src, entries, 0, paid="owed")
    except _TooLong:
        return None  # given up before the rest of its source was written
    if ends != "returns":
        lines.append("return None")
    handlers = [
        "except ProgramError as error:",
        "    raise error.located(*(c if p is None else p)) from None",
        "except RecursionError:",
        "    if p is None:",
        "        raise",
        '    limit = state.limits.exceeded("max_depth", TOO_DEEP)',
        "    raise ProgramError(limit.message).located(*p) from None",
        "except Exception as error:",
        "    if p is None:",
        "        raise",
        "    raise host_failure(error).located(*p) from None",
    ]
    run = [
        "    def run(f):",
        "        V = f.vars",
        *(["        W = f.parent.vars"] if src.enclosing else []),
        "        p = c = None",
        "        a_ = rec.anchor is None",
        "        try:",
        *("            " + line.removeprefix(OWED) for line in lines),
        *("        " + line for line in handlers),
    ]
    if sum(len(line) + 1 for line in run) > MAX_SOURCE_CHARS:
        return None
    signature = hot.signature if hot is not None else None
    enter = [] if signature is None else _enter(src, signature, lines, handlers)
    source = "\n".join(
        [f"def factory({', '.join(src.values)}):", *run, *enter, "    return (run, enter)", ""]
    )
    if not enter or len(source) > MAX_SOURCE_CHARS:  # (its `enter` is not worth the length)
        enter = []
        source = "\n".join([f"def factory({', '.join(src.values)}):", *run, "    return run", ""])
        if len(source) > MAX_SOURCE_CHARS:
            return None
    global _cached_chars
    factory = _factories.get(source)
    if factory is None:
        if len(_factories) >= _CACHE_SIZE or _cached_chars + len(source) > _CACHE_CHARS:
            _factories.clear()
            _cached_chars = 0
        _cached_chars += len(source)
        namespace: dict[str, Any] = {}
        exec(compile(source, BLOCK_FILE, "exec"), namespace)  # this module's own template
        factory = _factories[source] = namespace["factory"]
    if not enter:
        made: Stmt = factory(*src.values.values())
        return made
    made, entered = factory(*src.values.values())
    assert hot is not None
    hot.enter = entered
    return made


def _enter(src: Source, signature: Signature, lines: list[str], handlers: list[str]) -> list[str]:
    """`enter(fn, args)`: what `Machine.call_function` does for a call with positional
    arguments only of a function made of this body, and the body itself, in one Python
    function: the call's steps and depth checked, its arguments bound as `call_function`
    binds them (`Machine.bind` where they are not as many as the parameters or fewer by
    some of the defaults), the owner and the op made noted, the frame made, the body's
    lines run (a `return` returns the function's value, as `call_function` does with
    the body's signal), the error named after the function and the state put back."""
    name, params, defaults, makes, uses_super, bind, tape = signature
    names = [src.name(param, "N") for param in params]
    count = len(params)
    out = ["    def enter(fn, args):"]
    if tape is not None:
        # A rule run outside any rule in a pass may be one kept on a tape: the machine's
        # own call asks whose it is (`Machine.call_function`); a node's `_backward()`
        # call is in its rule already and goes on here.
        out += [
            "        if rec.in_rule is None and rec.pass_output is not None and not rec.hand_pass:",
            f"            return {src.name(tape, 'F')}(fn, args)",
        ]
    out += [
        # The call's steps and its body's first statement's together: nothing between
        # the two can see the count but an error, before which the statement's step is
        # given back; where the sum would pass the next checkpoint, the call's alone is
        # charged and checked, and the statement's where it begins (`owed_`, `_owing`).
        f"        state.steps += {CALL_STEPS + 1}",
        "        if state.steps > state.next_check:",
        "            state.steps -= 1",
        "            if state.steps > state.next_check:",
        "                state.checkpoint()",
        "            owed_ = True",
        "        else:",
        "            owed_ = False",
        # (`depth_`: the depth before the call, put back after it: every call within puts
        # its own back, so `state.depth -= 1` would find it `depth_ + 1`.)
        "        if (depth_ := state.depth) >= state.max_call_depth:",
        "            if not owed_:",
        "                state.steps -= 1",
        '            raise too_deep(state, "calls are nested too deeply (recursion)")',
    ]
    if defaults:
        out.append("        n_ = len(args)")
    for given in range(count, count - defaults - 1, -1):
        items = [f"{names[i]}: args[{i}]" for i in range(given)]
        items += [f"{names[i]}: d_[{i - (count - defaults)}]" for i in range(given, count)]
        length = "n_" if defaults else "len(args)"
        out.append(f"        {'if' if given == count else 'elif'} {length} == {given}:")
        if given < count:
            out.append("            d_ = fn.defaults")
        out.append(f"            V = {{{', '.join(items)}}}")
    out += [
        "        else:",  # (`bind` may fail: the statement's step is given back before it)
        "            if not owed_:",
        "                state.steps -= 1",
        "                owed_ = True",
        f"            V = {src.name(bind, 'F')}(fn, args, {{}})",
    ]
    out.append("        state.depth = depth_ + 1")
    if uses_super:
        out.append('        V[" class"] = fn.owner')
    out.append("        owner_ = state.owner")
    if makes is not None:
        # (`state.making` is put back by every call that sets it, so one that does not
        # finds it as it was: only a function that sets it keeps it to put back.)
        out.append("        making_ = state.making")
        out.append(f"        state.making = ({src.name(makes, 'K')}, args)")
    # `call_function`'s owner: the arguments bound, `args` is empty exactly when the
    # function takes none, and a `def`'s name is never "<lambda>".
    n = src.name(name, "K")
    if count == 0:
        out += ["        if fn.owner is None:", f"            state.owner = (owner_, {n})"]
    else:
        out += [
            f"        if {'args and ' if count == defaults else ''}fn.owner is not None:",
            "            self_ = args[0]",
            "            if type(self_) is PInstance and not self_.cls.is_node_class:",
            "                state.owner = self_",
            # (`else`: the owner is None, unless `args` was empty.)
            "        elif fn.owner is None:" if count == defaults else "        else:",
            f"            state.owner = (owner_, {n})",
        ]
    out += [
        "        position_ = state.position",
        "        f = CallFrame()",
        "        f.vars = V",
        "        f.parent = fn.closure",
        *(["        W = fn.closure.vars"] if src.enclosing else []),
        "        p = c = None",
        "        a_ = rec.anchor is None",
        "        try:",
        "            try:",
        *("                " + _returned(line) for line in _owing(lines)),
        *("            " + line for line in handlers),
        "        except ProgramError as error:",
        "            if error.pending is None:",
        "                error.pending = fn.name",
        "            raise",
        "        finally:",
        "            state.depth = depth_",
        "            state.owner = owner_",
        *(["            state.making = making_"] if makes is not None else []),
        "            state.position = position_",
    ]
    return out


def _owing(lines: list[str]) -> list[str]:
    """The body's lines as `enter` runs them: the first statement's step (its lines
    marked `OWED`, the body's first) was charged with the call's own unless `owed_`."""
    n = 0
    while n < len(lines) and lines[n].startswith(OWED):
        n += 1
    return ["if owed_:", *("    " + line.removeprefix(OWED) for line in lines[:n]), *lines[n:]]


def _returned(line: str) -> str:
    """A body's line as `enter` has it: what the body returns (its signal) is what
    `Machine.call_function` makes of it, the function's value or None. A `return`
    written in whole returns its value at once (`f.ret = …` is only ever followed by
    `return RETURN`, in the same `try` or after its `finally`), so `enter`'s frame has
    no `ret` but one a statement's closure set before returning `RETURN`."""
    code = line.lstrip()
    indent = line[: len(line) - len(code)]
    if code.startswith("f.ret = "):
        return indent + "return " + code[len("f.ret = ") :]
    if code == "return RETURN":
        return indent + "return f.ret"
    if code == "return signal":
        return indent + "return f.ret if signal is RETURN else None"
    return line


def _fits(src: Source, blocks: list[Shape]) -> bool:
    """Whether these blocks are `in_order`'s and may be written in whole here: each no
    longer than `MAX_STATEMENTS` (a longer one stays on the loop, as it would alone),
    and all the function's statements together no more than `MAX_WRITTEN_STATEMENTS`;
    else the statement calls its closure and the rest of the function is still written."""
    if any(block[0] != "block" or len(block[1]) > MAX_STATEMENTS for block in blocks):
        return False
    return src.statements + sum(len(block[1]) for block in blocks) <= MAX_WRITTEN_STATEMENTS


class _TooLong(Exception):
    """A block's source passed `MAX_SOURCE_CHARS` while it was being written."""


def _base(state: Any, rec: Any) -> dict[str, Any]:
    return {
        "LOOP_HINT_TURNS": LOOP_HINT_TURNS,
        "BREAK": BREAK,
        "CONTINUE": CONTINUE,
        "state": state,
        "rec": rec,
        "ProgramError": ProgramError,
        "host_failure": host_failure,
        "Value": Value,
        "PInstance": PInstance,
        "RETURN": RETURN,
        "TOO_DEEP": TOO_DEEP,
        "CallFrame": CallFrame,
        "too_deep": too_deep,
        "NUMBERS_": NUMBERS_,
        "SMALL_INT": SMALL_INT,
        "MAX_ITEMS_": MAX_CONTAINER_ITEMS,
        "PSet_": PSet,
    }


def _entries(
    src: Source, entries: list[Entry], level: int, loop: str | None = None, paid: str = "no"
) -> tuple[list[str], str]:
    """The lines running `entries` as `in_order` runs them (each statement's lines in
    `_wrapped`'s bookkeeping, a signal returned as `in_order` returns it), and how the
    last one ends. `level`: how deep in blocks written in whole these are (`_if_written`,
    `_for_written`, `_while_written`); `loop`: the name of the position of the `for` or
    `while` written in whole these run in, if any, whose `break` and `continue` signals
    are Python's own there; `paid`: how the first statement's step is charged
    (`_wrapped`)."""
    lines: list[str] = []
    ends = "none"
    for inner, position, anchors, text in entries:
        anchored = src.anchored
        src.anchored = anchored or anchors
        body, ends = _statement(src, inner, level, loop)
        src.anchored = anchored
        p, t = src.name(position, "P"), src.name(text, "T")
        lines.extend(_wrapped(p, t, body, anchors and not anchored, paid))
        paid = "no"
        src.least += _LEAST_PER_STATEMENT
        src.statements += 1
        if src.least > MAX_SOURCE_CHARS:
            raise _TooLong
        if ends == "returns":
            lines.append("return RETURN")
            break
        if ends == "signal":
            lines.append("if signal is not None:")
            if loop is not None:
                # The loop's own signals: what the `for`'s closure does with them.
                lines.append("    if signal is BREAK:")
                lines.append("        break")
                lines.append("    if signal is CONTINUE:")
                lines.append(f"        p = {loop}")
                lines.append("        continue")
            lines.append("    return signal")
    return lines, ends


def _statement(
    src: Source, inner: Stmt, level: int, loop: str | None = None
) -> tuple[list[str], str]:
    """The lines of one statement's own work, and how it ends: "none" (it never
    signals, or returns its signal itself), "signal" (its signal is checked) or
    "returns"."""
    shape = src.shape(inner)
    kind = shape[0]
    if kind == "last":
        added = _added(src, shape[1])
        return (added or [f"rec.last = {src.expr(shape[1])}"]), "none"
    if kind == "local":
        return _store_label(src.name(shape[2], "N"), src.expr(shape[1])), "none"
    if kind == "store":
        return _store(src, shape[2], src.expr(shape[1])), "none"
    if kind == "return":
        return [f"f.ret = {src.expr(shape[1])}"], "returns"
    if kind == "return_local":
        return [f"f.ret = {src.local(shape[2], shape[1])}"], "returns"
    if kind == "return_none":
        return ["f.ret = None"], "returns"
    if kind == "if":
        written = _if_written(src, shape, level, loop)
        return (written, "none") if written is not None else (_if(src, shape), "signal")
    if kind == "for":
        written = _for_written(src, shape, level, loop)
        if written is not None:
            return written, "none"
    if kind == "while":
        written = _while_written(src, shape, level, loop)
        if written is not None:
            return written, "none"
    if kind == "grad":
        return _grad(src, shape), "none"
    if kind == "grad_set":
        return _grad_set(src, shape), "none"
    if kind == "augmented":  # `total += x`: `Compiler.augmented`'s `run_name`
        _, load, value, binary, op, store, top_level = shape
        operands = f"{src.name(op, 'K')}, {src.expr(load)}, {src.expr(value)}"
        lines = [f"s = {src.name(binary, 'B')}({operands})", *_store(src, store, "s")]
        return [*lines, "rec.last = s"] if top_level else lines, "none"
    return [f"signal = {src.name(inner, 'C')}(f)"], "signal"


def _added(src: Source, code: Any) -> list[str] | None:
    """`order.append(node)` or `seen.add(node)` as a statement, a list's or a set's own
    method written in place where it is what the method call's `dispatch` would run
    (`Library.list_calls`' `append`, `set_methods`' `add`) and nothing of it can fail,
    run the program's code or reach a checkpoint: a list (not a deque's kind: `type` is
    `list`, and no deque with a `maxlen` made, `bounded_deques`) or a set that is no
    frozenset and no traced set (`mirror`), given an object of the program's class
    hashed and compared by identity (`hash_rule`, `eq_rule`: no code of the program
    runs to put it in), short of its bound (`runtime.MAX_ITEMS`), and the call's step
    short of the next checkpoint. Its step is charged as `dispatch` charges it; any
    other case is the call's `dispatch`, given the object and the argument read here.
    None where the statement is not such a call (the method's name is data here: it
    chooses one of this module's two templates, and is never written in)."""
    shape = src.shape(code)
    if shape[0] != "method" or shape[5] not in ("append", "add") or len(shape[3]) != 1:
        return None
    _, obj, local, args, dispatch, method, machine = shape
    src.written += 1
    first = src.local(local, obj) if local is not None else src.expr(obj, 1)
    lines = [f"o = {first}", f"v = {src.expr(args[0], 1)}"]
    if method == "append":
        test = (
            f"type(o) is list and len(o) < MAX_ITEMS_ and not {src.name(machine, 'M')}"
            ".bounded_deques and state.steps < state.next_check"
        )
        add = "o.append(v)"
    else:
        test = (
            "type(o) is PSet_ and o.mirror is None and not o.frozen and type(v) is PInstance"
            " and (h_ := v.cls).hash_rule is None and h_.eq_rule is None"
            " and len(o.items) < MAX_ITEMS_ and state.steps < state.next_check"
        )
        add = "o.items[v] = None"
    return [
        *lines,
        f"if {test}:",
        "    state.steps += 1",  # (`dispatch`'s `state.charge(1)`: no checkpoint is due)
        f"    {add}",
        "    rec.last = None",
        "else:",
        f"    rec.last = {src.name(dispatch, 'D')}([o, v])",
    ]


def _store_label(n: str, value: str) -> list[str]:
    return [
        f"r = {value}",
        "if type(r) is Value and not r.label:",
        f"    r.label = {n}",
        f"V[{n}] = r",
    ]


def _store(src: Source, store: Any, value: str) -> list[str]:
    """`store(f, value)`, written in where the store is a local's or an attribute's."""
    shape = src.shape(store)
    if shape[0] == "store_label":
        return _store_label(src.name(shape[1], "N"), value)
    if shape[0] == "store_local":
        return [f"V[{src.name(shape[1], 'N')}] = {value}"]
    if shape[0] != "store_attr":
        return [f"{src.name(store, 'S')}(f, {value})"]
    _, local, obj, attr, set_attr = shape
    target = src.local(local, obj) if local is not None else f"{src.name(obj, 'E')}(f)"
    a = src.name(attr, "A")
    # A traced node's attribute that is none of its class's watched names (its number,
    # gradient, operands, op and rule: `Machine.set_attr` has the recorder see those, an
    # op set after the node is made, `out._op = '+'`, a rule set on an operand,
    # `self._backward = _backward`), such as a label, is written as `set_attr` writes it.
    unwatched = (
        f"(s_ := o.cls.shape).grad != {a} and s_.number != {a}"
        f" and s_.operands != {a} and s_.second != {a} and s_.op != {a} and s_.rule != {a}"
    )
    return [
        f"r = {value}",
        f"o = {target}",
        "if type(o) is PInstance and not o.cls.has_properties"
        f" and (o.mirror is None or {unwatched}):",
        f"    o.attrs[{a}] = r",
        "else:",
        f"    {src.name(set_attr, 'F')}(o, {src.name(attr, 'A')}, r)",
    ]


def _grad(src: Source, shape: Shape) -> list[str]:
    """`child.grad += term` (`Compiler.grad_write`): the child, its gradient before, the
    term and the sum computed here, in its order; the write is its `finish`. The
    attribute's name (`grad`, `gradient`…: one of `Machine.grad_names`, an identifier)
    is written in as a constant, as `"grad"` always was; `updated` makes the sum
    as the closure makes it (its TypeError in `+=`'s words), and where that is
    `Machine.binary`'s (`update`) two plain numbers are added here (`_numbers`)."""
    _, obj, combine, term_of, finish, get_attr, binary, name, update, updated = shape
    assert name.isidentifier()
    get, op = src.name(get_attr, "F"), src.name(binary, "B")
    plus = src.name(updated, "B")  # the sum as the closure makes it, its errors' words too
    lines = [
        f"o = {src.expr(obj)}",
        f"if type(o) is PInstance and {name!r} in o.reads:",
        f"    b = o.reads[{name!r}]",
        "else:",
        f"    b = {get}(o, {name!r})",
        *_term(src, term_of, op),
    ]
    if combine == "+" and update is binary:
        lines.extend(_numbers("a", "b", "+", "v", f"{plus}(b, v)"))
    elif combine == "+":
        lines.append(f"a = b + v if type(b) is float and type(v) is float else {plus}(b, v)")
    else:
        lines.append(f"a = {plus}(b, v)")
    return [*lines, f"{src.name(finish, 'S')}(f, o, l, b, a)"]


def _grad_set(src: Source, shape: Shape) -> list[str]:
    """`self.grad = 0.0` (`Compiler.grad_write` with no update): the term, then the
    object, computed in its order; where the object is one of the program's that no
    graph holds yet and has no such attribute (a node's `__init__`), it is written as
    the write's `finish` writes it first, else `finish` does it all."""
    _, obj, term_of, finish, name, binary = shape
    a = src.name(name, "A")
    return [
        *_term(src, term_of, src.name(binary, "B")),
        f"o = {src.expr(obj)}",
        "if type(o) is PInstance and o.mirror is None and not o.cls.has_properties"
        f" and {a} not in o.reads:",
        f"    o.attrs[{a}] = v",
        "else:",
        f"    {src.name(finish, 'S')}(f, o, l, None, v)",
    ]


def _numbers(result: str, left: str, op: str, right: str, otherwise: str) -> list[str]:
    """`result = left op right` (`+` or `*`) for two plain numbers as `Machine.binary`
    computes it (`Machine.numbers`), where no error can come of it: floats, and ints
    and bools within `SMALL_INT` (no float conversion overflows, a product or sum
    outside it is measured by `check_int` as `numbers` measures it); `otherwise` for
    anything else (a Value, an object, a huge int, NaN or an infinity)."""
    both = f"{left} {op} {right}"
    return [
        f"if type({left}) is float and type({right}) is float:",
        f"    {result} = {both}",
        f"elif type({left}) in NUMBERS_ and type({right}) in NUMBERS_"
        f" and -SMALL_INT <= {left} <= SMALL_INT and -SMALL_INT <= {right} <= SMALL_INT:",
        f"    {result} = {both}",
        f"    if type({result}) is int and not -SMALL_INT <= {result} <= SMALL_INT:",
        f"        state.check_int({result})",
        "else:",
        f"    {result} = {otherwise}",
    ]


def _term(src: Source, term_of: Any, op: str) -> list[str]:
    """A gradient write's term as `Compiler.local_term` computes it: `l` its local
    factor, `v` its value."""
    shape = src.shape(term_of)
    kind = shape[0]
    if kind == "term":
        first, second = "l", "u"
    elif kind == "term_upstream":
        first, second = "u", "l"
    elif kind == "term_plain":
        return [f"l = {src.name(shape[1], 'K')}", f"v = {src.expr(shape[2])}"]
    else:
        return [f"l, v = {src.name(term_of, 'E')}(f)"]
    return [
        f"{first} = {src.expr(shape[1])}",
        f"{second} = {src.expr(shape[2])}",
        *_numbers("v", first, "*", second, f'{op}("*", {first}, {second})'),
    ]


def _if(src: Source, shape: Shape) -> list[str]:
    _, test, body, orelse, truthy = shape
    lines = [
        f"q = {src.expr(test)}",
        f"if q is True or (q is not False and {src.name(truthy, 'H')}(q)):",
        f"    signal = {src.name(body, 'C')}(f)",
    ]
    if orelse is not None:
        return [*lines, "else:", f"    signal = {src.name(orelse, 'C')}(f)"]
    return [*lines, "else:", "    signal = None"]


def _if_written(src: Source, shape: Shape, level: int, loop: str | None) -> list[str] | None:
    """`if` with its blocks written in whole, in this function, where each is a block
    of `in_order` (`Compiler.in_order` notes its entries as `("block", entries)`): a
    call of the block's function fewer, and of `when_hot`'s, each time it runs. Its
    statements are located, charged and grouped as that block's function does it; a
    `return` or a signal in them is this function's to return, as the block's own would
    be returned by the `if`'s caller. None where a block is not one, or past
    `MAX_NESTED` (the Python written stays within CPython's static nesting)."""
    _, test, body, orelse, truthy = shape
    if level >= MAX_NESTED or src.written >= MAX_WRITTEN:
        return None
    blocks = [src.shape(body)] + ([src.shape(orelse)] if orelse is not None else [])
    if not _fits(src, blocks):
        return None
    q = f"q{level}"
    lines = [
        f"{q} = {src.expr(test)}",
        f"if {q} is True or ({q} is not False and {src.name(truthy, 'H')}({q})):",
    ]
    written, _ = _entries(src, blocks[0][1], level + 1, loop)
    lines.extend("    " + line for line in written)
    if orelse is not None:
        written, _ = _entries(src, blocks[1][1], level + 1, loop)
        lines.append("else:")
        lines.extend("    " + line for line in written)
    return lines


def _for_written(src: Source, shape: Shape, level: int, loop: str | None) -> list[str] | None:
    """`for` written in whole, its body's statements in this function (a block of
    `in_order`, as `_if_written` writes one): what `Compiler.for_loop`'s closure does,
    in its order — the iterable evaluated and iterated (`Machine.iterate`), a step
    charged and the target stored for each item, the body's `break` and `continue`
    Python's own, any other signal returned, the `else` block run where no `break` left
    the loop. `p` is the `for`'s own position (`here`) wherever the closure's errors
    were located at it: the iteration's, the step's checkpoint's, the target's store.
    None where the body (or the `else`) is not such a block, or past `MAX_NESTED`."""
    _, iterable, local, store, body, orelse, iterate, here = shape
    if level >= MAX_NESTED or src.written >= MAX_WRITTEN:
        return None
    blocks = [src.shape(body)] + ([src.shape(orelse)] if orelse is not None else [])
    if not _fits(src, blocks):
        return None
    position = src.name(here, "P")
    item = f"i{level}"
    lines = [
        f"for {item} in {src.name(iterate, 'F')}({src.expr(iterable)}):",
        f"    p = {position}",
    ]
    if local is not None:  # the item's step and the body's first together (`_charge2`)
        first = src.name(blocks[0][1][0][1], "P")
        target = f"V[{src.name(local, 'N')}] = {item}"
        lines.extend("    " + line for line in _charge2(target, first))
        paid = "yes"
    else:
        lines += [
            "    state.steps += 1",
            "    if state.steps > state.next_check:",
            "        state.checkpoint()",
            f"    {src.name(store, 'S')}(f, {item})",
        ]
        paid = "no"
    written, _ = _entries(src, blocks[0][1], level + 1, position, paid)
    lines.extend("    " + line for line in written)
    lines.append(f"    p = {position}")  # the next item's iteration is the `for`'s
    if orelse is not None:
        written, _ = _entries(src, blocks[1][1], level + 1, loop)
        lines.append("else:")
        lines.extend("    " + line for line in written)
    return lines


def _while_written(src: Source, shape: Shape, level: int, loop: str | None) -> list[str] | None:
    """`while` written in whole, as `_for_written` writes a `for`: what
    `Compiler.while_loop`'s closure does — the test at the `while`'s position each turn,
    a step charged, the body's `break` and `continue` Python's own, the `else` block
    where no `break` left the loop, and a bound that stops it after `LOOP_HINT_TURNS`
    turns given the loop's hint."""
    _, test, truthy, body, orelse, hint, here = shape
    if level >= MAX_NESTED or src.written >= MAX_WRITTEN:
        return None
    blocks = [src.shape(body)] + ([src.shape(orelse)] if orelse is not None else [])
    if not _fits(src, blocks):
        return None
    position, turns, q, ended = src.name(here, "P"), f"w{level}", f"q{level}", f"e{level}"
    truth = (
        f"({q} := {src.expr(test)}) is True or ({q} is not False and {src.name(truthy, 'H')}({q}))"
    )
    lines = [
        f"{turns} = 0",
        f"{ended} = False",
        f"p = {position}",
        "try:",
        f"    while {truth}:",
        f"        {turns} += 1",
        *("        " + line for line in _charge2("", src.name(blocks[0][1][0][1], "P"))),
    ]
    written, _ = _entries(src, blocks[0][1], level + 1, position, "yes")
    lines.extend("        " + line for line in written)
    lines.append(f"        p = {position}")  # the next turn's test is the `while`'s
    # The `else` block runs after the `try`, as the closure runs it after its own.
    lines.extend(["    else:", f"        {ended} = True"])
    hinted = src.name(hint, "F")
    lines.extend(
        [
            "except ProgramError as error:",
            f"    if {turns} >= LOOP_HINT_TURNS and error.runaway():",
            f"        error.hint = {hinted}({turns})",
            "    raise",
        ]
    )
    if orelse is not None:
        written, _ = _entries(src, blocks[1][1], level + 1, loop)
        lines.append(f"if {ended}:")
        lines.extend("    " + line for line in written)
    return lines


def _charge2(between: str, first: str) -> list[str]:
    """A loop's step for its turn and its body's first statement's step charged
    together, where nothing between the two (`between`: the store of the item in a
    local, or nothing) can see the count or fail: the sum charged at once, and where it
    would pass the next checkpoint, the two charged and checked one after the other as
    before, the turn's checkpoint located at `p` (the loop's), the statement's at
    `first`."""
    both = ["state.steps -= 1", "if state.steps > state.next_check:", "    state.checkpoint()"]
    both += [between] if between else []
    both += [
        "state.steps += 1",
        "if state.steps > state.next_check:",
        f"    p, c = None, {first}",
        "    state.checkpoint()",
    ]
    lines = ["state.steps += 2", "if state.steps > state.next_check:"]
    lines += ["    " + line for line in both]
    return [*lines, "else:", f"    {between}"] if between else lines


def _wrapped(p: str, t: str, body: list[str], anchors: bool, paid: str = "no") -> list[str]:
    """`in_order`'s bookkeeping around one statement's lines (`p` and `t` the names of
    its position and text). `paid`: whether its step is charged here ("no"), was
    charged already by the `for` or `while` whose body it begins ("yes", `_charge2`),
    or is the first of a function's body ("owed": charged here in `run`, by `enter`'s
    own charge in `enter` unless `owed_`, `_owing`)."""
    charge = [
        "state.steps += 1",
        "if state.steps > state.next_check:",
        f"    p, c = None, {p}",
        "    state.checkpoint()",
    ]
    if paid == "yes":
        charge = []
    elif paid == "owed":
        charge = [OWED + line for line in charge]
    out = [*charge, f"p = state.position = {p}"]
    if anchors:  # an update group opened here is closed here, as `in_order` does
        # (`a_`: whether no group was open when the block began; none is open before
        # each of its statements then, as each closes the one it opened, and else the
        # one open stays open, as only the statement that opened it closes it.)
        out.append("if a_:")  # `rec.open_anchor({p}[0], {t})`, inline
        out.append("    rec._anchor_count = k_ = rec._anchor_count + 1")
        out.append(f"    rec.anchor = (k_, {p}[0], {t})")
        out.append("try:")
        out.extend("    " + line for line in body)
        out.append("finally:")
        out.append("    if a_:")
        out.append("        rec.anchor = None")
    else:
        out.extend(body)
    return out
