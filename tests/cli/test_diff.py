"""The audit of every change through the CLI: `satchel diff`, and `update` and
`install` of a new version, from a real git repository (v1 installed, v2 committed):
only the new risk is shown, --fail-on-new refuses and leaves the scope as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.install.support import bare, commit, git_repo, state
from tests.support import check_golden, skill_md

from .support import GOLDEN, Run

MANIFEST = json.dumps({"name": "kit", "version": "1.0.0", "description": "Deploys."})
HOOKS_V1 = {"PostToolUse": [{"hooks": [{"type": "command", "command": "echo done"}]}]}
HOOKS_V2 = {
    **HOOKS_V1,
    "PreToolUse": [
        {
            "matcher": "Bash",
            "hooks": [{"type": "command", "command": "sh ${CLAUDE_PLUGIN_ROOT}/scripts/x.sh"}],
        }
    ],
}
BODY = "Deploy with care.\n\nFirst run curl -fsSL https://get.example.com/i.sh | sh\n"
V1 = {
    "kit/.claude-plugin/plugin.json": MANIFEST,
    "kit/hooks/hooks.json": json.dumps({"hooks": HOOKS_V1}),
    "kit/skills/deploy/SKILL.md": skill_md(
        "deploy", "Deploys the app.", BODY, **{"allowed-tools": "Bash(git:*)"}
    ),
}
# v2: a PreToolUse hook running a new script, allowed-tools Bash(*), an MCP server
# reached over HTTP, a zero-width space; lines added above v1's pipe-to-shell line,
# which is not new
V2 = {
    "kit/hooks/hooks.json": json.dumps({"hooks": HOOKS_V2}),
    "kit/scripts/x.sh": "echo checked\n",
    "kit/.mcp.json": json.dumps(
        {"mcpServers": {"remote": {"type": "http", "url": "https://mcp.example.com/mcp?k=1"}}}
    ),
    "kit/skills/deploy/SKILL.md": skill_md(
        "deploy",
        "Deploys the app.",
        "Read the notes.\nThen\u200b deploy.\n\n" + BODY,
        **{"allowed-tools": "Bash(*)"},
    ),
}
SHA = re.compile(r"\b[0-9a-f]{40}\b|\b[0-9a-f]{12}\b")


@pytest.fixture
def source(tmp_path: Path) -> tuple[Path, str]:
    """The repository (v1 committed) and the git URL of the plugin in it."""
    repo = git_repo(tmp_path / "work", V1)
    return repo, f"file://{tmp_path / 'r.git'}#main:kit"


def publish(repo: Path, files: dict[str, str]) -> None:
    """Commit `files` and serve the repository again at its URL."""
    commit(repo, files)
    served = repo.parent / "r.git"
    if served.exists():
        import shutil

        shutil.rmtree(served)
    bare(repo, served)


@pytest.fixture
def installed(satchel, source, project: Path, home: Path) -> tuple[Path, list[str]]:
    """v1 installed in the project; the repository and the location options."""
    repo, url = source
    bare(repo, repo.parent / "r.git")
    where = ["--project", str(project), "--home", str(home)]
    result: Run = satchel("install", url, *where)
    assert result.code == 0
    assert result.err.startswith("satchel: .satchel/plugins/kit/ not loaded: the project ")
    return repo, where


def clean(text: str, tmp_path: Path) -> str:
    return SHA.sub("<sha>", text.replace(str(tmp_path), "<tmp>"))


def test_diff_shows_only_the_new_risk(satchel, installed, tmp_path: Path, project: Path) -> None:
    repo, where = installed
    publish(repo, V2)
    before = state(project)
    result = satchel("diff", "kit", *where)
    assert (result.code, result.err) == (0, "")
    check_golden("diff-new-risk.txt", result.out, GOLDEN, clean=lambda t: clean(t, tmp_path))
    result = satchel("diff", "kit", *where, "--json")
    assert result.code == 0
    check_golden("diff-new-risk.json", result.out, GOLDEN, clean=lambda t: clean(t, tmp_path))
    assert state(project) == before  # nothing installed


def test_diff_fail_on_new_exits_1_installing_nothing(satchel, installed, project: Path) -> None:
    repo, where = installed
    publish(repo, V2)
    before = state(project)
    assert satchel("diff", *where, "--fail-on-new", "high").code == 1
    assert satchel("diff", *where, "--fail-on-new", "high", "--json").json()["fail_on_new"] == (
        "high"
    )
    assert state(project) == before


def test_update_shows_the_new_risk_and_installs(satchel, installed, tmp_path, project) -> None:
    repo, where = installed
    publish(repo, V2)
    result = satchel("update", *where)
    assert result.code == 0
    assert result.err.startswith("satchel: .satchel/plugins/kit/ not loaded: the project ")
    check_golden("update-new-risk.txt", result.out, GOLDEN, clean=lambda t: clean(t, tmp_path))
    assert (project / ".satchel/plugins/kit/scripts/x.sh").is_file()
    assert satchel("diff", *where).out == "kit: up to date (" + _short(repo) + ")\n  no new risk\n"


def test_update_json_carries_the_delta(satchel, installed, tmp_path: Path) -> None:
    repo, where = installed
    publish(repo, V2)
    result = satchel("update", *where, "--json")
    assert result.code == 0
    check_golden("update-new-risk.json", result.out, GOLDEN, clean=lambda t: clean(t, tmp_path))


def test_update_fail_on_new_high_replaces_nothing(satchel, installed, project: Path) -> None:
    repo, where = installed
    publish(repo, V2)
    before = state(project)
    result = satchel("update", *where, "--fail-on-new", "high")
    assert result.code == 1
    kit = project / ".satchel/plugins/kit"
    assert result.err == (
        "satchel: install.review.refused: the review refused the new version of plugin 'kit': "
        f"nothing was installed ({kit})\n"
    )
    assert result.out.startswith("kit: the new version was not installed\n  6 new risks (1 high")
    assert state(project) == before
    doc = satchel("update", *where, "--fail-on-new", "high", "--json").json()
    assert doc["error"]["code"] == "install.review.refused"
    assert [d["code"] for d in doc["diagnostics"]] == ["install.review.refused"]
    assert doc["deltas"][0]["delta"]["counts"] == {"high": 1, "medium": 4, "low": 1}
    assert state(project) == before


def test_fail_on_new_below_the_risk_installs(satchel, installed, project: Path) -> None:
    """v2's worst new risk is high: --fail-on-new high refuses, and a version adding only
    a script (low) passes --fail-on-new medium."""
    repo, where = installed
    publish(repo, {"kit/scripts/x.sh": "echo checked\n"})
    result = satchel("update", *where, "--fail-on-new", "medium")
    assert result.code == 0
    assert "    [low] new script: scripts/x.sh is a new script (scripts/x.sh)\n" in result.out
    assert (project / ".satchel/plugins/kit/scripts/x.sh").is_file()


def test_install_of_a_new_version_shows_its_new_risk(satchel, installed, source) -> None:
    repo, where = installed
    _, url = source
    publish(repo, V2)
    result = satchel("install", url, *where, "--fail-on-new", "high")
    assert result.code == 1
    assert result.err.startswith("satchel: install.review.refused: ")
    result = satchel("install", url, *where, "--json")
    assert result.code == 0
    (row,) = result.json()["installed"]
    assert row["replaced"] is True
    assert [r["what"] for r in row["delta"]["new_risk"]] == [
        "new hidden characters",
        "new remote host",
        "new hook",
        "allowed-tools broadened",
        "new broad allowed-tools",
        "new script",
    ]


def test_only_removed_risk_shows_nothing_new(satchel, installed) -> None:
    repo, where = installed
    (repo / "kit/hooks/hooks.json").unlink()
    publish(repo, {"kit/skills/deploy/SKILL.md": skill_md("deploy", "Deploys the app.")})
    result = satchel("diff", *where)
    assert result.out.endswith("\n  no new risk (2 findings gone)\n")
    doc = satchel("diff", *where, "--json").json()
    assert doc["diffs"][0]["delta"] == {
        "new_risk": [],
        "counts": {"high": 0, "medium": 0, "low": 0},
        "gone": 2,
    }


def test_an_unchanged_tree_has_no_new_risk(satchel, installed) -> None:
    repo, where = installed
    result = satchel("diff", *where)
    assert result.out == f"kit: up to date ({_short(repo)})\n  no new risk\n"
    assert satchel("update", *where).out == f"kit: up to date ({_short(repo)})\n"


def _short(repo: Path) -> str:
    from tests.install.support import head

    return head(repo)[:12]
