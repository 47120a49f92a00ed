"""One isolated emulator instance per test, from one `wfe serve` (docs/instances.md).

WFE_URL names a running `wfe serve` (its US address). Unset, each pytest-xdist worker
starts its own with `npx wfe serve --port-us 0 --port-eu 0` and reads its ports from the
banner. WFE_ADMIN_TOKEN is sent to the control routes when the server has --admin-token.
"""
import os
import re
import signal
import subprocess
import threading
from dataclasses import dataclass, field

import pytest
import requests

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _admin_headers():
    token = os.environ.get("WFE_ADMIN_TOKEN")
    return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.fixture(scope="session")
def wfe_url():
    url = os.environ.get("WFE_URL")
    if url:
        yield url.rstrip("/")
        return
    # Its own session: stopping it stops npx and the node process under it.
    proc = subprocess.Popen(
        ["npx", "wfe", "serve", "--port-us", "0", "--port-eu", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        found = None
        for line in proc.stdout:
            m = re.search(r"US\s+REST (http://\S+)/v3", line)
            if m:
                found = m.group(1)
                break
        if not found:
            raise RuntimeError("wfe serve did not print its US address")
        # Keep reading the banner so the server never blocks on a full pipe.
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        yield found
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


@dataclass
class Instance:
    """An isolated emulator: its own data, clock, budgets, webhooks and control routes."""
    id: str
    us: str
    eu: str
    http: requests.Session = field(default_factory=requests.Session)

    def api(self, method, path, key="acme-admin-key", **kw):
        headers = {"X-API-KEY": key, **kw.pop("headers", {})}
        return self.http.request(method, self.us + path, headers=headers, timeout=30, **kw)

    def control(self, method, path, **kw):
        return self.http.request(method, self.us + path, headers=_admin_headers(), timeout=30, **kw)


@pytest.fixture
def wfe(wfe_url):
    r = requests.post(f"{wfe_url}/_emulator/instances", json={}, headers=_admin_headers(), timeout=30)
    assert r.status_code == 201, r.text
    d = r.json()
    inst = Instance(id=d["id"], us=d["baseUrls"]["US"], eu=d["baseUrls"]["EU"])
    try:
        yield inst
    finally:
        inst.http.close()
        gone = requests.delete(f"{wfe_url}/_emulator/instances/{d['id']}", headers=_admin_headers(), timeout=30)
        assert gone.status_code == 204, gone.text
