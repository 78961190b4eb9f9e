"""Claude Code permission rules: parsing, each matcher, and hostile input."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satchel.foundations.permissions import (
    MAX_RULE_LENGTH,
    TOOL_INPUT_KEYS,
    Rule,
    RuleSet,
    covers,
    parse_rule,
    parse_rules,
)

# --- parsing -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tool", "specifier"),
    [
        ("Bash", "Bash", None),
        ("  Bash  ", "Bash", None),
        ("Bash()", "Bash", None),
        ("Bash(*)", "Bash", None),
        ("Bash( * )", "Bash", None),
        ("Bash(git:*)", "Bash", "git:*"),
        ("Bash(npm run test)", "Bash", "npm run test"),
        ("Bash( git status )", "Bash", "git status"),
        ("Bash(echo (a) b)", "Bash", "echo (a) b"),
        ("Bash(echo ( x)", "Bash", "echo ( x"),
        ("Bash(a)b)", "Bash", "a)b"),
        ("Read(./src/**)", "Read", "./src/**"),
        ("WebFetch(domain:example.com)", "WebFetch", "domain:example.com"),
        ("mcp__github__*", "mcp__github__*", None),
        ("*", "*", None),
    ],
)
def test_parse_rule(text: str, tool: str, specifier: str | None) -> None:
    assert parse_rule(text) == Rule(text, tool, specifier)


UNCLOSED = 'it opens "(" but does not end with ")"'
LONG = "Bash(" + "x" * (MAX_RULE_LENGTH - 6) + ")"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "cannot parse permission rule '': it is empty"),
        ("  \t", "cannot parse permission rule '  \\t': it is empty"),
        (
            "Bash(",
            """cannot parse permission rule 'Bash(': it opens "(" but does not end with ")\"""",
        ),
        (
            "Bash(git) x",
            f"cannot parse permission rule 'Bash(git) x': {UNCLOSED}",
        ),
        ("Bash)", """cannot parse permission rule 'Bash)': it has ")" without "(\""""),
        ("(git)", """cannot parse permission rule '(git)': it names no tool before "(\""""),
        (
            "Bash (git:*)",
            "cannot parse permission rule 'Bash (git:*)': the tool name 'Bash ' holds a blank",
        ),
        (
            "Bash\x1b[31m(x",
            f"cannot parse permission rule 'Bash\\x1b[31m(x': {UNCLOSED}",
        ),
        (
            LONG[:-1] + "x)",
            f"cannot parse permission rule {LONG[:60]!r}...: it is 1001 characters long; "
            "the limit is 1000",
        ),
    ],
)
def test_parse_rule_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_rule(text)
    assert str(caught.value) == message


def test_longest_rule_parses() -> None:
    assert len(LONG) == MAX_RULE_LENGTH
    assert parse_rule(LONG).tool == "Bash"


def test_parse_rules_keeps_good_rules_and_warns_on_bad(tmp_path: Path) -> None:
    skill = tmp_path / "SKILL.md"
    rules, diags = parse_rules(["Bash(git:*)", "Bash(oops", "Read"], path=skill)
    assert rules == (Rule("Bash(git:*)", "Bash", "git:*"), Rule("Read", "Read", None))
    [d] = diags
    assert (d.code, d.severity, d.path) == ("permission.rule.invalid", "warning", skill)
    assert d.message == (
        """cannot parse permission rule 'Bash(oops': it opens "(" but does not end with ")"; """
        "the rule is left out"
    )
    assert d.hint == "write a rule as Tool or Tool(specifier), like Bash(git status:*)"


def test_parse_rules_escapes_the_rule() -> None:
    _, [d] = parse_rules(["Bash\u202e(x"])
    assert d.message.startswith("cannot parse permission rule 'Bash\\u202e(x': ")


# --- matching --------------------------------------------------------------------------


def check(rule: str, tool: str, tool_input: dict[str, Any] | None, expected: bool, **kw: Any):
    assert parse_rule(rule).matches(tool, tool_input, **kw) is expected


@pytest.mark.parametrize(
    ("rule", "tool", "expected"),
    [
        ("Bash", "Bash", True),
        ("Bash", "bash", False),
        ("Bash", "BashOutput", False),
        ("*", "Bash", True),
        ("*", "mcp__github__create_issue", True),
        ("mcp__github__*", "mcp__github__create_issue", True),
        ("mcp__github__*", "mcp__githubx__y", False),
        ("mcp__github__*", "mcp__github", False),
        ("mcp__github", "mcp__github__create_issue", True),
        ("mcp__github", "mcp__github", True),
        ("mcp__github", "mcp__githubx__y", False),
        ("mcp__github", "mcp__github_x", False),
        ("mcp__github__create_issue", "mcp__github__create_issue", True),
        ("mcp__github__create_issue", "mcp__github__create_issue2", False),
        ("mcp__", "mcp__x__y", False),
        ("mcp__*__read", "mcp__fs__read", True),
        ("Web*", "WebFetch", True),
        ("Web*", "Bash", False),
    ],
)
def test_tool_part(rule: str, tool: str, expected: bool) -> None:
    check(rule, tool, None, expected)


@pytest.mark.parametrize(
    ("rule", "command", "expected"),
    [
        ("Bash(git add:*)", "git add .", True),
        ("Bash(git add:*)", "git add", True),
        ("Bash(git add:*)", "  git add  ", True),
        ("Bash(git add:*)", "git addx", False),
        ("Bash(git add:*)", "git status", False),
        ("Bash(git:*)", "git", True),
        ("Bash(git:*)", "git status", True),
        ("Bash(git:*)", "gitk", False),
        ("Bash(git:*)", "git\tstatus", False),  # the word boundary is a space
        ("Bash(git *)", "git status", True),
        ("Bash(git *)", "git", True),
        ("Bash(git *)", "gitk", False),
        ("Bash(ls*)", "lsof", True),
        ("Bash(npm run test)", "npm run test", True),
        ("Bash(npm run test)", " npm run test\n", True),
        ("Bash(npm run test)", "npm run test --watch", False),
        ("Bash(npm run test)", "npm run  test", False),
        ("Bash(git * --force)", "git push --force", True),
        ("Bash(git * --force)", "git push origin main --force", True),
        ("Bash(git * --force)", "git push --force-with-lease", False),
        ("Bash(git * main:*)", "git push origin main -f", True),
        ("Bash(git * main:*)", "git push origin mainx", False),
        ("Bash(:*)", "ls", False),
        ("Bash(*)", "anything $(at all)", True),
        ("Bash", "rm -rf / && `x`", True),
        ("Bash(git:*)", "", False),
    ],
)
def test_bash_specifier(rule: str, command: str, expected: bool) -> None:
    check(rule, "Bash", {"command": command}, expected)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git status && git diff", True),
        ("git status && rm -rf /", False),
        ("git status || rm -rf /", False),
        ("git status; rm -rf /", False),
        ("git status | rm -rf /", False),
        ("git status |& rm -rf /", False),
        ("git status & rm -rf /", False),
        ("git status\nrm -rf /", False),
        ("git status;", True),
        ("git fetch &", True),
        ("git log | git status", True),
        ('git commit -m "a && b"', True),
        ("git commit -m 'a; rm -rf /'", True),
        ("git commit -m a\\;b", True),
        ('git commit -m "a \\" && b"', True),
        ('git commit -m "a" && rm x', False),
        ("git status 2>&1", True),
        ("git status &>/dev/null", True),
        ("git status >| out", True),
        ("git log $(rm -rf /)", False),
        ('git log "$(rm -rf /)"', False),
        ("git log `rm -rf /`", False),
        ("git diff <(ls) >(cat)", False),
        ("git log '$(literal)' '`x`'", True),
        ("git log \\$(x)", True),
        ("git commit -m 'unterminated && rm", True),
    ],
)
def test_bash_compound_commands(command: str, expected: bool) -> None:
    check("Bash(git:*)", "Bash", {"command": command}, expected)


@pytest.mark.parametrize(
    ("rule", "command", "expected"),
    [
        # code.claude.com/docs/en/hooks-guide, the `if` field's table, row by row
        ("Bash(git *)", "git push", True),
        ("Bash(git *)", "npm test && git push", True),
        ("Bash(git *)", "echo $(git log)", True),
        ("Bash(git *)", "echo $(date)", False),
        ("Bash(git push *)", "echo $(date)", True),
        # the same rules beyond the table
        ("Bash(git *)", "echo `git log`", True),
        ("Bash(git *)", "echo $(cat $(git ls-files))", True),
        ("Bash(git *)", "npm test", False),
        ("Bash(git *)", "echo '$(git log)'", False),
        ("Bash(git push *)", "echo $HOME", True),
        ("Bash(git *)", "echo $HOME", False),
        ("Bash(git *)", "echo $(date", True),  # cannot be parsed: fails open
        ("Bash(git *)", "echo 'unterminated", True),
        ("Bash(git *)", "echo " + "$(" * 40 + "x" + ")" * 40, True),
        ("Read(*.env)", "not a shell call", False),
    ],
)
def test_a_hook_if_rule_fires_as_claude_codes_filter(
    rule: str, command: str, expected: bool
) -> None:
    """A hook's `if` (Rule.fires): any simple command matching is enough, those inside
    substitutions too, and what cannot be parsed runs the hook."""
    tool = rule.partition("(")[0]
    assert parse_rule(rule).fires(tool, {"command": command}) is expected


def test_fires_is_matches_for_tools_that_are_not_shells(tmp_path: Path) -> None:
    rule = parse_rule("Edit(*.ts)")
    for path in ("src/a.ts", "src/a.js"):
        call = {"file_path": path}
        assert rule.fires("Edit", call, cwd=tmp_path) is rule.matches("Edit", call, cwd=tmp_path)
    assert parse_rule("Bash").fires("Bash", {"command": "rm -rf /"})
    assert not parse_rule("Bash(git *)").fires("PowerShell", {"command": "git push"})


@pytest.mark.parametrize(
    ("tool_input", "expected"),
    [
        ({"command": "git status"}, True),
        ({"cmd": "git status"}, True),
        ({"command": 3, "cmd": "git status"}, True),
        ({"command": ["git", "status"]}, False),
        ({}, False),
        (None, False),
    ],
)
def test_bash_input_keys(tool_input: dict[str, Any] | None, expected: bool) -> None:
    check("Bash(git:*)", "Bash", tool_input, expected)
    check("PowerShell(git:*)", "PowerShell", tool_input, expected)


# Paths: the project is `cwd`, `home` stands in for ~.


@pytest.mark.parametrize(
    ("rule", "path", "expected"),
    [
        ("Read(./src/**)", "src/a.py", True),
        ("Read(./src/**)", "{cwd}/src/deep/er/a.py", True),
        ("Read(./src/**)", "{cwd}/src", True),
        ("Read(./src/**)", "{cwd}/srcx/a.py", False),
        ("Read(./src/**)", "{cwd}/src/../secret", False),
        ("Read(./src/**)", "/etc/passwd", False),
        ("Read(src/**/*.py)", "src/a.py", True),
        ("Read(src/**/*.py)", "src/x/y/a.py", True),
        ("Read(src/**/*.py)", "src/x/a.txt", False),
        ("Read(src/**/*.py)", "lib/src/a.py", False),
        ("Read(src/*.py)", "src/x/a.py", False),
        ("Read(/src/*.py)", "src/a.py", True),
        ("Read(./src)", "src/a/b.py", True),  # a directory matches what is under it
        ("Read(*.env)", ".env", True),  # `*` may match nothing, as in gitignore
        ("Read(*.env)", "prod.env", True),
        ("Read(*.env)", "{cwd}/a/b/prod.env", True),
        ("Read(*.env)", "/elsewhere/prod.env", True),
        ("Read(*.env)", "prod.env.bak", False),
        ("Read(.env)", "{cwd}/deep/.env", True),
        ("Read(node_modules/)", "{cwd}/web/node_modules/x/y.js", True),
        ("Read(//tmp/x)", "/tmp/x", True),
        ("Read(//tmp/x)", "/tmp/x/inner", True),
        ("Read(//tmp/x)", "/tmp/xy", False),
        ("Read(//tmp/x)", "tmp/x", False),
        ("Read(~/notes/*)", "{home}/notes/a.md", True),
        ("Read(~/notes/*)", "{home}/notes", False),
        ("Read(~/notes/*)", "{cwd}/notes/a.md", False),
        ("Read(.)", "anything/here", True),
        ("Read(./)", "{cwd}", True),
        ("Read(./)", "/etc/passwd", False),
    ],
)
def test_path_specifier(tmp_path: Path, rule: str, path: str, expected: bool) -> None:
    cwd, home = tmp_path / "project", tmp_path / "home"
    value = path.format(cwd=cwd, home=home)
    check(rule, "Read", {"file_path": value}, expected, cwd=cwd, home=home)


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Read", {"file_path": "src/a.py"}),
        ("Write", {"file_path": "src/a.py"}),
        ("Edit", {"file_path": "src/a.py"}),
        ("MultiEdit", {"file_path": "src/a.py"}),
        ("NotebookEdit", {"notebook_path": "src/a.ipynb"}),
        ("Glob", {"pattern": "*.py", "path": "src"}),
        ("Grep", {"pattern": "x", "path": "src/a.py"}),
        ("LS", {"path": "src"}),
    ],
)
def test_path_tools(tmp_path: Path, tool: str, tool_input: dict[str, Any]) -> None:
    check(f"{tool}(./src/**)", tool, tool_input, True, cwd=tmp_path)
    check(f"{tool}(./lib/**)", tool, tool_input, False, cwd=tmp_path)


@pytest.mark.parametrize(
    ("rule", "path", "expected"),
    [
        ("Read(./src/**)", "src/a.py", True),
        ("Read(./src/**)", "./src/a.py", True),
        ("Read(./src/**)", "/abs/src/a.py", False),
        ("Read(//abs/**)", "/abs/src/a.py", True),
        ("Read(~/x)", "x", False),  # no home: never
    ],
)
def test_path_without_cwd_or_home(rule: str, path: str, expected: bool) -> None:
    check(rule, "Read", {"file_path": path}, expected)


def test_path_without_input_never_matches(tmp_path: Path) -> None:
    check("Grep(./src/**)", "Grep", {"pattern": "x"}, False, cwd=tmp_path)
    check("Read(./src/**)", "Read", {"file_path": ""}, False, cwd=tmp_path)


@pytest.mark.parametrize(
    ("rule", "url", "expected"),
    [
        ("WebFetch(domain:example.com)", "https://example.com/a", True),
        ("WebFetch(domain:example.com)", "https://EXAMPLE.com:8443/a", True),
        ("WebFetch(domain:Example.com)", "https://example.com./a", True),
        ("WebFetch(domain:example.com)", "https://docs.example.com/a", False),
        ("WebFetch(domain:example.com)", "https://example.com.evil.io/", False),
        ("WebFetch(domain:example.com)", "https://example.com@evil.io/", False),
        ("WebFetch(domain:example.com)", "https://evil.io\\@example.com/", False),
        ("WebFetch(domain:example.com)", "https://[::1/", False),
        ("WebFetch(domain:example.com)", "example.com", False),
        ("WebFetch(domain:*.example.com)", "https://docs.example.com/", True),
        ("WebFetch(domain:*.example.com)", "https://a.b.example.com/", True),
        ("WebFetch(domain:*.example.com)", "https://example.com/", False),
        ("WebFetch(domain:*.example.com)", "https://badexample.com/", False),
        ("WebFetch(domain:*)", "https://anything.io/", True),
        ("WebFetch(example.com)", "https://example.com/", False),
    ],
)
def test_webfetch(rule: str, url: str, expected: bool) -> None:
    check(rule, "WebFetch", {"url": url}, expected)


@pytest.mark.parametrize(
    ("rule", "tool", "tool_input", "expected"),
    [
        ("WebSearch(python *)", "WebSearch", {"query": "python asyncio"}, True),
        ("WebSearch(python *)", "WebSearch", {"query": "rust"}, False),
        ("WebSearch(rust)", "WebSearch", {"query": "rust"}, True),
        ("Agent(Explore)", "Agent", {"subagent_type": "Explore"}, True),
        ("Agent(Explore)", "Agent", {"subagent_type": "explore"}, False),
        ("Agent(Exp*)", "Agent", {"subagent_type": "Explore"}, False),
        ("Task(Explore)", "Task", {"subagent_type": "Explore"}, True),
        ("Skill(pdf)", "Skill", {"skill": "pdf"}, True),
        ("Skill(pdf)", "Skill", {"name": "pdf"}, True),
        ("Skill(pdf)", "Skill", {"skill": "pdfx"}, False),
        ("mcp__x__run(ls *)", "mcp__x__run", {"command": "ls -la"}, True),
        ("mcp__x__run(ls *)", "mcp__x__run", {"command": "cat"}, False),
        ("mcp__x__run(ls *)", "mcp__x__run", {"query": "ls -la"}, False),
        ("*(ls *)", "Custom", {"command": "ls -la"}, True),
    ],
)
def test_other_specifiers(rule: str, tool: str, tool_input: dict[str, Any], expected: bool):
    check(rule, tool, tool_input, expected)


def test_tool_input_keys() -> None:
    assert TOOL_INPUT_KEYS["Bash"] == ("command", "cmd")
    assert TOOL_INPUT_KEYS["NotebookEdit"] == ("file_path", "notebook_path", "path")
    assert TOOL_INPUT_KEYS["Agent"] == ("subagent_type",)


def test_rule_set_first_match() -> None:
    rules, _ = parse_rules(["Read", "Bash(git:*)", "Bash"])
    rule_set = RuleSet(rules)
    assert rule_set.first_match("Bash", {"command": "git log"}) == rules[1]
    assert rule_set.first_match("Bash", {"command": "rm x"}) == rules[2]
    assert rule_set.first_match("Write", {"file_path": "x"}) is None
    assert RuleSet(()).first_match("Read") is None


# --- hostile input ---------------------------------------------------------------------


def finishes(work: Any, seconds: float = 20.0) -> bool:
    done = threading.Event()
    thread = threading.Thread(target=lambda: (work(), done.set()), daemon=True)
    thread.start()
    thread.join(seconds)
    return done.is_set()


@pytest.mark.parametrize(
    ("rule", "tool", "tool_input"),
    [
        ("Bash(" + "*a" * 400 + ")", "Bash", {"command": "a" * 100_000 + "b"}),
        ("Bash(" + "*a" * 400 + ":*)", "Bash", {"command": "a" * 100_000}),
        ("Read(" + "*a/**/" * 150 + ")", "Read", {"file_path": "/".join(["aa"] * 2000)}),
        ("WebSearch(" + "*a" * 400 + "b)", "WebSearch", {"query": "a" * 100_000}),
        ("*" + "*a" * 400, "a" * 100_000, None),
    ],
)
def test_hostile_rules_finish(rule: str, tool: str, tool_input: dict[str, Any] | None) -> None:
    parsed = parse_rule(rule)
    assert finishes(lambda: parsed.matches(tool, tool_input, cwd=Path("/p")))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=1200))
def test_parse_rule_raises_only_value_error(text: str) -> None:
    with contextlib.suppress(ValueError):
        assert parse_rule(text).text == text


SAMPLE_RULES = [
    parse_rule(text)
    for text in (
        "Bash(git:*)",
        "Bash(git * --force)",
        "Bash(npm run test)",
        "Read(./src/**)",
        "Read(*.env)",
        "Read(~/x/*)",
        "WebFetch(domain:*.example.com)",
        "Agent(Explore)",
        "mcp__x__y(a*b)",
    )
]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from(SAMPLE_RULES))
def test_matches_never_raises(value: str, rule: Rule) -> None:
    tool = rule.tool if "*" not in rule.tool else "mcp__x__y"
    keys = ("command", "file_path", "url", "subagent_type")
    rule.matches(tool, dict.fromkeys(keys, value), cwd=Path("/p"), home=Path("/h"))
    rule.matches(tool, dict.fromkeys(keys, value))


# --- covers: whether one rule allows every call another allows ------------------------


@pytest.mark.parametrize(
    ("wide", "narrow", "covered"),
    [
        ("Bash(git:*)", "Bash(git:*)", True),
        ("Bash(git:*)", "Bash(git status)", True),
        ("Bash(git:*)", "Bash(git push:*)", True),
        ("Bash(git:*)", "Bash(git * --force)", True),
        ("Bash(git *)", "Bash(git:*)", True),
        ("Bash", "Bash(git:*)", True),
        ("Bash(*)", "Bash", True),
        ("*", "Bash", True),
        ("Bash(git:*)", "Bash(*)", False),
        ("Bash(git:*)", "Bash", False),
        ("Bash(git:*)", "Bash(npm:*)", False),
        ("Bash(git push:*)", "Bash(git:*)", False),
        ("Bash(git status)", "Bash(git:*)", False),
        ("Bash(git:*)", "Bash(git status && rm -rf x)", False),
        ("Bash(git:*)", "Bash(git $(rm -rf x))", False),
        ("Bash(git:*)", "Read", False),
        ("Read", "Read(./x)", True),
        ("Read(src/**)", "Read(src/a/b.py)", True),
        ("Read(src/**)", "Read(src/../secrets)", False),
        ("Read(src/**)", "Read(**)", False),
        ("WebFetch(domain:*)", "WebFetch(domain:x.com)", True),
        ("WebFetch(domain:*.x.com)", "WebFetch(domain:a.x.com)", True),
        ("WebFetch(domain:x.com)", "WebFetch(domain:*.x.com)", False),
        ("mcp__gh", "mcp__gh__list", True),
        ("mcp__gh__list", "mcp__gh", False),
        ("mcp__gh__*", "mcp__gh__list_*", True),
        ("Skill(pdf)", "Skill(tdd)", False),
        ("WebSearch(rust *)", "WebSearch(rust async *)", True),
    ],
)
def test_covers_compares_two_rules(wide: str, narrow: str, covered: bool) -> None:
    assert covers(parse_rule(wide), parse_rule(narrow)) is covered
