# wayland_wire.py — a Wayland client in plain Python for the wlroots test: the wire protocol spoken directly (no libwayland), zwlr_foreign_toplevel_manager_v1's toplevels listed and one activated by app id, as a task bar would; independent of the recorder's client.
import os
import socket
import struct

# Opcodes, from the protocols' XML (the order of requests and of events in each interface).
DISPLAY_SYNC, DISPLAY_GET_REGISTRY = 0, 1
DISPLAY_ERROR = 0
REGISTRY_BIND = 0
REGISTRY_GLOBAL = 0
CALLBACK_DONE = 0
MANAGER_TOPLEVEL = 0
HANDLE_APP_ID, HANDLE_STATE, HANDLE_DONE, HANDLE_CLOSED = 1, 4, 5, 6
HANDLE_ACTIVATE = 4
STATE_ACTIVATED = 2


def _string(text):
    data = text.encode() + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


class Toplevels:
    """The compositor's toplevels (app id, activated) as zwlr_foreign_toplevel_manager_v1 tells them."""

    def __init__(self, runtime, display):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(display if display.startswith("/") else os.path.join(runtime, display))
        self.buffer = b""
        self.next_id = 2
        self.globals = {}  # interface -> (name, version)
        self.handles = {}  # object id -> {"app_id", "activated"}
        self.pending = {}
        self.registry = self._new_id()
        self._send(1, DISPLAY_GET_REGISTRY, struct.pack("<I", self.registry))
        self.roundtrip()
        if "zwlr_foreign_toplevel_manager_v1" not in self.globals:
            raise RuntimeError("the compositor offers no zwlr_foreign_toplevel_manager_v1")
        self.manager = self._bind("zwlr_foreign_toplevel_manager_v1", 3)
        self.seat = self._bind("wl_seat", 1)
        self.roundtrip()
        self.roundtrip()

    def _new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def _send(self, obj, opcode, payload=b""):
        self.sock.sendall(struct.pack("<II", obj, (8 + len(payload)) << 16 | opcode) + payload)

    def _bind(self, interface, highest):
        name, version = self.globals[interface]
        new = self._new_id()
        self._send(self.registry, REGISTRY_BIND, struct.pack("<I", name) + _string(interface) + struct.pack("<II", min(version, highest), new))
        return new

    def roundtrip(self):
        """Reads everything the compositor says until it answered all sent so far."""
        callback = self._new_id()
        self._send(1, DISPLAY_SYNC, struct.pack("<I", callback))
        while True:
            obj, opcode, body = self._read()
            if obj == callback and opcode == CALLBACK_DONE:
                return
            self._event(obj, opcode, body)

    def _read(self):
        while True:
            if len(self.buffer) >= 8:
                obj, word = struct.unpack_from("<II", self.buffer)
                size = word >> 16
                if len(self.buffer) >= size:
                    body = self.buffer[8:size]
                    self.buffer = self.buffer[size:]
                    return obj, word & 0xFFFF, body
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the compositor closed the connection")
            self.buffer += chunk

    def _event(self, obj, opcode, body):
        if obj == 1 and opcode == DISPLAY_ERROR:
            raise RuntimeError(f"protocol error: {body!r}")
        if obj == self.registry and opcode == REGISTRY_GLOBAL:
            name, length = struct.unpack_from("<II", body)
            interface = body[8:8 + length - 1].decode()
            (version,) = struct.unpack_from("<I", body, 8 + length + (-length % 4))
            self.globals[interface] = (name, version)
        elif obj == getattr(self, "manager", None) and opcode == MANAGER_TOPLEVEL:
            (new,) = struct.unpack_from("<I", body)
            self.handles[new] = {"app_id": None, "activated": False}
            self.pending[new] = {}
        elif obj in self.handles:
            if opcode == HANDLE_APP_ID:
                (length,) = struct.unpack_from("<I", body)
                self.pending[obj]["app_id"] = body[4:4 + length - 1].decode("utf-8", "surrogateescape")
            elif opcode == HANDLE_STATE:
                (length,) = struct.unpack_from("<I", body)
                states = struct.unpack_from(f"<{length // 4}I", body, 4)
                self.pending[obj]["activated"] = STATE_ACTIVATED in states
            elif opcode == HANDLE_DONE:
                self.handles[obj].update(self.pending[obj])
                self.pending[obj] = {}
            elif opcode == HANDLE_CLOSED:
                del self.handles[obj]
                del self.pending[obj]

    def apps(self):
        """{app id: activated} of every toplevel, as of the last roundtrip."""
        self.roundtrip()
        return {h["app_id"]: h["activated"] for h in self.handles.values()}

    def activate(self, app_id):
        """Asks the compositor to activate the toplevel of `app_id` on the seat; returns once it handled the request."""
        self.roundtrip()
        found = [obj for obj, h in self.handles.items() if h["app_id"] == app_id]
        if len(found) != 1:
            raise RuntimeError(f"{len(found)} toplevels of app id {app_id!r}: {self.handles}")
        self._send(found[0], HANDLE_ACTIVATE, struct.pack("<I", self.seat))
        self.roundtrip()

    def close(self):
        self.sock.close()
