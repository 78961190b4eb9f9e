"""The command line: click parses, a table dispatches, `main()` maps errors to exit codes.

Each verb is a module of its own (``satchel.cli.doctor`` ...) holding its `PARAMS` (the
click parameters, with a `Shared` mark where the shared context options go) and `run`,
a typed function whose keyword parameters are the parsed options, those shared ones as
one `Here` value (`satchel.cli._context`, built once per invocation). `VERBS` names
each verb's module and its help line; a module is imported only when its verb runs
(or its own ``--help`` is asked for), so ``satchel --help`` imports none. `main()` is
the one place exceptions become exit codes (`_exit.MEANINGS`: 0 ok, 1 problems found,
2 usage error, 3 a bug in satchel, 4 a policy that fails closed, 130
interrupted), which ``satchel --help`` lists at its end.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`, `session`, `server`,
`audit`, `install`, `port`, `compat`, `reports`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast

import click

from satchel.cli._exit import BUG, INTERRUPTED, MEANINGS, OK, PROBLEMS, USAGE
from satchel.core._model import model

__all__ = ["main"]

IO_ERROR = "cli.io.error"  # diagnostic codes: see docs/diagnostics.md
USAGE_ERROR = "cli.usage"
HELP = (
    "Load and serve skills for agents; check and port plugins for every host; install "
    "from catalogues; audit and enforce policy.\n\nStart with `satchel doctor` in a project: "
    "what loads, from where, and what is wrong."
)
GROUP_HELP = {
    "lsp": "The plugins' language servers: list them, or start and check them.",
    "marketplace": "The plugin catalogues to install from: add, list, update or remove them.",
    "mcp": (
        "The MCP servers of the project: list them, start and check them, or log in to "
        "the remote ones."
    ),
    "new": "Create a skill from a template.",
    "plugin": "Inspect one plugin directory as its author.",
    "policy": "The organisation's policy: what it refuses here, or as a host's managed file.",
}


class VerbModule(Protocol):
    """What a verb module holds: its parameters, and `run`, whose keyword-only
    parameters are named as those are and which returns the exit code."""

    PARAMS: tuple[click.Parameter, ...]
    run: Callable[..., int]


@model
class Verb:
    """One row of the dispatch table: the words that name it, its module, and its help
    line (the first paragraph of its `run`'s docstring, which ``satchel --help`` lists)."""

    words: tuple[str, ...]
    module: str
    help: str

    def load(self) -> VerbModule:
        """The verb's module, imported now, as the dispatcher runs it: its shared
        context options in place, its `run` taking each option by name."""
        from satchel.cli._context import bind

        return cast(VerbModule, bind(importlib.import_module(self.module)))


VERBS = (
    Verb(("doctor",), "satchel.cli.doctor",
         "Report where skills were looked for and what is wrong."),
    Verb(("audit",), "satchel.cli.audit",
         "Report every executable or risky construct in a skill, a directory of skills, a "
         "plugin, a workspace (default: the current directory) or one file, running "
         "nothing; version-control and environment directories (.git, .venv, "
         "node_modules, ...) are not walked."),
    Verb(("compat",), "satchel.cli.compat",
         "Show what every agent host loads of a skill, a plugin or a project, and what it "
         "drops."),
    Verb(("list",), "satchel.cli.listing", "List the skills that load, in precedence order."),
    Verb(("show",), "satchel.cli.show", "Show one skill's fields and body."),
    Verb(("validate",), "satchel.cli.validate",
         "Check skills and plugins as their author; exit 1 on errors."),
    Verb(("index",), "satchel.cli.index", "Print the index text a model would read."),
    Verb(("new", "skill"), "satchel.cli.new", "Scaffold a skill from a template."),
    Verb(("commands",), "satchel.cli.commands",
         "List the slash commands that load, in precedence order."),
    Verb(("expand",), "satchel.cli.expand",
         "Print PROMPT with its slash command or skill expanded."),
    Verb(("agents",), "satchel.cli.agents",
         "List the subagent types that load, in precedence order."),
    Verb(("instructions",), "satchel.cli.instructions",
         "List the instruction files in prompt order, then their text."),
    Verb(("plugins",), "satchel.cli.plugins", "List the plugins found, in precedence order."),
    Verb(("hosts",), "satchel.cli.host_profiles",
         "List the host profiles `--host` and `load(host=...)` take, or show NAME's."),
    Verb(("plugin", "inspect"), "satchel.cli.plugin_inspect",
         "Show everything satchel would load from one plugin directory."),
    Verb(("plugin", "configure"), "satchel.cli.plugin_configure",
         "Set, unset or show the userConfig values of the plugin NAME."),
    Verb(("port",), "satchel.cli.port",
         "Write, next to the plugin at PATH, the manifests each host reads."),
    Verb(("mcp", "list"), "satchel.cli.mcp_list",
         "List the MCP servers configured for the project, without starting any."),
    Verb(("mcp", "check"), "satchel.cli.mcp_check",
         "Start the MCP servers, show what each offers, and stop them."),
    Verb(("mcp", "login"), "satchel.cli.mcp_login",
         "Authorize satchel for the remote MCP server NAME with OAuth."),
    Verb(("mcp", "logout"), "satchel.cli.mcp_logout",
         "Forget the OAuth tokens kept for the remote MCP server NAME."),
    Verb(("lsp", "list"), "satchel.cli.lsp_list",
         "List the language servers the enabled plugins declare, without starting any."),
    Verb(("lsp", "check"), "satchel.cli.lsp_check",
         "Start the language servers, show what each reports, and stop them."),
    Verb(("policy", "check"), "satchel.cli.policy_check",
         "Show the policy in force and what it refuses of this machine and project."),
    Verb(("policy", "export"), "satchel.cli.policy_export",
         "Write the system's policy (or --policy FILE) as the host's managed file."),
    Verb(("hooks", "run"), "satchel.cli.hooks_run",
         "Fire EVENT at every matching hook and show what each answered."),
    Verb(("hooks",), "satchel.cli.hooks", "List every hook found, in declared order."),
    Verb(("trust",), "satchel.cli.trust",
         "Trust a folder: its plugins, hooks, MCP servers and !`cmd` lines may load."),
    Verb(("untrust",), "satchel.cli.untrust",
         "Stop trusting a folder: its plugins, hooks and MCP servers no longer load."),
    Verb(("serve",), "satchel.cli.serve",
         "Serve the skills, slash commands and skill files over MCP."),
    Verb(("browse",), "satchel.cli.browse",
         "List the skills and plugins SOURCE holds, without installing anything."),
    Verb(("install",), "satchel.cli.install",
         "Install the skills and plugins of SOURCE, or those picked with --skill."),
    Verb(("marketplace", "add"), "satchel.cli.marketplace_add",
         "Add the marketplace at SOURCE: a catalogue of plugins to install from."),
    Verb(("marketplace", "build"), "satchel.cli.marketplace_build",
         "Write, at ROOT, the marketplace file of each host listing its plugins."),
    Verb(("marketplace", "list"), "satchel.cli.marketplace_list",
         "List the marketplaces added, then those the project declares and are not added."),
    Verb(("marketplace", "update"), "satchel.cli.marketplace_update",
         "Fetch every added marketplace (or those NAMED) again and keep the new copy."),
    Verb(("marketplace", "remove"), "satchel.cli.marketplace_remove",
         "Forget the marketplace NAME and delete its kept copy."),
    Verb(("tag",), "satchel.cli.tag",
         "Create the {name}--v{version} git tag of the plugin at PATH (default: here)."),
    Verb(("update",), "satchel.cli.update",
         "Fetch each installed source (or NAME's) at its ref again and show what changed."),
    Verb(("diff",), "satchel.cli.diff",
         "Show what the newer version at the source of NAME (default: everything installed) "
         "could do that the installed tree cannot, installing nothing."),
    Verb(("outdated",), "satchel.cli.outdated",
         "Compare every installed plugin and skill with its source, by content."),
    Verb(("remove",), "satchel.cli.remove",
         "Delete the skill or plugin NAME that satchel installed, and its lock entry."),
    Verb(("prune",), "satchel.cli.prune",
         "Remove what was installed only as a dependency and nothing needs any more."),
    Verb(("publish",), "satchel.cli.publish",
         "Push the skill or plugin at PATH to an OCI registry and print its digest."),
    Verb(("verify",), "satchel.cli.verify",
         "Hash every skill and plugin satchel installed and compare with skills.lock."),
)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: sys.argv[1:]); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
    try:
        result = _root().main(args, prog_name="satchel", standalone_mode=False)
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
    except Exception as e:  # noqa: BLE001  # the one place a bug becomes exit 3, not a traceback
        return _failed(e, args, as_json=as_json)
    return result if isinstance(result, int) else OK


def _failed(e: Exception, args: Sequence[str], *, as_json: bool) -> int:
    """PROBLEMS for a file satchel could not use or a refusal of satchel's own; BUG
    for anything else."""
    from satchel.core.errors import Refused, SatchelError

    if isinstance(e, (OSError, SatchelError)):
        code = e.code if isinstance(e, Refused) else IO_ERROR  # a refusal keeps its own code
        if as_json:
            _json_error(code, _oneline(e), args)
        else:
            _say(f"satchel: {code}: {_oneline(e)}")
        return PROBLEMS
    _say(f"satchel: internal error: {type(e).__name__}: {_oneline(e)}")
    _say("this is a bug in satchel: please report it with the command you ran")
    return BUG


def _json_error(code: str, message: str, args: Sequence[str]) -> None:
    """A refusal before or around a verb, as the --json envelope: on stdout, but on
    stderr for `serve`, whose stdout is the MCP channel."""
    import json

    from satchel.cli._output import envelope

    document = envelope({"error": {"code": code, "message": " ".join(message.split())}})
    stream = sys.stderr if args[:1] == ["serve"] else sys.stdout
    stream.write(json.dumps(document, indent=2, ensure_ascii=True) + "\n")


def _say(line: str) -> None:
    from satchel.core._text import escape

    click.echo(escape(line), err=True)


def _oneline(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        where = f": {e.filename}" if e.filename else ""
        return f"{e.strerror}{where}"
    return " ".join(str(e).split()) or "(no message)"


def _root() -> click.Group:
    from satchel.foundations._version import __version__

    root = _Verbs(
        (),
        VERBS,
        name="satchel",
        help=HELP,
        epilog=epilog(),
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )
    click.version_option(__version__, "--version", prog_name="satchel")(root)
    return root


def epilog() -> str:
    """The end of ``satchel --help``: every exit code and what it means, unwrapped."""
    rows = "\n".join(f"  {code:<4} {meaning}" for code, meaning in MEANINGS)
    return f"\b\nExit codes:\n{rows}\n\nReference of every verb: docs/cli.md."


class _Stub(click.Command):
    """A verb as ``--help`` lists it: its name and help line, its module not imported."""

    def __init__(self, verb: Verb) -> None:
        super().__init__(verb.words[-1], help=verb.help)
        self.verb = verb


class _Verbs(click.Group):
    """The verbs whose words start with `words` (click's lazy group): each subcommand
    is a `_Stub` until it is resolved to run, when its module is imported."""

    def __init__(self, words: tuple[str, ...], verbs: Sequence[Verb], **attrs: Any) -> None:
        super().__init__(**attrs)
        self.own: Verb | None = None  # the verb named by `words` itself (`hooks`)
        for word, under in _next_words(words, verbs).items():
            self.add_command(_child((*words, word), under))

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if isinstance(command, _Stub):
            command = _command(command.verb)
        elif isinstance(command, _Verbs) and command.own is not None:
            command.adopt(command.own)
        return name, command, rest

    def adopt(self, verb: Verb) -> None:
        """Make `verb` run when the group is named with no subverb (`hooks` beside
        `hooks run`); its parameters must all be options, or they would swallow the
        subverb's name."""
        module = verb.load()

        def callback(**options: object) -> int | None:
            if click.get_current_context().invoked_subcommand is None:
                return _run(module, options)
            return None

        self.callback = callback
        self.params = list(module.PARAMS)
        self.help = _doc(module)


def _next_words(words: tuple[str, ...], verbs: Sequence[Verb]) -> dict[str, list[Verb]]:
    """The verbs below `words`, by the word that follows."""
    under: dict[str, list[Verb]] = {}
    for verb in verbs:
        if len(verb.words) > len(words) and verb.words[: len(words)] == words:
            under.setdefault(verb.words[len(words)], []).append(verb)
    return under


def _child(words: tuple[str, ...], verbs: Sequence[Verb]) -> click.Command:
    """A stub for a verb, or a group for a word that more words follow."""
    own = next((v for v in verbs if v.words == words), None)
    if own is not None and len(verbs) == 1:
        return _Stub(own)
    help_line = own.help if own is not None else GROUP_HELP.get(words[-1])
    group = _Verbs(words, verbs, name=words[-1], help=help_line)
    if own is not None:
        group.own = own
        group.invoke_without_command = True
        group.no_args_is_help = False
    return group


def _command(verb: Verb) -> click.Command:
    module = verb.load()
    return click.Command(
        verb.words[-1],
        callback=lambda **options: _run(module, options),
        params=list(module.PARAMS),
        help=_doc(module),
    )


def _run(module: VerbModule, options: Mapping[str, Any]) -> int:
    """The verb's `run` with the parsed options, its children ended by any signal that
    ends satchel (`satchel.foundations.process._live`); a verb that starts no process (its module
    says ``RUNS_NOTHING = True``) runs as it is, the process layer not imported."""
    from satchel.cli._output import allow_plain

    allow_plain(getattr(module, "PLAIN", False) is True)
    if getattr(module, "RUNS_NOTHING", False) is True:
        return module.run(**options)
    from satchel.foundations.process._live import ending_on_signals

    with ending_on_signals():  # a hook or server never outlives satchel
        return module.run(**options)


def _doc(module: VerbModule) -> str | None:
    import inspect

    return inspect.getdoc(module.run)
