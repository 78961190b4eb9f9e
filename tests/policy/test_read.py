"""Reading the policy files: precedence, tightening only, unknown keys, failing closed."""

from __future__ import annotations

from pathlib import Path

from satchel.foundations.policy import Policy, read_policy, source_key, system_dir
from tests.policy.support import system_policy
from tests.support import put


def test_the_system_dir_is_the_environment_variable_else_xdg_config_dirs(tmp_path):
    assert system_dir({"SATCHEL_POLICY_DIR": str(tmp_path)}) == tmp_path
    assert system_dir({"XDG_CONFIG_DIRS": "/opt/a:/opt/b"}) == Path("/opt/a/satchel")
    assert system_dir({}) == Path("/etc/xdg/satchel")


def test_no_file_is_a_policy_that_allows_everything(tmp_path, monkeypatch):
    monkeypatch.setenv("SATCHEL_POLICY_DIR", str(tmp_path / "none"))
    policy, problems = read_policy(config_home=tmp_path / "config", project=tmp_path)
    assert (policy, problems) == (Policy(), ())
    assert policy.allows_mcp("x", "anything") and policy.shell_allowed()
    assert not policy.restricts


def test_a_user_file_can_only_tighten_the_system_file(tmp_path, monkeypatch):
    system = system_policy(
        tmp_path,
        monkeypatch,
        'disable_skill_shell_execution = true\nallowed_hook_types = ["command", "http"]\n'
        '[mcp]\nallow = ["github", "docs"]\ndeny = ["command:curl *"]\n',
    )
    user = put(
        tmp_path / "config" / "satchel" / "policy.toml",
        "disable_skill_shell_execution = false\nrequire_pins = true\n"
        'allowed_hook_types = ["command", "prompt"]\n[mcp]\nallow = ["docs", "extra"]\n',
    )
    policy, problems = read_policy(config_home=tmp_path / "config")
    assert policy.files == (system, user)
    assert [(d.code, d.message) for d in problems] == [
        (
            "policy.loosen",
            f"policy file {user}: `disable_skill_shell_execution` would loosen the policy "
            f"set by {system}; it is ignored",
        ),
        (
            "policy.loosen",
            f"policy file {user}: `allowed_hook_types (prompt)` would loosen the policy set "
            f"by {system}; it is ignored",
        ),
    ]
    assert not policy.shell_allowed() and policy.require_pins.path == user
    # the allow lists intersect: only "docs" is on both
    assert [policy.allows_mcp(n) for n in ("github", "docs", "extra")] == [False, True, False]
    assert policy.allows_hook("command") and not policy.allows_hook("http")
    assert not policy.allows_hook("prompt")
    refusal = policy.check_mcp("docs", "curl https://x")
    assert refusal is not None and refusal.message == (
        f"MCP server 'docs' is refused by policy key `mcp.deny` in {system}"
    )


def test_a_hostile_project_policy_cannot_loosen_and_is_told_so(tmp_path, monkeypatch):
    system = system_policy(
        tmp_path, monkeypatch, 'disable_all_hooks = true\n[skills]\ndeny = ["evil-*"]\n'
    )
    project = tmp_path / "project"
    hostile = put(
        project / ".satchel" / "policy.toml",
        'disable_all_hooks = false\n[skills]\nallow = ["*"]\ndeny = []\n',
    )
    policy, problems = read_policy(project=project)
    assert [(d.code, d.message) for d in problems] == [
        (
            "policy.loosen",
            f"policy file {hostile}: `disable_all_hooks` would loosen the policy set by "
            f"{system}; it is ignored",
        )
    ]
    assert policy.disable_all_hooks.path == system
    refusal = policy.check_skill("evil-thing")
    assert refusal is not None and refusal.message == (
        f"skill 'evil-thing' is refused by policy key `skills.deny` in {system}"
    )


def test_an_unknown_key_is_reported_with_its_file_and_has_no_effect(tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, "disable_all_hook = true\n[mcp]\nallowed = []\n")
    policy, problems = read_policy()
    assert [(d.code, d.message, d.path) for d in problems] == [
        (
            "policy.key.unknown",
            f"policy file {path}: unknown key 'disable_all_hook'; it has no effect",
            path,
        ),
        (
            "policy.key.unknown",
            f"policy file {path}: unknown key 'mcp.allowed'; it has no effect",
            path,
        ),
    ]
    assert policy.allows_hook("command") and policy.allows_mcp("any")


def test_a_file_that_is_not_toml_fails_closed_and_says_why(tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, "disable_all_hooks = tru\n")
    policy, problems = read_policy()
    assert [d.code for d in problems] == ["policy.invalid"]
    assert problems[0].severity == "error"
    assert problems[0].message.startswith(f"policy file {path}: not valid TOML: ")
    assert problems[0].message.endswith("; nothing executable runs until it is fixed")
    assert policy.closed == problems[0]
    assert not policy.allows_hook("command", managed=True)
    assert not policy.allows_mcp("any")
    assert not policy.shell_allowed()
    assert not policy.allows_component("lsp")
    assert not policy.allows_source("acme/tools")
    assert not policy.allows_marketplace("acme/market")
    refusal = policy.check_pinned("acme/tools", pinned=True)
    assert refusal is not None and refusal.message == (
        f"installing 'acme/tools' is refused: the policy file {path} could not be read "
        "(fail closed)"
    )


def test_a_value_of_the_wrong_type_fails_closed_too(tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, 'require_trust = "yes"\n')
    policy, problems = read_policy()
    assert [(d.code, d.message) for d in problems] == [
        (
            "policy.invalid",
            f"policy file {path}: `require_trust` must be true or false; nothing executable "
            "runs until it is fixed",
        )
    ]
    assert policy.closed is not None


def test_a_broken_user_file_below_a_good_system_file_fails_closed(tmp_path, monkeypatch):
    system_policy(tmp_path, monkeypatch, "require_pins = true\n")
    put(tmp_path / "config" / "satchel" / "policy.toml", "[mcp\n")
    policy, problems = read_policy(config_home=tmp_path / "config")
    assert [d.code for d in problems] == ["policy.invalid"]
    assert not policy.shell_allowed() and not policy.allows_mcp("x")


def test_each_check_names_its_key_and_file(tmp_path, monkeypatch):
    path = system_policy(
        tmp_path,
        monkeypatch,
        "allow_managed_hooks_only = true\nrequire_pins = true\nrequire_trust = true\n"
        'allowed_http_hook_urls = ["https://hooks.acme.com/*"]\n'
        'disabled_formats = ["cursor"]\ndisabled_components = ["lsp"]\n'
        '[sources]\nallow = ["github.com/acme/*"]\ndeny = ["github.com/acme/secret*"]\n'
        '[marketplaces]\nallow = ["github.com/acme/market"]\n'
        '[mcp]\nallow = [{ name = "docs", url = "https://docs.acme.com/*" }]\n',
    )
    policy, problems = read_policy()
    assert problems == ()

    def message(found):
        assert found is not None
        return found.message.replace(f" in {path}", "")

    assert message(policy.check_hook("command")) == (
        "a command hook is refused by policy key `allow_managed_hooks_only`"
    )
    assert policy.allows_hook("http", "https://hooks.acme.com/x", managed=True)
    assert message(policy.check_hook("http", "https://evil.com/", managed=True)) == (
        "a http hook is refused by policy key `allowed_http_hook_urls`"
    )
    assert message(policy.check_pinned("acme/tools", pinned=False)) == (
        "installing 'acme/tools' unpinned is refused by policy key `require_pins`"
    )
    assert policy.check_pinned("acme/tools", pinned=True) is None
    assert message(policy.check_trust_override()) == (
        "trusting the project without the list of trusted folders is refused by policy key "
        "`require_trust`"
    )
    assert message(policy.check_format("cursor")) == (
        "the cursor plugin format is refused by policy key `disabled_formats`"
    )
    assert policy.allows_format("claude")
    assert message(policy.check_component("lsp")) == (
        "every lsp component is refused by policy key `disabled_components`"
    )
    assert policy.allows_source("https://github.com/acme/tools.git")
    assert policy.allows_source("git@github.com:acme/tools.git#v1")
    assert message(policy.check_source("acme/secrets")) == (
        "source 'acme/secrets' is refused by policy key `sources.deny`"
    )
    assert message(policy.check_source("evil/tools")) == (
        "source 'evil/tools' is refused by policy key `sources.allow`"
    )
    assert policy.allows_marketplace("acme/market")
    assert not policy.allows_marketplace("acme/other")
    assert policy.allows_mcp("docs", url="https://docs.acme.com/mcp")
    assert not policy.allows_mcp("docs", command="docs-mcp")  # the url must match too
    assert not policy.allows_mcp("other", url="https://docs.acme.com/mcp")


def test_source_keys_are_host_owner_path():
    assert [
        source_key(s)
        for s in (
            "acme/tools",
            "acme/tools@v2",
            "github:acme/tools",
            "https://gitlab.com/acme/tools.git",
            "git@gitlab.com:acme/tools.git",
            "ssh://git@host.example:2222/acme/tools",
            "./local/plugin",
        )
    ] == [
        "github.com/acme/tools",
        "github.com/acme/tools",
        "github.com/acme/tools",
        "gitlab.com/acme/tools",
        "gitlab.com/acme/tools",
        "host.example/acme/tools",
        "file:./local/plugin",
    ]
