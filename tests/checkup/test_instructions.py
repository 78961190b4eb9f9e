"""``satchel doctor --hosts``: the instruction files a host cuts at its size cap, and
the ones it does not read, checked against the real Codex on the same files.

One git project holds an AGENTS.md at its root, a nested one in ``sub`` and one in
``sub/deeper``, the working folder; ``~/.codex/config.toml`` sets
``project_doc_max_bytes`` to 5,000. Codex prints its prompt once for the module
(``codex debug prompt-input``): the root file whole, the nested one cut where the
finding says, the deepest one not at all. From ``other/inner`` the root file and
``other/AGENTS.md`` fill the cap exactly: ``other/inner/AGENTS.md`` is not read, and
nothing is cut."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from satchel.reports.checkup import HostReport, MachineReport, check_hosts
from tests.hosts.trees import git_repo
from tests.support import put
from tests.tools import codex, codex_prompt_text

CAP = 5_000
WIDTH = 48  # bytes a line, its newline included


def _lines(tag: str, count: int) -> str:
    return "".join(f"{tag} line {i:03}: ".ljust(WIDTH - 1, "x") + "\n" for i in range(1, count + 1))


ROOT, SUB, DEEPER = _lines("root", 60), _lines("sub", 90), _lines("deeper", 10)
OTHER = _lines("other", 44) + "the end\n"  # with ROOT, exactly the cap
INNER = _lines("inner", 3)


def _agents_text(prompt: str) -> str:
    """The AGENTS.md text Codex's prompt holds, between its ``<INSTRUCTIONS>`` tags."""
    texts = [
        part["text"]
        for item in json.loads(prompt)
        for part in item.get("content") or ()
        if isinstance(part, dict) and str(part.get("text", "")).startswith("# AGENTS.md")
    ]
    assert len(texts) == 1
    _, body = texts[0].split("<INSTRUCTIONS>\n", 1)
    return body.removesuffix("\n</INSTRUCTIONS>")


class Ran:
    """Codex's instructions text and satchel's report for the same folder."""

    def __init__(self, project: Path, cwd: Path, home: Path, prompt: str) -> None:
        self.project, self.home = project, home
        self.codex = _agents_text(prompt)
        report = check_hosts(cwd, home=home, names=["codex", "claude-code", "gemini"], env={})
        self.hosts: dict[str, HostReport] = {h.name: h for h in report.hosts}

    def found(self, host: str) -> dict[str, list[tuple[str, str | None, int | None, str]]]:
        """The instruction findings of `host` by code: message, file, line and fix."""
        found: dict[str, list[tuple[str, str | None, int | None, str]]] = {}
        for f in self.hosts[host].findings:
            if f.code.startswith("hosts.instructions.") or f.code.startswith("instructions."):
                where = None if f.path is None else f.path.relative_to(self.project).as_posix()
                found.setdefault(f.code, []).append((f.message, where, f.line, f.fix))
        return found


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ran, Ran]:
    binary = codex()
    if binary is None:
        pytest.skip("Codex is not in .tools/")
    tmp = tmp_path_factory.mktemp("instructions")
    project, home = git_repo(tmp / "project"), tmp / "home"
    cwd, full = project / "sub" / "deeper", project / "other" / "inner"
    put(project / "AGENTS.md", ROOT)
    put(project / "sub" / "AGENTS.md", SUB)
    put(cwd / "AGENTS.md", DEEPER)
    put(project / "other" / "AGENTS.md", OTHER)
    put(full / "AGENTS.md", INNER)
    put(home / ".codex" / "config.toml", f"project_doc_max_bytes = {CAP}\n")
    with ThreadPoolExecutor(max_workers=2) as pool:
        prompts = list(pool.map(lambda d: codex_prompt_text(binary, d, home), (cwd, full)))
    return Ran(project, cwd, home, prompts[0]), Ran(project, full, home, prompts[1])


@pytest.fixture
def ran(both: tuple[Ran, Ran]) -> Ran:
    return both[0]


def test_codex_cuts_the_nested_file_where_the_finding_says(ran: Ran):
    kept = CAP - len(ROOT)  # what the root file leaves of the cap
    line = SUB[:kept].count("\n") + 1
    assert ran.codex == ROOT + "\n\n" + SUB[:kept]  # the root file whole, then the cut
    lost = len(SUB) - kept
    total = SUB.count("\n")
    assert ran.found("codex")["hosts.instructions.cut"] == [
        (
            f"Codex cuts sub/AGENTS.md at byte {kept:,}, in line {line}: the project's "
            f"instruction files share a 5,000-byte cap (project_doc_max_bytes, in "
            f"~/.codex/config.toml) and the files before it take {len(ROOT):,} bytes; "
            f"{lost:,} of its {len(SUB):,} bytes are lost (from line {line} to line {total})",
            "sub/AGENTS.md",
            line,
            "move what matters most to the first files, shorten the files the host reads "
            "first, or raise project_doc_max_bytes in ~/.codex/config.toml (now 5,000)",
        )
    ]
    assert (kept, line) == (2_120, 45)  # mid-line: "sub line" of line 45 is kept


def test_codex_does_not_read_the_file_past_the_cap(ran: Ran):
    assert "deeper line" not in ran.codex
    assert ran.found("codex")["hosts.instructions.unread"] == [
        (
            "Codex does not read sub/deeper/AGENTS.md: the project's instruction files "
            "reached a 5,000-byte cap (project_doc_max_bytes, in ~/.codex/config.toml) at "
            f"sub/AGENTS.md; its {len(DEEPER):,} bytes (10 lines) are lost",
            "sub/deeper/AGENTS.md",
            None,
            "shorten the instruction files read before it, or fold what it says into them, "
            "or raise project_doc_max_bytes in ~/.codex/config.toml (now 5,000)",
        )
    ]


def test_the_cap_is_reported_once_not_also_as_the_loads_own_diagnostic(ran: Ran):
    assert set(ran.found("codex")) == {"hosts.instructions.cut", "hosts.instructions.unread"}
    assert ran.hosts["codex"].loads.instructions == (
        ran.project / "AGENTS.md",
        ran.project / "sub" / "AGENTS.md",
    )


def test_hosts_whose_profile_knows_no_cap_give_no_instruction_finding(ran: Ran):
    for host in ("claude-code", "gemini"):
        assert not ran.found(host)


def test_a_file_past_a_cap_filled_exactly_is_not_read_and_nothing_is_cut(both: tuple[Ran, Ran]):
    full = both[1]
    assert len(ROOT) + len(OTHER) == CAP
    assert full.codex == ROOT + "\n\n" + OTHER  # both whole, the inner file not at all
    assert full.found("codex") == {
        "hosts.instructions.unread": [
            (
                "Codex does not read other/inner/AGENTS.md: the project's instruction files "
                "reached a 5,000-byte cap (project_doc_max_bytes, in ~/.codex/config.toml) "
                f"at other/AGENTS.md; its {len(INNER):,} bytes (3 lines) are lost",
                "other/inner/AGENTS.md",
                None,
                "shorten the instruction files read before it, or fold what it says into "
                "them, or raise project_doc_max_bytes in ~/.codex/config.toml (now 5,000)",
            )
        ]
    }


def test_a_file_past_the_cap_that_links_out_of_the_project_is_named_not_read(tmp_path: Path):
    project, home = git_repo(tmp_path / "project"), tmp_path / "home"
    put(project / "AGENTS.md", "x" * (CAP + 10))
    put(tmp_path / "outside.md", "never read\n")
    (project / "sub").mkdir()
    (project / "sub" / "AGENTS.md").symlink_to(tmp_path / "outside.md")
    put(home / ".codex" / "config.toml", f"project_doc_max_bytes = {CAP}\n")
    report = check_hosts(project / "sub", home=home, names=["codex"], env={})
    unread = [f.message for f in report.findings if f.code == "hosts.instructions.unread"]
    assert unread == [
        "Codex does not read sub/AGENTS.md: the project's instruction files reached a "
        "5,000-byte cap (project_doc_max_bytes, in ~/.codex/config.toml) at AGENTS.md"
    ]


CRLF = b"".join(b"crlf line %02d xxxx\r\n" % i for i in range(1, 41))  # 40 lines of 19 bytes
BOM = b"\xef\xbb\xbf" + b"".join(b"bomm line %02d xxxxx\n" % i for i in range(1, 41))
SMALL = 380


@pytest.fixture(scope="module")
def raw(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, MachineReport]]:
    """Codex's prompt and satchel's report for a CRLF AGENTS.md and for one with a BOM,
    under a 380-byte cap, and for one under a cap of 0."""
    binary = codex()
    if binary is None:
        pytest.skip("Codex is not in .tools/")
    tmp = tmp_path_factory.mktemp("raw")
    projects = {}
    for name, data, cap in (("crlf", CRLF, SMALL), ("bom", BOM, SMALL), ("zero", ROOT, 0)):
        project, home = git_repo(tmp / name / "project"), tmp / name / "home"
        (project / "AGENTS.md").write_bytes(data.encode() if isinstance(data, str) else data)
        put(home / ".codex" / "config.toml", f"project_doc_max_bytes = {cap}\n")
        projects[name] = (project, home)
    with ThreadPoolExecutor(max_workers=2) as pool:
        texts = pool.map(lambda ph: codex_prompt_text(binary, *ph), projects.values())
        prompts = dict(zip(projects, texts, strict=True))
    return {
        name: (
            prompts[name],
            check_hosts(project, home=home, names=["codex"], env={}),
        )
        for name, (project, home) in projects.items()
    }


@pytest.mark.parametrize(
    ("name", "data", "line", "lost"),
    [("crlf", CRLF, 21, "380 of its 760 bytes are lost (from line 21 to line 40)"),
     ("bom", BOM, 20, "383 of its 763 bytes are lost (from line 20 to line 40)")],
)  # fmt: skip
def test_codex_cuts_the_raw_bytes_a_bom_and_crlf_included(
    raw: dict[str, tuple[str, MachineReport]], name: str, data: bytes, line: int, lost: str
):
    prompt, report = raw[name]
    assert _agents_text(prompt) == data[:SMALL].decode("utf-8")  # Codex keeps the bytes as they are
    (cut,) = [f for f in report.findings if f.code == "hosts.instructions.cut"]
    assert (cut.message, cut.line) == (
        f"Codex cuts AGENTS.md at byte {SMALL}, in line {line}: the project's instruction "
        f"files share a {SMALL}-byte cap (project_doc_max_bytes, in ~/.codex/config.toml) "
        f"and the files before it take 0 bytes; {lost}",
        line,
    )
    view = report.machine.view("codex")
    assert view is not None
    (loaded,) = view.env.instructions  # the load keeps what Codex keeps, BOM and CR dropped
    kept = data[:SMALL].removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n")
    assert (loaded.text, loaded.size, loaded.truncated) == (kept.decode("utf-8"), SMALL, True)


def test_with_a_cap_of_0_codex_reads_no_project_file_and_the_fix_says_so(
    raw: dict[str, tuple[str, MachineReport]],
):
    prompt, report = raw["zero"]
    assert "root line 001" not in prompt and "<INSTRUCTIONS>" not in prompt
    found = [(f.code, f.message, f.fix) for f in report.findings if "instructions" in f.code]
    assert found == [
        (
            "hosts.instructions.unread",
            "Codex does not read AGENTS.md: with a 0-byte cap (project_doc_max_bytes, in "
            "~/.codex/config.toml) it reads none of the project's instruction files; its "
            f"{len(ROOT):,} bytes (60 lines) are lost",
            "set project_doc_max_bytes in ~/.codex/config.toml above 0, or remove it for "
            "Codex's default",
        )
    ]
