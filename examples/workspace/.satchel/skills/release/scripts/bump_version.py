"""Bump the version in pyproject.toml: python bump_version.py major|minor|patch."""

import re
import sys
from pathlib import Path

VERSION = re.compile(r'^version = "(\d+)\.(\d+)\.(\d+)"$', re.MULTILINE)


def bump(version: tuple[int, int, int], part: str) -> tuple[int, int, int]:
    major, minor, patch = version
    if part == "major":
        return (major + 1, 0, 0) if major else (0, minor + 1, 0)
    if part == "minor":
        return (major, minor + 1, 0)
    return (major, minor, patch + 1)


def main(part: str) -> int:
    pyproject = Path("pyproject.toml")
    text = pyproject.read_text(encoding="utf-8")
    found = VERSION.search(text)
    if found is None:
        print('no version = "X.Y.Z" line in pyproject.toml', file=sys.stderr)
        return 1
    new = ".".join(map(str, bump(tuple(map(int, found.groups())), part)))
    pyproject.write_text(VERSION.sub(f'version = "{new}"', text, count=1), encoding="utf-8")
    print(new)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("major", "minor", "patch"):
        sys.exit("usage: bump_version.py major|minor|patch")
    sys.exit(main(sys.argv[1]))
