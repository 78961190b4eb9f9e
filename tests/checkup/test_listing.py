"""``satchel doctor --hosts``: the skills each host's listing shortens, lists by name
only or leaves out, checked against the real hosts on the same files.

One project holds 44 skills (each in ``.claude/skills`` for Claude Code and in
``.agents/skills`` for Codex), two of them with descriptions past Claude Code's
1,536 characters: more than Claude Code's listing budget at its default model
(30,000 characters) and Codex's (10,000 tokens). A second project holds 650 skills
with short descriptions, more than even their names fit in Codex's listing for
gpt-5.5 (5,440 tokens). Claude Code runs one turn against the scripted model and
Codex prints its prompt (``codex debug prompt-input``) for each project, once for the
module and side by side; the reports are then read from the same projects and homes,
with the files the hosts wrote there (Codex's bundled skills among them)."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from satchel.cli import main
from satchel.reports.checkup import MachineReport, check_hosts
from tests.hostloop.claude_listing import HEADER, listing, write_settings
from tests.hostloop.hosts import run_claude
from tests.hostloop.model import Text
from tests.hosts.trees import git_repo
from tests.support import put
from tests.tools import CodexPrompt, claude_code, codex, codex_prompt_text, parse_codex_prompt

SKILLS = 44
CROWD = 650
LONG = (0, 22)  # past Claude Code's 1,536 characters
CLAUDE_CAP = 1536
CODEX_CAP = 1024


def _description(i: int) -> str:
    size = 1700 if i in LONG else 1000
    return (f"w{i:02} " * size)[:size].strip()


def _build(tmp: Path) -> tuple[Path, Path]:
    project, home = git_repo(tmp / "project"), tmp / "home"
    for i in range(SKILLS):
        text = f"---\nname: s{i:02}\ndescription: {json.dumps(_description(i))}\n---\nBody.\n"
        for root in (".claude/skills", ".agents/skills"):
            put(project / root / f"s{i:02}" / "SKILL.md", text)
    write_settings(home, {})  # Claude Code's own skills stay out of its listing
    (home / ".codex").mkdir(parents=True)
    return project, home


def _crowd(tmp: Path) -> tuple[Path, Path]:
    project, home = git_repo(tmp / "crowd"), tmp / "crowd-home"
    for i in range(CROWD):
        put(project / ".agents/skills" / f"p{i:03}" / "SKILL.md", _short(i))
    put(home / ".codex" / "config.toml", 'model = "gpt-5.5"\n')
    return project, home


def _short(i: int) -> str:
    return f"---\nname: p{i:03}\ndescription: Skill {i}.\n---\nBody.\n"


class Ran:
    """The hosts' listings and satchel's reports on the same projects and homes."""

    def __init__(
        self,
        trees: tuple[tuple[Path, Path], tuple[Path, Path]],
        claude: str,
        codex: CodexPrompt,
        crowded: list[tuple[str, str]],
    ) -> None:
        (self.project, self.home), (crowd, crowd_home) = trees
        self.claude, self.codex, self.crowded = claude, codex, crowded
        self.report: MachineReport = check_hosts(
            self.project, home=self.home, names=["claude-code", "codex", "gemini"], env={}
        )
        self.crowd: MachineReport = check_hosts(
            crowd, home=crowd_home, names=["codex"], model="gpt-5.5", env={}
        )

    def found(self, host: str, code: str, *, crowd: bool = False) -> dict[str, str]:
        """The skill each finding of `code` names, by name, with its message."""
        hosts = {h.name: h for h in (self.crowd if crowd else self.report).hosts}
        return {f.message.split()[1]: f.message for f in hosts[host].findings if f.code == code}


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Ran:
    claude, codex_binary = claude_code(), codex()
    if claude is None or codex_binary is None:
        pytest.skip("Claude Code and Codex are not in .tools/")
    tmp = tmp_path_factory.mktemp("listing")
    (project, home), (crowd, crowd_home) = trees = _build(tmp), _crowd(tmp)
    with ThreadPoolExecutor(max_workers=2) as pool:
        turn = pool.submit(run_claude, claude, project, home, "hi", [Text("ok")])
        prompt = pool.submit(codex_prompt_text, codex_binary, project, home)
        crowded = codex_prompt_text(codex_binary, crowd, crowd_home)
        done, text = turn.result(), prompt.result()
    assert done.returncode == 0, done.stderr
    found = parse_codex_prompt(text, home / ".codex" / "skills" / ".system")
    return Ran(trees, listing(done), found, _listed(crowded))


def _listed(prompt: str) -> list[tuple[str, str]]:
    """Each skill line of Codex's listing in `prompt`: its name and its description
    ("" when listed by name only)."""
    texts = [
        str(part.get("text", ""))
        for item in json.loads(prompt)
        for part in item.get("content") or ()
        if isinstance(part, dict)
    ]
    (text,) = [t for t in texts if t.startswith("<skills_instructions>")]
    return re.findall(r"^- (\S+): (.*?) ?\(file: r\d+/\S+\)$", text, re.M)


# ----------------------------------------------------------------- Claude Code


def _claude_lines(ran: Ran) -> dict[str, str]:
    assert ran.claude.startswith(HEADER)
    lines = ran.claude.split("\n")[2:]
    return {line[2:].split(":")[0]: line for line in lines}


def test_claude_code_lists_by_name_only_the_skills_the_findings_name(ran: Ran):
    lines = _claude_lines(ran)
    assert len(lines) == SKILLS  # Claude Code leaves nothing out
    bare = {name for name, line in lines.items() if line == f"- {name}"}
    assert bare and set(ran.found("claude-code", "hosts.listing.name-only")) == bare


def test_claude_code_shortens_the_descriptions_the_findings_name(ran: Ran):
    lines = _claude_lines(ran)
    cut = {name for name, line in lines.items() if line.endswith("…")}
    assert cut == {f"s{i:02}" for i in LONG}  # both kept their description, cut
    assert set(ran.found("claude-code", "hosts.listing.shortened")) == cut
    assert not ran.found("claude-code", "hosts.listing.dropped")


def test_the_claude_code_findings_give_the_budget_the_listing_used(ran: Ran):
    """The cost is every entry with its description (each cut to 1,536 characters)
    and a newline between entries, against 1% of 1,000,000 tokens at 3 characters."""
    whole = [
        f"- s{i:02}: " + (d if len(d) <= CLAUDE_CAP else d[: CLAUDE_CAP - 1] + "…")
        for i in range(SKILLS)
        for d in [_description(i)]
    ]
    cost = sum(len(line) for line in whole) + SKILLS - 1
    bare = len(ran.found("claude-code", "hosts.listing.name-only"))
    weighed = (
        f"the listing would need {cost:,} of its 30,000 characters at claude-opus-5-5 "
        f"(2 skills shortened, {bare} skills listed by name only)"
    )
    name_only = ran.found("claude-code", "hosts.listing.name-only")
    first = min(name_only)
    assert name_only[first] == (
        f"skill {first} is listed by name only in Claude Code's listing: {weighed}"
    )
    assert ran.found("claude-code", "hosts.listing.shortened")["s22"] == (
        "skill s22 is shortened in Claude Code's listing: its description is cut from "
        f"1,699 to 1,536 characters, the most one keeps; {weighed}"
    )


def test_the_fix_lines_name_claude_codes_settings(ran: Ran):
    hosts = {h.name: h for h in ran.report.hosts}
    fixes = {f.code: f.fix for f in hosts["claude-code"].findings if f.code.startswith("hosts.")}
    assert fixes == {
        "hosts.listing.name-only": "shorten the skills' descriptions or disable the skills "
        "you do not use, or raise skillListingBudgetFraction in ~/.claude/settings.json",
        "hosts.listing.shortened": "shorten its description to at most 1,536 characters, "
        "or raise skillListingMaxDescChars in ~/.claude/settings.json",
    }
    finding = next(f for f in hosts["claude-code"].findings if f.code == "hosts.listing.shortened")
    assert (finding.severity, finding.path) == (
        "warning",
        ran.project / ".claude/skills/s00/SKILL.md",
    )


# ----------------------------------------------------------------------- Codex


def _whole(path: Path) -> str:
    """A description as Codex shows it uncut by the budget: read from the SKILL.md,
    its whitespace runs one space, cut to 1,024 characters with ``...``."""
    head = path.read_text(encoding="utf-8").split("---")[1]
    text = " ".join(str(yaml.safe_load(head)["description"]).split())
    return text if len(text) <= CODEX_CAP else text[: CODEX_CAP - 3] + "..."


def test_codex_shortens_the_descriptions_the_findings_name(ran: Ran):
    listed = ran.codex.skills
    cut = {s.name for s in listed if s.description != _whole(s.path)}
    assert len(ran.codex.own) == SKILLS and cut  # its own bundled skills are listed too
    assert set(ran.found("codex", "hosts.listing.shortened")) == cut
    assert not ran.found("codex", "hosts.listing.name-only")
    assert not ran.found("codex", "hosts.listing.dropped")  # every skill is listed


def _uses(message: str, allowed: str) -> str:
    """`message` with the cost of Codex's listing as ``COST``, once checked to be over
    the budget `allowed`: the cost counts the roots table, whose paths are the temp
    folder's, so its figure is the machine's."""
    found = re.search(rf"the listing would need ([\d,]+) of its {allowed} tokens", message)
    assert found is not None, message
    assert int(found.group(1).replace(",", "")) > int(allowed.replace(",", ""))
    return message.replace(found.group(1), "COST", 1)


def test_the_codex_findings_give_the_budget_the_listing_used(ran: Ran):
    listed = {s.name: s for s in ran.codex.skills}
    shown = len(listed["s05"].description)
    count = len(ran.found("codex", "hosts.listing.shortened"))
    assert _uses(ran.found("codex", "hosts.listing.shortened")["s05"], "10,000") == (
        f"skill s05 is shortened in Codex's listing: its description is cut from "
        f"{len(_description(5)):,} to {shown:,} characters, to fit the budget; the listing "
        f"would need COST of its 10,000 tokens at gpt-6.2-sol ({count} skills shortened)"
    )
    hosts = {h.name: h for h in ran.report.hosts}
    assert {f.fix for f in hosts["codex"].findings if f.code == "hosts.listing.shortened"} == {
        "shorten the skills' descriptions or disable the skills you do not use"
    }  # Codex has no setting for its listing's budget


def test_codex_leaves_out_the_skills_the_findings_name(ran: Ran):
    """Past the budget even without descriptions, Codex lists names in its order while
    they fit and leaves the rest out."""
    listed = {name for name, _ in ran.crowded}
    gone = {f"p{i:03}" for i in range(CROWD)} - listed
    assert gone and set(ran.found("codex", "hosts.listing.dropped", crowd=True)) == gone
    bare = {name for name, text in ran.crowded if not text}
    assert set(ran.found("codex", "hosts.listing.name-only", crowd=True)) == bare
    last = max(gone)
    assert _uses(ran.found("codex", "hosts.listing.dropped", crowd=True)[last], "5,440") == (
        f"skill {last} is left out of Codex's listing: the listing would need COST of its 5,440 "
        f"tokens at gpt-5.5 ({len(bare)} skills listed by name only, {len(gone)} skills "
        "left out)"
    )
    fixes = {f.fix for f in ran.crowd.findings if f.code == "hosts.listing.dropped"}
    assert fixes == {"disable the skills you do not use, or give them shorter names"}


# ------------------------------------------------------------ the other hosts


def test_a_host_whose_listing_has_no_budget_gives_no_listing_finding(ran: Ran):
    hosts = {h.name: h for h in ran.report.hosts}
    assert hosts["gemini"].loads.skills  # it lists the skills, whole
    assert not [f for f in hosts["gemini"].findings if f.code.startswith("hosts.listing.")]


def test_doctor_and_doctor_hosts_list_the_same_claude_code_skills_by_name_only(
    ran: Ran, capsys: pytest.CaptureFixture[str]
):
    """``satchel doctor --host claude-code`` sizes its index with the same function."""
    args = ["doctor", "--host", "claude-code", "--home", str(ran.home), "--trust", "--json"]
    assert main([*args, str(ran.project)]) in (0, 1)
    index = json.loads(capsys.readouterr().out)["index"]
    assert set(index["name_only"]) == set(ran.found("claude-code", "hosts.listing.name-only"))
