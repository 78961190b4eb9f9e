"""One value for where a command runs: `Here`, built once per invocation from the
shared context options, and `bind`, which gives a verb's `run` that value.

A verb module's `PARAMS` marks where the shared options go (`satchel.cli._params.
Shared`); its `run` takes them as one keyword, ``here: Here``. `bind` is what the
dispatcher calls: the verb as the command line sees it, its options all in place
and its `run` taking each parsed option by name."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satchel.cli._params import expanded, shared_names
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic

if TYPE_CHECKING:
    import click

    from satchel.hosts import Host

__all__ = ["Here", "bind", "profile"]

TYPES: dict[str, object] = {
    "directory": Path | None,
    "project": Path | None,
    "home": Path | None,
    "client": str,
    "host": str | None,
    "trust": bool | None,
    "plugin_dirs": tuple[Path, ...],
}


@model
class Here:
    """The project, the home, the client, the host profile, the trust and the plugin
    directories one command runs with: the options given (None: not taken or not
    given), and the host profile ``--host`` names, looked up once, with what was
    wrong in the user's ``config.toml`` on the way (`profile_problems`)."""

    directory: Path | None = None
    project: Path | None = None
    home: Path | None = None
    client: str = "satchel"
    host: str | None = None
    trust: bool | None = None
    plugin_dirs: tuple[Path, ...] = ()
    profile: Host | None = None
    profile_problems: tuple[Diagnostic, ...] = ()

    @classmethod
    def build(cls, options: Mapping[str, Any]) -> Here:
        """The value for the parsed shared `options`; a usage error naming the known
        profiles when ``--host`` names none."""
        here = cls(**options)
        if here.host is None:
            return here
        found, problems = profile(here.host, here.home)
        return cls(**options, profile=found, profile_problems=problems)


def profile(
    host: str, home: Path | None, hint: str = "'--host'"
) -> tuple[Host, tuple[Diagnostic, ...]]:
    """The host profile ``--host`` (or the parameter `hint` names) names, and what was
    wrong in the user's config.toml on the way; a usage error naming the one meant and
    the known ones if none."""
    import click

    from satchel.core.errors import UnknownHost
    from satchel.hosts import resolve

    try:
        return resolve(host, config_home=_config_home(home))
    except UnknownHost as e:
        raise click.BadParameter(e.diagnostic.message, param_hint=hint) from None


def _config_home(home: Path | None) -> Path:
    from satchel.core.layout import Layout

    return Layout.default(home=home).config_home


class Bound:
    """A verb module as the dispatcher runs it: its `PARAMS` with the shared options
    in place, and a `run` that takes every option by name."""

    def __init__(self, module: Any) -> None:
        names = shared_names(module.PARAMS)
        self.module = module
        self.PARAMS: tuple[click.Parameter, ...] = expanded(module.PARAMS)
        self.RUNS_NOTHING: bool = getattr(module, "RUNS_NOTHING", False) is True
        self.PLAIN: bool = getattr(module, "PLAIN", False) is True
        self.run: Callable[..., int] = _taking_each(module.run, names) if names else module.run


def bind(module: Any) -> Bound:
    """`module`, a verb's, as the dispatcher runs it."""
    return Bound(module)


def _taking_each(run: Callable[..., int], names: tuple[str, ...]) -> Callable[..., int]:
    """`run`, which takes ``here``, as a function taking the options `names` each by
    name (its signature says so) and building `Here` from them once."""

    def taking(**options: Any) -> int:
        here = Here.build({n: options.pop(n) for n in names})
        return run(here=here, **options)

    hints = typing.get_type_hints(run, include_extras=True)
    own = [p for p in inspect.signature(run).parameters.values() if p.name != "here"]
    rest = [p for p in own if p.kind == inspect.Parameter.VAR_KEYWORD]
    each = [
        inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, annotation=TYPES[n]) for n in names
    ]
    params = [*(p for p in own if p not in rest), *each, *rest]
    taking.__signature__ = inspect.Signature(params, return_annotation="int")  # type: ignore[attr-defined]
    taking.__annotations__ = {
        **{k: v for k, v in hints.items() if k != "here"},
        **{n: TYPES[n] for n in names},
    }
    taking.__doc__ = run.__doc__
    taking.__name__ = run.__name__
    return taking
