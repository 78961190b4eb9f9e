"""The hooks a host reads from its own config folders, and which of them it trusts, as
its `HostState` says (Codex: ``hooks.json`` and ``[hooks]`` of ``config.toml`` in
``~/.codex`` and in each trusted project's ``.codex``; ``[hooks.state."<key>"]`` in
the user's ``config.toml``).

    found = host_hooks(layout, state, config)

Codex 0.171.0 (openai/codex codex-rs/hooks/src/engine/discovery.rs; observed with the
app server's ``hooks/list``) reads, per config folder, the user's first and then each
trusted project folder from the root down: ``hooks.json`` (Claude Code's shape,
``{"hooks": {Event: [{"matcher", "hooks": [handler]}]}}``), then the ``[hooks]``
table of that folder's ``config.toml`` (the same shape in TOML). It runs a command
hook only when the hook is enabled and trusted: the ``trusted_hash`` of its state
entry equals the hook's current hash. The entry's key is ``<file>:<event label>:<group
index>:<handler index>`` (indices from 0, every handler counted, a prompt or agent
one too); the hash is ``sha256:`` and the SHA-256 of the compact JSON, keys sorted,
of ``{"event_name": label, "matcher": matcher, "hooks": [{"type": "command",
"command", "timeout", "async", "statusMessage"}]}``, with no matcher for the events
that ignore it, the timeout as Codex settles it and unset fields left out (a plugin's
hook has a second hash after a ``/``, not reproduced: the first is compared). A hook
never trusted is ``untrusted``, one changed since ``modified``: Codex skips both
without a word (``--dangerously-bypass-hook-trust`` aside). Reading runs nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from satchel.core._model import model
from satchel.foundations._host_state import HostConfig, HostState, dotted

__all__ = ["HostHook", "HostHookFile", "host_hook_files", "host_hooks", "plugin_hook_file"]

MAX_FILE = 1024 * 1024
Status = Literal["trusted", "untrusted", "modified"]


@model
class HostHookFile:
    """One source of hooks the host reads: a hook file (its parsed `document`), or a
    config file's hooks table; `project` when it is a project folder's."""

    path: Path
    document: Mapping[str, Any]
    project: bool
    key_source: str | None = None  # what its keys start with [None: its path]


@model
class HostHook:
    """One command hook as the host sees it: its state `key`, the file it is in, its
    event, matcher and command as the host keeps them, its `current` hash, the hash
    the host trusted (None: never) and whether its state leaves it `enabled`."""

    key: str
    path: Path
    event: str
    matcher: str | None
    command: str
    current: str
    trusted: str | None
    enabled: bool
    project: bool

    plugin: bool = False

    @property
    def status(self) -> Status:
        """``trusted``, ``untrusted`` (never trusted) or ``modified`` (changed since). A
        plugin's hook hash has a second part after ``/`` that satchel does not
        reproduce: only the first is compared."""
        if self.trusted is None:
            return "untrusted"
        trusted = self.trusted.split("/", 1)[0] if self.plugin else self.trusted
        return "trusted" if trusted == self.current else "modified"

    @property
    def runs(self) -> bool:
        """Whether the host runs it."""
        return self.enabled and self.status == "trusted"


def host_hook_files(layout_config: HostConfig, state: HostState) -> tuple[HostHookFile, ...]:
    """The hook sources the host reads, in its order (see the module docstring); a
    hook file that cannot be read or is not a JSON object is left out (satchel's own
    reading of it reports why)."""
    found: list[HostHookFile] = []
    for path, document in layout_config.layers():
        project = path != layout_config.user_path
        if state.hooks_file is not None:
            hook_file = path.parent / state.hooks_file
            data = _json(hook_file)
            if data is not None:
                found.append(HostHookFile(hook_file, data, project))
        if state.hooks_table is not None and isinstance(document.get(state.hooks_table), Mapping):
            table = {k: v for k, v in document[state.hooks_table].items() if k != "state"}
            if table:
                found.append(HostHookFile(path, {"hooks": table}, project))
    return tuple(found)


def plugin_hook_file(plugin_id: str, root: Path, path: Path) -> HostHookFile | None:
    """A hook file of a plugin the host installed (`plugin_id` ``name@marketplace``,
    read from `root`), keyed as the host keys it: ``<id>:<path in the plugin>``."""
    data = _json(path)
    if data is None or not path.is_relative_to(root):
        return None
    return HostHookFile(path, data, False, f"{plugin_id}:{path.relative_to(root).as_posix()}")


def host_hooks(
    state: HostState, config: HostConfig, extra: tuple[HostHookFile, ...] = ()
) -> tuple[HostHook, ...]:
    """Every command hook the host reads for this layout (and in the `extra` files:
    its installed plugins'), with its trust state."""
    states = _states(state, config)
    labels = dict(state.hook_events)
    return tuple(
        hook
        for source in (*host_hook_files(config, state), *extra)
        for hook in _hooks(state, source, labels, states)
    )


def _states(state: HostState, config: HostConfig) -> dict[str, Mapping[str, Any]]:
    """The per-hook state entries, a later layer's over an earlier one's."""
    found: dict[str, Mapping[str, Any]] = {}
    if state.hook_state is None:
        return found
    for _, document in config.layers():
        table = dotted(document, state.hook_state)
        if isinstance(table, Mapping):
            found.update((k, v) for k, v in table.items() if isinstance(v, Mapping))
    return found


def _hooks(
    state: HostState,
    source: HostHookFile,
    labels: Mapping[str, str],
    states: Mapping[str, Mapping[str, Any]],
) -> Iterator[HostHook]:
    events = source.document.get("hooks")
    if not isinstance(events, Mapping):
        return
    for event, groups in events.items():
        label = labels.get(event)
        if label is None or not isinstance(groups, list):
            continue  # an event the host does not know is ignored
        for g, group in enumerate(groups):
            if not isinstance(group, Mapping) or not isinstance(group.get("hooks"), list):
                continue
            matcher = None if event in state.hook_unmatched else _matcher(group.get("matcher"))
            for h, handler in enumerate(group["hooks"]):
                hook = _hook(state, source, event, label, matcher, (g, h), handler, states)
                if hook is not None:
                    yield hook


def _hook(
    state: HostState,
    source: HostHookFile,
    event: str,
    label: str,
    matcher: str | None,
    at: tuple[int, int],
    handler: Any,
    states: Mapping[str, Mapping[str, Any]],
) -> HostHook | None:
    if not isinstance(handler, Mapping) or handler.get("type") in state.hook_skipped_types:
        return None
    command = handler.get("command")
    if handler.get("type") != "command" or not isinstance(command, str) or not command.strip():
        return None
    normalized: dict[str, Any] = {
        "type": "command",
        "command": command,
        "timeout": _timeout(state, event, handler.get("timeout")),
        "async": handler.get("async") is True,
    }
    if isinstance(handler.get("statusMessage"), str):
        normalized["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": label, "hooks": [normalized]}
    if matcher is not None:
        identity["matcher"] = matcher
    import hashlib  # only when a host's hook is hashed

    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    current = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    key = f"{source.key_source or source.path}:{label}:{at[0]}:{at[1]}"
    entry = states.get(key, {})
    trusted = entry.get("trusted_hash")
    return HostHook(
        key,
        source.path,
        event,
        matcher,
        command,
        current,
        trusted if isinstance(trusted, str) else None,
        entry.get("enabled") is not False,
        source.project,
        source.key_source is not None,
    )


def _matcher(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip()


def _timeout(state: HostState, event: str, given: Any) -> int:
    number = given if isinstance(given, int) and not isinstance(given, bool) else None
    if event in state.hook_short:
        return max(1, min(number if number is not None else 1, state.hook_short_cap))
    return max(1, number if number is not None else state.hook_timeout)


def _json(path: Path) -> Mapping[str, Any] | None:
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(MAX_FILE + 1)[:MAX_FILE])
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
