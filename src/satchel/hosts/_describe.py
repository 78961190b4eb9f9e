"""A host profile's decisions in words: what docs/hosts.md and ``satchel hosts NAME``
show, one (decision, value) pair each (`decisions`), the rest of the definition that
docs/hosts.md shows (`details`, and `instruction_rows` for the instruction rule a host
defines), and `SHOWN`: every `Host` field the page shows (a test keeps it whole)."""

from __future__ import annotations

from satchel.hosts._instructions import InstructionRule, InstructionSource, InstructionText
from satchel.hosts._model import Host
from satchel.hosts._rules import PLUGIN_SKILL_RULES, TRUST_LISTS
from satchel.index._budget import percent

__all__ = ["SHOWN", "decisions", "details", "instruction_rows"]

SHOWN = frozenset(
    (
        # the page's heading, sources and root tables
        "name", "title", "sources", "skills", "commands", "agents", "plugins",
        # `decisions`
        "walk", "ancestors", "plugin_formats", "ambiguous_plugins", "plugin_skill_names",
        "plugin_skill_rule", "command_naming", "argument_numbering", "instructions",
        "skill_fields", "models", "index", "limits", "clash", "untrusted", "trust_list",
        "events", "hook_files", "claude_settings_hooks", "include_workspace_plugin",
        "claude_installed_plugins", "executable",
        # `details` and `instruction_rows`
        "client", "strict_plugins", "skill_metadata", "instruction_rule", "hooks",
        "carries", "port", "policy_export", "state", "mcp_files", "mcp_off",
        "mcp_approval", "mcp_policy", "untrusted_servers", "settings", "plugin_skill_clash",
        "trust_source", "names", "found_by", "installs",
    )
)  # fmt: skip
"""Every `Host` field docs/hosts.md shows."""


def decisions(host: Host) -> tuple[tuple[str, str], ...]:
    """Every decision of `host` but its root tables, as (decision, value) pairs."""
    formats = "every format" if host.plugin_formats is None else _value(host.plugin_formats)
    fields = "every field" if host.skill_fields is None else _value(host.skill_fields)
    return (
        ("walk", _walk(host)),
        ("skill names", _names(host)),
        ("folders from cwd to the project root", _value(host.ancestors)),
        ("plugin formats read", formats),
        ("several manifests", _value(host.ambiguous_plugins or "as config.toml says")),
        ("plugin skill names", _value(host.plugin_skill_names)),
        ("plugin skill rule", _value(host.plugin_skill_rule or "as config.toml says")),
        ("command names", _value(host.command_naming)),
        ("first argument", "`$0`" if host.argument_numbering == 0 else "`$1`"),
        ("instructions", _value(host.instructions)),
        ("skill fields read", fields),
        ("default model", _model(host)),
        ("index budget", _budget(host)),
        ("over budget", _value(host.index.overflow)),
        ("listing", _value(host.index.style) if host.index.style else "satchel's index"),
        ("limits", _limits(host)),
        ("a name in two roots", _value(host.clash)),
        ("a folder not trusted", _value(host.untrusted)),
        ("whose list of trusted folders", _value(host.trust_list)),
        ("hook events", _value(host.events)),
        ("hook file format", _value(host.hooks.format)),
        ("hook matchers", _value(host.hooks.matcher)),
        ("hook answers read", _value(host.hooks.answers)),
        ("hook variables", _value(_variables(host))),
        ("satchel's hooks.toml", _value(host.hook_files)),
        ("Claude Code settings hooks", _value(host.claude_settings_hooks)),
        ("the project as a plugin", _value(host.include_workspace_plugin)),
        ("plugins Claude Code installed", _value(host.claude_installed_plugins)),
        ("its own state", host.state.home if host.state else "none"),
        ("hooks and servers loaded", _value(host.executable)),
        ("plugin parts kept", _carries(host)),
        ("port writes", _port(host)),
        ("policy export", _value(host.policy_export is not None)),
        ("MCP server files", _mcp_files(host)),
        ("servers turned off in a project", _mcp_off(host)),
        ("a project's servers approved by", _mcp_approval(host)),
        ("servers blocked by name in", _mcp_policy(host)),
        ("servers in a folder not trusted", "the user's" if host.untrusted_servers else "none"),
        ("host settings read", _settings(host)),
        ("a skill in two plugins", _value(host.plugin_skill_clash)),
        ("trust taken with --from", _trust_source(host)),
        ("found on a machine by", _found_by(host)),
        ("installs satchel outdated reads", _installs(host)),
    )


def details(host: Host) -> tuple[tuple[str, str], ...]:
    """The rest of `host`'s definition, as (decision, value) pairs: what docs/hosts.md
    shows below `decisions`."""
    walk = host.walk
    bounds = (
        f"at most {walk.max_depth} levels and {walk.max_dirs:,} folders a root"
        if walk.nested
        else "child folders only"
    )
    links = "followed" if walk.follow_symlinks else "not followed"
    rule = host.plugin_skill_rule
    if rule is None:
        meaning = "as config.toml says"
    elif PLUGIN_SKILL_RULES[rule].name_is_folder:
        meaning = f"`{rule}`: a skill's `name` must be its folder's, else it is refused"
    else:
        meaning = f"`{rule}`: a skill is named by its folder; a differing `name` is reported"
    listed = TRUST_LISTS[host.trust_list]
    trusted = "satchel's own list (`satchel trust`)" if listed is None else f"`~/{listed}`"
    own = host.instruction_rule
    defined = "none" if own is None else f"`{own.mode}` (below)"
    models = host.models
    known = ", ".join(f"`{w.id}` {w.tokens:,}" for w in models.known) or "none"
    return (
        ("client (satchel's own folders and files)", _value(host.client)),
        ("walk bounds", f"{bounds}; symlinked folders {links}"),
        ("plugin skill rule, in words", meaning),
        ("plugins checked strictly", _value(host.strict_plugins)),
        ("trusted folders read from", trusted),
        ("top-level skill fields called deprecated", _value(host.skill_metadata.deprecated)),
        ("instruction rule it defines", defined),
        ("models known (tokens)", known),
        ("window of a model it does not know", f"{models.fallback:,} tokens"),
    )


def instruction_rows(rule: InstructionRule) -> tuple[tuple[str, str], ...]:
    """The instruction rule a host defines, as (decision, value) pairs."""
    walk = (
        "every folder from the project root down to cwd"
        if rule.walk == "root-to-cwd"
        else "the project root (every folder down to cwd when the layout reads ancestors)"
    )
    rows = [
        ("user folder", _value(rule.user_folder)),
        ("user files, in order", _sources(rule.user)),
    ]
    for number, sources in enumerate(rule.passes, 1):
        label = "each project folder" if len(rule.passes) == 1 else f"project pass {number}"
        rows.append((label, _sources(sources)))
    imports = sorted({s.imports for p in (rule.user, *rule.passes) for s in p if s.imports})
    rows += [
        ("folders read", walk),
        ("reader", _value(rule.reader)),
        ("cap on the project's files", f"{rule.max_total:,} bytes" if rule.max_total else "none"),
        ("empty user file skipped", _value(rule.skip_empty_user)),
        ("import syntax", _value(tuple(imports))),
        ("conditional", _value(rule.conditional)),
        ("sent to the model", _text(rule.text)),
        ("source", rule.source),
    ]
    return tuple(rows)


def _sources(sources: tuple[InstructionSource, ...]) -> str:
    return ", ".join(f"`{s.shown()}` ({_kind(s)})" for s in sources) or "none"


def _kind(source: InstructionSource) -> str:
    """A source's kind, and its imports' (an always-on rule's imports are files of
    their own kind)."""
    if source.imports is None:
        return source.kind
    imported = f" as {source.rules.imported}" if source.rules is not None else ""
    return f"{source.kind}; `{source.imports}` imports{imported}"


def _text(text: InstructionText | None) -> str:
    if text is None:
        return "not reproduced"

    def shown(template: str) -> str:
        return f"`{template}`".replace("\n", "\\n") if template else "nothing"

    stripped = " and ".join(f"the {scope}'s" for scope in text.strip) or "no"
    labels = "; labels " + ", ".join(f'{k}: "{v}"' for k, v in text.labels) if text.labels else ""
    joins = f"joined by {shown(text.join)}"
    if text.user_join is not None:
        joins = f"the user's joined by {shown(text.user_join)}, the project's by {shown(text.join)}"
    each = f"each file {shown(text.file)} ({stripped} text stripped{labels}), {joins}"
    if text.block is not None:
        block, between = shown(text.block), shown(text.between)
        return f"one block {block}, the user's part and the project's joined by {between}; {each}"
    return (
        f"the user's files in {shown(text.user_block)}, the project's in "
        f"{shown(text.project_block)}; {each}"
    )


def _variables(host: Host) -> tuple[str, ...]:
    """The variables the host sets for its hooks, beyond satchel's own."""
    names = host.hooks.variables
    found = (*names.project, *names.plugin_root, *names.plugin_data, *names.session)
    return tuple(dict.fromkeys(found))


def _carries(host: Host) -> str:
    """`Host.carries`: the kinds kept of each format the table names."""
    if not host.carries:
        return "what satchel reads of each format"
    kept = [f"{_value(fmt)}: {_value(parts)}" for fmt, parts in host.carries.items()]
    return "; ".join(kept) + "; of any other format, what satchel reads"


def _port(host: Host) -> str:
    """`Host.port`: the manifest `satchel port --to NAME` writes."""
    spec = host.port
    if spec is None:
        return "nothing"
    return f"`{spec.manifest}` (`--to {spec.name}`, the `{spec.format}` format)"


def _mcp_files(host: Host) -> str:
    if host.mcp_files is None:
        return "the project's `.mcp.json` and every host's user files"
    rows = []
    for row in host.mcp_files:
        keys = ".".join(k if k != "{project}" else "<project>" for k in row.keys)
        exclusive = ", in place of the others" if row.exclusive else ""
        rows.append(f"{row.label}: `{row.path}` `{keys}`{exclusive}")
    return "; ".join(rows) or "none"


def _mcp_off(host: Host) -> str:
    if host.mcp_off is None:
        return "as every host turns them off"
    rows = (
        f"`{o.path}` `{'.'.join(o.keys).replace('{project}', '<project>')}`" for o in host.mcp_off
    )
    return "; ".join(rows) or "none"


def _mcp_approval(host: Host) -> str:
    rule = host.mcp_approval
    if rule is None:
        return "no approval asked"
    flag = f"`{rule.trust[0]}` `{'.'.join(rule.trust[1]).replace('{project}', '<project>')}`"
    files = ", ".join(f"`{f}`" for f in rule.settings)
    return (
        f"{flag} true, then `{rule.every}` or `{rule.named}` (`{rule.refused}`: refused) in {files}"
    )


def _mcp_policy(host: Host) -> str:
    rule = host.mcp_policy
    if rule is None:
        return "none"
    files = ", ".join(f"`{f}`" for f in rule.files)
    allowed, excluded = ".".join(rule.allowed), ".".join(rule.excluded)
    each = "each of its lists" if rule.allowed_lists == "intersection" else "one of its lists"
    return f"{files}: `{excluded}` of any file, and all but `{allowed}` ({each}) once it is set"


def _settings(host: Host) -> str:
    settings = host.settings
    if settings is None:
        return "none"
    files = ", ".join(f"`{f.path}`" for f in settings.files)
    keys = [
        ("skills off", settings.disabled_skills),
        ("instruction names", settings.context_names),
    ]
    said = [f"{what} `{'.'.join(k)}`" for what, k in keys if k is not None]
    if settings.plugin_enablement is not None:
        said.append(f"plugins enabled by folder `{settings.plugin_enablement}`")
    if (link := settings.plugin_link) is not None:
        said.append(f"a plugin linked by `{link.file}` (`{link.type_key}: {link.link}`)")
    return f"{files}: {'; '.join(said)}"


def _found_by(host: Host) -> str:
    return ", ".join(f"`{t}`" for t in host.found_by) or "its name only"


def _trust_source(host: Host) -> str:
    source = host.trust_source
    if source is None:
        return "none"
    keys = ".".join((*source.keys, "<folder>", source.flag))
    return f"`{source.path}` `{keys}`"


def _installs(host: Host) -> str:
    found = host.installs
    if found is None:
        return "none"
    files = [f for f in (found.records, found.marketplaces, found.metadata, found.clones) if f]
    where = f"`{found.folder}`" if found.folder else "its own state"
    said = f"{found.shape} in {where}" + (f": {_value(tuple(files))}" if files else "")
    return said + (f"; not copied: {_value(found.skipped)}" if found.skipped else "")


def _walk(host: Host) -> str:
    """How a root is walked, in words: how deep, then each rule that is not satchel's."""
    walk = host.walk
    if walk.nested:
        entries = f", {walk.max_entries:,} entries" if walk.max_entries is not None else ""
        parts = [f"breadth-first to {walk.max_depth} levels, {walk.max_dirs:,} folders{entries}"]
    else:
        parts = ["child folders of a root"]
    if walk.root_skill:
        parts.append("a SKILL.md in the root itself")
    if walk.skills_in_skills:
        parts.append("skills inside skills")
    if walk.follow_symlinked_dirs:
        parts.append("into symlinked folders, each real folder once")
    elif not walk.follow_symlinks:
        parts.append("no symlinked folders")
    if not walk.hidden_dirs:
        parts.append("no dot folders")
    skipped = ", ".join(f"`{name}`" for name in walk.skip_dirs)
    parts.append(f"never {skipped}" if skipped else "`node_modules` read")
    if not walk.linked_skill_files:
        parts.append("no symlinked SKILL.md")
    if walk.resolve_root:
        parts.append("a symlinked root read at its real path")
    return "; ".join(parts)


def _names(host: Host) -> str:
    """What the host does with a skill's name, in words."""
    names = host.names
    if names.spec:
        said = "the Agent Skills rule (else the folder's name, else not loaded)"
        return said + ("; says what the other hosts do" if names.note_hosts else "")
    parts = ["as written"]
    if names.collapse_spaces:
        parts.append("white space made one space")
    if names.replace:
        chars = " ".join(f"`{c}`" for c in names.replace)
        parts.append(f"{chars} made `{names.replacement}`")
    return "; ".join(parts)


def _budget(host: Host) -> str:
    index = host.index
    parts = [
        f"{percent(index.fraction)} of the context window" if index.fraction else "",
        f"{index.chars:,} characters" if index.chars and index.chars != index.bytes else "",
        f"{index.bytes:,} bytes" if index.bytes else "",
        f"{index.entries} skills" if index.entries else "",
        f"descriptions cut to {index.description:,}" if index.description else "",
    ]
    return "; ".join(p for p in parts if p) or "none"


def _model(host: Host) -> str:
    """The default model and the listing budget its window gives, when it matters."""
    found = host.model()
    if found.model is None:
        return "none"
    shown = f"`{found.model}`"
    if host.index.fraction is None:
        return shown
    window = found.window
    chars = host.budget()[0].chars or 0
    return (
        f"{shown}: {window.tokens:,} tokens at {window.chars_per_token} characters a token, "
        f"{chars:,} characters of listing"
    )


def _limits(host: Host) -> str:
    limits = host.limits
    parts = [
        f"names over {limits.name} characters dropped" if limits.name else "",
        f"descriptions cut to {limits.description:,} characters" if limits.description else "",
    ]
    return "; ".join(p for p in parts if p) or "none"


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(f"`{v}`" for v in value) or "none"
    return f"`{value}`"
