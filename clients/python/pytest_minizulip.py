"""pytest fixtures for minizulip (load with ``-p pytest_minizulip`` or
``pytest_plugins = ["pytest_minizulip"]`` in a conftest.py).

- ``minizulip_server`` (session): the server. With --minizulip-url (or
  $MINIZULIP_URL) it drives that one; otherwise it starts the binary of
  --minizulip-bin ($MINIZULIP_BIN, else ``minizulip`` on PATH) once for
  the whole run. Under pytest-xdist the controller starts it and every
  worker attaches to it.
- ``minizulip_realm`` (session): a realm of this process's own, made with
  POST /minizulip/realms on that server, so that pytest-xdist workers
  (``-n 4``) never see each other's messages, clock or faults. Deleted at
  the end of the session.
- ``minizulip`` (function): that realm, reset before the test, with its
  faults and request journal cleared.
"""

import os

import pytest

import minizulip as _mz


def pytest_addoption(parser):
    group = parser.getgroup("minizulip")
    group.addoption("--minizulip-url", default=os.environ.get("MINIZULIP_URL"),
                    help="drive the minizulip server at this URL instead of starting one")
    group.addoption("--minizulip-bin", default=os.environ.get("MINIZULIP_BIN"),
                    help="the minizulip binary to start (default: minizulip on PATH)")


def _started(config):
    """The server the controller (or a run without xdist) started, if any."""
    return getattr(config, "_minizulip_started", None)


def _server_url(config):
    """The URL the workers attach to, starting the server on first use in
    the controller."""
    url = config.getoption("minizulip_url")
    if url:
        return url
    server = _started(config)
    if server is None:
        server = _mz.Minizulip.start(config.getoption("minizulip_bin"))
        config._minizulip_started = server
    return server.url


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist: every worker attaches to the controller's server."""
    node.workerinput["minizulip_url"] = _server_url(node.config)


def pytest_unconfigure(config):
    server = _started(config)
    if server is not None:
        server.close()


@pytest.fixture(scope="session")
def minizulip_server(pytestconfig):
    """The minizulip server of the run (a Minizulip)."""
    workerinput = getattr(pytestconfig, "workerinput", None)
    if workerinput is not None and "minizulip_url" in workerinput:
        return _mz.Minizulip.attach(workerinput["minizulip_url"])
    _server_url(pytestconfig)
    server = _started(pytestconfig)
    return server if server is not None else _mz.Minizulip.attach(pytestconfig.getoption("minizulip_url"))


@pytest.fixture(scope="session")
def minizulip_realm(minizulip_server):
    """A realm of this process's own on the server (a minizulip.Realm)."""
    realm = minizulip_server.create_realm()
    yield realm
    realm.close()


@pytest.fixture
def minizulip(minizulip_realm):
    """This process's realm, reset, with no faults and an empty journal."""
    minizulip_realm.reset()
    minizulip_realm.clear_faults()
    minizulip_realm.clear_requests()
    return minizulip_realm
