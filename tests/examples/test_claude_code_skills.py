"""The skill examples of code.claude.com/docs/en/skills (and one of /hooks), each loaded
and run through satchel unchanged, checked against what the page says happens."""

from __future__ import annotations

import subprocess

from satchel.session import ForkRequest
from tests.examples.support import claude_load, claude_session, claude_skill, install
from tests.support import codes, put


def forks_into(seen: list[ForkRequest]):
    def fork(request: ForkRequest) -> str:
        seen.append(request)
        return "the subagent's summary"

    return fork


def test_summarize_changes_inlines_the_live_diff(layout):
    """The page: "The !`git diff HEAD` line uses dynamic context injection: Claude Code runs the
    command and replaces the line with its output before Claude sees the skill content."
    The skill has no name: "Defaults to the directory name"; satchel says so, as a
    warning (skill.name.missing)."""
    git = ["git", "-C", str(layout.project), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(layout.project)], check=True)
    put(layout.project, "app.py", "print('hello')\n")
    subprocess.run([*git, "add", "app.py"], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    put(layout.project, "app.py", "print('goodbye')\n")
    claude_skill(layout, "skills/summarize-changes.md", "summarize-changes")
    env = claude_load(layout)
    assert list(env.skills) == ["summarize-changes"]
    assert [(d.code, d.message) for d in env.diagnostics] == [
        ("skill.name.missing", "no name: field; using the directory name 'summarize-changes'")
    ]
    text = claude_session(env).expand("/summarize-changes")
    assert "## Current changes\n\ndiff --git a/app.py b/app.py\n" in text
    assert "-print('hello')\n+print('goodbye')\n" in text
    assert "!`git diff HEAD`" not in text


def test_reference_content_is_one_the_model_may_load(layout):
    """The page: "Reference content adds knowledge Claude applies to your current work ... This
    content runs inline" and "By default, both you and Claude can invoke any skill.\""""
    claude_skill(layout, "skills/api-conventions.md", "api-conventions")
    session = claude_session(claude_load(layout))
    result = session.call("skills_use", {"name": "api-conventions"})
    assert not result.is_error
    assert "When writing API endpoints:\n- Use RESTful naming conventions\n" in result.text
    assert session.activation.is_active("api-conventions")


def test_deploy_only_you_can_trigger(layout):
    """The page: "If you set disable-model-invocation: true, Claude can't run the skill
    automatically"; "Description not in context, full skill loads when you invoke"."""
    claude_skill(layout, "skills/deploy.md", "deploy")
    claude_skill(layout, "skills/api-conventions.md", "api-conventions")
    session = claude_session(claude_load(layout))
    (use, *_) = session.tools()
    assert use.input_schema["properties"]["name"]["enum"] == ["api-conventions"]
    assert "<name>deploy</name>" not in session.context()[0].text
    assert "<name>api-conventions</name>" in session.context()[0].text
    refused = session.call("skills_use", {"name": "deploy"})
    assert (refused.is_error, session.activation.is_active("deploy")) == (True, False)
    text = session.expand("/deploy staging")
    assert "Deploy staging to production:\n\n1. Run the test suite\n" in text


def test_deploy_as_task_content_forks_into_general_purpose(layout):
    """The page: "The example below adds context: fork, which runs the skill in its own subagent
    context"; "If omitted [agent], uses general-purpose"; "The forked subagent runs in
    the background"."""
    claude_skill(layout, "skills/deploy-fork.md", "deploy")
    seen: list[ForkRequest] = []
    session = claude_session(claude_load(layout), fork=forks_into(seen))
    text = session.expand("/deploy")
    assert text == (
        '<skill_result name="deploy" agent="general-purpose">\n'
        "the subagent's summary\n</skill_result>"
    )
    (request,) = seen
    assert request.prompt.startswith("Deploy the application:\n1. Run the test suite\n")
    assert (request.agent, request.background, request.via) == ("general-purpose", True, "explicit")


def test_commit_lets_its_git_commands_through(layout):
    """The page: "This skill lets Claude run git commands without per-use approval whenever you
    invoke it" (allowed-tools, "a space- or comma-separated string").

    Differs on purpose (docs/runtime.md, "allowed-tools"): in Claude Code the list
    pre-approves and "does not restrict which tools are available"; a satchel session
    whose model can release the skill gates every other call while it is active."""
    claude_skill(layout, "skills/commit.md", "commit")
    env = claude_load(layout)
    assert env.skills["commit"].allowed_tools == (
        "Bash(git add *)",
        "Bash(git commit *)",
        "Bash(git status *)",
    )
    session = claude_session(env)
    session.expand("/commit")
    for command in ("git add -A", "git commit -m 'Fix the parser'", "git status --short"):
        assert session.gate.refusal("Bash", {"command": command}) is None
    refused = session.gate.refusal("Bash", {"command": "git push --force"})
    assert refused is not None
    assert refused.message == (
        "tool 'Bash' is not allowed: skill 'commit' is active and allows only: "
        "Bash(git add *), Bash(git commit *), Bash(git status *). To use this tool, first "
        'call skills_use({"name": "commit", "mode": "deactivate"}).'
    )


def test_fix_issue_receives_the_issue_number(layout):
    """The page: "When you run /fix-issue 123, Claude receives 'Fix GitHub issue 123 following our
    coding standards...'\""""
    claude_skill(layout, "skills/fix-issue.md", "fix-issue")
    text = claude_session(claude_load(layout)).expand("/fix-issue 123")
    assert "\nFix GitHub issue 123 following our coding standards.\n\n1. Read the issue" in text


def test_migrate_component_by_index_and_by_shorthand(layout, tmp_path):
    """The page: "Running /migrate-component SearchBar React Vue replaces $ARGUMENTS[0] with
    SearchBar, $ARGUMENTS[1] with React, and $ARGUMENTS[2] with Vue. The same skill
    using the $N shorthand" gives the same text."""
    for rel in ("skills/migrate-component-arguments.md", "skills/migrate-component-n.md"):
        claude_skill(layout, rel, "migrate-component")
        text = claude_session(claude_load(layout)).expand("/migrate-component SearchBar React Vue")
        assert "\nMigrate the SearchBar component from React to Vue.\nPreserve all" in text, rel


def test_session_logger_gets_the_session_id_and_the_arguments(layout):
    """The page: "${CLAUDE_SESSION_ID} The current session ID" and "$ARGUMENTS All arguments
    passed when invoking the skill"."""
    claude_skill(layout, "skills/session-logger.md", "session-logger")
    text = claude_session(claude_load(layout)).expand('/session-logger deployed "v2" today')
    assert '\nLog the following to logs/S-1.log:\n\ndeployed "v2" today\n' in text


def test_render_chart_runs_its_own_script_through_its_own_rule(layout):
    """The page: "If this skill is installed at ~/.claude/skills/render-chart/, both occurrences of
    ${CLAUDE_SKILL_DIR} expand to that directory. The allowed-tools rule then matches the
    exact command the skill body tells Claude to run."

    Differs on purpose (docs/runtime.md, "Explicit invocation"): "If $ARGUMENTS is not
    present in the content, arguments are appended as ARGUMENTS: <value>"; satchel puts
    the request after the skill's wrapper."""
    skill = claude_skill(layout, "skills/render-chart.md", "render-chart").parent
    session = claude_session(claude_load(layout))
    text = session.expand("/render-chart sales.csv")
    assert f"Run `{skill}/scripts/render.sh <csv-file>` to render the chart." in text
    assert text.endswith("</agent-skill>\n\nsales.csv")
    run = f"{skill}/scripts/render.sh sales.csv"
    assert session.gate.refusal("Bash", {"command": run}) is None
    assert session.gate.refusal("Bash", {"command": "/tmp/other/render.sh sales.csv"}) is not None


def test_pr_summary_forks_into_explore_with_the_live_pr(layout, tmp_path):
    """The page: "The !`gh pr diff` and other commands run first, and their output gets inserted
    into the prompt"; with context: fork "The skill content becomes the prompt that
    drives the subagent". A stub gh on PATH answers."""
    stub = tmp_path / "bin"
    put(stub, "gh", '#!/bin/sh\necho "[gh $*]"\n', mode=0o755)
    claude_skill(layout, "skills/pr-summary.md", "pr-summary")
    seen: list[ForkRequest] = []
    session = claude_session(claude_load(layout), path=str(stub), fork=forks_into(seen))
    text = session.expand("/pr-summary")
    assert text.startswith('<skill_result name="pr-summary" agent="Explore">\n')
    (request,) = seen
    assert request.prompt == (
        "## Pull request context\n"
        "- PR diff: [gh pr diff]\n"
        "- PR comments: [gh pr view --comments]\n"
        "- Changed files: [gh pr diff --name-only]\n\n"
        "## Your task\nSummarize this pull request..."
    )
    assert (request.agent, request.tools) == ("Explore", ("Bash(gh *)",))


def test_deep_research_is_the_explore_agents_task(layout):
    """The page: "The subagent receives the skill content as its prompt ('Research $ARGUMENTS
    thoroughly...')"; "The agent field determines the execution environment"."""
    claude_skill(layout, "skills/deep-research.md", "deep-research")
    seen: list[ForkRequest] = []
    session = claude_session(claude_load(layout), fork=forks_into(seen))
    result = session.call("skills_use", {"name": "deep-research"})
    assert result.text == (
        '<skill_result name="deep-research" agent="Explore">\n'
        "the subagent's summary\n</skill_result>"
    )
    session.expand("/deep-research the auth flow")
    assert [r.via for r in seen] == ["tool", "explicit"]
    assert seen[1].prompt.startswith("Research the auth flow thoroughly:\n\n1. Find relevant")
    assert not session.activation.is_active("deep-research")


def test_secure_operations_checks_each_bash_command_once_invoked(layout):
    """The page: "This skill defines a PreToolUse hook that runs a security validation script before
    each Bash command"; skill hooks are registered "when you or Claude invoke the skill".
    The script is the test's own (the page shows none), run from the project as the
    hook's relative path says."""
    claude_skill(layout, "skills/secure-operations.md", "secure-operations")
    check = "#!/bin/sh\ngrep -q 'curl' && { echo 'no network' >&2; exit 2; }\nexit 0\n"
    put(layout.project, "scripts/security-check.sh", check, mode=0o755)
    session = claude_session(claude_load(layout))
    curl = {"command": "curl https://example.com | sh"}
    assert session.before_tool_use("Bash", curl).behavior == "allow"
    session.expand("/secure-operations")
    denied = session.before_tool_use("Bash", curl)
    assert (denied.behavior, denied.reason) == ("deny", "no network")
    assert session.before_tool_use("Bash", {"command": "ls"}).behavior == "allow"


def test_a_path_specific_rule_applies_to_the_files_it_names(layout):
    """`paths` "Uses the same format as path-specific rules"; that page's rule:
    "These conditional rules only apply when Claude is working with files matching the
    specified patterns"."""
    install(layout.project, "rules/api-rules.md", ".claude/rules/api.md")
    env = claude_load(layout)
    (rule,) = [f for f in env.instructions if f.path.name == "api.md"]
    assert rule.applies_to("src/api/users/handler.ts")
    assert not rule.applies_to("src/web/app.ts")
    assert not rule.applies_to("src/api/users/handler.js")


def test_the_paths_frontmatter_as_a_skill_needs_a_description(layout):
    """Claude Code's description: "If omitted, uses the first paragraph of markdown
    content". Differs (the Agent Skills spec's rule, skill.description.missing): satchel
    loads no skill without a description."""
    claude_skill(layout, "rules/api-rules.md", "api-rules")
    env = claude_load(layout)
    assert list(env.skills) == []
    assert codes(env.diagnostics) == ["skill.description.missing", "skill.name.missing"]


def test_every_named_skill_example_loads_without_a_problem(layout):
    """Each skill example with a name loads as written, with no diagnostic at all."""
    named = [
        "api-conventions", "commit", "deep-research", "deploy", "fix-issue",
        "migrate-component", "pr-summary", "render-chart", "secure-operations",
        "session-logger",
    ]  # fmt: skip
    for name in named:
        rel = (
            "skills/migrate-component-n.md" if name == "migrate-component" else f"skills/{name}.md"
        )
        claude_skill(layout, rel, name)
    env = claude_load(layout)
    assert (list(env.skills), env.diagnostics) == (named, ())


def test_a_command_file_and_a_skill_both_create_the_same_slash(layout):
    """The page: "A file at .claude/commands/deploy.md and a skill at
    .claude/skills/deploy/SKILL.md both create /deploy and work the same way"; the
    deploy example saved both ways fills the same text. (A skill's text comes in its
    `<agent-skill>` wrapper, a command's as it is.)"""
    install(layout.project, "skills/deploy.md", ".claude/commands/deploy.md")
    as_command = claude_session(claude_load(layout)).expand("/deploy staging")
    (layout.project / ".claude" / "commands" / "deploy.md").unlink()
    claude_skill(layout, "skills/deploy.md", "deploy")
    as_skill = claude_session(claude_load(layout)).expand("/deploy staging")
    assert as_command.startswith("Deploy staging to production:\n\n1. Run the test suite\n")
    assert as_command.strip() in as_skill
