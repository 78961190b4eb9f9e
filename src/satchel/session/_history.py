"""Extract the tool calls a model made from a transcript, in any common format.

`tool_calls(history)` returns the calls in transcript order, each marked `failed`
when its result is known to be an error, plus `session.history.unreadable` warnings.
It never raises for the shape of the transcript: what it cannot read it skips.

The history is a list (any iterable) of entries, or a mapping whose ``messages``,
``input`` and/or ``output`` lists are read in that order. Each entry is recognized
on its own, so one transcript may mix formats:

* OpenAI Chat Completions: ``role: assistant`` messages with ``tool_calls``
  (``function.arguments`` a JSON string) or a legacy ``function_call``; results in
  ``role: tool`` (matched by ``tool_call_id``) and ``role: function`` (by name).
* OpenAI Responses: ``type: function_call`` items (``call_id``, ``name``,
  ``arguments``) and ``type: function_call_output`` results. An entry that is a
  whole Response or request (a mapping with no ``role``, ``type`` or ``name`` and
  an ``output``, ``input`` or ``messages`` list) is replaced by its items.
* Anthropic Messages: ``tool_use`` blocks in message content, ``tool_result``
  blocks (``tool_use_id``, ``is_error``) in the next user message.
* Neutral: ``{"name", "arguments" | "input", "id"?, "is_error"? | "failed"?}``,
  and `ToolCall` values.
* SDK objects: an entry (or block) that is not a mapping is read through its
  ``model_dump()``, or failing that through its attributes when it has a ``role``
  or ``type``.

Skipped quietly: chat messages without tool calls (user, system, text), items and
blocks of other types (reasoning, text, images, web search, custom tools), tool
calls whose ``type`` is not ``function``, and results that match no earlier call.
Skipped with a warning, as they look broken: entries that are not mappings, a
mapping with no ``role``, ``type`` or ``name``, ``tool_calls`` that is not a
list, a call without a name, arguments that are not a JSON object, arguments over
`MAX_ARGUMENTS` bytes, and a ``model_dump()`` that fails. At most `MAX_ENTRIES`
entries are read and `MAX_WARNINGS` warnings listed. Warnings name the 0-based
entry, counted after Response and request entries are replaced by their items.

``failed`` is set by an Anthropic ``is_error: true``, a neutral ``is_error`` or
``failed`` of true, or, for the OpenAI formats, which carry no error flag, by
``is_error_text`` judging the result's text. A call without a result is not failed.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any

from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name

__all__ = ["MAX_ARGUMENTS", "MAX_ENTRIES", "MAX_WARNINGS", "ToolCall", "tool_calls"]

MAX_ENTRIES = 100_000
MAX_ARGUMENTS = 1024 * 1024
MAX_WARNINGS = 100

_CODE = "session.history.unreadable"
_LISTS = ("messages", "input", "output")
_KINDS = ("role", "type", "name")
_ATTRIBUTES = (
    *_KINDS,
    *_LISTS,
    "arguments",
    "call_id",
    "content",
    "failed",
    "function",
    "function_call",
    "id",
    "is_error",
    "tool_call_id",
    "tool_calls",
    "tool_use_id",
)

IsErrorText = Callable[[str], bool]


@model
class ToolCall:
    """One tool call: `arguments` is the parsed JSON object, read-only.

    `id` is the call id the format gives (``tool_call_id``, ``call_id``, the
    ``tool_use`` id), and `failed` is True when the matching result is an error.
    """

    name: str
    arguments: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    id: str | None = None
    failed: bool = False


def tool_calls(
    history: Iterable[Any] | Mapping[str, Any],
    *,
    is_error_text: IsErrorText | None = None,
) -> tuple[tuple[ToolCall, ...], tuple[Diagnostic, ...]]:
    """The tool calls in `history`, in order, and warnings for what was skipped.

    `is_error_text` judges the text of an OpenAI tool result, which has no error
    flag. Raise TypeError only if `history` is neither iterable nor a mapping.
    """
    reader = _Reader(is_error_text)
    entries = _entries(history, reader.warn)
    for index, entry in enumerate(itertools.islice(entries, MAX_ENTRIES + 1)):
        if index == MAX_ENTRIES:
            reader.warn(
                f"the history has more than {MAX_ENTRIES:,} entries; "
                f"only the first {MAX_ENTRIES:,} were read",
                always=True,
            )
            break
        reader.entry(index, entry)
    return reader.result()


def _entries(history: object, warn: Callable[[str], None]) -> Iterator[Any]:
    """The entries of the history, with Response and request entries opened."""
    if isinstance(history, str | bytes | bytearray):
        warn(f"the history is {type_name(history)}, not a list of entries")
        return iter(())
    if not isinstance(history, Mapping | list | tuple) and hasattr(history, "model_dump"):
        dumped = _as_mapping(history)
        if dumped is None:
            warn("the history's model_dump() failed or did not give a mapping")
            return iter(())
        history = dumped
    if isinstance(history, Mapping):
        return _flatten(_top_lists(history, warn))
    if isinstance(history, Iterable):
        return _flatten(history)
    raise TypeError(f"history must be a list of entries or a mapping, not {type_name(history)}")


def _top_lists(history: Mapping[Any, Any], warn: Callable[[str], None]) -> Iterator[Any]:
    """The items of the `messages`, `input` and `output` lists of a history mapping."""
    if not any(key in history for key in _LISTS):
        warn("the history is a mapping without a `messages`, `input` or `output` list")
    found: list[Any] = []
    for key in _LISTS:
        value = history.get(key)
        if isinstance(value, list | tuple):
            found.append(value)
        elif value is not None and not isinstance(value, str):
            warn(f"`{key}` of the history is {type_name(value)}, not a list")
    return itertools.chain.from_iterable(found)


def _flatten(items: Iterable[Any]) -> Iterator[Any]:
    """Yield each item, or the items of a Response or request object in its place."""
    for item in items:
        entry = item
        if not isinstance(item, Mapping | ToolCall) and hasattr(item, "model_dump"):
            dumped = _as_mapping(item)
            entry = item if dumped is None else dumped
        inner = _inner_lists(entry)
        if inner:
            for items_list in inner:
                yield from items_list
        else:
            yield entry


def _inner_lists(entry: Any) -> list[Any]:
    """The item lists of a Response or request mapping; [] for anything else."""
    if not isinstance(entry, Mapping) or "role" in entry or "type" in entry or "name" in entry:
        return []  # _KINDS, spelt out: this runs once for every entry
    return [entry[key] for key in _LISTS if isinstance(entry.get(key), list | tuple)]


def _as_mapping(value: Any) -> Mapping[str, Any] | None:
    """`value` as a mapping: itself, its `model_dump()`, or its known attributes."""
    if type(value) is dict or isinstance(value, Mapping):  # a dict's check skips the ABC
        return value
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            dumped = dump()
        except Exception:  # noqa: BLE001 - a foreign model_dump may raise anything; we skip it
            return None
        return dumped if isinstance(dumped, Mapping) else None
    if any(hasattr(value, key) for key in _KINDS):
        return {key: getattr(value, key) for key in _ATTRIBUTES if hasattr(value, key)}
    return None


def _arguments_of(index: int, name: str) -> str:
    """How a warning about a call's arguments names them (made only for a warning)."""
    return f"entry {index}: the arguments of tool call {name[:64]!r}"


def _call_id(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _text(content: Any) -> str:
    """The text of a tool result: a string, or the text parts of a list joined."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list | tuple):
        return ""
    parts = (part if isinstance(part, str) else _part_text(part) for part in content)
    return "\n".join(part for part in parts if part)


def _part_text(part: Any) -> str:
    block = _as_mapping(part)
    text = None if block is None else block.get("text")
    return text if isinstance(text, str) else ""


def _too_long(text: str) -> bool:
    """Whether `text` is over `MAX_ARGUMENTS` bytes in UTF-8 (encoded only if it may be)."""
    if len(text) > MAX_ARGUMENTS:
        return True
    return len(text) * 4 > MAX_ARGUMENTS and len(text.encode("utf-8", "surrogatepass")) > (
        MAX_ARGUMENTS
    )


def _unreadable(entry: Any) -> str:
    if hasattr(entry, "model_dump"):
        return "its model_dump() failed or did not give a mapping"
    return f"{type_name(entry)} is not a message or a tool call"


class _Reader:
    """The calls and warnings collected so far, and the calls still awaiting a result."""

    __slots__ = ("calls", "dropped", "is_error_text", "pending", "pending_legacy", "warnings")

    def __init__(self, is_error_text: IsErrorText | None) -> None:
        self.is_error_text = is_error_text
        self.calls: list[ToolCall] = []
        self.warnings: list[Diagnostic] = []
        self.dropped = 0
        self.pending: dict[str, int] = {}  # call id -> position in calls
        self.pending_legacy: dict[str, int] = {}  # name -> position, for role "function"

    def result(self) -> tuple[tuple[ToolCall, ...], tuple[Diagnostic, ...]]:
        if self.dropped:
            self.warn(f"{self.dropped} more warnings like these were left out", always=True)
        return tuple(self.calls), tuple(self.warnings)

    def warn(self, message: str, *, always: bool = False) -> None:
        if always or len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(diagnostic(_CODE, message))
        else:
            self.dropped += 1

    def entry(self, index: int, entry: Any) -> None:
        if isinstance(entry, ToolCall):
            self.add(entry)
            return
        item = _as_mapping(entry)
        if item is None:
            self.warn(f"entry {index}: {_unreadable(entry)}")
            return
        kind, role = item.get("type"), item.get("role")
        if kind == "function_call":
            self.call(index, item.get("name"), item.get("arguments"), _call_id(item.get("call_id")))
        elif kind == "function_call_output":
            self.judge(self.take(item.get("call_id")), item.get("output"))
        elif kind in ("tool_use", "tool_result"):
            self.block(index, item)
        elif role is not None:
            self.message(index, item, role)
        elif isinstance(kind, str):
            return  # another item type: reasoning, message without role, web search...
        elif "name" in item:
            self.neutral(index, item)
        else:
            self.warn(f"entry {index}: a mapping with no `role`, `type` or `name` was skipped")

    def message(self, index: int, message: Mapping[str, Any], role: Any) -> None:
        if role == "tool":
            self.judge(self.take(message.get("tool_call_id")), message.get("content"))
            return
        if role == "function":
            name = message.get("name")
            position = self.pending_legacy.pop(name if isinstance(name, str) else "", None)
            self.judge(position, message.get("content"))
            return
        content = message.get("content")
        if isinstance(content, list | tuple):
            for block in content:
                self.block(index, block)
        self.chat_calls(index, message.get("tool_calls"))
        legacy = message.get("function_call")
        if legacy is not None:
            self.legacy_call(index, legacy)

    def chat_calls(self, index: int, calls: Any) -> None:
        if calls is None:
            return
        if not isinstance(calls, list | tuple):
            self.warn(f"entry {index}: `tool_calls` is {type_name(calls)}, not a list")
            return
        for raw in calls:
            call = _as_mapping(raw)
            if call is None:
                self.warn(f"entry {index}: an item of `tool_calls` is {type_name(raw)}")
            elif call.get("type") in (None, "function"):
                self.chat_call(index, call)

    def chat_call(self, index: int, call: Mapping[str, Any]) -> None:
        function = _as_mapping(call.get("function"))
        if function is None:
            self.warn(f"entry {index}: a tool call in `tool_calls` has no `function` object")
            return
        self.call(index, function.get("name"), function.get("arguments"), _call_id(call.get("id")))

    def legacy_call(self, index: int, raw: Any) -> None:
        function = _as_mapping(raw)
        if function is None:
            self.warn(f"entry {index}: `function_call` is {type_name(raw)}, not an object")
            return
        name = function.get("name")
        if self.call(index, name, function.get("arguments"), None) and isinstance(name, str):
            self.pending_legacy[name] = len(self.calls) - 1

    def block(self, index: int, raw: Any) -> None:
        block = _as_mapping(raw)
        kind = None if block is None else block.get("type")
        if block is None or kind not in ("tool_use", "tool_result"):
            return  # text, thinking, images and other blocks carry no tool call
        if kind == "tool_use":
            self.call(index, block.get("name"), block.get("input"), _call_id(block.get("id")))
            return
        position = self.take(block.get("tool_use_id"))
        if position is not None:
            self.mark(position, block.get("is_error") is True)

    def neutral(self, index: int, item: Mapping[str, Any]) -> None:
        arguments = item.get("arguments")
        if arguments is None:
            arguments = item.get("input")
        failed = item.get("is_error") is True or item.get("failed") is True
        self.call(index, item.get("name"), arguments, _call_id(item.get("id")), failed=failed)

    def call(
        self, index: int, name: Any, raw: Any, call_id: str | None, *, failed: bool = False
    ) -> bool:
        """Add a call if its name and arguments can be read; warn and skip it if not."""
        if not isinstance(name, str) or not name:
            self.warn(f"entry {index}: a tool call has no name")
            return False
        arguments = self.arguments(index, name, raw)
        if arguments is None:
            return False
        self.add(ToolCall(name, arguments, call_id, failed))
        return True

    def arguments(self, index: int, name: str, raw: Any) -> Mapping[str, Any] | None:
        """Parsed arguments: None (and a warning) when they are not a JSON object."""
        if isinstance(raw, str):
            if _too_long(raw):
                self.warn(f"{_arguments_of(index, name)} are longer than {MAX_ARGUMENTS:,} bytes")
                return None
            if not raw.strip():
                return MappingProxyType({})
            try:
                raw = loads(raw)
            except ValueError:
                self.warn(f"{_arguments_of(index, name)} are not valid JSON")
                return None
        if raw is None:
            return MappingProxyType({})
        if not isinstance(raw, Mapping):
            self.warn(f"{_arguments_of(index, name)} are not a JSON object")
            return None
        return MappingProxyType(dict(raw))

    def add(self, call: ToolCall) -> None:
        if call.id is not None:
            self.pending[call.id] = len(self.calls)
        self.calls.append(call)

    def take(self, raw_id: Any) -> int | None:
        """The position of the call awaiting the result with this id, now no longer awaiting."""
        call_id = _call_id(raw_id)
        return None if call_id is None else self.pending.pop(call_id, None)

    def judge(self, position: int | None, content: Any) -> None:
        """Mark an OpenAI call failed when `is_error_text` judges its result an error."""
        if position is not None and self.is_error_text is not None:
            self.mark(position, bool(self.is_error_text(_text(content))))

    def mark(self, position: int, failed: bool) -> None:
        self.calls[position] = dataclasses.replace(self.calls[position], failed=failed)
