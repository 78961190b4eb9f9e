"""Every source form zidane accepts parses to one typed Source; bad input is refused
with the accepted forms (threat model I07, the strict parser)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.install import InstallError, Settings, Source, parse_source
from satchel.install._sources import ACCEPTED


def parse(text: str, **kw: object) -> Source:
    return parse_source(text, cwd="/w", home="/h", **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("owner/repo", Source("github", "owner/repo")),
        ("owner/repo/path/to/folder", Source("github", "owner/repo", subdir="path/to/folder")),
        ("owner/repo#v1.2", Source("github", "owner/repo", ref="v1.2")),
        ("owner/repo:skills", Source("github", "owner/repo", subdir="skills")),
        ("owner/repo#main:skills/x", Source("github", "owner/repo", ref="main", subdir="skills/x")),
        ("github:owner/repo", Source("github", "owner/repo")),
        ("https://github.com/owner/repo", Source("github", "owner/repo")),
        ("https://github.com/owner/repo.git", Source("github", "owner/repo")),
        (
            "https://github.com/cursor/plugins/tree/HEAD/pstack/skills",
            Source("github", "cursor/plugins", ref="HEAD", subdir="pstack/skills"),
        ),
        ("skills.sh/anthropics/skills", Source("github", "anthropics/skills")),
        (
            "https://skills.sh/anthropics/skills/frontend-design",
            Source("github", "anthropics/skills", skills=("frontend-design",)),
        ),
        (
            "npx skills add vercel-labs/agent-skills --skill react-best-practices",
            Source("github", "vercel-labs/agent-skills", skills=("react-best-practices",)),
        ),
        (
            "npx -y skills@latest add owner/repo -s a --skill=b -g",
            Source("github", "owner/repo", skills=("a", "b")),
        ),
        ("npm:some-skills", Source("npm", "some-skills")),
        ("npm:@scope/pkg@1.2.3", Source("npm", "@scope/pkg", ref="1.2.3")),
        ("npm:pkg@next", Source("npm", "pkg", ref="next")),
        ("./skills", Source("local", "/w/skills")),
        ("../up", Source("local", "/up")),
        ("/abs/dir#:sub", Source("local", "/abs/dir", subdir="sub")),
        ("~/mine.tar.gz", Source("local", "/h/mine.tar.gz")),
        ("file:///srv/repo.git#v1", Source("git", "file:///srv/repo.git", ref="v1")),
        ("https://h.org/r.git#:skills", Source("git", "https://h.org/r.git", subdir="skills")),
        ("ssh://git@example.org/x/repo.git", Source("git", "ssh://git@example.org/x/repo.git")),
        ("git@example.org:x/r.git#v2", Source("git", "ssh://git@example.org/x/r.git", ref="v2")),
        ("git://127.0.0.1:9418/repo", Source("git", "git://127.0.0.1:9418/repo")),
        ("http://127.0.0.1:8080/repo.git", Source("git", "http://127.0.0.1:8080/repo.git")),
        ("oci://ghcr.io/acme/skills/pdf:1.0", Source("oci", "ghcr.io/acme/skills/pdf", ref="1.0")),
        ("oci://127.0.0.1:5000/team/pdf", Source("oci", "127.0.0.1:5000/team/pdf")),
        ("oci://GHCR.io/a__b/c-d.e", Source("oci", "ghcr.io/a__b/c-d.e")),
        ("oci://[::1]:5000/t/x:v_1", Source("oci", "[::1]:5000/t/x", ref="v_1")),
        (
            "oci://ghcr.io/a/b@sha256:" + "0" * 64,
            Source("oci", "ghcr.io/a/b", ref="sha256:" + "0" * 64),
        ),
    ],
)  # fmt: skip
def test_every_form_parses(text: str, expected: Source) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    "source",
    [
        Source("github", "o/r", ref="v1", subdir="a/b"),
        Source("git", "file:///srv/r", ref="main"),
        Source("npm", "@s/p", ref="1.0.0"),
        Source("local", "/x/y", subdir="s"),
        Source("oci", "ghcr.io/a/b", ref="v1"),
        Source("oci", "localhost:5000/a", ref="sha256:" + "f" * 64),
    ],
)
def test_spec_reads_back(source: Source) -> None:
    assert parse(source.spec()) == source


def test_base_urls_are_settings() -> None:
    settings = Settings(github_url="http://127.0.0.1:1/gh", skills_sh_url="http://127.0.0.1:2")
    assert parse("http://127.0.0.1:1/gh/o/r/tree/v1/s", settings=settings) == Source(
        "github", "o/r", ref="v1", subdir="s"
    )
    assert parse("http://127.0.0.1:2/o/r/x", settings=settings) == Source(
        "github", "o/r", skills=("x",)
    )
    # the public host is then an ordinary git host
    assert parse("https://github.com/o/r", settings=settings).kind == "git"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "it is empty"),
        ("github:owner/repo --upload-pack=touch", "it holds whitespace"),
        ("-oProxyCommand=touch", "it starts with '-'"),
        ("owner/repo#$(id)", "'$(id)' is not a git ref satchel accepts"),
        ("owner/repo#--upload-pack=x", "'--upload-pack=x' is not a git ref satchel accepts"),
        ("owner/repo#a..b", "'a..b' is not a git ref satchel accepts"),
        ("skills.sh/owner/../x", "'..' is not a repository name"),
        ("skills.sh/owner/repo/../../x", "a skills.sh link is skills.sh/<owner>/<repo>[/<skill>]"),
        ("owner/repo:../x", "the folder '../x' is not a plain relative path"),
        ("ext::sh", "the folder ':sh' is not a plain relative path"),
        ("fd::17", "the folder ':17' is not a plain relative path"),
        ("http://example.org/r.git", "plain http:// is accepted only for a loopback host; use https://"),
        ("https://u:pw@example.org/r", "a URL may not carry credentials; set GH_TOKEN instead"),
        ("ftp://example.org/r", "the scheme 'ftp' is not one satchel fetches from"),
        ("npm:../x", "'../x' is not an npm package name"),
        ("npm:pkg@-x", "'-x' is not an npm version or dist-tag"),
        ("npx skills add", "the command names no source"),
        ("npx skills add o/r --evil", "the command's argument '--evil' is not understood"),
        ("npx other add o/r", "the command is not `npx skills add <source>`"),
        ("owner", "it is not owner/repo"),
        ("-/repo", "it starts with '-'"),
        ("own\x1b[2Jer/repo", "it holds a control character"),
        ("oci://ghcr.io/Acme/x", "'Acme/x' is not an OCI repository name (lowercase, a/b/c)"),
        ("oci://ghcr.io/a/../b", "'a/../b' is not an OCI repository name (lowercase, a/b/c)"),
        ("oci://ghcr.io/a//b", "'a//b' is not an OCI repository name (lowercase, a/b/c)"),
        ("oci://ghcr.io/a:-x", "'-x' is not an OCI tag"),
        ("oci://ghcr.io/a:v1/b", "'v1/b' is not an OCI tag"),
        ("oci://ghcr.io/a@sha512:00", "'sha512:00' is not a sha256:<64 hex> digest"),
        ("oci://h/a@sha256:" + "A" * 64, f"'sha256:{'A' * 64}' is not a sha256:<64 hex> digest"),
        ("oci://-h/a", "'-h' is not a registry host[:port]"),
        ("oci://u:p@ghcr.io/a", "'u:p@ghcr.io' is not a registry host[:port]"),
        ("oci://ghcr.io", "it names no repository (oci://<registry>/<repository>)"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_with_the_forms(text: str, why: str) -> None:
    with pytest.raises(InstallError) as caught:
        parse(text)
    assert caught.value.code == "install.source.invalid"
    assert caught.value.diagnostic.message == f"cannot read {text!r} as a source: {why}"
    assert caught.value.diagnostic.hint == ACCEPTED


def test_relative_paths_read_against_cwd(tmp_path: Path) -> None:
    assert parse_source("./a", cwd=tmp_path) == Source("local", str(tmp_path / "a"))
