"""`satchel policy check` and `satchel policy export`: exit codes for CI, and the two
hosts' managed files against golden files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.policy.support import system_policy
from tests.support import check_golden, put, write_skill

GOLDEN = Path(__file__).with_name("golden")

# one policy that uses every key, for the exports
EVERY_KEY = """\
allow_managed_hooks_only = true
disable_all_hooks = false
disable_skill_shell_execution = true
require_pins = true
require_trust = true
allowed_hook_types = ["command", "http"]
allowed_http_hook_urls = ["https://hooks.acme.com/*"]
disabled_formats = ["cursor"]
disabled_components = ["lsp"]

[mcp]
allow = [
  "github",
  { name = "docs", command = "npx -y @acme/docs-mcp" },
  { name = "search", url = "https://search.acme.com/mcp" },
  "url:https://*.acme.com/*",
  "command:uvx *",
]
deny = ["curl-mcp", "command:curl *"]

[sources]
allow = ["github.com/acme/*"]
deny = ["github.com/acme/secret*"]

[marketplaces]
allow = ["github.com/acme/plugins", "github.com/acme-labs/*", "git.acme.com/*", "*"]
deny = ["github.com/evil/market"]

[skills]
allow = ["acme-*"]
deny = ["acme-legacy-*"]
"""


def test_check_exits_0_when_the_policy_refuses_nothing_here(
    satchel, project, home, tmp_path, monkeypatch
):
    path = system_policy(tmp_path, monkeypatch, '[skills]\ndeny = ["evil-*"]\n')
    result = satchel("policy", "check", "--project", project, "--home", home)
    assert result.code == 0
    assert result.out.splitlines() == [
        f"Policy files: {path}",
        f"  skills.deny = evil-*  ({path})",
        "Nothing here is refused by the policy.",
    ]


def test_check_exits_1_and_names_what_it_refuses(satchel, project, home, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, '[skills]\ndeny = ["evil-*"]\n')
    write_skill(project / ".agents" / "skills", "evil-one")
    result = satchel("policy", "check", "--project", project, "--home", home, "--json")
    assert result.code == 1
    doc = json.loads(result.out)
    assert doc["files"] == [str(path)]
    assert [(d["code"], d["message"]) for d in doc["diagnostics"]] == [
        ("policy.denied", f"skill 'evil-one' is refused by policy key `skills.deny` in {path}")
    ]


def test_check_exits_4_when_a_policy_file_cannot_be_read(
    satchel, project, home, tmp_path, monkeypatch
):
    system_policy(tmp_path, monkeypatch, "require_pins = [\n")
    result = satchel("policy", "check", "--project", project, "--home", home)
    assert result.code == 4
    assert any(line.startswith("error: policy file ") for line in result.out.splitlines())


def test_doctor_shows_the_policy_in_force(satchel, project, home, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, "require_trust = true\n")
    result = satchel("doctor", "--project", project, "--home", home, "--json")
    policy = json.loads(result.out)["policy"]
    assert policy == {
        "files": [str(path)],
        "closed": False,
        "keys": [{"key": "require_trust", "value": "true", "path": str(path)}],
    }


def test_export_to_claude_code_matches_its_golden_file(satchel, tmp_path, monkeypatch):
    system_policy(tmp_path, monkeypatch, EVERY_KEY)
    result = satchel("policy", "export", "--to", "claude-code")
    assert result.code == 0
    check_golden("policy-export-claude-code.json", result.out, GOLDEN)
    check_golden("policy-export-claude-code.cannot.txt", result.err, GOLDEN)
    json.loads(result.out)  # a JSON document Claude Code can read


def test_export_to_codex_matches_its_golden_file(satchel, tmp_path):
    source = put(tmp_path / "fleet.toml", EVERY_KEY)
    out = tmp_path / "requirements.toml"
    result = satchel("policy", "export", "--to", "codex", "--policy", source, "--out", out)
    assert result.code == 0
    assert result.out == f"Wrote {out} (requirements.toml for codex).\n"
    check_golden("policy-export-codex.toml", out.read_text(encoding="utf-8"), GOLDEN)
    check_golden("policy-export-codex.cannot.txt", result.err, GOLDEN)
    import tomllib

    assert tomllib.loads(out.read_text(encoding="utf-8"))["mcp_servers"]["search"] == {
        "identity": {"url": "https://search.acme.com/mcp"}
    }


def test_export_refuses_a_policy_that_cannot_be_read(satchel, tmp_path):
    source = put(tmp_path / "broken.toml", "nope = \n")
    result = satchel("policy", "export", "--to", "codex", "--policy", source)
    assert result.code == 4
    assert result.out == ""
    assert result.err.startswith(
        f"{source}: error policy.invalid: policy file {source}: not valid TOML: "
    )
