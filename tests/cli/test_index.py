"""`satchel index`: the raw index text, in each format, with its caps."""

from __future__ import annotations

import json

import pytest

from satchel import Budget, Layout, Session, load
from satchel.index._render import FORMATS
from satchel.session._discovery import search_line
from satchel.session._options import SessionOptions
from tests.support import write_skill

from .support import EXAMPLE, check_golden


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_matches_golden(satchel, in_repo, fmt):
    result = satchel("index", "--format", fmt, *EXAMPLE)
    assert result.code == 0
    found = satchel("index", "--format", fmt, "--json", *EXAMPLE).json()["diagnostics"]
    doctor = "satchel doctor --project examples/workspace --home examples/home --trust"
    assert result.err == (
        f"{len(found)} diagnostics about what the index lists; run `{doctor}` to see them.\n"
    )
    check_golden(f"index-{fmt}.txt", result.out)


def test_text_is_printed_exactly_as_rendered(satchel, in_repo):
    raw = satchel("index", "--format", "xml", *EXAMPLE).out
    doc = satchel("index", "--format", "xml", "--json", *EXAMPLE).json()
    assert raw == doc["text"]


def test_json_gives_format_text_bytes_and_tokens(satchel, project, home):
    write_skill(project / ".satchel/skills", "deploy", description="Ship it.")
    doc = satchel("index", "--project", project, "--home", home, "--json").json()
    text = (
        "Skills available to this agent. Load one only when its description matches the task.\n"
        'Call load_skill({"name":"<skill>"}) for instructions. '
        "Use its resource argument for referenced files.\n"
        "- deploy: Ship it.\n"
    )
    assert doc == {
        "version": 1,
        "project": str(project),
        "format": "tool",
        "text": text,
        "bytes": 206,
        "tokens": 52,
        "budget": {"tokens": None, "chars": None, "bytes": 8192, "skills": 64, "description": None},
        "entries": [
            {
                "name": "deploy",
                "state": "full",
                "line": "- deploy: Ship it.",
                "chars": 19,
                "tokens": 5,
                "reason": "",
                "cap": None,
            }
        ],
        "search_line": None,
        "diagnostics": [],
    }
    assert len(text.encode()) == 206


def test_caps_and_tool_name(satchel, in_repo):
    out = satchel("index", "--max-skills", "2", "--tool-name", "skills_use", *EXAMPLE).out
    lines = out.splitlines()
    assert 'Call skills_use({"name":"<skill>"})' in lines[1]
    assert [line.split(":")[0] for line in lines[2:4]] == ["- changelog", "- release"]
    assert lines[4:] == [
        "(13 more skills not listed: index limit reached)",
        search_line(SessionOptions()),
    ]


def test_no_skills_prints_nothing(satchel, project, home):
    result = satchel("index", "--project", project, "--home", home)
    assert (result.code, result.out, result.err) == (0, "", "")


def test_unknown_format_is_a_usage_error(satchel, in_repo):
    result = satchel("index", "--format", "yaml", *EXAMPLE)
    assert result.code == 2
    assert "Invalid value for '--format'" in result.err


def test_each_skill_the_caps_leave_out_is_named_on_stderr(satchel, project, home):
    for name in ("alpha", "beta", "gamma"):
        write_skill(project / ".satchel/skills", name, description=f"{name.title()} things.")
    result = satchel("index", "--max-skills", "1", "--project", project, "--home", home)
    assert result.out.splitlines()[-2] == "(2 more skills not listed: index limit reached)"
    cap = "the index lists at most 1 skill (max_skills)"
    assert [line.split(": ", 1)[1] for line in result.err.splitlines()] == [
        f"warning skill.index.omitted: skill 'beta' is not in the index: {cap}",
        f"warning skill.index.omitted: skill 'gamma' is not in the index: {cap}",
    ]
    doc = satchel("index", "--max-skills", "1", "--project", project, "--home", home, "--json")
    assert [(d["code"], d["message"]) for d in doc.json()["diagnostics"]] == [
        ("skill.index.omitted", f"skill 'beta' is not in the index: {cap}"),
        ("skill.index.omitted", f"skill 'gamma' is not in the index: {cap}"),
    ]


def test_a_conditional_skill_joins_the_index_only_for_a_matching_touch(
    satchel, project, home, monkeypatch
):
    """As in a session: `paths:` holds the skill back until a file it matches is touched."""
    write_skill(project / ".satchel/skills", "deploy", description="Ship it.")
    write_skill(
        project / ".satchel/skills", "web", description="Web rules.", extra="paths: ['web/**']"
    )
    monkeypatch.chdir(project)
    base = ("index", "--project", project, "--home", home)
    listed = [satchel(*base).out, satchel(*base, "--touch", "api/x.py").out]
    touched = satchel(*base, "--touch", "web/app.ts").out
    assert [line for line in listed[0].splitlines() if line.startswith("- ")] == [
        "- deploy: Ship it."
    ]
    assert listed[1] == listed[0]
    assert touched == listed[0] + "- web: Web rules.\n"


def test_list_shows_a_conditional_skills_patterns(satchel, project, home):
    write_skill(
        project / ".satchel/skills", "web", description="Web rules.", extra="paths: ['web/**']"
    )
    out = satchel("list", "--project", project, "--home", home).out
    assert "(when a file matches web/**)" in out


def test_explain_shows_each_skills_line_cost_and_why(satchel, in_repo):
    args = ("index", "--budget-chars", "1400", "--override", "changelog=name-only", "--explain")
    result = satchel(*args, *EXAMPLE)
    assert result.code == 0
    check_golden("index-explain.txt", result.out)
    assert "skill.index.shortened" in result.err


def test_claude_codes_listing_takes_a_character_budget_and_no_other(satchel, in_repo):
    """Claude Code bounds its listing in characters (SLASH_COMMAND_TOOL_CHAR_BUDGET):
    --budget-chars sizes it; a bound it has not is refused, not silently dropped."""
    doc = satchel("index", "--host", "claude-code", "--budget-chars", "300", "--json", *EXAMPLE)
    budget = {"tokens": None, "chars": 300, "bytes": None, "skills": None, "description": 1536}
    assert doc.json()["budget"] == budget
    whole = satchel("index", "--host", "claude-code", "--json", *EXAMPLE).json()
    assert {e["state"] for e in whole["entries"]} == {"full"}
    assert {e["state"] for e in doc.json()["entries"]} == {"full", "name-only"}
    refused = satchel("index", "--host", "claude-code", "--budget-tokens", "300", *EXAMPLE)
    assert refused.code == 2
    assert refused.out == ""
    assert (
        "Invalid value for '--budget-tokens' under --host claude-code: Claude Code bounds its "
        "listing in characters only (as its SLASH_COMMAND_TOOL_CHAR_BUDGET does); it has no "
        "such bound. Use --format tool for satchel's own index, which takes it."
    ) in " ".join(refused.err.split())
    own = satchel("index", "--host", "claude-code", "--format", "tool", "--max-skills", "1",
                  "--json", *EXAMPLE)  # fmt: skip
    assert own.json()["budget"]["skills"] == 1
    assert len([e for e in own.json()["entries"] if e["state"] != "omitted"]) <= 1


@pytest.mark.parametrize(
    ("host", "why"),
    [
        (
            "codex",
            "Codex budgets its listing itself, at 2% of the model's context window in tokens",
        ),
        ("gemini", "Gemini CLI lists every skill whole, with no budget"),
    ],
)
@pytest.mark.parametrize(
    "option", ["--max-skills", "--max-bytes", "--budget-chars", "--budget-tokens"]
)
def test_a_host_that_sets_its_own_budget_refuses_satchels_bounds(
    satchel, in_repo, host, why, option
):
    refused = satchel("index", "--host", host, option, "100", "--json", *EXAMPLE)
    assert refused.code == 2
    assert refused.json()["error"] == {
        "code": "cli.usage",
        "message": f"Invalid value for '{option}' under --host {host}: {why}; it has no such "
        "bound. Use --format tool for satchel's own index, which takes it.",
    }


def test_the_json_reports_the_budget_the_host_applies(satchel, in_repo):
    codex = satchel("index", "--host", "codex", "--json", *EXAMPLE).json()
    assert codex["model"]["id"] == "gpt-6.2-sol"
    tokens = codex["model"]["window"] * 2 // 100  # Codex: 2% of the window, in tokens
    assert codex["budget"] == {
        "tokens": tokens, "chars": None, "bytes": None, "skills": None, "description": 1024
    }  # fmt: skip
    small = satchel("index", "--host", "codex", "--model", "gpt-5.5", "--json", *EXAMPLE).json()
    assert small["budget"]["tokens"] == small["model"]["window"] * 2 // 100
    gemini = satchel("index", "--host", "gemini", "--json", *EXAMPLE).json()
    assert gemini["budget"] == dict.fromkeys(("tokens", "chars", "bytes", "skills", "description"))


def test_the_model_sizes_the_hosts_budget(satchel, in_repo):
    doc = satchel(
        "index", "--host", "claude-code", "--model", "claude-opus-4-6", "--json", *EXAMPLE
    )
    assert doc.json()["budget"]["chars"] == 8_000  # 1% of 200,000 tokens at 4 characters
    unknown = satchel("index", "--host", "claude-code", "--model", "nonesuch", "--json", *EXAMPLE)
    assert unknown.json()["budget"]["chars"] == 30_000
    codes = [d["code"] for d in unknown.json()["diagnostics"]]
    assert "host.model-unknown" in codes


def test_an_override_that_is_not_name_equals_state_is_a_usage_error(satchel, in_repo):
    result = satchel("index", "--override", "changelog", *EXAMPLE)
    assert result.code == 2
    assert "'changelog' is not NAME=STATE" in result.err


def test_query_lists_the_most_relevant_skills_first(satchel, in_repo):
    args = ("--max-skills", "2", *EXAMPLE)
    out = satchel("index", "--query", "I need to audit our dependencies' licenses", *args).out
    check_golden("index-query.txt", out)
    plain = satchel("index", *args).out.splitlines()
    assert [line.split(":")[0] for line in plain[2:4]] == ["- changelog", "- release"]


def test_an_index_that_leaves_skills_out_ends_as_a_sessions_does(satchel, project, home):
    """The search line, its room taken from the budget: the text a session's model reads."""
    for name in ("alpha", "beta", "gamma", "delta"):
        write_skill(project / ".satchel/skills", name, description=f"{name.title()} things " * 8)
    where = ("--project", project, "--home", home)
    doc = satchel("index", "--budget-chars", "600", "--max-skills", "2", "--json", *where).json()
    env = load(layout=Layout.default(project, home=home, project=project))
    session = Session(env, index_budget=Budget(chars=600, skills=2))
    index = next(s for s in session.context() if s.id == "agent.skills")
    assert doc["text"] == index.text
    assert doc["text"].endswith(search_line(SessionOptions()) + "\n")
    assert doc["search_line"] == search_line(SessionOptions())
    assert len(doc["text"]) <= 600
    without = satchel(
        "index", "--budget-chars", "600", "--max-skills", "2", "--no-search", "--json", *where
    ).json()
    assert without["search_line"] is None
    assert "search_skills" not in without["text"]
    assert len(without["entries"]) == len(doc["entries"])
    explained = satchel(
        "index", "--budget-chars", "600", "--max-skills", "2", "--explain", *where
    ).out.splitlines()
    assert explained[-2].startswith("search line: ")
    assert explained[-1] == f"    {search_line(SessionOptions())}"


def test_a_hosts_own_listing_is_printed_without_satchels_search_line(satchel, project, home):
    """Codex leaves out bare lines past its budget with no line of its own: `index --host
    codex` prints what Codex sends, and adds satchel's search line only with --search."""
    root = project / ".agents" / "skills"
    for n in range(700):
        write_skill(root, f"skill-{n:03}", description="Does one small thing.")
    args = ("index", "--project", project, "--home", home, "--host", "codex")
    plain = satchel(*args, "--model", "gpt-5.5", "--json").json()
    searched = satchel(*args, "--model", "gpt-5.5", "--search", "--json").json()
    assert any(e["state"] == "omitted" for e in plain["entries"])
    assert plain["search_line"] is None
    assert plain["text"].endswith("\n</skills_instructions>")
    assert searched["search_line"] == search_line(SessionOptions())
    assert searched["text"].rstrip("\n").endswith(search_line(SessionOptions()))


def test_a_skill_used_in_the_future_neither_crashes_the_index_nor_doctor(
    satchel, project, home, monkeypatch
):
    """A ``lastUsedAt`` far ahead weighs without bound in Claude Code, which then keeps
    that skill's description first; satchel loads and lists it the same way."""
    write_skill(project / ".claude/skills", "deploy", description="Ship it.")
    usage = {"skillUsage": {"deploy": {"usageCount": 1, "lastUsedAt": 1e16}}}
    (home / ".claude.json").write_text(json.dumps(usage))
    where = ("--project", project, "--home", home, "--host", "claude-code")
    index = satchel("index", *where)
    assert (index.code, index.err) == (0, "")
    assert index.out.endswith("\n\n- deploy: Ship it.\n")
    monkeypatch.setenv("HOME", str(home))  # as a user's own ~/.claude.json is found
    doctor = satchel("doctor", "--project", project, "--host", "claude-code", "--json")
    assert doctor.err == ""
    assert doctor.json()["skills"] == ["deploy"]


def test_a_setting_the_listing_ignores_is_said_on_stderr_and_in_the_json(satchel, project, home):
    write_skill(project / ".claude/skills", "deploy", description="Ship it.")
    (home / ".claude").mkdir()
    (home / ".claude/settings.json").write_text('{"skillListingBudgetFraction": "abc"}')
    where = ("--project", project, "--home", home, "--host", "claude-code")
    plain = satchel("index", *where)
    message = "settings.json: skillListingBudgetFraction must be above 0, at most 1"
    assert plain.out.endswith("- deploy: Ship it.\n")
    assert f"warning config.invalid: {message}" in plain.err
    found = satchel("index", *where, "--json").json()["diagnostics"]
    assert [(d["code"], d["message"]) for d in found] == [("config.invalid", message)]


def test_a_managed_lock_that_empties_the_listing_is_said(
    satchel, project, home, tmp_path, monkeypatch
):
    write_skill(project / ".claude/skills", "deploy", description="Ship it.")
    managed = tmp_path / "managed"
    managed.mkdir()
    (managed / "managed-settings.json").write_text('{"strictPluginOnlyCustomization": true}')
    monkeypatch.setenv("SATCHEL_CLAUDE_MANAGED_DIR", str(managed))
    where = ("--project", project, "--home", home, "--host", "claude-code")
    plain = satchel("index", *where)
    message = (
        "~/.claude/skills/ and .claude/skills/ are not read: Claude Code's managed settings "
        "lock skills to plugins (strictPluginOnlyCustomization)"
    )
    assert plain.out == ""
    assert f"info host.managed.locked: {message}" in plain.err
    found = satchel("index", *where, "--json").json()["diagnostics"]
    assert ("host.managed.locked", message) in [(d["code"], d["message"]) for d in found]
