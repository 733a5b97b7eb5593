"""The parallel demonstration: run with ``pytest -n 4`` (pytest-xdist).
Every worker drives a realm of its own on one shared server process
(POST /minizulip/realms), so these tests, which would trip over each other
in one realm (they all write the same topic and move the same clock), pass
in any order on any worker."""

import os

import pytest


@pytest.mark.parametrize("n", range(16))
def test_each_worker_has_a_realm_of_its_own(minizulip, minizulip_server, zulip, n):
    assert minizulip.url != minizulip_server.url
    iago = zulip(minizulip, "iago@zulip.com")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    content = f"test {n} on {worker}"
    iago.send("Denmark", "parallel", content)
    # Reset before the test, and nobody else writes here: exactly ours.
    assert iago.topic_messages("Denmark", "parallel") == [f"<p>{content}</p>"]
    # The clock is this realm's alone too: the server's does not move.
    server_before, start = minizulip_server.now(), minizulip.now()
    minizulip.advance(3600)
    assert minizulip.now() >= start + 3600
    assert minizulip_server.now() - server_before < 600
    ours = minizulip.requests(path="/api/v1/messages", method="POST")
    assert [r["user"] for r in ours] == ["iago@zulip.com"]
