"""A plugin hook's ``userConfig`` values: filled into an exec-form command, exported as
``CLAUDE_PLUGIN_OPTION_<KEY>``, and the reasons a hook must not run for them.

As Claude Code 2.1.332 does (its hook runner, read from the binary's strings):

* a shell-form command (no ``args``) naming ``${user_config.KEY}`` does not run: the
  value would be parsed again by the shell (``plugin.config.refused``); the hook reads
  ``$CLAUDE_PLUGIN_OPTION_<KEY>`` instead, or uses exec form;
* in exec form, the command and each ``args`` element get the value
  (`satchel.plugins.components._user_config.fill_user_config`);
* an option named with no value stops that hook (``plugin.config.missing``), not the
  plugin's other hooks.
"""

from __future__ import annotations

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.hooks._model import Hook
from satchel.plugins._model import Plugin
from satchel.plugins._options import OptionValues, option_values
from satchel.plugins.components._user_config import (
    fill_user_config,
    option_environment,
    references,
)

__all__ = ["fill_argv", "hook_options", "option_problem", "option_variables"]

_SHELL_RULE = (
    "the substituted value would be parsed again by the shell; use exec form "
    '({"command": "<executable>", "args": ["${user_config.KEY}"]}) or read '
    "$CLAUDE_PLUGIN_OPTION_<KEY> from the hook's environment"
)


def hook_options(layout: Layout, plugin: Plugin | None) -> OptionValues | None:
    """The values of the plugin a hook comes from (None for a hook of no plugin)."""
    return None if plugin is None else option_values(layout, plugin)


def option_problem(hook: Hook, options: OptionValues | None) -> Diagnostic | None:
    """Why `hook` must not run for its ``${user_config.*}`` references, or None."""
    spec = hook.spec
    texts = (spec.command,) if spec.args is None else (spec.command, *spec.args)
    named = [k for text in texts for k in references(text)]
    if not named or options is None:
        return None  # a hook of no plugin: its text stays as written, as Claude Code's
    plugin = hook.origin.plugin or "?"
    if spec.args is None:
        message = (
            f"hook {hook.name!r} of plugin {plugin!r} was not run: it names "
            f"${{user_config.{named[0]}}} in a shell-form command; {_SHELL_RULE}"
        )
        return diagnostic("plugin.config.refused", message, spec.path)
    missing = [k for k in named if k not in options.values]
    if not missing:
        return None
    message = (
        f"hook {hook.name!r} was not run: it needs the userConfig option {missing[0]!r} "
        f"of plugin {plugin!r}, which has no value"
    )
    hint = f"satchel plugin configure {plugin} --set {missing[0]}=VALUE"
    return diagnostic("plugin.config.missing", message, spec.path, hint=hint)


def fill_argv(argv: tuple[str, ...], options: OptionValues | None) -> tuple[str, ...]:
    """An exec-form argv with the option values filled in (checked by `option_problem`)."""
    if options is None:
        return argv
    return tuple(fill_user_config(part, options.values)[0] for part in argv)


def option_variables(plugin: Plugin | None, options: OptionValues | None) -> dict[str, str]:
    """``CLAUDE_PLUGIN_OPTION_<KEY>`` for each of the plugin's options with a value."""
    if plugin is None or options is None:
        return {}
    return option_environment(plugin.user_config, options.values)
