#!/usr/bin/env python3
# host_proxy.py — what the tests' host manifests name: runs the real `usage-shell web-host` (USAGE_SHELL_BIN) with the browser's arguments, copies each message the browser sends it into WEB_LOG (one JSON line each) and its process id into WEB_PIDS, so a test can read what the host received and kill it.
import json
import os
import struct
import subprocess
import sys
import threading


def main():
    log, pids = os.environ["WEB_LOG"], os.environ["WEB_PIDS"]
    host = subprocess.Popen([os.environ["USAGE_SHELL_BIN"], "web-host", *sys.argv[1:]], stdin=subprocess.PIPE, stdout=sys.stdout.buffer)
    with open(pids, "a") as f:
        f.write(f"{host.pid}\n")

    def pump():
        source = sys.stdin.buffer
        try:
            while True:
                header = source.read(4)
                if len(header) < 4:
                    break
                body = source.read(struct.unpack("=I", header)[0])
                with open(log, "a") as f:
                    f.write(json.dumps({"args": sys.argv[1:], "message": json.loads(body)}) + "\n")
                host.stdin.write(header + body)
                host.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
        try:
            host.stdin.close()
        except BrokenPipeError:
            pass

    threading.Thread(target=pump, daemon=True).start()
    sys.exit(host.wait())


if __name__ == "__main__":
    main()
