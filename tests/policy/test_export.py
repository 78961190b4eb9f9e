"""`satchel policy export` of ``require_signed`` and ``require_digest``: neither host
has a key for them, so nothing is written for them and each is listed as what the host
cannot express."""

from __future__ import annotations

import json

import pytest

from satchel.cli import main
from tests.support import put

POLICY = """\
disable_all_hooks = true
require_digest = ["oci://ghcr.io/acme/*"]

[[require_signed]]
source = "oci://ghcr.io/acme/*"
identities = ["https://github.com/acme/*"]
issuers = ["https://token.actions.githubusercontent.com"]

[[require_signed]]
source = "npm:@acme/*"
identities = ["release@acme.com"]
"""


@pytest.mark.parametrize(
    ("host", "written", "unsaid"),
    [
        ("claude-code", '{\n  "disableAllHooks": true\n}\n', "Claude Code"),
        ("codex", "", "Codex"),
    ],
)
def test_neither_host_can_say_who_signs_or_which_digest(tmp_path, capsys, host, written, unsaid):
    source = put(tmp_path / "fleet.toml", POLICY)
    assert main(["policy", "export", "--to", host, "--policy", str(source), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["text"] == written
    assert [line for line in doc["cannot"] if line.startswith("require_")] == [
        f"require_signed oci://ghcr.io/acme/*: {unsaid} does not check who signed what it "
        "installs; its installs from there are not refused",
        f"require_signed npm:@acme/*: {unsaid} does not check who signed what it installs; "
        "its installs from there are not refused",
        f"require_digest: {unsaid} has no key asking that an install be pinned by a published "
        "digest",
    ]
