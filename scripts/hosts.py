"""Write docs/hosts.md: every built-in host profile, a section each, from the profiles.

Run it after changing a host definition (src/satchel/hosts/_<host>.py):

    .venv/bin/python scripts/hosts.py
"""

from __future__ import annotations

from pathlib import Path

from satchel.core.layout import RootSpec
from satchel.hosts import PROFILES, Host, decisions
from satchel.hosts._describe import details, instruction_rows

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "hosts.md"
NOTES = ROOT / "docs" / "hosts"  # <name>.md: what a host shows its model, as compared
HEADER = """\
# Hosts: each agent host as a profile

An agent host (Claude Code, Codex, Gemini CLI, Cursor, GitHub Copilot, OpenCode, Kimi,
Mistral Vibe, and the mermaid, zidane and caveman agents) decides where skills,
commands, agents and plugins come from, which wins a clash, which plugin manifests it
reads, how it names things and numbers `$ARGUMENTS`, which instruction files it reads,
how much room its skill listing gets, which hook events it fires and how it speaks to
its hooks. satchel keeps each host's decisions in one frozen `satchel.hosts.Host`
profile, one module per host (`src/satchel/hosts/_<host>.py`). Its hook rules are one
`HookDialect` there (`Host.hooks`: its hook file format, event names, matcher rules,
the variables its hooks get, the payload they read, how it reads their answers and
what it tells its model; a profile of your own keeps its base's). Name a profile to
load as that host does:

```python
import satchel

env = satchel.load(host="codex")  # the project as Codex sees it
print(env.host.title, list(env.skills))
```

```sh
satchel list examples/workspace --host claude-code   # every loading verb takes --host
```

`satchel` (the default) reads every host's files. Options given to `load()` override the
profile's (`load(host="claude-code", command_naming="stem")`); `Session(env,
host="kimi")` follows a profile's session choices (the first argument is `$0` or `$1`).
A profile of your own is a `[hosts.<name>]` table of the user's `config.toml`
(`{config}/satchel/config.toml`), starting from a built-in `base`:

<!-- not run: a config file -->
```toml
[hosts.acme]
base = "claude-code"
title = "Acme agent"
skills = [
  { scope = "project", family = ".acme", template = "{project}/.acme/skills" },
  { scope = "user", family = ".acme", template = "{home}/.acme/skills" },
]
argument_numbering = 1
```

Its keys are the profile's fields below (`skills`, `commands`, `agents`, `plugins`,
`ancestors`, `nested`, `max_depth`, `max_dirs`, `max_entries`, `follow_symlinks`,
`follow_symlinked_dirs`,
`hidden_dirs`, `skip_dirs`, `skills_in_skills`, `root_skill`, `linked_skill_files`,
`resolve_root`, `plugin_formats`,
`ambiguous_plugins`, `plugin_skill_names`, `plugin_skill_rule`, `strict_plugins`,
`command_naming`, `argument_numbering`, `instructions` (false: none), `untrusted`,
`hook_files`, `claude_settings_hooks`, `include_workspace_plugin`, `executable`,
`title`, `client`). A key that is unknown or of the wrong type is reported as
`host.config.invalid` and left out; an unknown name is `host.unknown`.

Tables are in precedence order: the first root to define a name wins. A directory
holding only manifests a host does not read is refused for that host
(`plugin.compatibility.host_unread`). Where a host differs from satchel's model, the
profile says so: Codex lists every copy of a duplicated name (`clash: every`), and
satchel keeps the first and reports the rest as `skill.shadowed`.

## Models and the listing budget

A host sizes its skill listing from the model it runs, so each profile knows its
host's default model and the context windows of the models it knows (`Host.models`):
`Host.budget(model)` gives the listing's budget and `Host.model(model)` the window.
`load(model=...)`, `Session(env, model=...)` and `--model` on `index`, `compat`,
`doctor` and `serve` name the model; without, each host's default applies. A model id
the profile does not know gets the host's fallback window and a `host.model-unknown`
warning.

```python
from satchel import hosts

claude = hosts.get("claude-code")
print(claude.budget()[0].chars, claude.budget("claude-opus-4-6")[0].chars)  # 30000 8000
```

Claude Code (2.1.332 and 2.1.337, read in both binaries and checked against both
running offline) budgets `floor(window x characters a token x fraction)` characters:
the window is its model catalogue's (`claude-opus-5-5`, its default, and every model
from Opus 4.7 on: 1,000,000 tokens; Opus 4.6, Sonnet 4.6 and older: 200,000), a token
is 3 characters (4 for the models before Opus 4.7 and Sonnet 5), and the fraction is
`skillListingBudgetFraction` (0.01); an unknown id gets 1,000,000 tokens at 3
characters. So `claude-opus-5-5` gets 30,000 characters and `claude-opus-4-6` 8,000.
`opus`, `sonnet` and `haiku` name the 5.5 models, a dated id (`claude-opus-4-6-20250101`)
is its model's, and `[1m]` gives 1,000,000 tokens (`claude-opus-4-6[1m]`: 40,000).
`satchel index --json` names the model and window it used (`model`).
`skillListingMaxDescChars` (1,536) cuts each description. Both settings, and
`skillOverrides`, are read from `~/.claude/settings.json`, then a trusted project's
`.claude/settings.json` and `.claude/settings.local.json`. Its listing's text, order,
cut and marker are in [runtime.md](runtime.md#claude-codes-listing): under the
`claude-code` profile the index is that listing (`listing: claude-code` below).

## Instruction files

A host that reads its instruction files in a way of its own defines an
`InstructionRule` (`satchel.hosts.InstructionRule`, its section's "Instruction
files" table); the others name one by its word (`instructions`). A rule names the
user's folder (`~/.codex`; `{config}/{client}`: the client's config folder) and its
files, then each project folder's files in passes over the folders read (a file
marked `(root)` is read at the project root only); `{context}` is each name
Gemini CLI's `context.fileName` gives (`GEMINI.md`), `{client}` the client's own file
(`SATCHEL.md`), and a `**/*` path a folder of rule files whose frontmatter makes them
conditional (`paths`, `always-apply` or `apply-to`). The reader says how a folder's
files are read: `every-file` (each that is there), `first-file` (the first that
reads, the project's sharing the cap) or `agents-else-claude` (AGENTS.md, else a
Claude file, the client's file last). `at-files` imports read an `@path` line's file
after the one naming it; `at-inline` imports put `@file.md`'s text in place. "Sent to
the model" is the text the host wraps the files in, byte for byte as the pinned host
sends it (`satchel.assembly.listings.instruction_blocks`).

Generated by `scripts/hosts.py` from the profiles (a test keeps the two in step); do
not edit by hand.
"""


def _table(title: str, rows: tuple[RootSpec, ...]) -> list[str]:
    if not rows:
        return [f"{title}: none.", ""]
    lines = [f"{title}:", "", "| # | scope | family | template |", "|---|---|---|---|"]
    lines += [f"| {n} | {r.scope} | `{r.family}` | `{r.template}` |" for n, r in enumerate(rows, 1)]
    return [*lines, ""]


def _cell(text: str) -> str:
    """`text` in a table cell: a ``|`` of its own escaped."""
    return text.replace("|", "\\|")


def _decisions(host: Host) -> list[str]:
    rows = [f"| {k} | {_cell(v)} |" for k, v in (*decisions(host), *details(host))]
    return ["| decision | value |", "|---|---|", *rows, ""]


def _instructions(host: Host) -> list[str]:
    """The instruction rule the host defines, when it defines one."""
    rule = host.instruction_rule
    if rule is None:
        return []
    rows = [f"| {k} | {v} |" for k, v in instruction_rows(rule)]
    title = f"### Instruction files (`{rule.mode}`)"
    return [title, "", "| decision | value |", "|---|---|", *rows, ""]


def section(host: Host) -> list[str]:
    """One host's section: name, sources, tables, decisions and notes."""
    lines = [f"## {host.title} (`{host.name}`)", ""]
    lines += ["Sources:", "", *[f"- {s}" for s in host.sources], ""]
    lines += _table("Skills", host.skills)
    lines += _table("Commands", host.commands)
    lines += _table("Agents", host.agents)
    lines += _table("Plugin roots", host.plugins)
    return [*lines, *_decisions(host), *_instructions(host), *_notes(host)]


def _notes(host: Host) -> list[str]:
    """The host's page of notes (``docs/hosts/<name>.md``), when it has one."""
    path = NOTES / f"{host.name}.md"
    return [path.read_text(encoding="utf-8").rstrip("\n"), ""] if path.is_file() else []


ADDING = """\
## Adding a host

A host is one module and its tests; nothing outside `src/satchel/hosts/` names it.

1. **Its definition.** One module, `src/satchel/hosts/_<host>.py`, holding one frozen
   `Host` (`src/satchel/hosts/_model.py`): its root tables, walk, plugin formats,
   naming, instruction files (the words of `src/satchel/hosts/_vocabulary.py`, or an
   `InstructionRule` of its own when it reads its files in a way no other host does:
   which files, in which folders, walk, cap, import syntax, and how it sends them),
   index budget and models, hook events, trust rule. Each fact names its source in
   `sources`; a fact read off the running program says *observed*.
2. **One line in `PROFILES`** (`src/satchel/hosts/_profiles.py`): the order there is
   the order of `satchel hosts` and of this page.
3. **Its tests**, under `tests/hosts/`: what the profile loads from a project tree laid
   out as the host lays it out, and, where the host installs offline, a differential
   test that runs it on the same tree (`tests/hostloop/`).
4. **Its notes**, `docs/hosts/<host>.md`, when it has more to say than its decisions
   (what it shows its model, as compared with the running host): they are appended
   to its section.
5. **Regenerate** this page: `.venv/bin/python scripts/hosts.py` (a test keeps the two
   in step, and another that the page shows every field of `Host`).

A loader never branches on a host's name: when a host does something no other does,
the definition gets a field (or a small frozen rule model, such as `InstructionRule`)
and the loader reads it.
"""


def render() -> str:
    """The whole page."""
    lines = [HEADER]
    for host in PROFILES.values():
        lines += section(host)
    lines.append(ADDING)
    return "\n".join(lines).rstrip("\n") + "\n"


if __name__ == "__main__":
    TARGET.write_text(render(), encoding="utf-8")
