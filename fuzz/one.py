"""Run one target under atheris: ``python -m fuzz.one NAME [libFuzzer flags] [corpus dirs]``.

Started by ``python -m fuzz`` in a subprocess per target (atheris takes over the
process and exits when the run is over)."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=["satchel"]):
        from fuzz.targets import TARGETS, together

    target = together if argv[1] == "all" else TARGETS[argv[1]]
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
