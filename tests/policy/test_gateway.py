"""`satchel serve`'s gateway under a policy: the policy's `[skills]` lists apply through
`load()`, before the gateway's own filter, and what they refuse is among the
diagnostics the server reports; a real `satchel serve` process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from satchel.server._gateway import Spec, gateway_environment
from tests.policy.support import system_policy
from tests.support import put, write_skill


def test_the_gateway_serves_nothing_the_policy_refuses_and_reports_it(tmp_path, monkeypatch):
    project, home, team = tmp_path / "project", tmp_path / "home", tmp_path / "team"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    for name in ("refund-policy", "draft-notes", "secret-notes"):
        write_skill(project / ".agents" / "skills", name)
    write_skill(team, "team-tip")
    config = put(tmp_path / "gateway.toml", '[filter]\ndeny = ["draft-*"]\n')
    path = system_policy(tmp_path, monkeypatch, '[skills]\ndeny = ["secret-*", "team-*"]\n')
    spec = Spec(str(project), home=str(home), trust=True, roots=(str(team),), config=str(config))
    served = gateway_environment(spec).environment
    assert sorted(served.skills) == ["refund-policy"]
    refusals = [
        f"skill 'secret-notes' is refused by policy key `skills.deny` in {path}",
        f"skill 'team-tip' is refused by policy key `skills.deny` in {path}",
    ]
    assert sorted(d.message for d in served.diagnostics if d.code == "policy.denied") == refusals
    argv = ["serve", str(project), "--home", str(home), "--trust", "--root", str(team)]
    done = subprocess.run(
        [sys.executable, "-m", "satchel", *argv, "--config", str(config), "--json"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={"HOME": str(home), "PATH": os.environ["PATH"], "SATCHEL_POLICY_DIR": str(path.parent)},
        timeout=60,
        check=True,
    )
    summary = json.loads(done.stderr.splitlines()[0])
    assert summary["skills"] == 1
    reported = [d["message"] for d in summary["diagnostics"] if d["code"] == "policy.denied"]
    assert sorted(reported) == refusals
