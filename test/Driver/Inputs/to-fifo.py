"""Runs a command whose last argument is replaced by a FIFO made in DIR,
reads what it writes there, prints it, and fails if the FIFO is no longer
one afterwards (an output written by renaming a file over it).

Usage: to-fifo.py DIR COMMAND... FIFO
"""
import os
import stat
import subprocess
import sys
import threading

folder, cmd = sys.argv[1], sys.argv[2:]
os.makedirs(folder, exist_ok=True)
fifo = os.path.join(folder, "out.fifo")
if os.path.exists(fifo):
    os.remove(fifo)
os.mkfifo(fifo)
got = []


def read():
    with open(fifo, "rb") as f:
        got.append(f.read())


reader = threading.Thread(target=read, daemon=True)
reader.start()
status = subprocess.run(cmd[:-1] + [fifo]).returncode
if reader.is_alive():
    # Nothing opened the FIFO for writing: let the reader finish.
    with open(fifo, "wb"):
        pass
reader.join(10)
sys.stdout.write(b"".join(got).decode())
mode = os.lstat(fifo).st_mode
print("still a FIFO" if stat.S_ISFIFO(mode) else "REPLACED by another kind of file")
sys.exit(status)
