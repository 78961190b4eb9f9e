"""`satchel instructions`: the files in prompt order, their text, and Codex's mode."""

from __future__ import annotations

from .support import WHERE, WORKSPACE, check_golden


def test_human_output_matches_golden(satchel, in_repo):
    result = satchel("instructions", *WHERE)
    assert result.code == 0
    assert result.err == f"project: {WORKSPACE} (--project)\n"
    check_golden("instructions.txt", result.out)


def test_paths_prints_the_list_only(satchel, in_repo):
    out = satchel("instructions", "--paths", *WHERE).out
    assert "examples/workspace/AGENTS.md" in out
    assert "instructions.replaced" in out  # why CLAUDE.md is not there
    assert "make test" not in out


def test_json_lists_files_in_prompt_order(satchel, in_repo):
    result = satchel("instructions", "--json", *WHERE)
    doc = result.json()
    assert result.code == 0
    assert doc["mode"] == "satchel"
    assert [(f["path"], f["scope"], f["kind"]) for f in doc["files"]] == [
        (str(WORKSPACE / "AGENTS.md"), "project", "agents"),
        (str(WORKSPACE / "SATCHEL.md"), "project", "client"),
    ]
    assert doc["files"][0]["text"] == (WORKSPACE / "AGENTS.md").read_text()
    assert [(d["code"], d["path"]) for d in doc["diagnostics"]] == [
        ("instructions.replaced", str(WORKSPACE / "CLAUDE.md"))
    ]


def test_codex_mode_reads_from_the_root_down_to_dir(satchel, project, home):
    (project / "AGENTS.md").write_text("Root rules.\n")
    (project / "SATCHEL.md").write_text("Not read by Codex.\n")
    sub = project / "pkg"
    sub.mkdir()
    (sub / "AGENTS.override.md").write_text("Package rules.\n")
    args = (sub, "--project", project, "--home", home, "--json")
    codex = satchel("instructions", "--mode", "codex", *args).json()
    assert codex["mode"] == "codex"
    assert [(f["label"], f["kind"]) for f in codex["files"]] == [
        ("AGENTS.md", "agents"),
        ("pkg/AGENTS.override.md", "override"),
    ]
    default = satchel("instructions", *args).json()
    assert [f["label"] for f in default["files"]] == ["AGENTS.md", "SATCHEL.md"]


def test_a_file_cut_at_the_cap_is_marked(satchel, project, home, monkeypatch):
    monkeypatch.chdir(project)  # short relative paths: the marker stays on one line
    (project / "AGENTS.md").write_text("x" * (40 * 1024))
    args = ("--mode", "codex", "--project", project, "--home", home)
    assert satchel("instructions", *args, "--json").json()["files"][0]["truncated"] is True
    assert "(cut at the size cap)" in satchel("instructions", *args, "--paths").out


def test_no_files(satchel, project, home):
    result = satchel("instructions", "--project", project, "--home", home)
    assert (result.code, result.out, result.err) == (
        0,
        "",
        f"project: {project} (--project)\nNo instruction files found (satchel mode).\n",
    )


def test_unknown_mode_is_a_usage_error(satchel, project, home):
    result = satchel("instructions", "--mode", "vibe", "--project", project, "--home", home)
    assert result.code == 2


def test_a_host_mode_lists_conditional_rules_with_when_they_apply(
    satchel, project, home, monkeypatch
):
    monkeypatch.chdir(project)
    rules = project / ".cursor" / "rules"
    rules.mkdir(parents=True)
    (rules / "ts.mdc").write_text("---\nglobs: src/**/*.ts\n---\nTS.\n")
    (rules / "db.mdc").write_text("---\ndescription: the database\n---\nDB.\n")
    (rules / "manual.mdc").write_text("Manual.\n")
    args = ("--mode", "cursor", "--project", project, "--home", home)
    out = satchel("instructions", *args, "--paths").out
    assert ".cursor/rules/db.mdc (when the agent asks for it)" in out
    assert ".cursor/rules/manual.mdc (only when named)" in out
    assert ".cursor/rules/ts.mdc (for src/**/*.ts)" in out
    doc = satchel("instructions", *args, "--json").json()
    assert [f["condition"]["applies"] for f in doc["files"]] == ["description", "manual", "globs"]
