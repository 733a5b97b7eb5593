"""README.md's Python examples run as shown."""

import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "..", "..", "README.md")


def python_blocks():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("\n### Python\n"):]
    section = section[:section.index("\n### ", 1)]
    blocks = re.findall(r"\n```python\n(.*?)\n```\n", section, re.S)
    assert len(blocks) == 2, "README's Python section should have two python blocks"
    return blocks


def test_readme_python_example_runs():
    exec(compile(python_blocks()[0], "README.md (Python example)", "exec"), {})


def test_readme_pytest_example_passes(minizulip):
    ns = {}
    exec(compile(python_blocks()[1], "README.md (pytest example)", "exec"), ns)
    ns["test_send"](minizulip)
