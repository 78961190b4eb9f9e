"""The installer under a policy: `[sources]`, `require_pins`, `[marketplaces]` and a
closed policy, each refused before anything is fetched, on real files in temp dirs."""

from __future__ import annotations

import json

import pytest

from satchel.cli import main
from satchel.core.errors import InstallError
from satchel.install import (
    add_marketplace,
    browse_source,
    install_from_spec,
    install_frozen,
    install_plugin,
    update,
    update_marketplaces,
)
from tests.install.support import bare, git_repo, head, state
from tests.policy.support import system_policy
from tests.support import put, skill_md, write_tree

SKILLS = {"skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs.")}


def refusal(e: pytest.ExceptionInfo[InstallError]) -> tuple[str, str]:
    return e.value.diagnostic.code, e.value.diagnostic.message


def test_sources_deny_refuses_an_install_and_writes_nothing(layout, tmp_path, monkeypatch):
    source = write_tree(tmp_path / "src", SKILLS)
    path = system_policy(tmp_path, monkeypatch, '[sources]\ndeny = ["file:*/src"]\n')
    before = state(layout.project)
    with pytest.raises(InstallError) as e:
        install_from_spec(str(source), layout=layout, environ={})
    assert refusal(e) == (
        "policy.denied",
        f"source {str(source)!r} is refused by policy key `sources.deny` in {path}",
    )
    assert state(layout.project) == before


def test_sources_allow_lets_only_its_sources_install(layout, tmp_path, monkeypatch):
    source = write_tree(tmp_path / "src", SKILLS)
    path = system_policy(tmp_path, monkeypatch, '[sources]\nallow = ["github.com/acme/*"]\n')
    with pytest.raises(InstallError) as e:
        install_from_spec(str(source), layout=layout, environ={})
    assert refusal(e) == (
        "policy.denied",
        f"source {str(source)!r} is refused by policy key `sources.allow` in {path}",
    )
    put(path, '[sources]\nallow = ["file:*/src"]\n')
    done = install_from_spec(str(source), layout=layout, environ={})
    assert [i.entry.name for i in done.installed] == ["pdf"]


def test_require_pins_takes_a_commit_and_refuses_a_branch(layout, tmp_path, monkeypatch):
    repo = git_repo(tmp_path / "work", SKILLS)
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    path = system_policy(tmp_path, monkeypatch, "require_pins = true\n")
    with pytest.raises(InstallError) as e:
        install_from_spec(f"{url}#main", layout=layout, environ={})
    assert refusal(e) == (
        "policy.denied",
        f"installing {url + '#main'!r} unpinned is refused by policy key `require_pins` in {path}",
    )
    pinned = f"{url}#{head(repo)}"
    done = install_from_spec(pinned, layout=layout, environ={})
    assert [i.entry.resolved for i in done.installed] == [head(repo)]
    # a frozen install is pinned by its lock; an update of a commit stays pinned
    assert install_frozen(layout=layout, environ={}).installed == ()
    assert [c.updated for c in update(layout=layout, environ={})] == [False]


def test_update_and_frozen_ask_the_policy_before_fetching(layout, tmp_path, monkeypatch):
    source = write_tree(tmp_path / "src", SKILLS)
    install_from_spec(str(source), layout=layout, environ={})
    path = system_policy(tmp_path, monkeypatch, '[sources]\ndeny = ["file:*"]\n')
    expected = (
        "policy.denied",
        f"source {str(source)!r} is refused by policy key `sources.deny` in {path}",
    )
    with pytest.raises(InstallError) as e:
        update(layout=layout, environ={})
    assert refusal(e) == expected
    with pytest.raises(InstallError) as e:
        install_frozen(layout=layout, environ={})
    assert refusal(e) == expected


def test_a_closed_policy_refuses_every_install(layout, tmp_path, monkeypatch):
    source = write_tree(tmp_path / "src", SKILLS)
    path = system_policy(tmp_path, monkeypatch, "require_pins = [\n")
    with pytest.raises(InstallError) as e:
        install_from_spec(str(source), layout=layout, environ={})
    assert refusal(e) == (
        "policy.denied",
        f"source {str(source)!r} is refused: the policy file {path} could not be read "
        "(fail closed)",
    )


def test_marketplaces_deny_refuses_adding_a_catalogue(layout, tmp_path, monkeypatch):
    market = put(
        tmp_path / "market" / ".claude-plugin" / "marketplace.json",
        json.dumps({"name": "acme", "owner": {"name": "Acme"}, "plugins": []}),
    ).parent.parent
    path = system_policy(tmp_path, monkeypatch, '[marketplaces]\ndeny = ["file:*/market"]\n')
    with pytest.raises(InstallError) as e:
        add_marketplace(str(market), layout=layout)
    assert refusal(e) == (
        "policy.denied",
        f"marketplace {str(market)!r} is refused by policy key `marketplaces.deny` in {path}",
    )


def test_the_cli_reports_the_refusal_as_an_install_error(
    layout, tmp_path, monkeypatch, capsys
) -> None:
    source = write_tree(tmp_path / "src", SKILLS)
    path = system_policy(tmp_path, monkeypatch, '[sources]\ndeny = ["file:*"]\n')
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    code = main(["install", str(source), *where])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(
        f"satchel: policy.denied: source {str(source)!r} is refused by policy key "
    )
    assert str(path) in err.replace("\n", "")


def test_a_marketplace_plugins_source_and_a_denied_catalogue_are_refused(
    layout, tmp_path, monkeypatch
):
    catalogue = {
        "name": "acme",
        "owner": {"name": "Acme"},
        "plugins": [{"name": "kit", "source": "./plugins/kit"}],
    }
    market = write_tree(
        tmp_path / "market",
        {
            ".claude-plugin/marketplace.json": json.dumps(catalogue),
            "plugins/kit/.claude-plugin/plugin.json": json.dumps({"name": "kit"}),
            "plugins/kit/skills/kit-skill/SKILL.md": skill_md("kit-skill"),
        },
    )
    add_marketplace(str(market), layout=layout)
    before = state(layout.project)
    path = system_policy(tmp_path, monkeypatch, '[sources]\ndeny = ["file:*/market"]\n')
    with pytest.raises(InstallError) as e:
        install_plugin("kit@acme", layout=layout, environ={})
    code, message = refusal(e)
    assert (code, message.startswith(f"source '{market}")) == ("policy.denied", True)
    assert message.endswith(f"is refused by policy key `sources.deny` in {path}")
    put(path, '[marketplaces]\ndeny = ["file:*/market"]\n')
    expected = (
        "policy.denied",
        f"marketplace {str(market)!r} is refused by policy key `marketplaces.deny` in {path}",
    )
    with pytest.raises(InstallError) as e:
        install_plugin("kit@acme", layout=layout, environ={})
    assert refusal(e) == expected
    with pytest.raises(InstallError) as e:
        update_marketplaces(layout=layout)
    assert refusal(e) == expected
    assert state(layout.project) == before


def test_sources_deny_refuses_browsing_before_anything_is_fetched(layout, tmp_path, monkeypatch):
    source = write_tree(tmp_path / "src", SKILLS)
    path = system_policy(tmp_path, monkeypatch, '[sources]\ndeny = ["file:*/src"]\n')
    with pytest.raises(InstallError) as e:
        browse_source(str(source), layout=layout, environ={})
    assert refusal(e) == (
        "policy.denied",
        f"source {str(source)!r} is refused by policy key `sources.deny` in {path}",
    )
    monkeypatch.setenv("SATCHEL_POLICY_DIR", str(tmp_path / "no-policy"))
    assert [i.name for i in browse_source(str(source), layout=layout, environ={}).items] == ["pdf"]
