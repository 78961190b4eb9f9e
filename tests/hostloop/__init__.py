"""The real hosts in the loop: a scripted model on 127.0.0.1 that records what a host
sends it, and runners that drive Claude Code, Codex and Gemini CLI through one turn
offline (docs/host-loop.md)."""
