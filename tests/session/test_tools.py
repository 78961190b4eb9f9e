"""The model-facing tools, called as a model would call them, on real files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from satchel.foundations.tokens import truncate
from satchel.session import SkillEvent
from tests.support import put


def content_block(skills_dir: Path) -> str:
    return f"""\
<skill_content name="refund-policy">
# Refund policy

Refunds inside 30 days are automatic. Past 30 days a supervisor approves.

Skill directory: {skills_dir / "refund-policy"}
Relative paths in this skill are relative to the skill directory.
Read one with load_skill({{"name": ..., "resource": "<file>"}}).
<skill_resources>
  <file>references/exceptions.md</file>
</skill_resources>
</skill_content>"""


def test_load_skill_returns_the_content_block_and_activates(make_session, skills_dir):
    events: list[SkillEvent] = []
    session = make_session(on_event=events.append)
    result = session.call("load_skill", {"name": "refund-policy"})
    assert not result.is_error
    assert result.text == content_block(skills_dir)
    assert [(e.type, e.name, e.via) for e in events] == [
        ("skills:activate", "refund-policy", "tool")
    ]
    assert session.context()[0].id == "agent.skills"
    assert len(session.context()) == 1  # the body is in the transcript, not the context


def test_load_skill_with_a_resource_reads_that_file(make_session):
    session = make_session()
    result = session.call(
        "load_skill", {"name": "refund-policy", "resource": "references/exceptions.md"}
    )
    assert result.text == "Damaged goods: always.\n"
    assert session.activation.active == ()  # reading a file activates nothing


@pytest.mark.parametrize(
    ("resource", "code"),
    [
        ("../pdf/SKILL.md", "resource.path.traversal"),
        ("/etc/passwd", "resource.path.absolute"),
        ("references/none.md", "resource.missing"),
        ("references", "resource.not-regular"),
    ],
)
def test_load_skill_refuses_paths_outside_or_wrong(make_session, resource, code):
    result = make_session().call("load_skill", {"name": "pdf", "resource": resource})
    assert result.is_error
    assert result.code == code
    assert result.text.startswith(f"Error ({code}): ")


def test_a_binary_resource_is_refused_as_not_text(make_session, skills_dir):
    result = make_session().call("load_skill", {"name": "pdf", "resource": "assets/logo.bin"})
    assert result.code == "resource.not-text"
    assert result.text == "Error (resource.not-text): 'assets/logo.bin' is not UTF-8 text (6 bytes)"


def test_a_symlink_out_of_the_skill_is_refused_through_the_tool(make_session, skills_dir, tmp_path):
    secret = put(tmp_path / "secret.txt", "TOP SECRET\n")
    os.symlink(secret, skills_dir / "pdf" / "references" / "key.md")
    result = make_session().call("load_skill", {"name": "pdf", "resource": "references/key.md"})
    assert result.code == "resource.symlink.escape"
    assert "TOP SECRET" not in result.text


def test_resource_text_is_cut_at_the_token_budget(make_session, skills_dir):
    put(skills_dir / "pdf" / "references" / "big.md", "word " * 10_000)
    session = make_session(max_resource_tokens=100)
    result = session.call("load_skill", {"name": "pdf", "resource": "references/big.md"})
    assert result.text == truncate("word " * 10_000, 100)
    assert result.text.endswith(" of 50,000 characters omitted]")


def test_the_body_is_cut_at_the_token_budget(make_session, skills_dir):
    put(
        skills_dir / "long" / "SKILL.md",
        "---\nname: long\ndescription: Long.\n---\n" + "x" * 50_000,
    )
    import satchel
    from satchel.session import Session

    env = satchel.load(layout=make_session().environment.layout)
    result = Session(env, environ={}, max_body_tokens=50).call("load_skill", {"name": "long"})
    assert f"\n{truncate('x' * 50_000, 50)}\n\n" in result.text
    assert " of 50,000 characters omitted]" in result.text


def test_skills_use_activates_once_and_deactivates(make_session):
    events: list[SkillEvent] = []
    session = make_session(tools="skills", on_event=events.append)
    first = session.call("skills_use", {"name": "pdf"})
    assert first.text.startswith('<skill_content name="pdf">')
    again = session.call("skills_use", {"name": "pdf", "mode": "activate"})
    assert again.text == "Skill 'pdf' is already active; its instructions are above."
    off = session.call("skills_use", {"name": "pdf", "mode": "deactivate"})
    assert off.text == "Skill 'pdf' is released; its tool limits no longer apply."
    assert [(e.type, e.via) for e in events] == [
        ("skills:activate", "tool"),
        ("skills:deactivate", "tool"),
    ]


def test_skills_use_with_a_bad_mode_is_an_argument_error(make_session):
    result = make_session(tools="skills").call("skills_use", {"name": "pdf", "mode": "on"})
    assert (
        result.text == "Error (session.tool.arguments): 'mode' must be 'activate' or 'deactivate'"
    )


def test_skills_read_needs_an_active_skill_and_keeps_to_its_read_areas(make_session):
    session = make_session(tools="skills", read_areas=("references", "assets"))
    inactive = session.call("skills_read", {"name": "pdf", "path": "references/format.md"})
    assert inactive.text == (
        "Error (session.skill.inactive): skill 'pdf' is not active; "
        "call skills_use with its name first"
    )
    session.call("skills_use", {"name": "pdf"})
    assert session.call("skills_read", {"name": "pdf", "path": "references/format.md"}).text == (
        "PDF 1.7\n"
    )
    outside = session.call("skills_read", {"name": "pdf", "path": "scripts/extract.sh"})
    assert outside.text == (
        "Error (resource.area): 'scripts/extract.sh' is outside references/ and assets/, "
        "the folders this tool reads"
    )


def test_a_model_cannot_load_a_skill_hidden_from_it(make_session, skills_dir):
    import satchel
    from satchel.session import Session

    put(
        skills_dir / "deploy" / "SKILL.md",
        "---\nname: deploy\ndescription: Deploy.\ndisable-model-invocation: true\n---\nGo.\n",
    )
    env = satchel.load(layout=make_session().environment.layout)
    session = Session(env, environ={})
    result = session.call("load_skill", {"name": "deploy"})
    assert result.code == "session.skill.unknown"
    assert "deploy" not in session.tools()[0].input_schema["properties"]["name"]["enum"]
    assert session.activate("deploy").name == "deploy"  # the host (the user) still can


def test_unknown_tool_and_bad_arguments_are_results_not_exceptions(make_session):
    session = make_session()
    assert (
        session.call("rm", {}).text == "Error (session.tool.unknown): this session has no tool 'rm'"
    )
    assert session.call("load_skill", "{not json").text == (
        "Error (session.tool.arguments): the arguments are not valid JSON, or nest too deep"
    )
    assert session.call("load_skill", "[1]").code == "session.tool.arguments"
    assert session.call("load_skill", {"name": 3}).text == (
        "Error (session.tool.arguments): 'name' must be a non-empty string"
    )


# -- skills_run_script -----------------------------------------------------------------


def run(session, **arguments):
    result = session.call("skills_run_script", {"name": "pdf", **arguments})
    return result, (json.loads(result.text) if result.text.startswith("{") else None)


@pytest.fixture
def scripts(make_session):
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    return session


def test_a_script_runs_as_argv_in_the_skill_directory(scripts, skills_dir, tmp_path):
    canary = tmp_path / "canary"
    args = [f"; touch {canary}", "$(id)", "--upload-pack=touch"]
    result, data = run(scripts, script="extract.sh", args=args)
    assert not result.is_error
    assert data["exitCode"] == 0
    assert data["stdout"] == f"extracted ; touch {canary} $(id) --upload-pack=touch\n"
    assert data["stderr"] == ""
    assert not canary.exists()


def test_a_script_sees_its_directory_and_a_scrubbed_environment(make_session, skills_dir):
    put(
        skills_dir / "pdf" / "scripts" / "where.sh",
        '#!/bin/sh\npwd\necho "$SKILL_DIR"\necho "${SECRET:-none}"\n',
        mode=0o755,
    )
    session = make_session(tools="skills", environ={"PATH": os.environ["PATH"], "SECRET": "s3"})
    session.call("skills_use", {"name": "pdf"})
    _, data = run(session, script="scripts/where.sh")
    real = os.path.realpath(skills_dir / "pdf")
    assert data["stdout"].splitlines() == [real, str(skills_dir / "pdf"), "none"]


def test_a_script_outside_scripts_is_refused(scripts):
    result, _ = run(scripts, script="../SKILL.md")
    assert result.code == "resource.path.traversal"
    result, _ = run(scripts, script="/bin/sh")
    assert result.code == "resource.path.absolute"


def test_a_symlinked_script_leading_out_is_refused(scripts, skills_dir):
    os.symlink("/bin/sh", skills_dir / "pdf" / "scripts" / "link")
    result, _ = run(scripts, script="link")
    assert result.code == "resource.symlink.escape"


def test_a_script_with_no_exec_bit_no_shebang_and_an_unknown_suffix_is_refused(scripts, skills_dir):
    put(skills_dir / "pdf" / "scripts" / "x.dat", "echo hi\n", mode=0o644)
    result, _ = run(scripts, script="x.dat")
    assert result.text == (
        "Error (exec.start): 'x.dat' cannot be run: it has no #! line and its suffix .dat has "
        "no interpreter; add a #! line, make it executable (chmod +x), or give the session an "
        "interpreter for .dat (script_interpreters)"
    )


def test_an_interpreter_runs_scripts_without_an_exec_bit_when_the_host_maps_one(
    make_session, skills_dir
):
    put(skills_dir / "pdf" / "scripts" / "x.dat", 'echo via sh "$1"\n', mode=0o644)
    session = make_session(tools="skills", script_interpreters={".dat": ["sh"]})
    session.call("skills_use", {"name": "pdf"})
    _, data = run(session, script="x.dat", args=["a b"])
    assert data["stdout"] == "via sh a b\n"


def test_a_crlf_shebang_is_explained(scripts, skills_dir):
    put(skills_dir / "pdf" / "scripts" / "crlf.sh", "#!/bin/sh\r\necho hi\r\n", mode=0o755)
    result, data = run(scripts, script="crlf.sh")
    assert result.is_error
    assert data["exitCode"] is None
    assert "carriage return" in data["error"]
    assert data["error"].startswith("exec.start: ")


def test_a_script_past_its_timeout_is_killed(scripts, skills_dir):
    put(skills_dir / "pdf" / "scripts" / "slow.sh", "#!/bin/sh\nsleep 600\n", mode=0o755)
    result, data = run(scripts, script="slow.sh", timeout=1)
    assert result.is_error
    assert data["timedOut"] is True
    assert data["error"].startswith("exec.timeout: ")


def test_the_model_cannot_raise_the_timeout_above_the_session_ceiling(make_session, skills_dir):
    put(skills_dir / "pdf" / "scripts" / "slow.sh", "#!/bin/sh\nsleep 600\n", mode=0o755)
    session = make_session(tools="skills", script_timeout=1)
    session.call("skills_use", {"name": "pdf"})
    _, data = run(session, script="slow.sh", timeout=3600)
    assert data["timedOut"] is True


def test_a_failing_script_is_data_not_a_tool_error(scripts, skills_dir):
    put(
        skills_dir / "pdf" / "scripts" / "fail.sh", "#!/bin/sh\necho oops >&2\nexit 3\n", mode=0o755
    )
    result, data = run(scripts, script="fail.sh")
    assert not result.is_error
    assert (data["exitCode"], data["stderr"]) == (3, "oops\n")
