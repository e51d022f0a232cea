"""The hub's REST API with a service token: users, groups, servers (the course-admin service)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request


class HubAPI:
    """Calls to ``{url}/hub/api`` with the token of a service allowed to make users."""

    def __init__(self, url: str, token: str):
        self.base = url.rstrip("/") + "/hub/api"
        self.token = token

    def call(self, method: str, path: str, body=None, timeout: float = 60):
        """The JSON answer of ``METHOD path``; RuntimeError naming the call and the hub's
        message if the hub refuses."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                text = answer.read()
        except urllib.error.HTTPError as e:
            raise RuntimeError(
                f"{method} {path}: the hub answered {e.code}: {e.read()[:500]!r}"
            ) from e
        return json.loads(text) if text else None

    def add_users(self, names: list[str], group: str | None = None) -> None:
        """Make the users (those already there are kept) and put them in ``group``."""
        existing = {user["name"] for user in self.call("GET", "/users")}
        new = [name for name in names if name not in existing]
        if new:
            self.call("POST", "/users", {"usernames": new})
        if group:
            self.call("POST", f"/groups/{group}/users", {"users": names})

    def user(self, name: str) -> dict:
        return self.call("GET", f"/users/{name}")

    def start_servers(self, names: list[str], timeout: float = 600) -> float:
        """Ask for every user's server at once and return the seconds until all are ready."""
        start = time.monotonic()
        for name in names:
            self.call("POST", f"/users/{name}/server")
        waiting = set(names)
        while waiting:
            if time.monotonic() - start > timeout:
                raise RuntimeError(f"servers not ready within {timeout} s: {sorted(waiting)}")
            time.sleep(1)
            waiting = {n for n in waiting if not self.user(n)["servers"].get("", {}).get("ready")}
        return time.monotonic() - start

    def stop_servers(self, names: list[str], timeout: float = 120) -> None:
        for name in names:
            self.call("DELETE", f"/users/{name}/server")
        deadline = time.monotonic() + timeout
        while any(self.user(n)["servers"] for n in names) and time.monotonic() < deadline:
            time.sleep(1)
