"""Whether a hook's script answers in a shape the target does not read.

Port does not run or rewrite a hook's script, so it cannot translate its answer. It
reads the plugin files the command names (``${CLAUDE_PLUGIN_ROOT}/x``,
``${PLUGIN_ROOT}/x``, ``./x``) and says so when one refuses in a shape the target does
not read (`PortHooks.answers`): exit 2, ``{"decision": "block"}`` or Claude Code's
``hookSpecificOutput.permissionDecision`` (Gemini CLI 0.61.0 runs the call on the
last; Kimi Code reads no ``decision``; Mistral Vibe refuses only on ``{"decision":
"deny"}``). The hook is still written: its other answers refuse there, if any.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from satchel.foundations._contain import contained
from satchel.hooks._spec import HookSpec

__all__ = ["PERMISSION_DECISION", "SHAPES", "answers_unread"]

PERMISSION_DECISION = "permission-decision"
# each answer by which a hook refuses a call: how a script is seen to give it, and its
# name in a message
SHAPES: Mapping[str, tuple[re.Pattern[str], str]] = MappingProxyType(
    {
        "exit-2": (re.compile(r"\bexit\s*\(?\s*2\b"), "exit 2"),
        "decision": (re.compile(r"""["']decision["']\s*:\s*["']block"""), '{"decision": "block"}'),
        PERMISSION_DECISION: (
            re.compile(r"permissionDecision\b"),
            "hookSpecificOutput.permissionDecision",
        ),
        "decision-deny": (
            re.compile(r"""["']decision["']\s*:\s*["']deny"""),
            '{"decision": "deny"}',
        ),
    }
)
_FILE = re.compile(r"""(?:\$\{(?:CLAUDE_|KIMI_)?PLUGIN_ROOT\}/|(?<![\w/.])\./)([^\s"';|&]+)""")
_MAX = 1 << 20


def answers_unread(
    root: Path, hook: HookSpec, reads: tuple[str, ...] | None
) -> tuple[str, str] | None:
    """The plugin file (relative) of `hook`'s command that answers in a shape the
    target (its `reads`) does not read, and that shape's name; else None (and when
    what the target reads is not known)."""
    if reads is None:
        return None
    unread = [(key, pattern) for key, (pattern, _) in SHAPES.items() if key not in reads]
    if not unread:
        return None
    text = " ".join([hook.command, *(hook.args or ())])
    found: list[str] = _FILE.findall(text)
    for rel in found:
        path = root / rel
        try:
            if not contained(path, root.resolve()) or path.stat().st_size > _MAX:
                continue
            script = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        shape = next((key for key, pattern in unread if pattern.search(script)), None)
        if shape is not None:
            return rel, shape
    return None
