"""GitHub, skills.sh and pasted `npx skills add` sources, against a local HTTP server
standing in for GitHub's API and archive endpoint, and `git http-backend` for the
fallback when the API refuses. Every form goes through the CLI."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from satchel.core.layout import Layout
from satchel.install import browse_source, group_picks, install_from_spec
from satchel.install._settings import Settings
from tests.support import skill_md, write_tree

from .support import Request, Server, bare, git_repo, head, http_backend, state, tar_of_tree

FILES = {
    "README.md": "# skills\n",
    "skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs."),
    "skills/pdf/scripts/run.sh": "#!/bin/sh\necho hi\n",
    "skills/tdd/SKILL.md": skill_md("tdd", "Test first."),
}


def sha_of(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def publish(
    server: Server, tmp: Path, repo: str, files: dict[str, str], refs: dict[str, str] | None = None
) -> str:
    """Serve `files` as GitHub serves owner/repo: commits/<ref> and tarball/<sha>."""
    sha = sha_of(repo + str(sorted(files.items())))
    tree = write_tree(tmp / "published" / repo / sha, files)
    for script in tree.rglob("*.sh"):
        script.chmod(0o755)
    for ref in {"HEAD", "main", *(refs or {})}:
        server.json(f"/api/repos/{repo}/commits/{ref}", {"sha": sha})
    body = tar_of_tree(tree, f"{repo.replace('/', '-')}-{sha[:7]}")
    server.routes[f"/api/repos/{repo}/tarball/{sha}"] = lambda _r: (
        302,
        {"Location": f"/codeload/{repo}/{sha}"},
        b"",
    )
    server.bytes(f"/codeload/{repo}/{sha}", body)
    return sha


@pytest.fixture
def hub(server: Server, monkeypatch: pytest.MonkeyPatch) -> Server:
    monkeypatch.setenv("SATCHEL_GITHUB_URL", f"{server.url}/gh")
    monkeypatch.setenv("SATCHEL_GITHUB_API_URL", f"{server.url}/api")
    monkeypatch.setenv("SATCHEL_SKILLS_SH_URL", f"{server.url}/sksh")
    return server


@pytest.mark.parametrize(
    ("form", "names"),
    [
        ("o/r", ["pdf", "tdd"]),
        ("o/r/skills/pdf", ["pdf"]),
        ("o/r#main:skills", ["pdf", "tdd"]),
        ("o/r:skills/tdd", ["tdd"]),
        ("github:o/r", ["pdf", "tdd"]),
        ("{url}/gh/o/r/tree/main/skills/pdf", ["pdf"]),
        ("{url}/sksh/o/r/tdd", ["tdd"]),
        ("npx skills add o/r --skill pdf", ["pdf"]),
    ],
)
def test_each_github_form_installs_through_the_cli(
    satchel, hub: Server, tmp_path: Path, project: Path, form: str, names: list[str]
) -> None:
    sha = publish(hub, tmp_path, "o/r", FILES)
    code, out, err = satchel("install", form.format(url=hub.url))
    assert (code, err) == (0, "")
    installed = sorted(p.name for p in (project / ".satchel/skills").iterdir())
    assert installed == names
    assert f"at {sha[:12]}" in out
    if "pdf" in names:
        assert (project / ".satchel/skills/pdf/scripts/run.sh").stat().st_mode & 0o111


def test_token_goes_to_the_api_only(layout: Layout, hub: Server, tmp_path: Path) -> None:
    publish(hub, tmp_path, "o/r", FILES)
    settings = Settings.from_env({"GH_TOKEN": "tok", "SATCHEL_GITHUB_API_URL": f"{hub.url}/api"})
    install_from_spec("o/r", layout=layout, settings=settings, environ={})
    auth = {r.path.split("/")[1]: r.headers.get("Authorization") for r in hub.seen}
    assert auth["api"] == "Bearer tok"


def test_a_refusing_api_falls_back_to_git(
    satchel, hub: Server, tmp_path: Path, project: Path
) -> None:
    repo = git_repo(tmp_path / "work", FILES)
    served = tmp_path / "git-root"
    (served / "o").mkdir(parents=True)
    bare(repo, served / "o" / "r.git")
    hub.routes["/gh/*"] = http_backend(served)
    hub.json("/api/repos/o/r/commits/HEAD", {"message": "API rate limit exceeded"}, status=403)
    code, out, err = satchel("install", "o/r", "--skill", "tdd", "--json")
    assert code == 0, err
    assert (project / ".satchel/skills/tdd/SKILL.md").read_text() == FILES["skills/tdd/SKILL.md"]
    assert any(r.path.startswith("/gh/o/r.git/info/refs") for r in hub.seen)
    assert f'"resolved": "{head(repo)}"' in out


def test_a_missing_repository_leaves_the_scope(
    satchel, hub: Server, project: Path, home: Path
) -> None:
    before = (state(project), state(home))
    code, _out, err = satchel("install", "o/none")
    assert code == 1
    url = f"{hub.url}/api/repos/o/none/commits/HEAD"
    assert err == f"satchel: install.fetch.failed: GET {url}: 404 Not Found\n"
    assert (state(project), state(home)) == before


def test_browse_lists_and_caches_for_ten_minutes(satchel, hub: Server, tmp_path: Path) -> None:
    publish(hub, tmp_path, "o/r", FILES)
    code, out, _ = satchel("browse", "o/r", "--json")
    assert code == 0
    import json

    doc = json.loads(out)
    assert [(s["name"], s["folder"], s["description"]) for s in doc["skills"]] == [
        ("pdf", "skills/pdf", "Reads PDFs."),
        ("tdd", "skills/tdd", "Test first."),
    ]
    requests = len(hub.seen)
    assert satchel("browse", "o/r", "--json")[1] == out
    assert len(hub.seen) == requests  # served from the listing cache
    satchel("browse", "o/r", "--refresh")
    assert len(hub.seen) > requests


def test_a_pack_lists_the_skills_it_links(layout: Layout, hub: Server, tmp_path: Path) -> None:
    publish(hub, tmp_path, "o/r", FILES)
    publish(hub, tmp_path, "b/other", {"x/SKILL.md": skill_md("x"), "y/SKILL.md": skill_md("y")})
    readme = (
        "# A pack\n\n- [pdf](https://github.com/o/r/tree/main/skills/pdf)\n"
        "- `npx skills add b/other --skill x`\n- https://skills.sh/b/other/y\n"
        "- [again](https://github.com/o/r/tree/main/skills/pdf)\n"
    )
    publish(hub, tmp_path, "p/pack", {"README.md": readme})
    settings = Settings.from_env(
        {"SATCHEL_GITHUB_URL": f"{hub.url}/gh", "SATCHEL_GITHUB_API_URL": f"{hub.url}/api",
         "SATCHEL_SKILLS_SH_URL": f"{hub.url}/sksh"}
    )  # fmt: skip
    listing = browse_source("p/pack", layout=layout, settings=settings, environ={})
    assert [(i.name, i.source, i.folder) for i in listing.skills] == [
        ("pdf", "o/r#main:skills/pdf", "skills/pdf"),
        ("x", "b/other", "x"),
        ("y", "b/other", "y"),
    ]
    assert listing.links == ("o/r#main:skills/pdf", "b/other", "b/other")
    groups = group_picks(listing.skills)
    assert [(g.source, g.skills) for g in groups] == [
        ("o/r#main:skills/pdf", ("skills/pdf",)),
        ("b/other", ("x", "y")),
    ]
    for g in groups:
        install_from_spec(
            g.source, skills=g.skills, scope="user", layout=layout, settings=settings, environ={}
        )
    user = layout.config_home / "satchel/skills"
    assert sorted(p.name for p in user.iterdir()) == ["pdf", "x", "y"]


def test_downloads_report_progress(layout: Layout, hub: Server, tmp_path: Path) -> None:
    sha = publish(hub, tmp_path, "o/r", FILES)
    calls: list[tuple[str, int, int | None]] = []
    settings = Settings(github_api_url=f"{hub.url}/api")
    install_from_spec(
        "o/r", layout=layout, settings=settings, environ={}, progress=lambda *a: calls.append(a)
    )
    size = len(hub.routes[f"/codeload/o/r/{sha}"](Request("GET", "", {}))[2])
    assert calls
    assert calls[-1] == ("o/r", size, size)
    assert [done for _, done, _ in calls] == sorted(done for _, done, _ in calls)


def test_an_api_error_other_than_a_refusal_does_not_fall_back(
    satchel, hub: Server, project: Path
) -> None:
    hub.json("/api/repos/o/r/commits/HEAD", {"message": "boom"}, status=500)
    code, _, err = satchel("install", "o/r")
    assert code == 1
    url = f"{hub.url}/api/repos/o/r/commits/HEAD"
    assert err == f"satchel: install.fetch.failed: GET {url}: 500 Internal Server Error\n"
    assert not any(r.path.startswith("/gh/") for r in hub.seen)
