"""`satchel audit` on the command line: golden files for the example workspace, JSON,
exit codes, what PATH is taken for, and escaping of hostile text."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from tests.support import put

from ..cli.support import REPO
from ..cli.support import check_golden as cli_golden
from .support import claude_plugin, skill

GOLDEN = Path(__file__).parent / "golden"
EXAMPLE = ("audit", "examples/workspace", "--home", "examples/home")
# The CLI's golden comparison, against tests/audit/golden/.
check_golden = partial(cli_golden, directory=GOLDEN)


@pytest.fixture
def in_repo(in_examples):
    return in_examples


def test_the_example_workspace_as_text(satchel, in_repo):
    result = satchel(*EXAMPLE)
    assert result.code == 0
    check_golden("audit-workspace.txt", result.out)


def test_the_example_workspace_as_sarif(satchel, in_repo):
    result = satchel(*EXAMPLE, "--format", "sarif")
    assert result.code == 0
    check_golden("audit-workspace.sarif", result.out)


def test_json_is_one_document_with_every_finding(satchel, in_repo):
    doc = satchel(*EXAMPLE, "--json").json()
    same = satchel(*EXAMPLE, "--format", "json").json()
    assert doc == same
    assert doc["kind"] == "workspace"
    assert doc["target"] == str(REPO / "examples" / "workspace")
    # five of the low ones: the project plugins' hooks the untrusted folder holds back
    assert doc["counts"] == {"high": 3, "medium": 18, "low": 7}
    assert len(doc["findings"]) == 28
    assert set(doc["findings"][0]) == {
        "rule",
        "severity",
        "message",
        "path",
        "line",
        "trust_needed",
        "heuristic",
    }
    assert doc["fail_on"] is None


@pytest.mark.parametrize(("level", "code"), [(None, 0), ("high", 1), ("medium", 1), ("low", 1)])
def test_fail_on_sets_the_exit_code(satchel, in_repo, level, code):
    args = () if level is None else ("--fail-on", level)
    assert satchel(*EXAMPLE, "--json", *args).code == code


def test_fail_on_counts_only_findings_at_or_above_the_level(satchel, tmp_path):
    root = skill(tmp_path, "tools")
    put(root / "scripts" / "run.py", "print('hi')\n")  # one low finding
    assert satchel("audit", root, "--fail-on", "low", "--json").code == 1
    assert satchel("audit", root, "--fail-on", "medium", "--json").code == 0
    assert satchel("audit", root, "--fail-on", "high").code == 0


def test_a_bad_fail_on_or_format_is_a_usage_error(satchel, tmp_path):
    assert satchel("audit", tmp_path, "--fail-on", "critical").code == 2
    assert satchel("audit", tmp_path, "--format", "xml").code == 2
    assert satchel("audit", tmp_path / "missing").code == 2


def test_what_path_is_taken_for(satchel, tmp_path):
    one = skill(tmp_path / "tree", "one")
    skill(tmp_path / "tree", "two")
    plugin = claude_plugin(tmp_path / "plugins", "kit")
    claude_plugin(tmp_path / "plugins", "other")
    (tmp_path / "ws" / ".claude").mkdir(parents=True)
    kinds = {
        "skill": one,
        "skill-file": one / "SKILL.md",
        "skills": tmp_path / "tree",
        "plugin": plugin,
        "plugins": tmp_path / "plugins",
        "workspace": tmp_path / "ws",
        "empty": tmp_path / "ws" / ".claude",
        "file": put(plugin / "commands" / "go.md", "---\ndescription: Go.\n---\nGo.\n"),
    }
    found = {
        name: satchel("audit", path, "--json", "--home", tmp_path / "h").json()["kind"]
        for name, path in kinds.items()
    }
    assert found == {
        "skill": "skill",
        "skill-file": "skill",
        "skills": "skills",
        "plugin": "plugin",
        "plugins": "plugins",
        "workspace": "workspace",
        "empty": "workspace",
        "file": "file",
    }


def test_a_skill_tree_audits_every_skill(satchel, tmp_path):
    skill(tmp_path, "one", "Run !`date`\n")
    skill(tmp_path, "two", "Run !`id`\n")
    doc = satchel("audit", tmp_path, "--json").json()
    assert [(f["rule"], Path(f["path"]).parent.name) for f in doc["findings"]] == [
        ("A-EXEC-SHELL-INTERP", "one"),
        ("A-EXEC-SHELL-INTERP", "two"),
    ]


def test_hostile_text_is_escaped_for_people_and_ascii_in_json(satchel, tmp_path):
    root = skill(tmp_path, "evil", "Run !`echo \x1b]8;;x\x07hi\u202e`\n")
    text = satchel("audit", root).out
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "\\x1b]8;;x\\x07hi\\u202e" in text
    raw = satchel("audit", root, "--json").out
    assert raw.isascii()
    messages = [f["message"] for f in json.loads(raw)["findings"]]
    assert 'an inline !`...` runs "echo \\x1b]8;;x\\x07hi\\u202e" when the skill is invoked' in (
        messages
    )


def test_nothing_found_says_so(satchel, tmp_path):
    root = skill(tmp_path, "calm")
    result = satchel("audit", root)
    assert result.code == 0
    assert result.out.splitlines()[1] == "Findings: 0 high, 0 medium, 0 low"
