"""``require_signed`` and ``require_digest``: how they are read, merged so that a lower
file only tightens, what a bad value is told, and what the model answers the installer."""

from __future__ import annotations

import pytest

from satchel.foundations.policy import read_policy, source_key
from tests.policy.support import system_policy
from tests.support import put

ACME = "https://github.com/acme/tools/.github/workflows/release.yml@refs/tags/*"
ACTIONS = "https://token.actions.githubusercontent.com"
SIGNED = f"""\
[[require_signed]]
source = "oci://ghcr.io/acme/*"
identities = ["{ACME}"]
issuers = ["{ACTIONS}"]
"""


def test_the_other_source_kinds_keep_their_scheme_and_lose_their_version():
    digest = "sha256:" + "a" * 64
    assert [
        source_key(s)
        for s in (
            "oci://ghcr.io/acme/tools:v1",
            f"oci://ghcr.io/acme/tools@{digest}",
            "oci://127.0.0.1:5000/acme/tools:v1",
            "npm:@acme/skills@1.2.0",
            "npm:left-pad",
            f"archive:https://dl.acme.com/s.tar.gz#sha256={'b' * 64}",
            "mcp+stdio:npx -y @acme/skills-mcp",
            "mcp+https://mcp.acme.com/skills",
            "https://acme.com/.well-known/agent-skills/index.json",
            "well-known:https://acme.com/.well-known/agent-skills/index.json",
        )
    ] == [
        "oci://ghcr.io/acme/tools",
        "oci://ghcr.io/acme/tools",
        "oci://127.0.0.1:5000/acme/tools",
        "npm:@acme/skills",
        "npm:left-pad",
        "archive:https://dl.acme.com/s.tar.gz",
        "mcp+stdio:npx -y @acme/skills-mcp",
        "mcp+https://mcp.acme.com/skills",
        "acme.com/.well-known/agent-skills/index.json",
        "acme.com/.well-known/agent-skills/index.json",
    ]


def test_a_github_pattern_does_not_admit_an_npm_package_of_the_same_name(tmp_path, monkeypatch):
    system_policy(tmp_path, monkeypatch, '[sources]\nallow = ["github.com/acme/*"]\n')
    policy, _ = read_policy()
    assert policy.allows_source("acme/tools")
    assert not policy.allows_source("npm:@acme/tools")
    assert not policy.allows_source("oci://ghcr.io/acme/tools:v1")


def test_require_signed_gives_the_installer_the_signers_of_a_source(tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, SIGNED)
    policy, problems = read_policy()
    assert problems == ()
    signers = policy.signers("oci://ghcr.io/acme/tools:v1")
    assert signers is not None
    assert (signers.identities, signers.issuers) == ((ACME,), (ACTIONS,))
    assert policy.signers("oci://ghcr.io/other/tools:v1") is None
    assert policy.signers("acme/tools") is None  # a GitHub repository is another source
    release = ACME.replace("*", "v1.2.0")
    assert signers.allows(release, ACTIONS)
    assert not signers.allows(release, "https://accounts.google.com")
    assert not signers.allows("someone@example.com", ACTIONS)
    spec = "oci://ghcr.io/acme/tools:v1"
    assert policy.check_signed(spec, release, ACTIONS) is None
    unsigned = policy.check_signed(spec, None)
    assert unsigned is not None and (unsigned.code, unsigned.message) == (
        "policy.denied",
        f"installing {spec!r} unsigned is refused by policy key `require_signed` in {path}",
    )
    wrong = policy.check_signed(spec, "someone@example.com", ACTIONS)
    assert wrong is not None and wrong.message == (
        f"installing {spec!r} signed by 'someone@example.com' (issuer {ACTIONS!r}) is refused "
        f"by policy key `require_signed` in {path}"
    )
    assert policy.rows() == (
        ("require_signed", f"oci://ghcr.io/acme/*: identities {ACME}; issuers {ACTIONS}", path),
    )


def test_a_rule_without_issuers_allows_any_issuer_and_an_empty_list_no_signer(
    tmp_path, monkeypatch
):
    system_policy(
        tmp_path,
        monkeypatch,
        '[[require_signed]]\nsource = "npm:@acme/*"\nidentities = ["key:sha256:*"]\n'
        '[[require_signed]]\nsource = "oci://ghcr.io/locked/*"\nidentities = []\n',
    )
    policy, problems = read_policy()
    assert problems == ()
    assert policy.check_signed("npm:@acme/skills", "key:sha256:" + "c" * 64, "") is None
    assert not policy.signers("oci://ghcr.io/locked/x").allows("anyone", "any")  # type: ignore[union-attr]


def test_a_lower_files_rules_are_added_and_each_must_hold(tmp_path, monkeypatch):
    system = system_policy(tmp_path, monkeypatch, SIGNED)
    user = put(
        tmp_path / "config" / "satchel" / "policy.toml",
        '[[require_signed]]\nsource = "*"\nidentities = ["*@acme.com", "' + ACME + '"]\n',
    )
    policy, problems = read_policy(config_home=tmp_path / "config")
    assert problems == ()
    spec = "oci://ghcr.io/acme/tools:v1"
    signers = policy.signers(spec)
    assert signers is not None and [r.path for r in signers.rules] == [system, user]
    assert signers.identities == (ACME, "*@acme.com")
    release = ACME.replace("*", "v1")
    assert signers.allows(release, ACTIONS)  # both rules allow it
    # the user's rule cannot let in a signer the system's rule refuses
    refused = policy.check_signed(spec, "dev@acme.com", ACTIONS)
    assert refused is not None and refused.message.endswith(f"`require_signed` in {system}")
    # and it asks for a signature of every other source too
    other = policy.check_signed("acme/tools", None)
    assert other is not None and other.message.endswith(f"`require_signed` in {user}")


def test_require_digest_true_or_a_list_and_a_lower_false_is_ignored(tmp_path, monkeypatch):
    system = system_policy(tmp_path, monkeypatch, 'require_digest = ["oci://ghcr.io/acme/*"]\n')
    project = tmp_path / "project"
    put(project / ".satchel" / "policy.toml", 'require_digest = ["npm:*"]\n')
    policy, problems = read_policy(project=project)
    assert problems == ()
    assert policy.requires_digest("oci://ghcr.io/acme/tools:v1")
    assert policy.requires_digest("npm:left-pad@1.0.0")
    assert not policy.requires_digest("acme/tools")
    refusal = policy.check_digest("oci://ghcr.io/acme/tools:v1", published=False)
    assert refusal is not None and (refusal.code, refusal.message) == (
        "policy.denied",
        "installing 'oci://ghcr.io/acme/tools:v1' without a published digest is refused by "
        f"policy key `require_digest` in {system}",
    )
    assert policy.check_digest("oci://ghcr.io/acme/tools:v1", published=True) is None

    put(system, "require_digest = true\n")
    lower = put(project / ".satchel" / "policy.toml", "require_digest = false\n")
    policy, problems = read_policy(project=project)
    assert [(d.code, d.message) for d in problems] == [
        (
            "policy.loosen",
            f"policy file {lower}: `require_digest` would loosen the policy set by {system}; "
            "it is ignored",
        )
    ]
    assert policy.requires_digest("./anything") and policy.digest_rule("acme/x") == system
    assert policy.rows() == (("require_digest", "true", system),)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('require_signed = "oci://*"\n', "`require_signed` must be an array of tables "
         "([[require_signed]])"),
        ('[[require_signed]]\nidentities = ["a"]\n', "`require_signed` table 1 needs `source`, "
         "a source pattern"),
        ('[[require_signed]]\nsource = "*"\n', "`require_signed` table 1 needs `identities`, "
         "the signers it allows"),
        ('[[require_signed]]\nsource = "*"\nidentities = ["a"]\n[[require_signed]]\n'
         'source = "x"\nidentities = "b"\n',
         "`require_signed.identities` must be a list of strings"),
        ('[[require_signed]]\nsource = "*"\nidentities = ["a"]\nissuers = [1]\n',
         "`require_signed.issuers` must be a list of strings"),
        ('require_digest = "yes"\n', "`require_digest` must be true, false or a list of "
         "source patterns"),
    ],
)  # fmt: skip
def test_a_bad_value_fails_closed_and_says_which(tmp_path, monkeypatch, text, why):
    path = system_policy(tmp_path, monkeypatch, text)
    policy, problems = read_policy()
    assert [(d.code, d.message) for d in problems] == [
        (
            "policy.invalid",
            f"policy file {path}: {why}; nothing executable runs until it is fixed",
        )
    ]
    assert policy.closed is not None
    assert policy.check_digest("acme/tools", published=True) is not None
    assert policy.check_signed("acme/tools", "a", "b") is not None


def test_an_unknown_key_of_a_rule_is_reported(tmp_path, monkeypatch):
    text = '[[require_signed]]\nsource = "*"\nidentities = ["a"]\nissuer = "b"\n'
    path = system_policy(tmp_path, monkeypatch, text)
    policy, problems = read_policy()
    assert [(d.code, d.message) for d in problems] == [
        (
            "policy.key.unknown",
            f"policy file {path}: unknown key 'require_signed.issuer'; it has no effect",
        )
    ]
    assert policy.signers("acme/x").issuers == ()  # type: ignore[union-attr]
