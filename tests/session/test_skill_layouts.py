"""Skills shaped as real ones ship: references at the skill root, scripts without an
exec bit. With `tools="skills"` the activation block lists only what the tools reach."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

import satchel
from satchel.session import Session
from tests.support import put

PDF_SKILL = """\
---
name: pdf
description: Read, fill and merge PDF files.
---

For forms, read forms.md. The API is in reference.md.
Run scripts/check_fields.py FILE to list the fields.
"""


@pytest.fixture
def pdf_like(project: Path) -> Path:
    """A skill laid out as anthropics/skills `pdf` is (its own text, not theirs)."""
    root = project / ".agents" / "skills" / "pdf"
    put(root / "SKILL.md", PDF_SKILL)
    put(root / "LICENSE.txt", "License text.\n")
    put(root / "forms.md", "# Forms\nFill fields one by one.\n")
    put(root / "reference.md", "# Reference\nEvery call.\n")
    scripts = root / "scripts"
    put(scripts / "check_fields.py", 'import sys\nprint("fields of", *sys.argv[1:])\n', mode=0o644)
    put(
        scripts / "to_images.py", "#!/usr/bin/env python3\nimport sys\nprint(sys.version_info[0])\n"
    )
    put(scripts / "fill.sh", 'echo "filled $1"\n', mode=0o644)
    put(scripts / "extract.py", "#!/usr/bin/env python3\nprint('x')\n", mode=0o755)
    put(scripts / "schema" / "form.xsd", "<xs:schema/>\n", mode=0o644)
    return root


def session_for(layout: satchel.Layout, **options: object) -> Session:
    environ = {"PATH": "/usr/bin:/bin"}
    return Session(satchel.load(layout=layout), tools="skills", environ=environ, **options)  # type: ignore[arg-type]


def listed(block: str) -> list[str]:
    return re.findall(r"<file>(.*)</file>", block)


def test_references_at_the_skill_root_are_listed_and_readable_by_default(layout, pdf_like):
    session = session_for(layout)

    block = session.call("skills_use", {"name": "pdf"}).text
    forms = session.call("skills_read", {"name": "pdf", "path": "forms.md"})

    assert listed(block) == [
        "LICENSE.txt",
        "forms.md",
        "reference.md",
        "scripts/check_fields.py",
        "scripts/extract.py",
        "scripts/fill.sh",
        "scripts/schema/form.xsd",
        "scripts/to_images.py",
    ]
    assert "Read any of them with skills_read and run scripts/ files with skills_run_script." in (
        block
    )
    assert (forms.is_error, forms.text) == (False, "# Forms\nFill fields one by one.\n")


def test_the_path_rules_hold_when_any_file_is_readable(layout, pdf_like):
    session = session_for(layout)
    session.call("skills_use", {"name": "pdf"})

    def code(path: str) -> str | None:
        return session.call("skills_read", {"name": "pdf", "path": path}).code

    assert code("../pdf/forms.md") == "resource.path.traversal"
    assert code(str(pdf_like / "forms.md")) == "resource.path.absolute"
    assert code("scripts") == "resource.not-regular"


def test_with_zidanes_read_areas_only_reachable_files_are_listed(layout, pdf_like):
    put(pdf_like / "references" / "api.md", "API.\n")
    session = session_for(layout, read_areas=("references", "assets"))

    block = session.call("skills_use", {"name": "pdf"}).text
    forms = session.call("skills_read", {"name": "pdf", "path": "forms.md"})

    assert listed(block) == [  # the .xsd cannot be read with these areas, nor run
        "references/api.md",
        "scripts/check_fields.py",
        "scripts/extract.py",
        "scripts/fill.sh",
        "scripts/to_images.py",
    ]
    assert "Read references/ and assets/ files with skills_read and run scripts/" in block
    assert forms.text == (
        "Error (resource.area): 'forms.md' is outside references/ and assets/, "
        "the folders this tool reads"
    )


def test_only_runnable_scripts_are_listed_when_the_model_can_only_run_them(layout, pdf_like):
    session = Session(
        satchel.load(layout=layout),
        tools=["skills_use", "skills_run_script"],
        environ={"PATH": "/usr/bin:/bin"},
    )
    block = session.call("skills_use", {"name": "pdf"}).text
    assert listed(block) == [
        "scripts/check_fields.py",
        "scripts/extract.py",
        "scripts/fill.sh",
        "scripts/to_images.py",
    ]
    assert "Run scripts/ files with skills_run_script." in block


def run(session: Session, script: str, *args: str) -> dict[str, object]:
    result = session.call(
        "skills_run_script", {"name": "pdf", "script": script, "args": list(args)}
    )
    assert not result.is_error, result.text
    data = json.loads(result.text)
    assert isinstance(data, dict)
    return data


def test_scripts_without_an_exec_bit_run_through_the_interpreter_their_suffix_names(
    layout, pdf_like
):
    session = session_for(layout)
    session.call("skills_use", {"name": "pdf"})

    assert run(session, "check_fields.py", "a.pdf")["stdout"] == "fields of a.pdf\n"
    assert run(session, "scripts/fill.sh", "b.pdf")["stdout"] == "filled b.pdf\n"
    assert run(session, "to_images.py")["stdout"] == f"{sys.version_info[0]}\n"


def test_the_interpreter_is_the_current_python_and_sh(layout, pdf_like):
    session = session_for(layout)
    skill = session.activation.find("pdf")
    scripts = pdf_like / "scripts"

    assert session.activation.runner.argv(skill, scripts / "check_fields.py") == [
        sys.executable,
        str(scripts / "check_fields.py"),
    ]
    assert session.activation.runner.argv(skill, scripts / "to_images.py") == [
        sys.executable,
        str(scripts / "to_images.py"),
    ]
    assert session.activation.runner.argv(skill, scripts / "fill.sh") == [
        "sh",
        str(scripts / "fill.sh"),
    ]
    assert session.activation.runner.argv(skill, scripts / "extract.py") == [
        str(scripts / "extract.py")
    ]


def test_a_shebang_comes_before_the_suffix_and_the_hosts_map_before_both(layout, pdf_like):
    scripts = pdf_like / "scripts"
    put(scripts / "b.py", "#!/bin/sh -e\necho from sh\n", mode=0o644)
    session = session_for(layout, script_interpreters={".sh": ["bash", "--norc"]})
    skill = session.activation.find("pdf")

    assert session.activation.runner.argv(skill, scripts / "b.py") == [
        "/bin/sh",
        "-e",
        str(scripts / "b.py"),
    ]
    assert session.activation.runner.argv(skill, scripts / "fill.sh") == [
        "bash",
        "--norc",
        str(scripts / "fill.sh"),
    ]


def test_node_runs_js_only_when_it_is_on_path(layout, pdf_like, tmp_path):
    scripts = pdf_like / "scripts"
    put(scripts / "x.js", "console.log(1)\n", mode=0o644)
    bin_dir = tmp_path / "bin"
    put(bin_dir / "node", "#!/bin/sh\necho node\n", mode=0o755)
    env = satchel.load(layout=layout)
    skill = env.skills["pdf"]

    without = Session(env, tools="skills", environ={"PATH": "/nonexistent"})
    with_node = Session(env, tools="skills", environ={"PATH": str(bin_dir)})

    refused = without.activation.runner.argv(skill, scripts / "x.js")
    assert isinstance(refused, satchel.Diagnostic)
    assert (refused.code, refused.message) == (
        "exec.start",
        "'x.js' cannot be run: .js files run with node, which is not on PATH; add a #! line, "
        "make it executable (chmod +x), or give the session an interpreter for .js "
        "(script_interpreters)",
    )
    assert with_node.activation.runner.argv(skill, scripts / "x.js") == [
        "node",
        str(scripts / "x.js"),
    ]


def test_a_crlf_shebang_without_an_exec_bit_is_explained(layout, pdf_like):
    put(pdf_like / "scripts" / "crlf.py", "#!/usr/bin/env python3\r\nprint(1)\r\n", mode=0o644)
    session = session_for(layout)
    session.call("skills_use", {"name": "pdf"})

    result = session.call("skills_run_script", {"name": "pdf", "script": "crlf.py"})

    assert result.text == (
        "Error (exec.start): 'crlf.py' has a #! line that ends in a carriage return "
        "(CRLF line endings); convert the file to LF"
    )


def test_read_areas_must_be_folder_names(layout, pdf_like):
    with pytest.raises(ValueError, match=r"read_areas: '\.\./x' must be a folder name"):
        session_for(layout, read_areas=["../x"])


def test_files_skills_read_would_refuse_are_not_listed(layout, pdf_like):
    (pdf_like / "assets").mkdir()
    (pdf_like / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (pdf_like / "assets" / "big.md").write_text("x" * 2048)
    os.link(pdf_like / "forms.md", pdf_like / "assets" / "forms-link.md")
    session = session_for(layout, resource_cap=1024)

    block = session.call("skills_use", {"name": "pdf"}).text
    logo = session.call("skills_read", {"name": "pdf", "path": "assets/logo.png"})

    assert not [f for f in listed(block) if f.startswith("assets/")]
    assert "forms.md" not in listed(block)  # it has two links now: refused, so not listed
    assert logo.code == "resource.not-text"


def test_with_load_skill_every_file_is_listed_as_before(layout, pdf_like):
    (pdf_like / "assets").mkdir()
    (pdf_like / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    session = Session(satchel.load(layout=layout), environ={})
    assert "assets/logo.png" in listed(session.call("load_skill", {"name": "pdf"}).text)
