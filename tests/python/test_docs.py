"""docs/python.md: every ```python block runs, in order, from the top of the
repository, and prints what the block after it shows."""
import contextlib
import io
import re

import pandas as pd


def blocks(text):
    """(code, expected output) pairs: a python block and the plain block after it."""
    parts = re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.M | re.S)
    out = []
    for i, (lang, body) in enumerate(parts):
        if lang == "python":
            nxt = parts[i + 1] if i + 1 < len(parts) else ("", "")
            out.append((body, nxt[1] if nxt[0] == "" else None))
    return out


def norm(s):
    return [ln.rstrip() for ln in s.strip().splitlines()]


def test_examples_print_what_the_page_shows(src, monkeypatch):
    monkeypatch.chdir(src)
    pairs = blocks((src / "docs/python.md").read_text())
    assert len(pairs) >= 4
    env = {}
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        for code, want in pairs:
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                exec(compile(code, "docs/python.md", "exec"), env)
            if want is not None:
                assert norm(buf.getvalue()) == norm(want), buf.getvalue()
