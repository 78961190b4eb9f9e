"""An MCP server that leaves a grandchild in its process group and ignores SIGTERM.

It starts ``sleep`` in the background, writes its pid to the file named by its first
argument, ignores SIGTERM (which survives exec) and becomes the ``launch`` fixture
server.
Stopping it must take SIGKILL to the whole group.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

child = subprocess.Popen(["sleep", "300"])
Path(sys.argv[1]).write_text(str(child.pid))
signal.signal(signal.SIGTERM, signal.SIG_IGN)
server = str(Path(__file__).with_name("launch_server.py"))
os.execv(sys.executable, [sys.executable, server])
