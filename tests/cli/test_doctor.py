"""`satchel doctor`: roots, skills, shadowing, diagnostics, index size; exit 1 on errors."""

from __future__ import annotations

from tests.support import put, skill_md, write_skill

from .support import EXAMPLE, HOME, WORKSPACE, check_golden

SKILLS = [
    "changelog",
    "release",
    "code-review",
    "db-migrations",
    "pdf-forms",
    "commit-messages",
    "writing-tests",
    "dependency-updates",
]
PLUGIN_SKILLS = [
    "deploy:rollout",
    "lint-kit:lint-fix",
    "meeting-notes:meeting-notes",
    "pr-tools:pr-triage",
    "release-bundle:version-bump",
    "style-guide:house-style",
    "snippets:shell-snippets",
]
PLUGINS = [
    ("deploy-kit", "agent-plugins", "project"),
    ("lint-kit", "codex", "project"),
    ("meeting-notes", "kimi", "project"),
    ("pr-tools", "claude", "project"),
    ("release-bundle", "bundle", "project"),
    ("style-guide", "opencode", "project"),
    ("snippets", "agent-plugins", "user"),
]


def test_human_report_matches_golden(satchel, in_repo):
    result = satchel("doctor", *EXAMPLE)
    assert result.code == 1  # the example holds two broken skills on purpose
    assert result.err == ""
    check_golden("doctor.txt", result.out)


def test_json_reports_every_root_in_precedence_order(satchel, in_repo):
    roots = satchel("doctor", "--json", *EXAMPLE).json()["roots"]
    plugin_roots, roots = roots[15:], roots[:15]  # each plugin's skills are one more root
    assert [(r["scope"], r["family"]) for r in plugin_roots] == [
        ("plugin", name) for name, _, _ in PLUGINS
    ]
    assert [(r["loaded"], r["shadowed"]) for r in plugin_roots] == [(1, 0)] * len(PLUGINS)
    assert [(r["scope"], r["family"], r["path"]) for r in roots] == [
        ("project", ".satchel", str(WORKSPACE / ".satchel/skills")),
        ("project", ".claude", str(WORKSPACE / ".claude/skills")),
        ("project", ".agents", str(WORKSPACE / ".agents/skills")),
        ("project", ".codex", str(WORKSPACE / ".codex/skills")),
        ("project", ".opencode", str(WORKSPACE / ".opencode/skills")),
        ("project", ".gemini", str(WORKSPACE / ".gemini/skills")),
        ("project", ".github", str(WORKSPACE / ".github/skills")),
        ("project", ".cursor", str(WORKSPACE / ".cursor/skills")),
        ("user", ".satchel", str(HOME / ".config/satchel/skills")),
        ("user", ".claude", str(HOME / ".claude/skills")),
        ("user", ".agents", str(HOME / ".agents/skills")),
        ("user", ".codex", str(HOME / ".codex/skills")),
        ("user", ".gemini", str(HOME / ".gemini/skills")),
        ("user", ".copilot", str(HOME / ".copilot/skills")),
        ("user", ".cursor", str(HOME / ".cursor/skills")),
    ]
    assert [(r["exists"], r["loaded"], r["shadowed"], r["skipped"]) for r in roots] == [
        (True, 2, 0, None),
        (True, 1, 1, None),
        (True, 1, 0, None),
        (True, 1, 0, None),
        (False, 0, 0, None),
        (False, 0, 0, None),
        (False, 0, 0, None),
        (False, 0, 0, None),
        (True, 1, 1, None),
        (True, 1, 0, None),
        (True, 1, 0, None),
        (False, 0, 0, None),
        (False, 0, 0, None),
        (False, 0, 0, None),
        (False, 0, 0, None),
    ]


def test_json_lists_skills_shadowed_and_diagnostics(satchel, in_repo):
    result = satchel("doctor", "--json", *EXAMPLE)
    doc = result.json()
    assert result.code == 1
    assert result.err == ""
    assert doc["skills"] == SKILLS + PLUGIN_SKILLS
    assert doc["shadowed"] == [
        {
            "name": "release",
            "winner": str(WORKSPACE / ".satchel/skills/release/SKILL.md"),
            "loser": str(WORKSPACE / ".claude/skills/release/SKILL.md"),
        },
        {
            "name": "code-review",
            "winner": str(WORKSPACE / ".claude/skills/code-review/SKILL.md"),
            "loser": str(HOME / ".config/satchel/skills/code-review/SKILL.md"),
        },
    ]
    assert [(d["severity"], d["code"]) for d in doc["diagnostics"]] == [
        ("warning", "skill.shadowed"),
        ("error", "frontmatter.yaml.syntax"),
        ("warning", "skill.shadowed"),
        ("error", "skill.description.missing"),
        ("warning", "skill.name.mismatch"),
        ("warning", "command.shadowed"),
        ("warning", "frontmatter.yaml.colon-fallback"),
        ("warning", "agent.builtin.protected"),
        ("info", "instructions.replaced"),
        ("warning", "plugin.compatibility.executable_format_unsupported"),
    ]
    broken = doc["diagnostics"][1]
    assert broken["path"] == str(WORKSPACE / ".agents/skills/api-docs/SKILL.md")
    assert broken["line"] == 3


def test_json_counts_commands_agents_and_instruction_files(satchel, in_repo):
    doc = satchel("doctor", "--json", *EXAMPLE).json()
    assert doc["commands"] == {
        "loaded": 7,
        "names": [
            "release-notes",
            "component",
            "review-pr",
            "standup",
            "pr-tools:pr-summary",
            "release-bundle:publish",
            "release-bundle:tag",
        ],
        "shadowed": [
            {
                "name": "review-pr",
                "winner": str(WORKSPACE / ".claude/commands/review-pr.md"),
                "loser": str(WORKSPACE / ".agents/commands/review-pr.md"),
            }
        ],
    }
    assert doc["agents"] == {
        "loaded": 6,
        "names": [
            "release-manager",
            "code-scout",
            "writer",
            "deploy:deployer",
            "pr-tools:pr-reviewer",
            "release-bundle:release-checker",
        ],
        "shadowed": [],
    }
    assert doc["instructions"] == {
        "read": 2,
        "paths": [str(WORKSPACE / "AGENTS.md"), str(WORKSPACE / "SATCHEL.md")],
    }


def test_shadowed_agents_are_shown_like_shadowed_skills(satchel, project, home, monkeypatch):
    monkeypatch.chdir(project.parent)  # short paths: each row stays on one line
    for root, text in ((project, "From the project."), (home, "From the user.")):
        (root / ".claude/agents").mkdir(parents=True)
        (root / ".claude/agents/helper.md").write_text(
            f"---\nname: helper\ndescription: {text}\n---\nHelp.\n"
        )
    args = ("--project", project, "--home", home, "--trust")
    doc = satchel("doctor", *args, "--json").json()
    assert doc["agents"]["shadowed"] == [
        {
            "name": "helper",
            "winner": str(project / ".claude/agents/helper.md"),
            "loser": str(home / ".claude/agents/helper.md"),
        }
    ]
    out = satchel("doctor", *args).out
    assert "Agents: 1 loaded, 1 shadowed" in out
    section = out.split("\nAgents:")[1].split("\n\n")[0]
    kept, hidden = (line.split() for line in section.splitlines() if "helper.md" in line)
    assert kept[:4] == ["helper", "kept", "project", ".claude"]
    assert hidden[:4] == ["helper", "hidden", "user", ".claude"]


def test_human_report_has_a_section_per_kind(satchel, in_repo):
    out = satchel("doctor", *EXAMPLE).out
    for heading in ("Commands: 7 loaded, 1 shadowed", "Agents: 6 loaded, 0 shadowed"):
        assert f"\n{heading}\n" in out
    assert "\nPlugins: 7 loaded, 0 disabled, 0 shadowed\n" in out
    assert "\nInstruction files: 2 read\n" in out
    assert out.index("Shadowed: 2") < out.index("Commands:") < out.index("Diagnostics:")
    assert out.index("Agents:") < out.index("Plugins:") < out.index("Instruction files:")


def test_json_index_size_is_that_of_the_tool_index(satchel, in_repo):
    index = satchel("index", "--json", *EXAMPLE).json()
    doc = satchel("doctor", "--json", *EXAMPLE).json()
    assert doc["index"] == {
        "format": "tool",
        "bytes": len(index["text"].encode("utf-8")),
        "tokens": -(-len(index["text"].encode("utf-8")) // 4),
        "listed": len(doc["skills"]),
        "omitted": [],
        "shortened": [],
        "name_only": [],
        "cut_by": None,
        "limit": None,
    }
    assert doc["index"]["bytes"] > 0


def test_skills_the_budget_shortens_are_counted(satchel, project, home):
    # Codex's listing gets 2% of gpt-6.2-sol's 500,000 tokens: 300 skills fit only once
    # every description is shortened, evenly, and none is left out or listed by name.
    for i in range(300):
        put(project / f".agents/skills/s{i:03}/SKILL.md", skill_md(f"s{i:03}", "word " * 40))
    args = ("--project", project, "--home", home, "--host", "codex")

    index = satchel("doctor", *args, "--json").json()["index"]
    assert (index["omitted"], index["name_only"]) == ([], [])
    assert index["shortened"] == [f"s{i:03}" for i in range(300)]
    line = " ".join(satchel("doctor", *args).out.split())
    assert line.endswith("; 300 skills shortened (see skill.index.shortened)")


def test_skills_the_index_cuts_are_counted_with_the_cap_and_each_named(satchel, project, home):
    for i in range(66):
        write_skill(project / ".agents/skills", f"skill-{i:02}")
    args = ("--project", project, "--home", home)

    doc = satchel("doctor", *args, "--json").json()
    out = satchel("doctor", *args).out

    left_out = ["skill-64", "skill-65"]
    assert doc["index"]["listed"] == 64
    assert (doc["index"]["omitted"], doc["index"]["cut_by"]) == (left_out, "max_skills")
    assert doc["index"]["limit"] == 64
    assert [
        (d["code"], d["severity"], d["message"])
        for d in doc["diagnostics"]
        if d["code"] == "skill.index.omitted"
    ] == [
        (
            "skill.index.omitted",
            "warning",
            f"skill {name!r} is not in the index: the index lists at most 64 skills (max_skills)",
        )
        for name in left_out
    ]
    assert out.splitlines()[-1].endswith(
        "; 2 skills left out by max_skills (at most 64 skills; see skill.index.omitted)"
    )
    assert " ".join(out.split()).count("is not in the index") == 2


def test_exit_0_when_nothing_is_an_error(satchel, project, home):
    write_skill(project / ".claude/skills", "deploy")
    write_skill(project / ".claude/skills", "Mixed", name="mixed")  # a warning, not an error
    result = satchel("doctor", "--project", project, "--home", home)
    assert result.code == 0
    assert "Diagnostics: 0 errors, 1 warning, 0 info" in result.out


def test_dir_argument_finds_the_git_root_above_it(satchel, project, home):
    write_skill(project / ".agents/skills", "deploy")
    nested = project / "src" / "pkg"
    nested.mkdir(parents=True)
    doc = satchel("doctor", nested, "--home", home, "--trust", "--json").json()
    assert doc["skills"] == ["deploy"]
    assert doc["roots"][0]["path"] == str(project / ".satchel/skills")


def test_client_option_puts_its_own_family_first(satchel, project, home):
    write_skill(project / ".claude/skills", "deploy", description="From Claude.")
    write_skill(project / ".mermaid/skills", "deploy", description="From mermaid.")
    where = ("--project", project, "--home", home, "--trust")
    doc = satchel("doctor", *where, "--client", "mermaid", "--json")
    roots = doc.json()["roots"]
    assert roots[0]["family"] == ".mermaid"
    assert roots[8]["path"] == str(home / ".config/mermaid/skills")
    assert doc.json()["shadowed"][0]["winner"] == str(project / ".mermaid/skills/deploy/SKILL.md")


def test_client_name_that_is_a_path_is_a_usage_error(satchel, project, home):
    result = satchel("doctor", "--project", project, "--home", home, "--client", "../x")
    assert result.code == 2
    assert "Invalid value for '--client'" in result.err
    assert result.out == ""


def test_mcp_servers_are_counted_with_the_shadowed_ones(satchel, project, home):
    config = home / ".config" / "satchel"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        '[mcp_servers.github]\ncommand = "gh-mcp"\n[mcp_servers.off]\ncommand = "x"\n'
        "enabled = false\n"
    )
    plugin = home / ".agents" / "plugins" / "kit" / ".claude-plugin"
    plugin.mkdir(parents=True)
    (plugin / "plugin.json").write_text('{"name": "kit"}')
    (plugin.parent / ".mcp.json").write_text('{"mcpServers": {"github": {"command": "g"}}}')
    where = ("--project", project, "--home", home)
    doc = satchel("doctor", *where, "--json").json()
    assert doc["mcp_servers"] == {
        "configured": 2,
        "disabled": ["off"],
        "names": ["github", "off"],
        "shadowed": ["github"],
    }
    out = satchel("doctor", *where).out
    assert "\nMCP servers: 2 configured, 1 disabled, 1 shadowed\ngithub, off\n" in out


def test_ignore_hides_the_index_cuts_too(satchel, project, home):
    for i in range(65):
        write_skill(project / ".agents/skills", f"skill-{i:02}")
    args = ("--project", project, "--home", home, "--ignore", "skill.index.omitted")
    doc = satchel("doctor", *args, "--json").json()
    assert doc["index"]["omitted"] == ["skill-64"]  # still counted
    assert "skill.index.omitted" not in [d["code"] for d in doc["diagnostics"]]
    assert "is not in the index" not in satchel("doctor", *args).out


def test_text_and_json_are_one_report(satchel, in_repo):
    """Both outputs render one DoctorReport: every count the text prints is the JSON's."""
    doc = satchel("doctor", "--json", *EXAMPLE).json()
    text = satchel("doctor", *EXAMPLE).out
    plugins, hooks, servers = doc["plugins"], doc["hooks"], doc["mcp_servers"]
    expected = [
        f"Skills: {len(doc['skills'])} loaded",
        f"Shadowed: {len(doc['shadowed'])}",
        f"Commands: {doc['commands']['loaded']} loaded, "
        f"{len(doc['commands']['shadowed'])} shadowed",
        f"Agents: {doc['agents']['loaded']} loaded, {len(doc['agents']['shadowed'])} shadowed",
        f"Plugins: {plugins['loaded']} loaded, {len(plugins['disabled'])} disabled, "
        f"{len(plugins['shadowed'])} shadowed",
        f"Hooks: {hooks['loaded']} loaded, {len(hooks['skipped'])} skipped",
        f"MCP servers: {servers['configured']} configured, {len(servers['disabled'])} "
        f"disabled, {len(servers['shadowed'])} shadowed",
        f"Instruction files: {doc['instructions']['read']} read",
        f"Index ({doc['index']['format']} format): {doc['index']['bytes']:,} bytes, "
        f"about {doc['index']['tokens']:,} tokens",
    ]
    lines = text.splitlines()
    assert [line for line in expected if line not in lines] == []
    assert doc["skills"] and ", ".join(doc["skills"]) in lines


def test_the_index_leaves_a_conditional_skill_out_as_a_session_starts(satchel, project, home):
    root = project / ".claude" / "skills"
    write_skill(root, "always", description="Always listed.")
    write_skill(root, "sql", description="Reads the schema files.", paths="db/**/*.sql")
    for host in (("--host", "claude-code"), ()):
        args = ("--project", project, "--home", home, "--trust", *host)
        listed = satchel("index", *args).out
        assert "always" in listed and "sql" not in listed
        index = satchel("doctor", *args, "--json").json()["index"]
        assert (index["bytes"], index["listed"]) == (len(listed.encode()), 1)


def test_the_index_under_a_hosts_listing_is_named_and_cut_as_that_host_cuts(satchel, project, home):
    """Under --host codex the index doctor measures is Codex's listing: named so, and
    what it leaves out is left out by Codex's budget in tokens (2% of gpt-5.5's
    272,000-token window)."""
    for n in range(700):
        write_skill(project / ".agents" / "skills", f"skill-{n:03}", description="Does a thing.")
    args = ("doctor", "--project", project, "--home", home, "--host", "codex", "--trust")
    index = satchel(*args, "--model", "gpt-5.5", "--json").json()["index"]
    assert (index["format"], index["cut_by"], index["limit"]) == ("codex", "max_tokens", 5_440)
    assert index["omitted"]
