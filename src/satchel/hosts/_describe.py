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
        ("satchel's hooks.toml", _value(host.hook_files)),
        ("Claude Code settings hooks", _value(host.claude_settings_hooks)),
        ("the project as a plugin", _value(host.include_workspace_plugin)),
        ("plugins Claude Code installed", _value(host.claude_installed_plugins)),
        ("hooks and servers loaded", _value(host.executable)),
    )


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
