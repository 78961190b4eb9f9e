"""A hooks file two hosts read: the target reads its hooks only from a file that is
one of the source's own (Gemini CLI reads only ``hooks/hooks.json``; a Claude Code
plugin keeps its hooks there, and Claude Code reads that file whatever its manifest
says: 2.1.332, observed). The target's hooks are added to that file under the
target's own event keys, which the source's host ignores (Claude Code 2.1.332 skips an
event it does not fire, "entry ignored at runtime"). Every key and value the source
wrote is kept as it was, so the source's host runs exactly what it ran before, and
the target runs exactly its own:

* a hook of the file whose event the target fires under the same name (Claude Code's
  and Gemini CLI's ``SessionStart``, ``SessionEnd``, ``Notification``) is run by both
  hosts from the file as written: it is not written again, and what breaks there
  (a variable the target does not set, a timeout read in other units) is said;
* a hook of the file under a key the target fires and the source's host does not
  (an earlier port's, or the author's own) is the target's already;
* any other hook is translated and added under the target's name for its event, unless
  the source's host fires that name too (it would then run it a second time) or the
  file has that key already: such a hook is left out, ``port.path.taken``.

The file is replaced only while it still holds the bytes it was read with
(`Plan.bases`). When port wrote the file (its record), the keys the source's host does
not fire are port's own and are written again from the source's hooks.
"""

from __future__ import annotations

from typing import Any

from satchel.core._json import loads
from satchel.hooks._spec import HookSpec
from satchel.port._hooks import as_written, event_map
from satchel.port._plan import Plan
from satchel.port._targets import fires, hook_key, target_event
from satchel.port._text import json_text

__all__ = ["add_to_shared"]


def add_to_shared(plan: Plan, rel: str) -> bool:
    """Add the target's hooks to the source's `rel` (False: the file cannot take
    them; nothing is added)."""
    path = plan.plugin.root / rel
    try:
        data = path.read_bytes()
        document = loads(data, parse_constant=_refused)
    except (OSError, ValueError):
        return False
    if not isinstance(document, dict) or not isinstance(document.get("hooks"), dict):
        return False
    fmt = plan.plugin.format
    own = rel in plan.owned
    base = {k: v for k, v in document["hooks"].items() if not own or fires(fmt, k) is not False}
    added = event_map(plan, tuple(_translated(plan, rel, base)))
    if not added and not own:
        return True
    plan.add(rel, json_text({**document, "hooks": {**base, **added}}))
    plan.bases[rel] = data
    return True


def _refused(word: str) -> Any:
    """A file holding ``NaN`` or ``Infinity`` cannot be written back as JSON."""
    raise ValueError(f"{word} is not a JSON value")


def _translated(plan: Plan, rel: str, base: dict[str, Any]) -> list[HookSpec]:
    """The source's hooks the target gets from `rel` only once port adds them."""
    out: list[HookSpec] = []
    for hook in plan.plugin.hooks:
        in_file = plan.rel(hook.path) == rel
        if in_file and hook.event in plan.target.events:
            as_written(plan, hook, rel)  # the target reads it from the file as written
            continue
        event = target_event(hook, plan.target)
        if event is None:
            out.append(hook)  # dropped by event_map, port.hook.event
            continue
        if event in base or fires(plan.plugin.format, event):
            message = (
                f"{hook.event} hook: {rel}, one of the plugin's own files, already has {event}"
                if event in base
                else f"{hook.event} hook: {rel} is read by both hosts, and the source's "
                f"host would run a {event} entry there too"
            )
            plan.drop("hook", hook_key(hook), "port.path.taken", message, hook.path)
            continue
        out.append(hook)
    return out
