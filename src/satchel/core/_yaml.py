"""Safe YAML for frontmatter: the core schema only, no aliases, no tags, no duplicates.

Anchors are refused from the event stream, before anything is composed, so a
billion-laughs document costs no more than its own size. Then PyYAML composes the
document into nodes (libyaml's C parser when present), the nodes are checked, and
only then constructed.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
import yaml.resolver
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

__all__ = ["YamlProblem", "compose_checked"]

_CORE = "tag:yaml.org,2002:"
_TIMESTAMP = _CORE + "timestamp"
_ALLOWED_TAGS = frozenset(
    _CORE + t for t in ("null", "bool", "int", "float", "str", "seq", "map", "timestamp")
)
MAX_DEPTH = 64
MAX_NUMBER = 100  # characters: longer integers cost quadratic time to build, or fail
_NUMBER_TAGS = frozenset((_CORE + "int", _CORE + "float"))

_Base: type[yaml.SafeLoader]
try:
    _Base = yaml.CSafeLoader  # type: ignore[assignment]  # same interface, C parser
except AttributeError:  # PyYAML built without libyaml
    _Base = yaml.SafeLoader


_BOOL = _CORE + "bool"
# YAML 1.2's booleans: the words YAML 1.1 adds (yes, no, on, off) are text, as Claude
# Code, Codex and Gemini CLI read frontmatter (`description: on` is the text "on")
_BOOL_12 = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")


def _resolvers() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """PyYAML's implicit resolvers with its boolean rule narrowed to YAML 1.2's."""
    table: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for first, rules in yaml.resolver.Resolver.yaml_implicit_resolvers.items():
        kept = [(tag, _BOOL_12 if tag == _BOOL else rx) for tag, rx in rules]
        if first not in "tTfF":
            kept = [(tag, rx) for tag, rx in kept if tag != _BOOL]
        if kept:
            table[first] = kept
    return table


class _Loader(_Base):  # type: ignore[misc,valid-type]  # base chosen at import above
    """The safe loader, except that dates stay the strings that were written and only
    ``true`` and ``false`` are booleans (YAML 1.2)."""

    yaml_constructors = {  # noqa: RUF012  # PyYAML's class-level registry
        **SafeConstructor.yaml_constructors,
        _TIMESTAMP: SafeConstructor.construct_yaml_str,
    }
    yaml_implicit_resolvers = _resolvers()


class YamlProblem(Exception):  # a value, not a failure of satchel
    """A reason the YAML was refused: a diagnostic code, a message, a 0-based line."""

    def __init__(self, code: str, message: str, line: int | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line


def compose_checked(text: str) -> Any:
    """Parse `text` as one YAML document after checking it; raise `YamlProblem`."""
    try:
        return _compose_checked(text)
    except yaml.reader.ReaderError as e:
        raise _reader_problem(text, e) from None


def _reader_problem(text: str, e: yaml.reader.ReaderError) -> YamlProblem:
    """A character YAML refuses: say which, and where, on one line."""
    line = text.count("\n", 0, e.position)
    column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
    char = e.character if isinstance(e.character, str) else chr(e.character)
    where = f"line {line + 1}, column {column}"
    message = f"the character U+{ord(char):04X} is not allowed in YAML ({where})"
    return YamlProblem("frontmatter.yaml.syntax", message, line)


def _compose_checked(text: str) -> Any:
    if "&" in text:
        _refuse_anchors(text)
    loader = _Loader(text)
    try:
        node = _compose(loader)
        if node is None:
            return None
        _check(node)
        try:
            return loader.construct_document(node)
        except RecursionError:
            raise YamlProblem("frontmatter.yaml.depth", "nesting too deep", None) from None
        except yaml.YAMLError as e:  # a scalar the safe constructor cannot build
            raise _from_yaml_error(e) from None
        except (ValueError, OverflowError) as e:  # a number Python will not build
            raise YamlProblem(
                "frontmatter.yaml.number", f"a number YAML cannot read: {e}", None
            ) from None
    finally:
        loader.dispose()


def _refuse_anchors(text: str) -> None:
    """Anchors only serve aliases: refuse them where they are defined."""
    loader = _Loader(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if getattr(event, "anchor", None) is not None:
                raise YamlProblem(
                    "frontmatter.yaml.alias",
                    "YAML anchors (&name) and aliases (*name) are not allowed",
                    event.start_mark.line,
                )
    except yaml.YAMLError:
        return  # the syntax error is reported by the real parse
    finally:
        loader.dispose()


def _compose(loader: _Loader) -> Node | None:
    try:
        node: Node | None = loader.get_single_node()
    except RecursionError:
        raise YamlProblem("frontmatter.yaml.depth", "nesting too deep", None) from None
    except yaml.reader.ReaderError:
        raise  # turned into a problem where the text is known
    except yaml.YAMLError as e:
        raise _from_yaml_error(e) from None
    return node


def _from_yaml_error(e: yaml.YAMLError) -> YamlProblem:
    mark = getattr(e, "problem_mark", None)
    problem = getattr(e, "problem", None) or str(e)
    context = getattr(e, "context", None)
    if "nesting depth" in problem:
        return YamlProblem("frontmatter.yaml.depth", "nesting too deep", _line(mark))
    message = problem if not context else f"{context}: {problem}"
    if mark is not None:
        message = f"{message} (line {mark.line + 1}, column {mark.column + 1})"
    return YamlProblem("frontmatter.yaml.syntax", message, _line(mark))


def _line(mark: Any) -> int | None:
    return None if mark is None else int(mark.line)


def _check(root: Node) -> None:
    """Refuse non-core tags, merge keys, duplicate keys and deep nesting. (Aliases
    cannot occur: their anchors were refused before composing.)"""
    stack: list[tuple[Node, int, int]] = [(root, 0, root.start_mark.line)]
    while stack:
        node, depth, ref_line = stack.pop()
        if depth > MAX_DEPTH:
            raise YamlProblem(
                "frontmatter.yaml.depth", f"nesting deeper than {MAX_DEPTH} levels", ref_line
            )
        if node.tag not in _ALLOWED_TAGS:
            raise YamlProblem(
                "frontmatter.yaml.tag",
                f"the tag {node.tag.removeprefix(_CORE)!r} is not allowed; only plain values, "
                "lists and mappings are",
                node.start_mark.line,
            )
        if node.tag in _NUMBER_TAGS and len(node.value) > MAX_NUMBER:
            raise YamlProblem(
                "frontmatter.yaml.number",
                f"a number of {len(node.value)} characters (the limit is {MAX_NUMBER}); "
                "quote it if it is text",
                node.start_mark.line,
            )
        if isinstance(node, MappingNode):
            _check_keys(node)
            for key, value in reversed(node.value):  # popped in document order
                stack.append((value, depth + 1, key.start_mark.line))
                stack.append((key, depth + 1, key.start_mark.line))
        elif isinstance(node, SequenceNode):
            stack.extend((item, depth + 1, item.start_mark.line) for item in reversed(node.value))


def _meaning(key: ScalarNode) -> str:
    """What a key means, so `yes` and `true` (both the boolean true) are one key."""
    if key.tag == _CORE + "bool":
        return str(key.value.lower() in ("yes", "true", "on"))
    if key.tag == _CORE + "null":
        return ""
    return str(key.value)


def _check_keys(node: MappingNode) -> None:
    keys: set[tuple[str, str]] = set()
    for key, _ in node.value:
        if key.tag == _CORE + "merge":
            raise YamlProblem(
                "frontmatter.yaml.merge", "merge keys (<<) are not allowed", key.start_mark.line
            )
        if not isinstance(key, ScalarNode):
            continue
        ident = (key.tag, _meaning(key))
        if ident in keys:
            raise YamlProblem(
                "frontmatter.yaml.duplicate-key",
                f"the key {key.value!r} appears more than once",
                key.start_mark.line,
            )
        keys.add(ident)
