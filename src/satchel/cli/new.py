"""`satchel new skill NAME`: scaffold a skill; `satchel validate --strict` accepts it
once its placeholder description is replaced (``--description`` gives one at once)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import directory, json_option, shared, shared_as
from satchel.core.errors import SkillDefinitionError
from satchel.core.layout import find_project_root
from satchel.skills._authoring import define_skill, write_skill
from satchel.skills._read import SKILL_FILE

PLACEHOLDER = "TODO: say what this skill does and when an agent should use it."

BODY = """\
# {name}

Use this skill when <the situation, in one or two sentences>. The description in
the frontmatter is all a model sees before it loads the skill: make it say what the
skill does and when to use it.

## Steps

1. <the first thing to do>
2. <the next thing, with the exact commands to run>

## Files

Keep long reference material in `references/` and helper scripts in `scripts/`;
link them from here with relative paths such as `references/guide.md`.
"""

PARAMS = (
    click.Argument(["name"]),
    click.Option(
        ["--dir", "into"],
        type=directory(exists=False),
        help="Where to create NAME/ (default: <project>/.satchel/skills).",
    ),
    click.Option(["--description"], help="What the skill does and when to use it."),
    shared_as("project", help="The project root (default: the git root)."),
    shared("client"),
    json_option(),
)


def run(
    *,
    name: str,
    into: Path | None,
    description: str | None,
    here: Here,
    as_json: bool,
) -> int:
    """Scaffold a skill from a template.

    Creates DIR/NAME/SKILL.md (DIR defaults to the project's .satchel/skills) and
    never overwrites an existing SKILL.md. Without --description it holds a TODO
    description, which `satchel validate --strict` refuses until it is replaced."""
    try:
        skill = define_skill(name, description or "-", BODY.format(name=name))
    except SkillDefinitionError as e:
        message = f"cannot create a skill named {name!r}"
        return out.fail("cli.skill.invalid", message, as_json=as_json, diagnostics=e.diagnostics)
    parent = into or _default_dir(here.project, here.client)
    if os.path.lexists(parent / skill.name / SKILL_FILE):
        message = (
            f"{out.shown(parent / skill.name / SKILL_FILE)} already exists; not overwriting it"
        )
        return out.fail("cli.skill.exists", message, as_json=as_json)
    if description is None:  # written on purpose: strict validation refuses it until replaced
        skill = replace(skill, description=PLACEHOLDER)
    path = write_skill(parent, skill)
    if as_json:
        out.print_json({"path": str(path.absolute())})
    else:
        _print(path)
    return OK


def _default_dir(project: Path | None, client: str) -> Path:
    root = project or find_project_root(Path.cwd())
    return root / f".{client}" / "skills"


def _print(path: Path) -> None:
    con = out.console()
    con.print(out.safe(f"created {out.shown(path.absolute())}"), soft_wrap=True)
    con.print("next: replace the TODO description, fill in the steps, then check it with")
    check = f"  satchel validate --strict {out.shown(path.parent.absolute())}"
    con.print(out.safe(check), soft_wrap=True)
