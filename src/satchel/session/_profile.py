"""A session's settings: the keywords given, then the host profile's choices.

Under a host profile a session numbers arguments, budgets its index and lists its
skills as that host does, and (for a host whose transcript satchel knows) makes up a
session id and that host's transcript path, wherever the caller gave none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from satchel.assembly._environment import Environment
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import PROJECT
from satchel.runtime.hooks._payload import new_id, transcript_file
from satchel.session._options import SessionOptions, SessionOverrides
from satchel.session._shell_hook import claude_disables_shell

if TYPE_CHECKING:
    from satchel.hosts._model import Host

__all__ = ["find_host", "session_options", "trusted_scopes"]


def find_host(
    environment: Environment, host: str | Host | None
) -> tuple[Host | None, tuple[Diagnostic, ...]]:
    """The profile a session follows: `host` (by name, as `load()` finds it), else the
    environment's (None: satchel's own rules); and what was wrong in the user's
    config.toml on the way, unless `load` read with that same profile (it reported
    them)."""
    if host is None:
        return environment.host, ()
    from satchel.hosts._config import resolve  # only when a profile is named

    found, problems = resolve(host, config_home=environment.layout.config_home)
    return found, () if environment.host == found else problems


def session_options(
    environment: Environment, host: Host | None, options: SessionOverrides
) -> tuple[SessionOptions, tuple[Diagnostic, ...]]:
    """The options `options` and `host` make, and the model the profile does not know
    (``host.model-unknown``, when the session names it: `load` reports its own)."""
    unknown: tuple[Diagnostic, ...] = ()
    if host is not None:
        options.setdefault("argument_numbering", host.argument_numbering)
        model = options.get("model") or environment.options.model
        options.setdefault("model", model)  # the listing's model is the budget's
        budget, unknown = host.budget(model, environment.listing)
        if model == environment.options.model and environment.host == host:
            unknown = ()  # load reported it (`Environment.diagnostics`)
        options.setdefault("index_budget", budget)
        options.setdefault("index_style", host.index.style)
    if environment.options.claude_settings_hooks and claude_disables_shell(environment.layout):
        options.setdefault("disable_skill_shell_execution", True)
    _host_ids(host, environment, options)
    return SessionOptions.build(**options), unknown


def _host_ids(host: Host | None, environment: Environment, options: SessionOverrides) -> None:
    """Under a host profile whose transcript satchel knows (`HookDialect.transcript`),
    a session id (a new uuid) and that host's transcript path for it, where the caller
    gave none."""
    if host is None or host.hooks.transcript is None:
        return
    if not options.get("session_id"):
        options["session_id"] = new_id()
    if not options.get("transcript_path"):
        lay = environment.layout
        path = transcript_file(host.hooks, lay.home, str(lay.cwd), str(options["session_id"]))
        options["transcript_path"] = path


def trusted_scopes(environment: Environment, options: SessionOptions) -> frozenset[str] | None:
    """The scopes whose skills may run commands (None: every scope)."""
    if options.shell_scopes is not None:
        return frozenset(options.shell_scopes)
    if not environment.trust.run_project:
        return frozenset(s.scope for s in environment.skills.values()) - {PROJECT}
    return None
