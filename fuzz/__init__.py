"""Coverage-guided fuzz targets (atheris) for satchel's parsers and loaders.

    python -m fuzz --seconds 600          # every target, the time split between them
    python -m fuzz --seconds 60 frontmatter claude-hooks
    python -m fuzz --replay               # run the committed corpus once, without atheris

See docs/fuzzing.md. Each target takes bytes and fails only on an exception: a loader
turns every bad input into diagnostics and never raises.
"""
