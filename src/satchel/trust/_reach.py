"""Which files a command can run: what a trust pin must cover (`satchel.trust._approval`).

A hook's shell command is read as ``/bin/sh`` would read it, without running anything:
quotes and backslashes are removed; ``$VAR``, ``${VAR}`` and their quoted forms are
expanded for the variables the host sets (``CLAUDE_PROJECT_DIR``,
``CLAUDE_PLUGIN_ROOT``, ``PLUGIN_ROOT``..., ``HOME``, and ``PWD``, which follows
``cd``); ``cd`` is followed (every directory a command may be in counts); the commands
of ``sh -c '...'`` and ``eval`` are read in turn. Every word that then names a
regular file inside the pinned area counts as a file the command runs, and so does
the folder holding it (a script may run its neighbours: ``source ./lib.sh``,
``import helpers``); a word naming a directory counts as that directory.

Where the files cannot be determined, `Reach.undetermined` says why, and the caller
pins the whole directory the command runs in. That is so when a word holds a command
substitution, backticks, an unquoted glob, a variable the host does not set or one
whose value would be split, ``cd -``, ``python -c``/``node -e`` code, too many
directories or nested shells, or when a program is neither a file named by its path
nor one satchel knows to run only what its words name: the shells and interpreters
(``sh``, ``bash``, ``python3``, ``node``, ``ruby``, ``perl``...) and the common
utilities that run no file of the project (``echo``, ``cat``, ``grep``, ``jq``,
``git``...). ``make``, ``npm run``, ``pytest`` or an unknown tool may run any file of
the tree, so a command that starts one pins the tree.

Exec form (an argv, no shell) is read the same way without the shell's expansions.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from satchel.core._model import model

__all__ = ["PWD", "Reach", "argv_reach", "shell_reach"]

PWD = "\0PWD\0"  # where $PWD stands until a directory is chosen
MAX_DIRECTORIES = 16
MAX_DEPTH = 4
SHELLS = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox"))
INTERPRETERS = frozenset(
    [
        "python",
        "python3",
        "pypy",
        "pypy3",
        "node",
        "nodejs",
        "deno",
        "bun",
        "ruby",
        "perl",
        "php",
        "lua",
        "Rscript",
        "tclsh",
        "osascript",
        "pwsh",
        "awk",
        "gawk",
        "sed",
        "jq",
    ]
)
_TEXT_TOOLS = frozenset(("awk", "gawk", "sed", "jq"))  # their inline programs run no file
INLINE_CODE = frozenset(("-c", "-e", "--eval", "-E", "-p", "--print", "-r"))
QUIET = frozenset(
    [
        "echo",
        "printf",
        "true",
        "false",
        ":",
        "exit",
        "return",
        "test",
        "[",
        "cat",
        "grep",
        "egrep",
        "fgrep",
        "sleep",
        "date",
        "touch",
        "mkdir",
        "rm",
        "rmdir",
        "cp",
        "mv",
        "ls",
        "head",
        "tail",
        "tr",
        "cut",
        "sort",
        "uniq",
        "wc",
        "tee",
        "basename",
        "dirname",
        "pwd",
        "export",
        "set",
        "unset",
        "read",
        "shift",
        "wait",
        "kill",
        "trap",
        "umask",
        "git",
        "notify-send",
        "logger",
        "which",
        "type",
        "readlink",
        "realpath",
        "stat",
        "chmod",
        "mktemp",
        "printenv",
        "id",
        "whoami",
        "hostname",
        "uname",
        "diff",
        "cmp",
        "sha256sum",
        "base64",
        "curl",
        "wget",
        "tput",
        "say",
        "afplay",
        "paplay",
        "terminal-notifier",
    ]
)
WRAPPERS = frozenset(("env", "exec", "command", "nohup", "time", "nice", "timeout", "builtin"))
KEYWORDS = frozenset(
    [
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "for",
        "while",
        "until",
        "do",
        "done",
        "case",
        "esac",
        "in",
        "!",
        "{",
        "}",
        "function",
        "select",
    ]
)
_OPERATORS = ("&&", "||", ";;", "|&", ";", "&", "|", "(", ")")
_REDIRECTS = ("<<<", "<<-", ">>", ">&", "<&", "<<", "<>", ">|", ">", "<")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_SPLIT = re.compile(r"[\s*?\[]")


class _Unknown(Exception):
    """The files cannot be determined; the message says why."""


@model
class Reach:
    """The regular files and directories a command names inside the pinned area, and
    why its files cannot be determined, when they cannot."""

    files: tuple[Path, ...] = ()
    trees: tuple[Path, ...] = ()
    undetermined: str | None = None


@dataclass(slots=True)
class _Found:
    inside: tuple[str, ...]
    files: dict[Path, None] = field(default_factory=dict)
    trees: dict[Path, None] = field(default_factory=dict)

    def name(self, text: str, directories: Sequence[str]) -> bool:
        """Count what `text` names, from each directory the command may be in; whether
        it named a file inside."""
        named = False
        for base in directories:
            path = os.path.realpath(os.path.join(base, text.replace(PWD, base)))
            if not any(path == i or path.startswith(i + os.sep) for i in self.inside):
                continue
            if os.path.isfile(path):
                self.files[Path(path)] = None
                self.trees[Path(os.path.dirname(path))] = None
                named = True
            elif os.path.isdir(path):
                self.trees[Path(path)] = None
        return named


def shell_reach(
    command: str, *, cwd: Path, variables: Mapping[str, str], inside: Sequence[Path]
) -> Reach:
    """What ``/bin/sh -c COMMAND`` can run, run in `cwd` with the host's `variables`;
    only paths under `inside` count."""
    found = _Found(tuple(os.path.realpath(p) for p in inside))
    try:
        _shell(command, [str(cwd)], dict(variables), found, 0)
    except _Unknown as e:
        return Reach(tuple(found.files), tuple(found.trees), str(e))
    return Reach(tuple(found.files), tuple(found.trees))


def argv_reach(argv: Sequence[str], *, cwd: Path, inside: Sequence[Path]) -> Reach:
    """What an argv (exec form, no shell) can run from `cwd`: every word that names a
    file; a shell's ``-c`` command is read as a shell command."""
    found = _Found(tuple(os.path.realpath(p) for p in inside))
    try:
        _simple([("word", w) for w in argv], [str(cwd)], {}, found, 0, shell=False)
    except _Unknown as e:
        return Reach(tuple(found.files), tuple(found.trees), str(e))
    return Reach(tuple(found.files), tuple(found.trees))


# -- reading a shell command -------------------------------------------------------------

Token = tuple[str, str]  # ("word" | "op" | "redirect", text)


def _shell(
    command: str, directories: list[str], variables: dict[str, str], found: _Found, depth: int
) -> None:
    if depth > MAX_DEPTH:
        raise _Unknown("shells nest too deep")
    current: list[Token] = []
    for kind, text in _tokens(command, variables):
        if kind != "op":
            current.append((kind, text))
            continue
        # a `cd` in a subshell or a pipeline stage is kept among the directories the
        # rest may run in: more candidates, never fewer
        _simple(current, directories, variables, found, depth, shell=True)
        current = []
    _simple(current, directories, variables, found, depth, shell=True)


def _simple(
    tokens: list[Token],
    directories: list[str],
    variables: dict[str, str],
    found: _Found,
    depth: int,
    *,
    shell: bool,
) -> None:
    """One simple command: its program decides whether its words are all it runs."""
    words: list[str] = []
    redirect = ""
    for kind, text in tokens:
        if kind == "redirect":
            redirect = text
        elif redirect:
            if redirect.startswith("<") and not redirect.startswith("<<"):
                found.name(text, directories)  # `sh < script.sh` runs it
            redirect = ""
        else:
            words.append(text)
    while words and (words[0] in KEYWORDS or (shell and _ASSIGNMENT.match(words[0]))):
        words = words[1:]
    if words:
        _program(words, directories, variables, found, depth)


def _program(
    words: list[str],
    directories: list[str],
    variables: dict[str, str],
    found: _Found,
    depth: int,
) -> None:
    name = os.path.basename(words[0].replace(PWD, "."))
    rest = words[1:]
    if name in ("cd", "pushd"):
        _cd(rest, directories, variables)
        return
    if name == "popd":
        return
    if name in WRAPPERS:
        _wrapped(rest, directories, variables, found, depth)
        return
    if name == "eval":
        _shell(" ".join(rest), directories, variables, found, depth + 1)
        return
    by_path = found.name(words[0], directories)
    for word in rest:
        found.name(word, directories)
        if "=" in word:
            found.name(word.partition("=")[2], directories)
    if name in SHELLS and "-c" in rest[:-1]:
        _shell(rest[rest.index("-c") + 1], directories, variables, found, depth + 1)
    elif name in INTERPRETERS and name not in _TEXT_TOOLS and INLINE_CODE.intersection(rest):
        raise _Unknown(f"{name} runs code given on its command line")
    elif name.startswith("python") and "-m" in rest[:-1]:
        _module(rest[rest.index("-m") + 1], directories, found)
    elif not (by_path or _known(name)):
        raise _Unknown(f"{name!r} may run files its words do not name")


def _known(name: str) -> bool:
    """A program that runs only what its words name (a file named by its path, inside,
    is known too: it was counted)."""
    if name in SHELLS or name in QUIET or name in (".", "source"):
        return True
    return name in INTERPRETERS or re.fullmatch(r"python3\.\d+", name) is not None


def _wrapped(
    rest: list[str], directories: list[str], variables: dict[str, str], found: _Found, depth: int
) -> None:
    words = [w for w in rest if not w.startswith("-") and not _ASSIGNMENT.match(w)]
    if words and re.fullmatch(r"[0-9.]+[smhd]?", words[0]):
        words = words[1:]  # timeout's duration
    if words:
        _program(words, directories, variables, found, depth)


def _module(module: str, directories: list[str], found: _Found) -> None:
    before = (len(found.files), len(found.trees))
    path = module.replace(".", "/")
    for candidate in (f"{path}.py", path):
        found.name(candidate, directories)
    if (len(found.files), len(found.trees)) == before:
        raise _Unknown(f"python -m {module} is not a module of the project")


def _cd(rest: list[str], directories: list[str], variables: dict[str, str]) -> None:
    targets = [w for w in rest if not w.startswith("-") or w == "-"]
    if targets and targets[0] == "-":
        raise _Unknown("cd - goes back to a directory not known here")
    target = targets[0] if targets else variables.get("HOME", "/")
    for base in list(directories):
        path = os.path.realpath(os.path.join(base, target.replace(PWD, base)))
        if path not in directories:
            directories.append(path)
    if len(directories) > MAX_DIRECTORIES:
        raise _Unknown("the command changes directory too often")


# -- words -------------------------------------------------------------------------------


def _tokens(command: str, variables: Mapping[str, str]) -> list[Token]:
    """The words, operators and redirections of `command`, with quotes removed and
    the host's variables expanded (see the module docstring)."""
    lexer = _Lexer(command, variables)
    return lexer.run()


class _Lexer:
    def __init__(self, text: str, variables: Mapping[str, str]) -> None:
        self.text = text
        self.variables = variables
        self.i = 0
        self.tokens: list[Token] = []
        self.word: list[str] = []
        self.started = False

    def run(self) -> list[Token]:
        text = self.text
        while self.i < len(text):
            self._step(text[self.i])
        self._flush()
        return self.tokens

    def _step(self, c: str) -> None:
        text, i = self.text, self.i
        if c in " \t":
            self._flush()
            self.i += 1
        elif c == "\n":
            self._flush()
            self.tokens.append(("op", ";"))
            self.i += 1
        elif c == "#" and not self.started:
            end = text.find("\n", i)
            self.i = len(text) if end < 0 else end
        elif c == "\\":
            if text[i + 1 : i + 2] != "\n":
                self._add(text[i + 1 : i + 2])
            self.i += 2
        elif c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise _Unknown("a quote is not closed")
            self._add(text[i + 1 : end])
            self.i = end + 1
        elif c == '"':
            self._double()
        elif c == "$":
            self._add(self._expand(quoted=False))
        elif c == "`":
            raise _Unknown("backticks run a command")
        elif c in "*?" or (c == "[" and (self.started or text[i + 1 : i + 2] not in (" ", ""))):
            raise _Unknown("an unquoted glob")
        elif c == "~" and not self.started:
            self._tilde()
        elif not self._operator():
            self._add(c)
            self.i += 1

    def _operator(self) -> bool:
        rest = self.text[self.i :]
        for op in _REDIRECTS:
            if rest.startswith(op):
                if self.word and "".join(self.word).isdigit():
                    self.word, self.started = [], False  # 2>: a descriptor, not a word
                self._flush()
                self.tokens.append(("redirect", op))
                self.i += len(op)
                return True
        for op in _OPERATORS:
            if rest.startswith(op):
                self._flush()
                self.tokens.append(("op", op))
                self.i += len(op)
                return True
        return False

    def _double(self) -> None:
        text = self.text
        self.i += 1
        self.started = True
        while self.i < len(text) and text[self.i] != '"':
            c = text[self.i]
            if c == "\\" and text[self.i + 1 : self.i + 2] in ('"', "\\", "$", "`", "\n"):
                self.word.append(text[self.i + 1])
                self.i += 2
            elif c == "$":
                self.word.append(self._expand(quoted=True))
            elif c == "`":
                raise _Unknown("backticks run a command")
            else:
                self.word.append(c)
                self.i += 1
        if self.i >= len(text):
            raise _Unknown("a quote is not closed")
        self.i += 1

    def _expand(self, *, quoted: bool) -> str:
        text, i = self.text, self.i + 1
        if text[i : i + 1] == "(":
            raise _Unknown("$( ) runs a command")
        if text[i : i + 1] == "{":
            end = text.find("}", i)
            name = text[i + 1 : end] if end > 0 else ""
            self.i = end + 1
        else:
            match = _NAME.match(text, i)
            if match is None:
                if text[i : i + 1] in ("", " ", "\t", "\n", '"', "/"):
                    self.i = i
                    return "$"
                raise _Unknown(f"${text[i : i + 1]} is set by the shell, not the host")
            name = match.group()
            self.i = match.end()
        if not _NAME.fullmatch(name):
            raise _Unknown(f"${{{name}}} is not a plain variable")
        return self._value(name, quoted)

    def _value(self, name: str, quoted: bool) -> str:
        if name == "PWD":
            return PWD
        if name not in self.variables:
            raise _Unknown(f"${name} is not set by the host")
        value = self.variables[name]
        if not quoted and _SPLIT.search(value):
            raise _Unknown(f"${name} would be split into several words")
        return value

    def _tilde(self) -> None:
        after = self.text[self.i + 1 : self.i + 2]
        if after not in ("", "/", " ", "\t", "\n", ";"):
            raise _Unknown("~user names another user's home")
        self._add(self.variables.get("HOME", "~"))
        self.i += 1

    def _add(self, text: str) -> None:
        self.word.append(text)
        self.started = True

    def _flush(self) -> None:
        if self.started:
            self.tokens.append(("word", "".join(self.word)))
        self.word, self.started = [], False
