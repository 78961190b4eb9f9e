"""A skill body's placeholders on activation, as Claude Code fills them
(code.claude.com/docs/en/skills, "String substitutions"), and stacked ``/a /b``."""

from __future__ import annotations

import os

import satchel
from satchel.session import Session
from tests.support import write_tree

NAMED = """\
---
name: fix
description: Fix an issue.
arguments: [issue, branch]
---
Fix $issue on $branch; first $0, second $ARGUMENTS[1], third $2; all: $ARGUMENTS.
Kept: \\$issue, $issue_id, $5.00 and ${CLAUDE_PLUGIN_ROOT}.
Dir ${CLAUDE_SKILL_DIR} in session ${CLAUDE_SESSION_ID}.
"""


def load(layout: satchel.Layout, files: dict[str, str], **options: object) -> Session:
    write_tree(layout.project / ".agents" / "skills", files)
    env = satchel.load(layout=layout)
    return Session(env, environ={"PATH": os.environ["PATH"]}, session_id="S-1", **options)  # type: ignore[arg-type]


def test_every_placeholder_is_filled_zero_based(layout):
    session = load(layout, {"fix/SKILL.md": NAMED}, argument_numbering=0)
    text = session.expand('/fix 42 "main line"')
    skill_dir = layout.project / ".agents" / "skills" / "fix"
    assert text == (
        '<agent-skill name="fix">\n'
        'Fix 42 on main line; first 42, second main line, third $2; all: 42 "main line".\n'
        "Kept: $issue, $issue_id, $5.00 and ${CLAUDE_PLUGIN_ROOT}.\n"
        f"Dir {skill_dir} in session S-1.\n\n"
        f"Skill directory: {skill_dir}\n"
        "</agent-skill>"
    )  # filled, so the request is not appended again
    assert session.activation.is_active("fix")


def test_a_named_placeholder_with_no_word_is_empty(layout):
    """code.claude.com/docs/en/skills: "A named placeholder from the arguments
    frontmatter with no matching argument expands to an empty string"; an indexed one
    "stays in the content unchanged"."""
    session = load(layout, {"fix/SKILL.md": NAMED}, argument_numbering=0)
    assert "Fix 42 on ; first 42, second $ARGUMENTS[1], third $2; all: 42.\n" in (
        session.expand("/fix 42")
    )


def test_one_based_numbering_counts_from_one_and_has_no_indexed_form(layout):
    body = "---\nname: one\ndescription: One.\n---\nA $1 B $0 C $ARGUMENTS[0]\n"
    session = load(layout, {"one/SKILL.md": body}, argument_numbering=1)
    assert "A x B $0 C x y[0]\n" in session.expand("/one x y")


def test_the_claude_profile_numbers_from_zero(layout):
    body = "---\nname: zero\ndescription: Zero.\n---\nFirst: $0\n"
    session = load(layout, {"zero/SKILL.md": body}, host="claude-code")
    assert "First: x\n" in session.expand("/zero x y")


def test_variables_fill_a_model_activation_with_no_arguments(layout):
    body = "---\nname: v\ndescription: V.\n---\nIn ${CLAUDE_SESSION_ID}: $0 $ARGUMENTS.\n"
    session = load(layout, {"v/SKILL.md": body}, argument_numbering=0)
    text = session.call("load_skill", {"name": "v"}).text
    assert "In S-1: $0 .\n" in text


def test_no_placeholder_filled_appends_the_request_after_the_wrapper(layout):
    body = "---\nname: plain\ndescription: Plain.\n---\nJust do it.\n"
    text = load(layout, {"plain/SKILL.md": body}).expand("/plain now please")
    assert text.endswith("</agent-skill>\n\nnow please")


def test_arguments_are_never_expanded_again(layout, tmp_path):
    canary = tmp_path / "canary"
    body = "---\nname: echo\ndescription: Echo.\n---\nGot: $ARGUMENTS|$0\n"
    session = load(layout, {"echo/SKILL.md": body}, argument_numbering=0)
    typed = f"$1${{CLAUDE_SESSION_ID}}$ARGUMENTS !`touch {canary}`"
    text = session.expand(f"/echo {typed}")
    assert f"Got: {typed}|$1${{CLAUDE_SESSION_ID}}$ARGUMENTS\n" in text
    assert not canary.exists()


def test_arguments_never_reach_a_shell_command_satchel_rule(layout):
    """satchel's rule, unlike Claude Code: inside a !`cmd` only ${...} variables are
    filled; what was typed never reaches the shell."""
    body = (
        "---\nname: sh\ndescription: Sh.\n---\nOut: !`printf '%s/%s' '$0' ${CLAUDE_SESSION_ID}`\n"
    )
    session = load(layout, {"sh/SKILL.md": body}, argument_numbering=0)
    assert "Out: $0/S-1\n" in session.expand("/sh '; touch pwned'")


def test_a_plugin_skill_gets_its_plugin_root_and_data(layout, tmp_path):
    plugin = tmp_path / "plugins" / "kit"
    write_tree(
        plugin,
        {
            ".claude-plugin/plugin.json": '{"name": "kit"}',
            "skills/tool/SKILL.md": (
                "---\nname: tool\ndescription: Tool.\n---\n"
                "Root ${CLAUDE_PLUGIN_ROOT} data ${CLAUDE_PLUGIN_DATA}\n"
            ),
        },
    )
    env = satchel.load(layout=layout, plugin_dirs=[plugin])
    session = Session(env, environ={"PATH": os.environ["PATH"]})
    name = next(n for n in env.skills if n.endswith("tool"))
    text = session.call("load_skill", {"name": name}).text
    data = env.plugins.plugins["kit"].data_dir
    assert f"Root {plugin.resolve()} data {data}\n" in text


def test_stacked_skills_load_together_with_the_request(layout):
    files = {
        "a/SKILL.md": "---\nname: a\ndescription: A.\n---\nA got $ARGUMENTS\n",
        "b/SKILL.md": "---\nname: b\ndescription: B.\n---\nB body.\n",
    }
    session = load(layout, files)
    text = session.expand("/b /a fix it")
    root = layout.project / ".agents" / "skills"
    assert text == (
        f'<agent-skill name="b">\nB body.\n\nSkill directory: {root / "b"}\n</agent-skill>\n\n'
        f'<agent-skill name="a">\nA got fix it\n\nSkill directory: {root / "a"}\n</agent-skill>'
    )
    assert [s.name for s in session.activation.active] == ["b", "a"]


def test_at_most_five_skills_stack(layout):
    files = {f"s{i}/SKILL.md": f"---\nname: s{i}\ndescription: S.\n---\nS{i}.\n" for i in range(6)}
    session = load(layout, files)
    text = session.expand("/s0 /s1 /s2 /s3 /s4 /s5 go")
    assert [s.name for s in session.activation.active] == ["s0", "s1", "s2", "s3", "s4"]
    assert text.endswith("</agent-skill>\n\n/s5 go")


def test_the_host_activates_with_arguments(layout):
    body = "---\nname: host\ndescription: H.\n---\nFor $ARGUMENTS.\n"
    held = load(layout, {"host/SKILL.md": body}).activate("host", "the team")
    assert "For the team.\n" in held.content


def test_claude_effort_is_the_skills_effort_else_the_sessions(layout):
    """Claude Code 2.1.120's ``${CLAUDE_EFFORT}``; left as written when no effort is set."""
    own = "---\nname: deep\ndescription: Deep.\neffort: high\n---\nAt ${CLAUDE_EFFORT}.\n"
    plain = "---\nname: plain\ndescription: Plain.\n---\nAt ${CLAUDE_EFFORT}.\n"
    files = {"deep/SKILL.md": own, "plain/SKILL.md": plain}
    session = load(layout, files, effort="low")
    assert "At high.\n" in session.call("load_skill", {"name": "deep"}).text
    assert "At low.\n" in session.call("load_skill", {"name": "plain"}).text
    bare = load(layout, files)
    assert "At ${CLAUDE_EFFORT}.\n" in bare.call("load_skill", {"name": "plain"}).text
