"""Runs a command with its standard output and error on a pseudo-terminal,
prints what it wrote (escape characters spelled <ESC>) and exits with its
status."""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=slave,
                        stderr=slave)
os.close(slave)
out = bytearray()
while True:
    try:
        data = os.read(master, 4096)
    except OSError:  # the terminal closes once the command has exited
        break
    if not data:
        break
    out.extend(data)
status = proc.wait()
sys.stdout.write(out.decode().replace("\x1b", "<ESC>").replace("\r\n", "\n"))
sys.exit(status)
