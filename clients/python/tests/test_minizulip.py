"""The helper against a real minizulip binary: each method does what it
says, and refusals come back as MinizulipError."""

import threading

import pytest

import minizulip as mz


@pytest.fixture
def server(minizulip_server):
    """The run's server, its dev realm reset, no faults, empty journal."""
    minizulip_server.reset()
    minizulip_server.clear_faults()
    minizulip_server.clear_requests()
    return minizulip_server


def test_start_waits_until_the_server_answers():
    with mz.Minizulip.start(args=["-seed", "empty"]) as s:
        assert s.url.startswith("http://127.0.0.1:")
        assert s.server_settings()["realm_uri"] == s.url
        assert "empty" in s.output()
        assert s.api_key("owner@zulip.com")
        process = s.process
    assert process.poll() is not None, "close() stops the server"


def test_start_reports_why_the_server_did_not_start():
    with pytest.raises(mz.MinizulipError) as err:
        mz.Minizulip.start(args=["-banner", "xml"])
    assert err.value.code == "NOT_STARTED"
    assert "exited with status 2" in err.value.msg and "-banner" in err.value.msg


def test_start_without_a_binary():
    with pytest.raises(mz.MinizulipError) as err:
        mz.Minizulip.start("/nonexistent/minizulip")
    assert err.value.code == "NO_BINARY"


def test_attach_drives_a_running_server(server):
    other = mz.Minizulip.attach(server.url)
    assert other.now() == pytest.approx(server.now(), abs=5)
    with pytest.raises(mz.MinizulipError) as err:
        mz.Minizulip.attach("http://127.0.0.1:1", wait=0.2)
    assert err.value.status == 0 and err.value.code == "UNREACHABLE"


def test_reset_goes_back_to_the_created_realm(server, zulip):
    iago = zulip(server, "iago@zulip.com")
    iago.send("Denmark", "reset", "gone soon")
    assert iago.topic_messages("Denmark", "reset") == ["<p>gone soon</p>"]
    server.reset()
    assert iago.topic_messages("Denmark", "reset") == []


def test_snapshots_restore_again_and_again(server, zulip):
    iago = zulip(server, "iago@zulip.com")
    iago.send("Denmark", "snap", "kept")
    snap = server.snapshot()
    iago.send("Denmark", "snap", "dropped")
    server.restore(snap)
    assert iago.topic_messages("Denmark", "snap") == ["<p>kept</p>"]
    iago.send("Denmark", "snap", "dropped again")
    server.restore(snap)
    assert iago.topic_messages("Denmark", "snap") == ["<p>kept</p>"]
    server.delete_snapshot(snap)
    with pytest.raises(mz.MinizulipError) as err:
        server.restore(snap)
    assert err.value.status == 400 and f"No snapshot with ID {snap}" in err.value.msg


def test_clock_moves_ahead_never_back(server):
    start = server.now()
    assert server.advance(601) >= start + 601
    later = server.now()
    assert server.set_clock(later + 3600) == pytest.approx(later + 3600, abs=0.01)
    with pytest.raises(mz.MinizulipError) as err:
        server.set_clock(start)
    assert err.value.status == 400
    with pytest.raises(mz.MinizulipError) as err:
        server.advance(-1)
    assert err.value.status == 400 and "backwards" in err.value.msg


def test_clock_crosses_the_edit_limit(server, zulip):
    # Moving the clock is how a suite reaches Zulip's time limits without
    # sleeping: here the dev realm's 10-minute edit limit (plus the
    # 20-second grace Zulip allows).
    hamlet = zulip(server, "hamlet@zulip.com")
    msg = hamlet.send("Denmark", "clock", "first draft")
    server.advance(10 * 60 + 21)
    status, doc = hamlet.call("PATCH", f"/messages/{msg}", content="too late")
    assert status == 400 and doc["msg"] == "The time limit for editing this message has passed", doc


def test_faults_fail_matching_requests(server, zulip):
    hamlet, iago = zulip(server, "hamlet@zulip.com"), zulip(server, "iago@zulip.com")
    fid = server.add_fault("/api/v1/messages", method="POST", user="hamlet@zulip.com", status=429, retry_after=2, count=-1)
    assert [f["fault_id"] for f in server.faults()] == [fid]
    status, doc = hamlet.call("POST", "/messages", type="stream", to="Denmark", topic="f", content="x")
    assert status == 429 and doc["code"] == "RATE_LIMIT_HIT"
    iago.send("Denmark", "f", "iago is not limited")
    server.delete_fault(fid)
    assert server.faults() == []
    hamlet.send("Denmark", "f", "hamlet again")
    server.add_fault("/api/v1/users/me", status=500)
    server.clear_faults()
    assert server.faults() == []
    with pytest.raises(mz.MinizulipError) as err:
        server.add_fault("/api/v1/no_such_endpoint", status=500)
    assert err.value.status == 400


def test_expired_queue_answers_bad_event_queue_id(server, zulip):
    hamlet = zulip(server, "hamlet@zulip.com")
    status, reg = hamlet.call("POST", "/register", event_types=["message"])
    assert status == 200
    server.expire_queue(reg["queue_id"])
    status, doc = hamlet.call("GET", "/events", queue_id=reg["queue_id"], last_event_id=-1, dont_block="true")
    assert status == 400 and doc["code"] == "BAD_EVENT_QUEUE_ID"
    with pytest.raises(mz.MinizulipError) as err:
        server.expire_queue(reg["queue_id"])
    assert err.value.status == 400


def test_journal_records_api_requests(server, zulip):
    hamlet, iago = zulip(server, "hamlet@zulip.com"), zulip(server, "iago@zulip.com")
    msg = hamlet.send("Denmark", "journal", "logged")
    iago.call("GET", "/users/me")
    iago.call("GET", f"/messages/{msg}")
    [sent] = server.requests(method="POST", path="/api/v1/messages")
    assert (sent["user"], sent["status"], sent["user_agent"]) == ("hamlet@zulip.com", 200, "helper-tests/1.0")
    assert sent["params"]["content"] == "logged" and sent["params"]["topic"] == "journal"
    assert [r["path"] for r in server.requests(user="iago@zulip.com")] == ["/api/v1/users/me", f"/api/v1/messages/{msg}"]
    # A route pattern matches every path of its route.
    [got] = server.requests(path="/api/v1/messages/{message_id}")
    assert got["path"] == f"/api/v1/messages/{msg}"
    assert server.requests(since_id=got["id"]) == []
    with pytest.raises(mz.MinizulipError) as err:
        server.requests(user="nobody@zulip.com")
    assert err.value.status == 400
    server.clear_requests()
    assert server.requests() == []


def test_journal_names_the_queue_of_a_poll(server, zulip):
    hamlet = zulip(server, "hamlet@zulip.com")
    status, reg = hamlet.call("POST", "/register", event_types=["message"])
    assert status == 200
    hamlet.call("GET", "/events", queue_id=reg["queue_id"], last_event_id=-1, dont_block="true")
    [poll] = server.requests(path="/api/v1/events")
    assert poll["queue_id"] == reg["queue_id"]


def test_wait_for_request(server, zulip):
    hamlet = zulip(server, "hamlet@zulip.com")
    hamlet.call("GET", "/users/me")
    last = server.requests()[-1]["id"]
    # Whether the send comes before or after the wait begins, since_id
    # makes it the one awaited.
    result = {}
    waiter = threading.Thread(target=lambda: result.update(
        request=server.wait_for_request(method="POST", path="/api/v1/messages", since_id=last, timeout=30)))
    waiter.start()
    hamlet.send("Denmark", "wait", "here it is")
    waiter.join(60)
    assert result["request"]["params"]["content"] == "here it is"
    # Nothing more comes: a 408 TIMEOUT after the timeout.
    with pytest.raises(mz.MinizulipError) as err:
        server.wait_for_request(path="/api/v1/messages", since_id=result["request"]["id"], timeout=0.1)
    assert err.value.status == 408 and err.value.code == "TIMEOUT"


def test_dump_is_the_fixture_document(server):
    doc = server.dump()
    emails = {u["email"] for u in doc["users"]}
    assert "iago@zulip.com" in emails and "hamlet@zulip.com" in emails


def test_unknown_control_path_is_an_error(server):
    with pytest.raises(mz.MinizulipError) as err:
        server.control("GET", "no_such_thing")
    assert err.value.status == 404


def test_snapshots_are_listed(server):
    for snap in server.snapshots():
        server.delete_snapshot(snap["snapshot_id"])
    first, second = server.snapshot(), server.snapshot()
    listed = server.snapshots()
    assert [s["snapshot_id"] for s in listed] == [first, second]
    assert all(abs(s["created"] - server.now()) < 60 for s in listed)
    server.delete_snapshot(first)
    assert [s["snapshot_id"] for s in server.snapshots()] == [second]
    server.delete_snapshot(second)
    assert server.snapshots() == []


def test_queues_lists_live_event_queues(server, zulip):
    hamlet, iago = zulip(server, "hamlet@zulip.com"), zulip(server, "iago@zulip.com")
    narrow = [["channel", "Denmark"]]
    status, reg = hamlet.call("POST", "/register", event_types=["message"], narrow=narrow)
    assert status == 200
    [q] = server.queues(user="hamlet@zulip.com")
    assert (q["queue_id"], q["user"], q["event_types"], q["pending"]) == (reg["queue_id"], "hamlet@zulip.com", ["message"], 0)
    assert [(n["operator"], n["operand"]) for n in q["narrow"]] == [("channel", "Denmark")]
    iago.send("Denmark", "queues", "for hamlet's queue")
    [q] = server.queues(user="hamlet@zulip.com")
    assert q["pending"] == 1
    assert reg["queue_id"] in [q["queue_id"] for q in server.queues()]
    server.expire_queue(reg["queue_id"])
    assert server.queues(user="hamlet@zulip.com") == []
    with pytest.raises(mz.MinizulipError) as err:
        server.queues(user="nobody@zulip.com")
    assert err.value.status == 400


def test_endpoints_index_the_control_api(server):
    listed = {(e["method"], e["path"]) for e in server.endpoints()}
    for endpoint in [("GET", "/minizulip/clock"), ("POST", "/minizulip/faults"), ("GET", "/minizulip/queues"),
                     ("GET", "/minizulip/requests/wait"), ("GET", "/minizulip/snapshots")]:
        assert endpoint in listed
