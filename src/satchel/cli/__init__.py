"""The command line: click parses, a table dispatches, `main()` maps errors to exit codes.

Each verb is a typed function in its own module (``satchel.cli.doctor`` ...) whose
keyword parameters are the parsed options. `main()` is the one place exceptions
become exit codes: 0 ok, 1 problems found, 2 usage error, 3 a bug in satchel.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from satchel.cli._exit import BUG, INTERRUPTED, OK, PROBLEMS, USAGE
from satchel.errors import SatchelError
from satchel.process._live import ending_on_signals

__all__ = ["main"]

IO_ERROR = "cli.io.error"  # diagnostic codes: see docs/diagnostics.md
USAGE_ERROR = "cli.usage"
GROUP_HELP = {
    "mcp": "The MCP servers of the project: list them, or start and check them.",
    "new": "Create a skill from a template.",
    "plugin": "Inspect one plugin directory as its author.",
}
_CLIENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


@dataclass(frozen=True, slots=True)
class Verb:
    """One row of the dispatch table: the words that name it, its function, its options."""

    words: tuple[str, ...]
    run: Callable[..., int]
    params: tuple[click.Parameter, ...]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: sys.argv[1:]); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
    try:
        with ending_on_signals():  # a hook or server never outlives satchel
            result = _group(_verbs()).main(args, prog_name="satchel", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        _say("satchel: interrupted")
        return INTERRUPTED
    except click.ClickException as e:
        usage = isinstance(e, click.UsageError)
        if as_json:
            _json_error(USAGE_ERROR if usage else IO_ERROR, e.format_message(), args)
        else:
            e.show()
        return USAGE if usage else PROBLEMS
    except SystemExit as e:  # click exits this way after a broken pipe
        return e.code if isinstance(e.code, int) else PROBLEMS
    except (OSError, SatchelError) as e:
        if as_json:
            _json_error(IO_ERROR, _oneline(e), args)
        else:
            _say(f"satchel: {IO_ERROR}: {_oneline(e)}")
        return PROBLEMS
    except Exception as e:  # noqa: BLE001  # the one place a bug becomes exit 3, not a traceback
        _say(f"satchel: internal error: {type(e).__name__}: {_oneline(e)}")
        _say("this is a bug in satchel: please report it with the command you ran")
        return BUG
    return result if isinstance(result, int) else OK


def _json_error(code: str, message: str, args: Sequence[str]) -> None:
    """A refusal before or around a verb, as the --json envelope: on stdout, but on
    stderr for `serve`, whose stdout is the MCP channel."""
    from satchel.cli._output import envelope

    document = envelope({"error": {"code": code, "message": " ".join(message.split())}})
    stream = sys.stderr if args[:1] == ["serve"] else sys.stdout
    stream.write(json.dumps(document, indent=2, ensure_ascii=True) + "\n")


def _say(line: str) -> None:
    from satchel._text import escape

    click.echo(escape(line), err=True)


def _oneline(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        where = f": {e.filename}" if e.filename else ""
        return f"{e.strerror}{where}"
    return " ".join(str(e).split()) or "(no message)"


def _verbs() -> tuple[Verb, ...]:
    """The dispatch table, read when `main()` runs."""
    from satchel.cli import _install as inst
    from satchel.cli import (
        agents,
        audit,
        browse,
        commands,
        doctor,
        expand,
        hooks,
        hooks_run,
        index,
        install,
        instructions,
        listing,
        mcp_check,
        mcp_list,
        new,
        plugin_inspect,
        plugins,
        remove,
        serve,
        show,
        trust,
        untrust,
        update,
        validate,
        verify,
    )
    from satchel.cli._ignore import ignore_option

    return (
        Verb(("doctor",), doctor.doctor, (*_located(), ignore_option(), _json())),
        Verb(("audit",), audit.audit, (*audit.params(), *_where(), _plugin_dirs(), _json())),
        Verb(("list",), listing.list_skills, (*_located(), _json())),
        Verb(("show",), show.show, (click.Argument(["name"]), *_located(), _json())),
        Verb(("validate",), validate.validate, _validate_params()),
        Verb(("index",), index.index, (*_located(), *_index_params(), _json())),
        Verb(("new", "skill"), new.new_skill, _new_params()),
        Verb(("commands",), commands.commands, (*_located(), _json())),
        Verb(("expand",), expand.expand, _expand_params()),
        Verb(("agents",), agents.agents, (*_located(), _json())),
        Verb(("instructions",), instructions.instructions, _instructions_params()),
        Verb(("plugins",), plugins.plugins, (*_located(), _json())),
        Verb(("plugin", "inspect"), plugin_inspect.inspect_plugin, _inspect_params()),
        Verb(("mcp", "list"), mcp_list.mcp_list, (*_located(), _json())),
        Verb(("mcp", "check"), mcp_check.mcp_check, (*_located(), *mcp_check.options(), _json())),
        # `hooks run` before `hooks`: a verb named like a group runs when no subverb follows
        Verb(("hooks", "run"), hooks_run.run_hooks, (*hooks_run.options(), *_hook_params())),
        Verb(("hooks",), hooks.hooks, _hook_params()),
        Verb(("trust",), trust.trust_folder, _trust_params(listing=True)),
        Verb(("untrust",), untrust.untrust_folder, _trust_params(listing=False)),
        Verb(("serve",), serve.serve, (*_located(), *serve.options())),
        Verb(("browse",), browse.browse, (*inst.browse_params(), *_where(), _json())),
        Verb(("install",), install.install, (*inst.install_params(), *_where(), _json())),
        Verb(("update",), update.update_installed, (*inst.update_params(), *_where(), _json())),
        Verb(("remove",), remove.remove_installed, (*inst.remove_params(), *_where(), _json())),
        Verb(("verify",), verify.verify_installed, (inst.scope_option(), *_where(), _json())),
    )


def _group(verbs: Sequence[Verb]) -> click.Group:
    from satchel._version import __version__

    root = click.Group(
        "satchel",
        help="Find Agent Skills for a project and its user, check them, and render the index.",
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )
    click.version_option(__version__, "--version", prog_name="satchel")(root)
    for verb in verbs:
        parent = _parent(root, verb.words[:-1])
        held = parent.commands.get(verb.words[-1])
        if isinstance(held, click.Group):
            _adopt(held, verb)
        else:
            parent.add_command(_command(verb))
    return root


def _adopt(group: click.Group, verb: Verb) -> None:
    """`verb` runs when `group` is named with no subverb (`hooks` beside `hooks run`);
    its parameters must all be options, or they would swallow the subverb's name."""

    def callback(**options: object) -> int | None:
        if click.get_current_context().invoked_subcommand is None:
            return verb.run(**options)
        return None

    group.callback = callback
    group.params = list(verb.params)
    group.invoke_without_command = True
    group.no_args_is_help = False
    group.help = inspect.getdoc(verb.run)


def _parent(root: click.Group, words: Sequence[str]) -> click.Group:
    group = root
    for word in words:
        sub = group.commands.get(word)
        if not isinstance(sub, click.Group):
            sub = click.Group(word, help=GROUP_HELP.get(word))
            group.add_command(sub)
        group = sub
    return group


def _command(verb: Verb) -> click.Command:
    return click.Command(
        verb.words[-1],
        callback=verb.run,
        params=list(verb.params),
        help=inspect.getdoc(verb.run),
    )


def _directory(*, exists: bool) -> click.Path:
    return click.Path(exists=exists, file_okay=False, path_type=Path)


def _dir() -> click.Argument:
    return click.Argument(
        ["directory"], required=False, type=_directory(exists=True), metavar="[DIR]"
    )


def _json() -> click.Option:
    return click.Option(["--json", "as_json"], is_flag=True, help="Print one JSON document.")


def _client() -> click.Option:
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


def _where() -> tuple[click.Parameter, ...]:
    project = click.Option(
        ["--project"],
        type=_directory(exists=True),
        help="The project root (default: DIR when it holds .satchel, .claude, .agents, "
        "AGENTS.md...; else the nearest ancestor holding .git).",
    )
    return (project, _home(), _client())


def _home() -> click.Option:
    return click.Option(
        ["--home"], type=_directory(exists=False), help="A stand-in user home directory."
    )


def _located() -> tuple[click.Parameter, ...]:
    """DIR, where the project and home are, whether the project is trusted, and the
    plugin directories named by hand."""
    return (_dir(), *_where(), _trust(), _plugin_dirs())


def _plugin_dirs() -> click.Option:
    return click.Option(
        ["--plugin-dir", "plugin_dirs"],
        multiple=True,
        type=_directory(exists=True),
        metavar="DIR",
        help="Load the plugin in DIR too, as Claude Code's --plugin-dir does (repeatable).",
    )


def _trust() -> click.Option:
    return click.Option(
        ["--trust/--no-trust", "trust"],
        default=None,
        help="Treat the project as trusted, or not, for this run "
        "(default: as `satchel trust` recorded).",
    )


def _trust_params(*, listing: bool) -> tuple[click.Parameter, ...]:
    shows = click.Option(["--list", "show_list"], is_flag=True, help="Print the trusted folders.")
    return (_dir(), _home(), _client(), *((shows,) if listing else ()), _json())


def _hook_params() -> tuple[click.Parameter, ...]:
    from satchel.cli.hooks_run import claude_settings_option

    return (*_where(), _trust(), _plugin_dirs(), claude_settings_option(), _json())


def _validate_params() -> tuple[click.Parameter, ...]:
    from satchel.cli._ignore import ignore_option

    return (
        click.Argument(["paths"], nargs=-1, required=True, type=click.Path(path_type=Path)),
        click.Option(["--strict"], is_flag=True, help="Apply the Agent Skills spec exactly."),
        click.Option(["--unicode-names"], is_flag=True, help="Accept lowercase Unicode letters."),
        _client(),
        _home(),
        ignore_option(),
        _json(),
    )


def _inspect_params() -> tuple[click.Parameter, ...]:
    return (
        click.Argument(["path"], type=click.Path(path_type=Path)),
        click.Option(
            ["--strict"], is_flag=True, help="Make an unknown manifest field fatal, as Vibe does."
        ),
        click.Option(
            ["--declarative"],
            is_flag=True,
            help="Load as a declarative-only client: no hooks, MCP servers or agents.",
        ),
        _json(),
    )


def _index_params() -> tuple[click.Parameter, ...]:
    from satchel._render import FORMATS, MAX_BYTES, MAX_SKILLS

    return (
        click.Option(
            ["--format", "index_format"],
            type=click.Choice(FORMATS),
            default="tool",
            show_default=True,
            help="tool: for a load_skill tool; xml: <available_skills>; paths: SKILL.md paths.",
        ),
        click.Option(
            ["--max-skills"], type=click.IntRange(min=0), default=MAX_SKILLS, show_default=True
        ),
        click.Option(
            ["--max-bytes"], type=click.IntRange(min=0), default=MAX_BYTES, show_default=True
        ),
        click.Option(["--tool-name"], default="load_skill", show_default=True),
    )


def _expand_params() -> tuple[click.Parameter, ...]:
    return (
        click.Argument(["prompt"]),
        *_located(),
        click.Option(
            ["--skill-first"],
            is_flag=True,
            help="Resolve /NAME to a skill before a command of the same name.",
        ),
        click.Option(
            ["--zero-based"],
            is_flag=True,
            help="$0 is the first argument, as in Claude Code (default: $1 is).",
        ),
        _json(),
    )


def _instructions_params() -> tuple[click.Parameter, ...]:
    from satchel.cli.instructions import MODES

    return (
        _dir(),
        *_where(),
        click.Option(
            ["--mode"],
            type=click.Choice(MODES),
            default="satchel",
            show_default=True,
            help="satchel: AGENTS.md else CLAUDE.md, then the client's file; "
            "codex: Codex's root-to-DIR AGENTS.md files.",
        ),
        click.Option(
            ["--paths", "paths_only"], is_flag=True, help="List the files without their text."
        ),
        _json(),
    )


def _new_params() -> tuple[click.Parameter, ...]:
    return (
        click.Argument(["name"]),
        click.Option(
            ["--dir", "into"],
            type=_directory(exists=False),
            help="Where to create NAME/ (default: <project>/.satchel/skills).",
        ),
        click.Option(["--description"], help="What the skill does and when to use it."),
        click.Option(
            ["--project"],
            type=_directory(exists=True),
            help="The project root (default: the git root).",
        ),
        _client(),
        _json(),
    )
