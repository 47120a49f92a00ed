"""Real work against an isolated instance: every test has the demo fixture to itself."""
import http.server
import json
import threading
import time

import pytest

EXPENSE_TEMPLATE = "20000000-0000-4000-8000-000000000002"
SUBMIT_RECEIPTS = "21000000-0000-4000-8000-000000000201"
AMOUNT_FIELD = "22000000-0000-4000-8000-000000000202"
JANE_DOE = "30000000-0000-4000-8000-000000000001"
MANAGER_APPROVAL = "21000000-0000-4000-8000-000000000104"
RENEW_INSURANCE = "40000000-0000-4000-8000-000000000001"  # standalone, due in 7 days


def start_expenses(wfe, name="April expenses"):
    r = wfe.api("POST", "/v3/checklists", json={"templateKey": EXPENSE_TEMPLATE, "name": name, "parameters": {"Amount": "12.50"}})
    assert r.status_code == 201, r.text
    return r.json()["key"]


def test_start_a_checklist_answer_a_field_and_complete_a_task(wfe):
    key = start_expenses(wfe)
    task = f"/v3/checklists/{key}/tasks/{SUBMIT_RECEIPTS}"
    r = wfe.api("PUT", f"{task}/fields/{AMOUNT_FIELD}", json={"value": "42.00"})
    assert r.status_code == 200, r.text
    r = wfe.api("POST", f"{task}/complete")
    assert r.status_code == 200, r.text
    got = wfe.api("GET", task).json()
    assert got["status"] == "Complete"
    assert [f["value"] for f in got["fields"] if f["key"] == AMOUNT_FIELD] == ["42.00"]


@pytest.mark.parametrize("run", range(8))
def test_the_same_task_is_open_in_every_instance(wfe, run):
    # Eight tests (on four workers at once) complete one task: each sees it open first.
    path = f"/v3/checklists/{JANE_DOE}/tasks/{MANAGER_APPROVAL}"
    assert wfe.api("GET", path).json()["status"] != "Complete"
    assert wfe.api("POST", f"{path}/complete").status_code == 200
    assert wfe.api("GET", path).json()["status"] == "Complete"


@pytest.fixture
def receiver():
    """A local HTTP endpoint that answers 200 to every webhook delivery."""
    got = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            got.append(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", got
    server.shutdown()
    server.server_close()


def test_a_webhook_delivery_shows_in_the_instance_delivery_log(wfe, receiver):
    url, got = receiver
    sub = wfe.api("POST", "/v3/webhooks", json={"eventType": "task_completed", "targetUrl": url, "scope": {"type": "Workspace"}})
    assert sub.status_code == 201, sub.text
    key = start_expenses(wfe)
    assert wfe.api("POST", f"/v3/checklists/{key}/tasks/{SUBMIT_RECEIPTS}/complete").status_code == 200
    deadline = time.time() + 10
    while True:
        items = wfe.control("GET", f"/_emulator/webhooks/deliveries?subscription={sub.json()['id']}").json()["items"]
        if items and items[0]["status"] == "delivered":
            break
        assert time.time() < deadline, items
        time.sleep(0.05)
    assert items[0]["event"]["type"] == "task_completed"
    # The receiver got the same event.
    assert len(got) == 1 and SUBMIT_RECEIPTS in got[0].decode()
    assert json.loads(got[0])


def test_moving_the_instance_clock_makes_a_task_overdue(wfe):
    def overdue():
        r = wfe.api("GET", "/v3/my-work?assignee=all&status=Overdue&pageSize=100")
        assert r.status_code == 200, r.text
        return [i["key"] for i in r.json()["items"]]

    assert RENEW_INSURANCE not in overdue()
    r = wfe.control("POST", "/_emulator/clock/advance", json={"days": 8})
    assert r.status_code == 200, r.text
    assert RENEW_INSURANCE in overdue()


def test_reset_puts_the_instance_back_to_the_fixture(wfe):
    key = start_expenses(wfe, "To be reset")
    assert wfe.api("GET", f"/v3/checklists/{key}").status_code == 200
    assert wfe.control("POST", "/_emulator/reset").status_code == 200
    assert wfe.api("GET", f"/v3/checklists/{key}").status_code == 404
