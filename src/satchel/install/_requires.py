"""The skills a picked skill requires from its own source (``metadata.requires``).

A skill names what it needs in ``metadata.requires`` (`satchel.plugins._dependencies`):
a bare name is another skill, looked for in the same source and installed with it
(transitively); ``name@marketplace`` is a plugin, installed from that marketplace after
the source's skills (`satchel.install._plugin_install`). A name the source does not
hold is an ``install.dependency.missing`` warning; the skill installs anyway.
"""

from __future__ import annotations

from dataclasses import field

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.install._contents import Item
from satchel.plugins._dependencies import Dependency, skill_requires
from satchel.skills._read import parse_skill

__all__ = ["Required", "with_required"]


@model
class Required:
    """The picks grown by what they require: `items` (picks first), each skill's
    `requires` (``kind:name`` keys), the names added only as requirements, the
    `plugins` required from marketplaces, and warnings."""

    items: tuple[Item, ...]
    requires: dict[str, tuple[str, ...]] = field(default_factory=dict)
    added: frozenset[str] = frozenset()
    plugins: tuple[Dependency, ...] = ()
    notes: tuple[Diagnostic, ...] = ()


def with_required(found: list[Item], picked: list[Item], source: str) -> Required:
    """`picked`, and every skill of `found` they require, transitively."""
    skills = {i.name: i for i in found if i.kind == "skill"}
    chosen = {i.name: i for i in picked}
    order = list(picked)
    requires: dict[str, tuple[str, ...]] = {}
    plugins: list[Dependency] = []
    notes: list[Diagnostic] = []
    queue = [i for i in picked if i.kind == "skill"]
    while queue:
        item = queue.pop(0)
        keys: list[str] = []
        for dep in _needs(item):
            if dep.marketplace is not None:
                plugins.append(dep)
                keys.append(f"plugin:{dep.name}")
                continue
            other = skills.get(dep.name)
            if other is None:
                message = f"skill {dep.name!r} (required by {item.name!r}) is not in {source}"
                notes.append(diagnostic("install.dependency.missing", message))
                continue
            keys.append(f"skill:{dep.name}")
            if dep.name not in chosen:
                chosen[dep.name] = other
                order.append(other)
                queue.append(other)
        requires[item.name] = tuple(dict.fromkeys(keys))
    added = frozenset(chosen) - {i.name for i in picked}
    return Required(tuple(order), requires, added, tuple(plugins), tuple(notes))


def _needs(item: Item) -> tuple[Dependency, ...]:
    skill, _ = parse_skill(item.path)
    return () if skill is None else skill_requires(skill)[0]
