"""Shared set-up of the helper's own tests: the plugin, and a small Zulip
API client (standard library) to make traffic with."""

import base64
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytest_plugins = ["pytest_minizulip"]


class Zulip:
    """Just enough of a Zulip client: one user's requests, answers decoded,
    errors returned as answers with their status."""

    def __init__(self, server, email):
        self.base = server.url + "/api/v1"
        key = server.api_key(email)
        self.auth = "Basic " + base64.b64encode(f"{email}:{key}".encode()).decode()

    def call(self, method, path, **params):
        params = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
        url, data = self.base + path, None
        if method == "GET":
            url += "?" + urllib.parse.urlencode(params)
        else:
            data = urllib.parse.urlencode(params).encode()
        req = urllib.request.Request(url, data=data, method=method,
                                     headers={"Authorization": self.auth, "User-Agent": "helper-tests/1.0"})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"{}")

    def send(self, channel, topic, content):
        status, doc = self.call("POST", "/messages", type="stream", to=channel, topic=topic, content=content)
        assert status == 200, doc
        return doc["id"]

    def topic_messages(self, channel, topic):
        status, doc = self.call("GET", "/messages", anchor="newest", num_before=100, num_after=0,
                                narrow=[{"operator": "channel", "operand": channel},
                                        {"operator": "topic", "operand": topic}])
        assert status == 200, doc
        return [m["content"] for m in doc["messages"]]


@pytest.fixture
def zulip():
    """zulip(server, email): a Zulip client of that user on that server."""
    return Zulip
