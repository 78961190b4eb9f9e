"""The variables satchel sets for a hook: what the runner starts it with, and what a
trust pin (`satchel._approval`) reads its command with.

- ``<CLIENT>_HOOK_EVENT``: satchel's event name (`event_variable`);
- ``CLAUDE_ENV_FILE`` for a session-start event (`satchel.runtime.hooks._envfile`);
- ``PLUGIN_ROOT`` and ``PLUGIN_DATA`` for a plugin's hooks, ``KIMI_PLUGIN_ROOT`` for
  Kimi's;
- ``CLAUDE_PLUGIN_ROOT``, ``CLAUDE_PLUGIN_DATA`` (plugin hooks) and
  ``CLAUDE_PROJECT_DIR`` for Claude Code-format hooks;
- ``GEMINI_PROJECT_DIR`` and its alias ``CLAUDE_PROJECT_DIR`` for Gemini CLI-format
  hooks (docs/hooks/index.md in google-gemini/gemini-cli); under the gemini profile
  the runner also sets ``GEMINI_SESSION_ID``, ``GEMINI_CWD`` and ``GEMINI_PLANS_DIR``
  from its session (`satchel.runtime.hooks._payload.hook_variables`).
"""

from __future__ import annotations

import re
from pathlib import Path

from satchel.hooks._model import Hook
from satchel.layout import Layout

__all__ = ["ENV_FILE_VARIABLE", "event_variable", "host_variables"]

ENV_FILE_VARIABLE = "CLAUDE_ENV_FILE"  # the file a session-start hook writes variables to


_NOT_NAME = re.compile(r"[^A-Za-z0-9_]")


def event_variable(client: str) -> str:
    """The variable naming the event: ``<CLIENT>_HOOK_EVENT``."""
    return f"{_NOT_NAME.sub('_', client).upper()}_HOOK_EVENT"


def host_variables(
    hook: Hook, layout: Layout, event: str = "", env_path: Path | None = None
) -> dict[str, str]:
    """The variables satchel sets for `hook` (see the module docstring); with no
    `event`, the event's variable is left out (what a trust pin reads commands with)."""
    fixed = {event_variable(layout.client): event} if event else {}
    if env_path is not None:
        fixed[ENV_FILE_VARIABLE] = str(env_path)
    if hook.root is not None:
        fixed["PLUGIN_ROOT"] = str(hook.root)
        if hook.data_dir is not None:
            fixed["PLUGIN_DATA"] = str(hook.data_dir)
    if hook.spec.format == "claude":
        fixed["CLAUDE_PROJECT_DIR"] = str(layout.project)
        if "PLUGIN_ROOT" in fixed:
            fixed["CLAUDE_PLUGIN_ROOT"] = fixed["PLUGIN_ROOT"]
        if "PLUGIN_DATA" in fixed:
            fixed["CLAUDE_PLUGIN_DATA"] = fixed["PLUGIN_DATA"]
    if hook.spec.format == "gemini":
        fixed["GEMINI_PROJECT_DIR"] = str(layout.project)
        fixed["CLAUDE_PROJECT_DIR"] = str(layout.project)
    if hook.spec.format == "kimi" and hook.root is not None:
        fixed["KIMI_PLUGIN_ROOT"] = str(hook.root)
    return fixed
