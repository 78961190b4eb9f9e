"""`satchel show NAME`: one skill's fields and its body."""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from satchel.cli import _output as out
from satchel.cli._again import again
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project
from satchel.core.errors import SkillBodyError
from satchel.foundations.tokens import truncate
from satchel.skills._model import Skill

if TYPE_CHECKING:
    from rich.text import Text

PARAMS = (click.Argument(["name"]), located(), json_option())


def run(
    *,
    name: str,
    here: Here,
    as_json: bool,
) -> int:
    """Show one skill's fields and body.

    The body is cut at about 10,000 tokens, as a host would cut it."""
    env = loaded(here)
    skills = env.skills
    skill = skills.get(name)
    if skill is None:
        return _unknown(name, skills, as_json=as_json)
    try:
        body = truncate(skill.body())
    except SkillBodyError as e:
        message = f"cannot read the body of skill {name!r}"
        return out.fail(
            "cli.skill.unreadable", message, as_json=as_json, diagnostics=[e.diagnostic]
        )
    if as_json:
        document = {"project": str(env.layout.project), **skill.to_json(), "body": body}
        out.print_json(document)
    else:
        say_project(env.layout, here.project)
        _print(skill, body)
    return OK


def _unknown(name: str, skills: Mapping[str, Skill], *, as_json: bool) -> int:
    close = difflib.get_close_matches(name, list(skills), n=3, cutoff=0.6)
    message = f"no skill named {name!r}; `{again('list')}` shows the skills that load"
    return out.fail("cli.skill.unknown", message, as_json=as_json, suggestions=close)


def _print(skill: Skill, body: str) -> None:
    con = out.console()
    grid = out.table("", "")
    grid.show_header = False
    for label, value in _fields(skill):
        grid.add_row(label, value)
    con.print(grid)
    con.print(out.rule("body"))
    con.print(out.safe_block(body) if body else out.safe("(empty)"))


def _fields(skill: Skill) -> list[tuple[str, Text]]:
    data = skill.to_json()
    data["path"] = out.shown(skill.path) if skill.path else None
    data["allowed_tools"] = " ".join(skill.allowed_tools)
    data["metadata"] = "\n".join(f"{k}: {v}" for k, v in skill.metadata.items())
    data["extras"] = "\n".join(f"{k}: {_compact(v)}" for k, v in data["extras"].items())
    return [(key.replace("_", " "), _value(value)) for key, value in data.items()]


def _compact(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _value(value: Any) -> Text:
    return out.safe_block(value) if value else out.safe("-")
