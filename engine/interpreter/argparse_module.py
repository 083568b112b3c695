"""`argparse` as a training script uses it: `parser = argparse.ArgumentParser(...)`,
`parser.add_argument("--epochs", type=int, default=20)`, then `args = parser.parse_args()`
under `if __name__ == "__main__":`. A script here runs with no arguments (`sys.argv` is
`['/program/main.py']`), so `parse_args()` gives the defaults; a list given to it
(`parse_args(["--lr", "0.1"])`, as a notebook does) is parsed as CPython 3.11 parses it
for the usual arguments: optionals (`--name value`, `--name=value`, `-n value`, a unique
prefix of a long name), positionals, `nargs` (None, `'?'`, `'*'`, `'+'`, a count), the
actions `store`, `store_true`, `store_false`, `store_const`, `append` and `count`,
`type`, `choices`, `required`, `dest`, `default` (a string default of an argument not
given converted by its `type`, as CPython does), `set_defaults`, `parse_known_args` and
`Namespace` (shown as CPython shows it, its names sorted). A wrong command line is
CPython's `prog: error: …` on stderr (printed here) and `SystemExit: 2`, after a one-line
usage. Not here: help (`-h` is an unknown argument, `print_help` is missing), groups,
subparsers, abbreviations of short options, `fromfile_prefix_chars`.

The source below is in the interpreter's own language, compiled in library mode when a
program imports `argparse` (`Compiler.library_module`): every step it takes is the
program's, bounded as the program is.
"""

from __future__ import annotations

ARGPARSE_SOURCE = r"""
import sys


class ArgumentError(Exception):
    pass


class ArgumentTypeError(Exception):
    pass


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        self._prog = prog


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    pass


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class Namespace:
    def __init__(self, **kwargs):
        for name in kwargs:
            setattr(self, name, kwargs[name])

    def __repr__(self):
        shown = []
        star = {}
        for name, value in vars(self).items():
            if name.isidentifier():
                shown.append(f"{name}={value!r}")
            else:
                star[name] = value
        if star:
            shown.append(f"**{star!r}")
        return f"Namespace({', '.join(shown)})"

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        return vars(self) == vars(other)

    def __contains__(self, key):
        return key in vars(self)

    __hash__ = None


class _Action:
    def __init__(self, flags, dest, action, nargs, const, default, type, choices, required):
        self.option_strings = flags
        self.dest = dest
        self.action = action
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required

    def name(self):
        return "/".join(self.option_strings) if self.option_strings else self.dest

    def usage(self):
        if self.choices is not None:
            metavar = "{" + ",".join(str(choice) for choice in self.choices) + "}"
        else:
            metavar = self.dest if not self.option_strings else self.dest.upper()
        if self.nargs == 0:
            text = ""
        elif self.nargs is None:
            text = metavar
        elif self.nargs == "?":
            text = "[" + metavar + "]"
        elif self.nargs == "*":
            text = "[" + metavar + " ...]"
        elif self.nargs == "+":
            text = metavar + " [" + metavar + " ...]"
        else:
            text = " ".join([metavar] * self.nargs)
        if not self.option_strings:
            return text
        text = (self.option_strings[0] + " " + text).strip()
        return text if self.required else "[" + text + "]"


def _usage_lines(parts, indent, prefix=None):
    lines = []
    line = []
    size = len(prefix) - 1 if prefix is not None else len(indent) - 1
    for part in parts:
        if size + 1 + len(part) > 78 and line:
            lines.append(indent + " ".join(line))
            line = []
            size = len(indent) - 1
        line.append(part)
        size += len(part) + 1
    if line:
        lines.append(indent + " ".join(line))
    if prefix is not None:
        lines[0] = lines[0][len(indent):]
    return lines


_FLAGS = ("store_true", "store_false", "store_const", "count")


def _not_a_flag(flag):
    return f"invalid option string {flag!r}: must start with a character '-'"


def _is_number(token):
    try:
        float(token)
    except ValueError:
        return False
    return True


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=[],
                 formatter_class=HelpFormatter, prefix_chars="-", fromfile_prefix_chars=None,
                 argument_default=None, conflict_handler="error", add_help=True,
                 allow_abbrev=True, exit_on_error=True):
        self.prog = sys.argv[0].rsplit("/", 1)[-1] if prog is None else prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.allow_abbrev = allow_abbrev
        self._actions = []
        self._defaults = {}
        for parent in parents:
            self._actions.extend(parent._actions)
            self._defaults.update(parent._defaults)

    def add_argument(self, *names, action="store", nargs=None, const=None, default=None,
                     type=None, choices=None, required=None, help=None, metavar=None, dest=None):
        if not names:
            raise TypeError("add_argument() needs a name or flags here")
        if names[0][:1] == "-":
            for flag in names:
                if flag[:1] != "-":
                    raise ValueError(_not_a_flag(flag))
            if dest is None:
                longs = [flag for flag in names if flag[:2] == "--"]
                dest = (longs[0] if longs else names[0]).lstrip("-").replace("-", "_")
            flags = list(names)
            required = bool(required)
        else:
            if len(names) > 1:
                raise ValueError(_not_a_flag(names[1]))
            if dest is not None:
                raise ValueError("dest supplied twice for positional argument")
            if required is not None:
                raise TypeError("'required' is an invalid argument for positionals")
            dest = names[0]
            flags = []
            required = nargs not in ("?", "*")
        if action == "store_true":
            nargs, const, default = 0, True, False if default is None else default
        elif action == "store_false":
            nargs, const, default = 0, False, True if default is None else default
        elif action in ("store_const", "count"):
            nargs = 0
        elif action not in ("store", "append"):
            raise ValueError(f"unknown action {action!r}")
        made = _Action(flags, dest, action, nargs, const, default, type, choices, required)
        self._actions.append(made)
        return made

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)

    def get_default(self, dest):
        if dest in self._defaults:
            return self._defaults[dest]
        for action in self._actions:
            if action.dest == dest:
                return action.default
        return None

    def format_usage(self):
        if self.usage is not None:
            return "usage: " + self.usage.replace("%(prog)s", self.prog) + "\n"
        optionals = ["[-h]"] + [a.usage() for a in self._actions if a.option_strings]
        positionals = [a.usage() for a in self._actions if not a.option_strings]
        text = " ".join([self.prog] + optionals + positionals)
        if len("usage: ") + len(text) > 78:  # CPython's wrapping, for 80 columns
            indent = " " * (len("usage: ") + len(self.prog) + 1)
            if len("usage: ") + len(self.prog) <= 0.75 * 78:
                lines = _usage_lines([self.prog] + optionals, indent, "usage: ")
                lines += _usage_lines(positionals, indent) if positionals else []
            else:
                indent = " " * len("usage: ")
                lines = [self.prog] + _usage_lines(optionals + positionals, indent)
            text = "\n".join(lines)
        return "usage: " + text + "\n"

    def print_usage(self, file=None):
        print(self.format_usage(), end="", file=sys.stdout if file is None else file)

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)

    def exit(self, status=0, message=None):
        if message:
            print(message, end="", file=sys.stderr)
        sys.exit(status)

    def parse_args(self, args=None, namespace=None):
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error("unrecognized arguments: " + " ".join(extras))
        return namespace

    def _find(self, token):
        name, equals, value = token.partition("=")
        exact = [a for a in self._actions if name in a.option_strings]
        if exact:
            return exact[0], value if equals else None
        if self.allow_abbrev and name[:2] == "--":
            found = [a for a in self._actions for f in a.option_strings
                     if f[:2] == "--" and f.startswith(name)]
            if len(found) == 1:
                return found[0], value if equals else None
            if len(found) > 1:
                flags = ", ".join(f for a in found for f in a.option_strings if f.startswith(name))
                self.error(f"ambiguous option: {name} could match {flags}")
        return None, None

    def _convert(self, action, text):
        if action.type is None or not isinstance(text, str):
            value = text
        else:
            try:
                value = action.type(text)
            except ArgumentTypeError as error:
                self.error(f"argument {action.name()}: {error}")
            except (TypeError, ValueError):
                try:
                    kind = action.type.__name__
                except AttributeError:
                    kind = repr(action.type)
                self.error(f"argument {action.name()}: invalid {kind} value: {text!r}")
        if action.choices is not None and value not in action.choices:
            shown = ", ".join(repr(choice) for choice in action.choices)
            self.error(f"argument {action.name()}: invalid choice: {value!r} (choose from {shown})")
        return value

    def _store(self, namespace, action, values):
        if action.action == "count":
            count = getattr(namespace, action.dest, None)
            setattr(namespace, action.dest, (0 if count is None else count) + 1)
        elif action.action in _FLAGS:
            setattr(namespace, action.dest, action.const)
        else:
            if action.nargs is None or action.nargs == "?":
                value = self._convert(action, values[0]) if values else action.const
            else:
                value = [self._convert(action, v) for v in values]
            if action.action == "append":
                kept = getattr(namespace, action.dest, None)
                value = (list(kept) if kept else []) + [value]
            setattr(namespace, action.dest, value)

    def _takes(self, action, tokens, at, name):
        nargs = action.nargs
        free = 0
        while at + free < len(tokens) and not (
            tokens[at + free][:1] == "-" and len(tokens[at + free]) > 1
            and not _is_number(tokens[at + free])
        ):
            free += 1
        if nargs is None:
            wanted = 1
        elif nargs == "?":
            wanted = min(free, 1)
        elif nargs == "*":
            wanted = free
        elif nargs == "+":
            wanted = max(free, 1)
        else:
            wanted = nargs
        if wanted > free:
            words = {None: "expected one argument", "+": "expected at least one argument"}
            many = "s" if nargs != 1 else ""
            self.error(f"argument {name}: " + words.get(nargs, f"expected {nargs} argument{many}"))
        return tokens[at:at + wanted]

    def parse_known_args(self, args=None, namespace=None):
        tokens = sys.argv[1:] if args is None else list(args)
        if namespace is None:
            namespace = Namespace()
        for action in self._actions:
            if not hasattr(namespace, action.dest):
                setattr(namespace, action.dest, action.default)
        for dest in self._defaults:
            if not hasattr(namespace, dest):
                setattr(namespace, dest, self._defaults[dest])
        seen = []
        extras = []
        free = []
        at = 0
        while at < len(tokens):
            token = tokens[at]
            if token == "--":
                free.extend(tokens[at + 1:])
                break
            if token[:1] != "-" or len(token) == 1 or _is_number(token):
                free.append(token)
                at += 1
                continue
            action, attached = self._find(token)
            while action is None and token[:2] != "--" and len(token) > 2:
                # `-vv`, `-e5`: short options run together, or a value attached to one
                action, attached = self._find(token[:2])
                if action is None:
                    break
                if action.nargs != 0:
                    attached = token[2:]
                    break
                seen.append(action)
                self._store(namespace, action, [])
                token = "-" + token[2:]
                action, attached = self._find(token)
            if action is None:
                extras.append(tokens[at])
                at += 1
                continue
            seen.append(action)
            if action.nargs == 0:
                if attached is not None:
                    self.error(f"argument {action.name()}: ignored explicit argument {attached!r}")
                self._store(namespace, action, [])
                at += 1
            elif attached is not None:
                self._store(namespace, action, [attached])
                at += 1
            else:
                values = self._takes(action, tokens, at + 1, action.name())
                self._store(namespace, action, values)
                at += 1 + len(values)
        for action in self._actions:
            if action.option_strings:
                continue
            values = self._takes(action, free, 0, action.dest) if free else []
            free = free[len(values):]
            if values or action.nargs in ("?", "*"):
                if not values:  # its default, a string one as if it were given
                    value = action.default
                    if value is None and action.nargs == "*":
                        value = []
                    elif isinstance(value, str):
                        value = self._convert(action, value)
                    setattr(namespace, action.dest, value)
                else:
                    self._store(namespace, action, values)
                seen.append(action)
        extras.extend(free)
        missing = [a.name() for a in self._actions if a.required and a not in seen]
        if missing:
            self.error("the following arguments are required: " + ", ".join(missing))
        for action in self._actions:
            if action not in seen and isinstance(action.default, str) and action.type is not None:
                if getattr(namespace, action.dest) is action.default:
                    setattr(namespace, action.dest, self._convert(action, action.default))
        return namespace, extras
"""
ARGPARSE_NAMES = frozenset(
    {
        "ArgumentParser", "Namespace", "ArgumentError", "ArgumentTypeError", "HelpFormatter",
        "RawDescriptionHelpFormatter", "RawTextHelpFormatter", "ArgumentDefaultsHelpFormatter",
    }
)  # fmt: skip
