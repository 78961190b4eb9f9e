"""Shell interpolation on activation only (zidane, case X01)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import satchel
from satchel.session import Session
from tests.support import put

BODY = """\
Branch: !`printf main`
Touch: !`touch {canary}/inline`
KEY=!`touch {canary}/not-at-line-start`
$(touch {canary}/dollar) and `touch {canary}/backticks` and wow!
```bash
!`touch {canary}/in-a-bash-fence`
```
```!
printf 'block '
printf output
```
End.
"""


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "canary"
    path.mkdir()
    return path


@pytest.fixture
def shell_env(layout: satchel.Layout, home: Path, canary: Path) -> satchel.Environment:
    put(
        home / ".agents" / "skills" / "ctx" / "SKILL.md",
        "---\nname: ctx\ndescription: Context.\n---\n" + BODY.format(canary=canary),
    )
    return satchel.load(layout=layout)


def session_for(env: satchel.Environment, **options: object) -> Session:
    return Session(env, environ={"PATH": os.environ["PATH"]}, **options)  # type: ignore[arg-type]


def test_loading_listing_and_indexing_run_nothing(shell_env, canary):
    session = session_for(shell_env)
    session.context()
    session.tools()
    satchel.render_index(shell_env.skills)
    assert list(canary.iterdir()) == []


def test_activation_runs_the_documented_forms_once(shell_env, canary):
    text = session_for(shell_env).call("load_skill", {"name": "ctx"}).text
    assert "Branch: main\n" in text
    assert "Touch: \n" in text
    assert "block output\nEnd." in text
    assert sorted(p.name for p in canary.iterdir()) == ["inline"]
    assert f"KEY=!`touch {canary}/not-at-line-start`" in text


def test_reading_a_resource_runs_nothing(shell_env, canary, home):
    put(
        home / ".agents" / "skills" / "ctx" / "references" / "r.md",
        "!`touch " + str(canary) + "/r`\n",
    )
    session = session_for(shell_env)
    result = session.call("load_skill", {"name": "ctx", "resource": "references/r.md"})
    assert result.text.startswith("!`touch")
    assert list(canary.iterdir()) == []


def test_interpolation_off_leaves_a_note_and_runs_nothing(shell_env, canary):
    session = session_for(shell_env, allow_shell_interpolation=False)
    text = session.call("load_skill", {"name": "ctx"}).text
    assert "Branch: [satchel: not run, shell interpolation is off: printf main]" in text
    assert list(canary.iterdir()) == []
    assert {d.code for d in session.diagnostics} == {"exec.interpolation.refused"}


def test_the_approve_callback_sees_each_command_and_can_refuse(shell_env, canary):
    seen: list[tuple[str, str]] = []

    def approve(command: str, skill: satchel.Skill) -> bool:
        seen.append((command, skill.name))
        return command.startswith("printf")

    session = Session(shell_env, environ={"PATH": os.environ["PATH"]}, approve=approve)
    text = session.call("load_skill", {"name": "ctx"}).text
    assert [c for c, _ in seen] == [
        "printf main",
        f"touch {canary}/inline",
        "printf 'block '\nprintf output",
    ]
    assert f"Touch: [satchel: not run, the host refused it: touch {canary}/inline]" in text
    assert list(canary.iterdir()) == []


def test_a_scope_outside_shell_scopes_never_interpolates(shell_env, canary):
    session = session_for(shell_env, shell_scopes=["project"])
    text = session.call("load_skill", {"name": "ctx"}).text
    assert (
        "[satchel: not run, skills from the user scope may not run commands: printf main]" in text
    )
    assert list(canary.iterdir()) == []


def test_failed_and_slow_commands_leave_a_note(layout, home):
    put(
        home / ".agents" / "skills" / "bad" / "SKILL.md",
        "---\nname: bad\ndescription: Bad.\n---\nA !`exit 3`\nB !`sleep 30`\n",
    )
    session = session_for(satchel.load(layout=layout), shell_timeout=0.5)
    text = session.call("load_skill", {"name": "bad"}).text
    assert "A [satchel: command exited with status 3: exit 3]" in text
    assert "B [satchel: command timed out after 0.5 s: sleep 30]" in text
    assert [d.code for d in session.diagnostics] == ["exec.interpolation.failed"] * 2
    assert session.diagnostics[0].message == "skill 'bad': command exited with status 3: exit 3"


def test_each_activation_runs_again(layout, home, tmp_path):
    counter = tmp_path / "count"
    put(
        home / ".agents" / "skills" / "c" / "SKILL.md",
        f"---\nname: c\ndescription: C.\n---\n!`echo x >> {counter}`\n",
    )
    session = session_for(satchel.load(layout=layout), tools="skills")
    session.call("skills_use", {"name": "c"})
    session.call("skills_use", {"name": "c"})  # already active: not again
    session.call("skills_use", {"name": "c", "mode": "deactivate"})
    session.call("skills_use", {"name": "c"})
    assert counter.read_text() == "x\nx\n"


def test_untrusted_project_skills_never_interpolate(project, home, canary):
    put(
        project / ".agents" / "skills" / "p" / "SKILL.md",
        f"---\nname: p\ndescription: P.\n---\n!`touch {canary}/p`\n",
    )
    layout = satchel.Layout.default(project, home=home, env={})
    env = satchel.load(layout=layout, trust_project_skills=True)
    session = session_for(env, shell_scopes=["user"])
    text = session.call("load_skill", {"name": "p"}).text
    assert "may not run commands" in text
    assert list(canary.iterdir()) == []


def test_past_max_shell_commands_the_rest_get_a_note(layout, home):
    body = "".join(f"!`printf {i}`\n" for i in range(4))
    put(
        home / ".agents" / "skills" / "many" / "SKILL.md",
        "---\nname: many\ndescription: M.\n---\n" + body,
    )
    session = session_for(satchel.load(layout=layout), max_shell_commands=2)
    text = session.call("load_skill", {"name": "many"}).text
    assert text.startswith('<skill_content name="many">\n0\n1\n')
    assert "[satchel: not run, more than 2 commands in one activation: printf 2]" in text
    assert "[satchel: not run, more than 2 commands in one activation: printf 3]" in text
