"""The pytest plugin, run in an inner pytest."""

import os
import shutil

pytest_plugins = ["pytester"]

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_inner(pytester, *args):
    pytester.makepyfile(test_inner="""
        def test_server(minizulip_server):
            print("INNER-URL", minizulip_server.url, minizulip_server.process is not None)
            assert minizulip_server.server_settings()["realm_uri"] == minizulip_server.url
    """)
    env_path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = HERE + (os.pathsep + env_path if env_path else "")
    try:
        return pytester.runpytest_subprocess("-p", "pytest_minizulip", "-p", "no:cacheprovider", "-s", *args)
    finally:
        if env_path is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = env_path


def test_plugin_attaches_to_the_url_given(pytester, minizulip_server):
    result = run_inner(pytester, "--minizulip-url", minizulip_server.url)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"*INNER-URL {minizulip_server.url} False*"])


def test_plugin_starts_the_binary(pytester):
    result = run_inner(pytester, "--minizulip-bin", os.environ.get("MINIZULIP_BIN") or shutil.which("minizulip"))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*INNER-URL http://127.0.0.1:* True*"])


def test_plugin_reports_a_binary_that_does_not_start(pytester):
    result = run_inner(pytester, "--minizulip-bin", "/nonexistent/minizulip")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*cannot run /nonexistent/minizulip*"])
