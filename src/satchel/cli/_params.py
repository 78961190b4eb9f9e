"""The parameters many verbs share. The shared context options (DIR, --project,
--home, --client, --host, --trust, --plugin-dir: `SHARED`) are never listed by a verb
itself: its `PARAMS` holds a `Shared` mark naming those it takes, where they go, and
the dispatcher (`satchel.cli._context`) puts the options there and hands the verb's
`run` one `Here` value for them. ``--json`` and the rest each verb lists itself."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click

_CLIENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


class Choice(click.Choice):  # type: ignore[type-arg]
    """click's Choice, whose refusal also names the choice meant (``--format tol``:
    did you mean 'tool'?). Every option of a fixed set of values uses it."""

    def get_invalid_choice_message(self, value: object, ctx: click.Context | None) -> str:
        from satchel.core._text import did_you_mean

        message = super().get_invalid_choice_message(value, ctx).rstrip(".")
        return message + did_you_mean(str(value), [str(c) for c in self.choices]) + "."


_T = TypeVar("_T")


def comma_names(
    resolve: Callable[[Sequence[str]], tuple[_T, ...]], *, default: Sequence[str] = ()
) -> Callable[[click.Context, click.Parameter, str | None], tuple[_T, ...]]:
    """An option callback: the value's comma-separated names (`default` when the option
    is not given), each resolved by `resolve`, whose ValueError is a usage error."""

    def callback(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[_T, ...]:
        names = list(default) if value is None else [n.strip() for n in value.split(",")]
        try:
            return resolve([n for n in names if n])
        except ValueError as e:
            raise click.BadParameter(str(e)) from None

    return callback


def directory(*, exists: bool) -> click.Path:
    return click.Path(exists=exists, file_okay=False, path_type=Path)


def dir_argument() -> click.Argument:
    return click.Argument(
        ["directory"], required=False, type=directory(exists=True), metavar="[DIR]"
    )


def json_option() -> click.Option:
    return click.Option(["--json", "as_json"], is_flag=True, help="Print one JSON document.")


def client_option() -> click.Option:
    return click.Option(
        ["--client"],
        default="satchel",
        show_default=True,
        callback=_check_client,
        help="The client whose own family (.<client>/skills) ranks first.",
    )


def _check_client(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if not _CLIENT.match(value):
        raise click.BadParameter("use letters, digits, '.', '_' and '-' only")
    return value


def project_option(**attrs: Any) -> click.Option:
    """--project; `attrs` (a verb's own help line, a type) override click's."""
    given: dict[str, Any] = {
        "type": directory(exists=True),
        "help": "The project root (default: DIR when it holds .satchel, .claude, .agents, "
        "AGENTS.md...; else the nearest folder up to the git root holding .satchel, "
        ".claude, .agents...; else the git root).",
    }
    return click.Option(["--project"], **{**given, **attrs})


def home_option() -> click.Option:
    return click.Option(
        ["--home"], type=directory(exists=False), help="A stand-in user home directory."
    )


@dataclass(frozen=True)
class Shared:
    """A mark in a verb's `PARAMS`: the shared context options `names` go here, in
    this order (each one of `SHARED`)."""

    names: tuple[str, ...]
    attrs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def shared(*names: str) -> Shared:
    """The shared context options `names`, at this place of a verb's `PARAMS`."""
    return Shared(names)


def shared_as(name: str, **attrs: Any) -> Shared:
    """The shared context option `name`, here, with the verb's own help line (and
    type): click's `attrs` (only --project takes any)."""
    return Shared((name,), {name: attrs})


def where() -> Shared:
    """--project, --home and --client."""
    return Shared(("project", "home", "client"))


def located() -> Shared:
    """DIR, where the project and home are, whether the project is trusted, and the
    plugin directories named by hand."""
    return Shared(("directory", "project", "home", "client", "host", "trust", "plugin_dirs"))


def expanded(params: Iterable[click.Parameter | Shared]) -> tuple[click.Parameter, ...]:
    """`params` with each `Shared` mark replaced by the options it names."""
    out: list[click.Parameter] = []
    for p in params:
        if isinstance(p, Shared):
            out += [_made(n, p.attrs.get(n, {})) for n in p.names]
        else:
            out.append(p)
    return tuple(out)


def _made(name: str, attrs: Mapping[str, Any]) -> click.Parameter:
    return project_option(**attrs) if attrs else SHARED[name]()


def shared_names(params: Iterable[click.Parameter | Shared]) -> tuple[str, ...]:
    """The shared context options the marks of `params` name, in order."""
    return tuple(n for p in params if isinstance(p, Shared) for n in p.names)


def host_option() -> click.Option:
    return click.Option(
        ["--host"],
        metavar="NAME",
        help="See the project as that agent host does: claude-code, codex, gemini, cursor, "
        "copilot, opencode, kimi, vibe, mermaid, zidane, caveman, or a [hosts.NAME] profile "
        "of config.toml (default: satchel, which reads every host's files).",
    )


def model_option() -> click.Option:
    return click.Option(
        ["--model"],
        metavar="ID",
        help="The model the host runs, whose context window sizes the host's skill listing "
        "(claude-opus-5-5 ...) [the host profile's default model].",
    )


def plugin_dirs_option() -> click.Option:
    return click.Option(
        ["--plugin-dir", "plugin_dirs"],
        multiple=True,
        type=directory(exists=True),
        metavar="DIR",
        help="Load the plugin in DIR too, as Claude Code's --plugin-dir does (repeatable).",
    )


def trust_option() -> click.Option:
    return click.Option(
        ["--trust/--no-trust", "trust"],
        default=None,
        help="Treat the project as trusted, or not, for this run "
        "(default: as `satchel trust` recorded).",
    )


def trust_params(*, listing: bool) -> tuple[click.Parameter | Shared, ...]:
    """The parameters of `trust` (with --list) and `untrust` (without)."""
    shows = click.Option(["--list", "show_list"], is_flag=True, help="Print the trusted folders.")
    return (
        Shared(("directory", "home", "client")),
        *((shows,) if listing else ()),
        json_option(),
    )


SHARED: dict[str, Callable[[], click.Parameter]] = {
    "directory": dir_argument,
    "project": project_option,
    "home": home_option,
    "client": client_option,
    "host": host_option,
    "trust": trust_option,
    "plugin_dirs": plugin_dirs_option,
}
