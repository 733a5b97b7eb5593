"""README.md's Python example runs as shown."""

import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "..", "..", "README.md")


def test_readme_python_example_runs():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("\n### Python\n"):]
    match = re.search(r"\n```python\n(.*?)\n```\n", section, re.S)
    assert match, "README's Python section has no python block"
    exec(compile(match.group(1), "README.md (Python example)", "exec"), {})
