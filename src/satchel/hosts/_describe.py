"""A host profile's decisions in words: what docs/hosts.md and ``satchel hosts NAME``
show, one (decision, value) pair each."""

from __future__ import annotations

from satchel._budget import percent
from satchel.hosts._model import Host

__all__ = ["decisions"]


def decisions(host: Host) -> tuple[tuple[str, str], ...]:
    """Every decision of `host` but its root tables, as (decision, value) pairs."""
    formats = "every format" if host.plugin_formats is None else _value(host.plugin_formats)
    fields = "every field" if host.skill_fields is None else _value(host.skill_fields)
    return (
        ("walk", "any depth" if host.walk.nested else "child folders of a root"),
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
        ("satchel's hooks.toml", _value(host.hook_files)),
        ("Claude Code settings hooks", _value(host.claude_settings_hooks)),
        ("the project as a plugin", _value(host.include_workspace_plugin)),
        ("plugins Claude Code installed", _value(host.claude_installed_plugins)),
        ("hooks and servers loaded", _value(host.executable)),
        ("MCP server files", _mcp_files(host)),
        ("servers turned off in a project", _mcp_off(host)),
        ("servers in a folder not trusted", "the user's" if host.untrusted_servers else "none"),
        ("host settings read", _settings(host)),
        ("a skill in two plugins", _value(host.plugin_skill_clash)),
        ("trust taken with --from", _trust_source(host)),
    )


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
    return f"{files}: {'; '.join(said)}"


def _trust_source(host: Host) -> str:
    source = host.trust_source
    if source is None:
        return "none"
    keys = ".".join((*source.keys, "<folder>", source.flag))
    return f"`{source.path}` `{keys}`"


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
