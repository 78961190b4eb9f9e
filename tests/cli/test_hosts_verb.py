"""`satchel hosts [NAME]`: every profile --host takes, or one profile in full."""

from __future__ import annotations

import json

from satchel import hosts

from .support import check_golden


def test_hosts_lists_every_built_in_profile(satchel, home):
    result = satchel("hosts", "--home", home)
    assert result.code == 0
    check_golden("hosts.txt", result.out)


def test_hosts_name_shows_every_decision_and_source(satchel, home):
    result = satchel("hosts", "codex", "--home", home)
    assert result.code == 0
    check_golden("hosts-codex.txt", result.out)


def test_hosts_json_holds_each_profile_as_load_uses_it(satchel, home):
    doc = json.loads(satchel("hosts", "--home", home, "--json").out)
    assert [h["name"] for h in doc["hosts"]] == list(hosts.names())
    assert doc["hosts"][2] == hosts.get("codex").to_json()


def test_a_user_profile_is_listed_after_the_built_in_ones(satchel, home):
    config = home / ".config" / "satchel"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[hosts.acme]\nbase = "kimi"\ncolour = 1\n')
    result = satchel("hosts", "--home", home)
    last = result.out.strip().splitlines()
    assert last[-2].split()[:2] == ["acme", "acme"]
    assert last[-1] == ("warning host.config.invalid: [hosts.acme]: unknown key 'colour'; left out")


def test_an_unknown_name_is_a_usage_error(satchel, home):
    result = satchel("hosts", "nope", "--home", home)
    assert result.code == 2
    assert "no host profile is named 'nope'" in result.err


def test_a_user_profile_shown_by_name_says_what_was_wrong_in_its_table(satchel, home):
    config = home / ".config" / "satchel"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[hosts.acme]\nbase = "kimi"\ncolour = 1\n')
    shown = satchel("hosts", "acme", "--home", home)
    assert shown.code == 0
    said = "warning host.config.invalid: [hosts.acme]: unknown key 'colour'; left out"
    assert shown.out.strip().splitlines()[-1] == said
    doc = json.loads(satchel("hosts", "acme", "--home", home, "--json").out)
    found = [(d["code"], d["message"]) for d in doc["diagnostics"]]
    assert found == [("host.config.invalid", "[hosts.acme]: unknown key 'colour'; left out")]
