"""`satchel audit` shows the policy in force, in one section as `satchel doctor` does."""

from __future__ import annotations

import json

from satchel.cli import main
from tests.policy.support import system_policy
from tests.support import write_skill


def test_audit_shows_the_policy_in_force(layout, tmp_path, monkeypatch, capsys):
    write_skill(layout.project / ".agents" / "skills", "notes")
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    assert main(["audit", str(layout.project), *where]) == 0
    assert "Policy:" not in capsys.readouterr().out  # no policy file: no section
    path = system_policy(tmp_path, monkeypatch, '[skills]\ndeny = ["secret-*"]\n')
    assert main(["audit", str(layout.project), *where, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["policy"] == {
        "files": [str(path)],
        "closed": False,
        "keys": [{"key": "skills.deny", "value": "secret-*", "path": str(path)}],
    }
    assert main(["audit", str(layout.project / ".agents" / "skills" / "notes"), *where]) == 0
    text = capsys.readouterr().out
    assert text.endswith(f"\nPolicy:\n  {path}\n  skills.deny = secret-*\n")
