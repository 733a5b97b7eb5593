"""Drive a minizulip fake Zulip server from a Python test suite.

Standard library only. Start the server binary on a free port, or attach to
one already running, then steer it through its test-control API
(``/minizulip/``): reset, snapshots, the clock, faults, event queues, the
request journal, fixtures and realms of their own::

    import minizulip

    with minizulip.Minizulip.start() as server:   # the `minizulip` on PATH, or $MINIZULIP_BIN
        key = server.api_key("iago@zulip.com")
        ...                                        # point the client under test at server.url
        server.advance(601)                        # ten minutes and a second later
        server.wait_for_request(method="POST", path="/api/v1/messages")

    server = minizulip.Minizulip.attach("http://127.0.0.1:9991")

Every method raises MinizulipError when the server refuses (its status, its
Zulip error code and message) or cannot be reached. The pytest fixtures are
in pytest_minizulip.py beside this module.
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["Minizulip", "Realm", "MinizulipError"]

# How long start() waits for the server to answer, in seconds.
START_TIMEOUT = 30.0


class MinizulipError(Exception):
    """A control or API request failed: the HTTP status (0 when the server
    could not be reached), Zulip's error code and message, and the decoded
    body when there was one."""

    def __init__(self, status, code, msg, body=None):
        super().__init__(f"{status} {code}: {msg}" if status else msg)
        self.status = status
        self.code = code
        self.msg = msg
        self.body = body


class Minizulip:
    """One realm of a minizulip server, at its URL: the Zulip API below
    ``url + "/api/v1"`` and the control API below ``url + "/minizulip/"``.

    ``Minizulip.start()`` runs a server process (``close()`` stops it);
    ``Minizulip.attach(url)`` drives one already running;
    ``create_realm()`` gives a Realm, the same surface at its own URL.
    """

    def __init__(self, url, *, timeout=10.0):
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.process = None
        self._log = None
        self._tmpdir = None

    # --- starting, attaching, stopping -------------------------------

    @classmethod
    def attach(cls, url, *, timeout=10.0, wait=START_TIMEOUT):
        """Drive a server already running at url, once it answers (waiting
        up to ``wait`` seconds for it to come up)."""
        server = cls(url, timeout=timeout)
        deadline = time.monotonic() + wait
        while True:
            try:
                server.server_settings()
                return server
            except MinizulipError as err:
                if err.status or time.monotonic() >= deadline:
                    raise
            time.sleep(0.05)

    @classmethod
    def start(cls, binary=None, args=(), *, timeout=10.0, wait=START_TIMEOUT):
        """Start a server on a free loopback port and wait until it answers.

        binary is the server's path: by default $MINIZULIP_BIN, else
        ``minizulip`` on PATH. args are more flags (``["-seed", "empty"]``).
        The server writes its URL to a -ready-file once it answers; its
        output goes to a log file, quoted in the error if it fails to
        start."""
        binary = binary or os.environ.get("MINIZULIP_BIN") or shutil.which("minizulip")
        if not binary:
            raise MinizulipError(0, "NO_BINARY", "no minizulip binary: set $MINIZULIP_BIN or put minizulip on PATH")
        server = cls("http://unstarted", timeout=timeout)
        server._tmpdir = tempfile.mkdtemp(prefix="minizulip-")
        ready = os.path.join(server._tmpdir, "ready.json")
        server._log = open(os.path.join(server._tmpdir, "server.log"), "w+b")
        argv = [binary, "-addr", "127.0.0.1:0", "-ready-file", ready, *args]
        try:
            server.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=server._log, stderr=subprocess.STDOUT)
        except OSError as err:
            server.close()
            raise MinizulipError(0, "NO_BINARY", f"cannot run {binary}: {err}") from err
        deadline = time.monotonic() + wait
        while True:
            try:
                with open(ready, encoding="utf-8") as f:
                    server.url = json.load(f)["url"].rstrip("/")
                return server
            except (OSError, ValueError, KeyError):
                pass  # not there yet (it is renamed into place whole)
            code = server.process.poll()
            if code is not None or time.monotonic() >= deadline:
                why = f"exited with status {code}" if code is not None else f"was not ready within {wait} s"
                out = server.output()
                server.close()
                raise MinizulipError(0, "NOT_STARTED", f"minizulip {why}: {out.strip()}")
            time.sleep(0.02)

    def output(self):
        """What a started server has printed so far (its banner, -log
        lines); empty for an attached one."""
        if self._log is None:
            return ""
        self._log.flush()
        with open(self._log.name, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def close(self):
        """Stop a started server (SIGTERM, then SIGKILL after 10 s); does
        nothing more for an attached one. Closing twice is harmless."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log is not None:
            self._log.close()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- HTTP ----------------------------------------------------------

    def request(self, method, path, params=None, *, body=None, auth=None, timeout=None):
        """Send one request below the server's URL and return the decoded
        JSON answer. params go in the query string for GET and DELETE and
        as a form otherwise (lists and dicts as JSON); body (bytes, str or
        a JSON-able value) is sent as application/json instead. None
        values are left out. auth is (email, api_key), sent as HTTP Basic:
        a Zulip API request as that user."""
        params = {k: _form_value(v) for k, v in (params or {}).items() if v is not None}
        url = self.url + path
        data = None
        headers = {"Accept": "application/json"}
        if auth is not None:
            headers["Authorization"] = "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        if body is not None:
            data = body if isinstance(body, bytes) else (body if isinstance(body, str) else json.dumps(body)).encode()
            headers["Content-Type"] = "application/json"
            if params:
                url += "?" + urllib.parse.urlencode(params)
        elif method in ("GET", "DELETE", "HEAD"):
            if params:
                url += "?" + urllib.parse.urlencode(params)
        else:
            data = urllib.parse.urlencode(params).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                doc = json.loads(raw)
            except ValueError:
                doc = None
            if isinstance(doc, dict):
                raise MinizulipError(err.code, doc.get("code", ""), doc.get("msg", ""), doc) from None
            raise MinizulipError(err.code, "", raw.decode("utf-8", "replace")) from None
        except (urllib.error.URLError, OSError) as err:
            raise MinizulipError(0, "UNREACHABLE", f"{method} {url}: {err}") from None
        return json.loads(raw) if raw else None

    def control(self, method, name, params=None, **kw):
        """A request of the control API: name is below /minizulip/."""
        return self.request(method, "/minizulip/" + name, params, **kw)

    # --- the Zulip API, for setting up --------------------------------

    def server_settings(self):
        """GET /api/v1/server_settings."""
        return self.request("GET", "/api/v1/server_settings")

    def api_key(self, email):
        """The API key of a user, from the dev login (dev_fetch_api_key)."""
        return self.request("POST", "/api/v1/dev_fetch_api_key", {"username": email})["api_key"]

    def endpoints(self):
        """Every control endpoint, from GET /minizulip/."""
        return self.control("GET", "")["endpoints"]

    # --- reset and snapshots -------------------------------------------

    def reset(self):
        """Back to the realm as it was created; every event queue goes."""
        self.control("POST", "reset")

    def snapshot(self):
        """Keep the realm's whole state; returns the snapshot's ID."""
        return self.control("POST", "snapshots")["snapshot_id"]

    def snapshots(self):
        """The kept snapshots: [{"snapshot_id", "created"}]."""
        return self.control("GET", "snapshots")["snapshots"]

    def restore(self, snapshot_id):
        """Back to a snapshot (as often as wanted); every event queue goes."""
        self.control("POST", f"snapshots/{int(snapshot_id)}/restore")

    def delete_snapshot(self, snapshot_id):
        """Forget a snapshot."""
        self.control("DELETE", f"snapshots/{int(snapshot_id)}")

    # --- the clock -----------------------------------------------------

    def now(self):
        """The realm clock's time, Unix seconds with fractions."""
        return self.control("GET", "clock")["now"]

    def advance(self, seconds):
        """Move the clock ahead; returns the new time."""
        return self.control("POST", "clock", {"advance": seconds})["now"]

    def set_clock(self, unix_seconds):
        """Set the clock (not backwards); returns the new time."""
        return self.control("POST", "clock", {"now": unix_seconds})["now"]

    # --- faults --------------------------------------------------------

    def add_fault(self, path, *, method=None, user=None, count=None, status=None, code=None, msg=None,
                  retry_after=None, delay_ms=None, drop=False):
        """Make matching requests fail: one effect of status (with code,
        msg, retry_after), delay_ms or drop. count: how many (default 1,
        -1 until cleared). Returns the fault's ID."""
        return self.control("POST", "faults", {
            "path": path, "method": method, "user": user, "count": count, "status": status, "code": code,
            "msg": msg, "retry_after": retry_after, "delay_ms": delay_ms, "drop": True if drop else None,
        })["fault_id"]

    def faults(self):
        """The active faults, with hits_left."""
        return self.control("GET", "faults")["faults"]

    def delete_fault(self, fault_id):
        self.control("DELETE", f"faults/{int(fault_id)}")

    def clear_faults(self):
        self.control("DELETE", "faults")

    # --- event queues --------------------------------------------------

    def queues(self, user=None):
        """Live event queues (of one user, by email): queue_id, user_id,
        user, event_types, narrow, last_poll, pending."""
        return self.control("GET", "queues", {"user": user})["queues"]

    def expire_queue(self, queue_id):
        """Expire a queue as idle collection does: its next poll answers
        BAD_EVENT_QUEUE_ID."""
        self.control("POST", f"queues/{urllib.parse.quote(queue_id, safe='')}/expire")

    # --- the request journal -------------------------------------------

    def requests(self, *, method=None, path=None, user=None, since_id=None):
        """Recent requests of the Zulip API, oldest first, filtered: each
        with id, method, path, params, user, status, user_agent, client,
        queue_id…"""
        return self.control("GET", "requests", {"method": method, "path": path, "user": user,
                                                "since_id": since_id})["requests"]

    def clear_requests(self):
        self.control("DELETE", "requests")

    def wait_for_request(self, *, method=None, path=None, user=None, since_id=None, timeout=10.0):
        """The first request matching the filters (one already journaled
        counts; since_id skips older ones), waiting up to timeout seconds.
        Raises MinizulipError with status 408 if none comes."""
        params = {"method": method, "path": path, "user": user, "since_id": since_id, "timeout": timeout}
        return self.control("GET", "requests/wait", params, timeout=timeout + self.timeout)["request"]

    # --- unsupported requests ------------------------------------------

    def unsupported(self):
        """Requests to endpoints, or with parameters, the server does not
        support."""
        return self.control("GET", "unsupported")["unsupported"]

    # --- fixtures ------------------------------------------------------

    def dump(self):
        """The realm as a fixture document (a dict)."""
        return self.control("GET", "dump")

    def load(self, document):
        """Replace the realm by a fixture document (a dict, or its JSON
        text); a document that does not load is refused whole."""
        self.control("POST", "fixture", body=document)

    # --- realms --------------------------------------------------------

    def create_realm(self, *, seed=None, messages=None, fixture=None, feature_level=None, zulip_version=None):
        """A new realm in the same process, on a loopback port of its own,
        fully isolated (clock, faults, queues, journal), as the server's
        flags of the same names make one: seed "dev" or "empty", messages
        (a dev realm's seeded messages; none by default), fixture (a
        document, dict or JSON text, instead of a seed), feature_level and
        zulip_version. Returns a Realm; close() it (or use it in a with
        block) when done."""
        params = {"seed": seed, "messages": messages, "feature_level": feature_level, "zulip_version": zulip_version}
        if fixture is not None:
            params["fixture"] = fixture if isinstance(fixture, str) else json.dumps(fixture)
        params = {k: v for k, v in params.items() if v is not None}
        doc = self.control("POST", "realms", body=params)
        return Realm(doc["url"], doc["realm_id"], self, timeout=self.timeout)

    def realms(self):
        """The realms created over HTTP: [{"realm_id", "url", "created"}]."""
        return self.control("GET", "realms")["realms"]

    def delete_realm(self, realm_id):
        """Close a realm created over HTTP."""
        self.control("DELETE", f"realms/{int(realm_id)}")


class Realm(Minizulip):
    """A realm created by Minizulip.create_realm: the same control surface
    at its own URL. close() deletes it."""

    def __init__(self, url, realm_id, parent, *, timeout=10.0):
        super().__init__(url, timeout=timeout)
        self.realm_id = realm_id
        self.parent = parent

    def close(self):
        if self.parent is not None:
            parent, self.parent = self.parent, None
            try:
                parent.delete_realm(self.realm_id)
            except MinizulipError as err:
                if err.status != 400 and err.status != 404:
                    raise


def _form_value(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return str(v)
