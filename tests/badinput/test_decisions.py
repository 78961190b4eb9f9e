"""The open decisions of the threat model (section 6), one test each, as
docs/security.md states them. The behaviour behind each is tested in depth elsewhere
(named in each docstring); these pin the decision itself."""

from __future__ import annotations

import json
import os

import satchel
from satchel.plugins import RESERVED_NAMESPACES
from satchel.runtime.hooks import HookRunner
from satchel.session import Session
from satchel.trust._trust import trust
from tests.hooks.support import hooks_toml, pre_tool, reply, write_hooks
from tests.support import put, skill_md, write_skill

from .build import INSTRUCTIONS, Tree


def _read(tree: Tree, skill: str, resource: str) -> satchel.ToolResult:
    session = Session(tree.load(trusted=True))
    session.call("load_skill", {"name": skill})
    return session.call("load_skill", {"name": skill, "resource": resource})


def test_1_in_tree_symlinks_are_allowed_and_links_out_refused(tree: Tree):
    """Decision 1: a symlink that stays inside its skill is followed; one that leaves it
    is refused (tests/badinput/test_symlinks.py, test_runtime.py P03, P06)."""
    directory = write_skill(
        tree.skills, "links", skill_md("links", "Holds links.", INSTRUCTIONS, gap=False)
    ).parent
    put(directory / "shared" / "a.md", "SHARED\n")
    (directory / "refs").mkdir()
    os.symlink("../shared/a.md", directory / "refs" / "a.md")
    os.symlink(tree.outside / "secret.md", directory / "refs" / "key.md")

    assert _read(tree, "links", "refs/a.md").text == "SHARED\n"
    refused = _read(tree, "links", "refs/key.md")
    assert refused.is_error and refused.code == "resource.symlink.escape"


def test_2_an_untrusted_project_keeps_its_text_and_trust_project_skills_hides_it(tree: Tree):
    """Decision 2: without trust, a project's skills load as text below the user's, and
    nothing of it runs; `trust_project_skills=False` hides them altogether
    (tests/test_trust.py, tests/hooks/test_runner.py T01)."""
    write_skill(
        tree.skills, "deploy", skill_md("deploy", "From the project.", INSTRUCTIONS, gap=False)
    )
    write_skill(
        tree.root("user"), "deploy", skill_md("deploy", "From the user.", INSTRUCTIONS, gap=False)
    )
    write_skill(
        tree.skills, "lint", skill_md("lint", "Only in the project.", INSTRUCTIONS, gap=False)
    )

    untrusted = tree.load(trusted=False)
    assert untrusted.skills["deploy"].description == "From the user."
    assert "lint" in untrusted.skills
    hidden = tree.load(trusted=False, trust_project_skills=False)
    assert "lint" not in hidden.skills


def test_3_yaml_anchors_and_aliases_are_forbidden(tree: Tree):
    """Decision 3: forbidden outright, not capped (tests/badinput/test_yaml.py Y01)."""
    write_skill(tree.skills, "alias", "---\nname: alias\ndescription: &d Hi\nlicense: *d\n---\n")
    env = tree.load()
    assert "alias" not in env.skills
    assert [d.code for d in env.diagnostics] == ["frontmatter.yaml.alias"]


def _fire(tree: Tree, *handlers: dict[str, object]) -> object:
    layout = tree.layout()
    trust(layout, tree.project)
    write_hooks(tree.project, hooks_toml(("before_tool_use", None, list(handlers))))
    env = satchel.load(layout=layout)
    return HookRunner(env).before_tool_use("Bash", {"command": "ls"})


def test_4_hooks_fail_open_unless_strict_and_block_is_not_a_permission_decision(tree: Tree):
    """Decision 4: a failing hook warns and allows; a `strict` one denies; a truncated
    answer is unparseable; `permissionDecision: "block"` is an unknown value (warn,
    allow) while the legacy top-level `decision: "block"` denies, as in Claude Code
    (tests/hooks/test_answers.py H03, test_badinput.py H01, H02)."""
    where = tree.base / "hooks"
    crash = reply(where, "crash", code=1, err="BLOCKED")
    assert _fire(tree, {"command": crash}).behavior == "allow"
    assert _fire(tree, {"command": crash, "strict": True}).behavior == "deny"
    block = reply(where, "block", out=pre_tool("block"))
    outcome = _fire(tree, {"command": block})
    assert outcome.behavior == "allow"
    assert [d.code for d in outcome.diagnostics] == ["hook.output.invalid"]
    legacy = reply(where, "legacy", out={"decision": "block", "reason": "no"})
    assert _fire(tree, {"command": legacy}).behavior == "deny"


def test_5_differing_rewrites_the_last_declared_wins_with_a_warning(tree: Tree):
    """Decision 5: chained in declared order (the last rewrite wins, whatever finishes
    first), with `hook.rewrite.conflict`; a deny drops every rewrite
    (tests/hooks/test_badinput.py H05, H06)."""
    where = tree.base / "hooks"
    a = reply(where, "a", out=pre_tool("allow", updatedInput={"command": "a"}))
    b = reply(where, "b", out=pre_tool("allow", updatedInput={"command": "b"}))
    outcome = _fire(tree, {"command": a}, {"command": b})
    assert outcome.behavior == "allow"
    assert outcome.updated_input == {"command": "b"}
    assert [d.code for d in outcome.diagnostics] == ["hook.rewrite.conflict"]


def test_6_precedence_user_over_untrusted_project_project_over_user_when_trusted(tree: Tree):
    """Decision 6: a trusted project outranks the user (mermaid); an untrusted one
    never shadows anything of the user's; either way the loser is reported
    (tests/badinput/test_names.py N03, tests/test_trust.py)."""
    write_skill(
        tree.skills, "deploy", skill_md("deploy", "From the project.", INSTRUCTIONS, gap=False)
    )
    write_skill(
        tree.root("user"), "deploy", skill_md("deploy", "From the user.", INSTRUCTIONS, gap=False)
    )

    trusted = tree.load(trusted=True)
    assert trusted.skills["deploy"].description == "From the project."
    assert "skill.shadowed" in [d.code for d in trusted.diagnostics]
    untrusted = tree.load(trusted=False)
    assert untrusted.skills["deploy"].description == "From the user."
    assert "skill.shadowed" in [d.code for d in untrusted.diagnostics]


def test_7_hardlinked_resources_are_refused(tree: Tree):
    """Decision 7: a resource with more than one hard link is refused, in-tree or not
    (tests/badinput/test_runtime.py P07, tests/test_resources.py)."""
    directory = write_skill(
        tree.skills, "hard", skill_md("hard", "Holds a hard link.", INSTRUCTIONS, gap=False)
    ).parent
    (directory / "refs").mkdir()
    os.link(tree.outside / "secret.md", directory / "refs" / "s.md")

    refused = _read(tree, "hard", "refs/s.md")
    assert refused.is_error and refused.code == "resource.hardlink"


def test_8_the_reserved_names_are_the_runtimes_own_namespaces(tree: Tree):
    """Decision 8: satchel reserves the tool namespaces of the runtime (Vibe's plugin
    guide's and Vibe 3.0.3's); marketplace names are not reserved, as satchel has no
    marketplace, and two plugins of one name are a collision, never a silent first-wins
    (tests/plugins/formats/test_vibe_extension.py, tests/plugins/test_discover.py)."""
    reserved = {
        "file_system", "self", "process", "agent", "vibe", "agents", "collaboration",
        "skill", "subagent",
    }  # fmt: skip
    assert reserved == RESERVED_NAMESPACES
    trust(tree.layout(), tree.project)
    plugins = tree.project / ".satchel" / "plugins"
    for dirname, name in (("a", "cortex"), ("b", "cortex"), ("m", "anthropic-marketplace")):
        put(plugins / dirname / ".claude-plugin" / "plugin.json", json.dumps({"name": name}))
    env = tree.load()
    assert sorted(env.plugins.plugins) == ["anthropic-marketplace", "cortex"]
    assert [d.code for d in env.diagnostics] == ["plugin.name.collision"]
