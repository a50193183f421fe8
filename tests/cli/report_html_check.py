"""report.html against report.md (tests/cli/report_html.sh): the page's data
leads with the same findings, suite by suite, as report.md's "Findings"
section; every table (summaries, speedup tables) holds the cell texts that
report.md's table of the same columns shows; no text of the page's data
that is shown (findings, table cells, record hover texts) is a raw double.
Usage: report_html_check.py REPORT.html REPORT.md"""
import json
import re
import sys

RAW = re.compile(r"\d+\.\d+")


def raw_doubles(text):
    """Decimal numbers of 9 significant digits or more: no measured interval warrants 9."""
    return [t for t in RAW.findall(text) if len(t.replace(".", "").lstrip("0")) >= 9]


def md_unescape(s):
    return re.sub(r"\\(.)", r"\1", s)


def md_findings(md):
    sec = md.split("## Findings\n", 1)[1].split("\n## ", 1)[0]
    return [md_unescape(ln[2:]) for ln in sec.splitlines()
            if ln.startswith("- ") and not ln.startswith("- ... ")]


def md_tables(md):
    """{tuple of header cells: [row cells, ...]} of every markdown table."""
    tables, lines = {}, md.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("| ---"):
            head = tuple(md_unescape(c.strip()) for c in ln.strip("|").split(" | "))
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([md_unescape(c.strip()) for c in row[1:-1].split(" | ")])
            tables.setdefault(head, []).append(rows)
    return tables


def main(html_path, md_path):
    t = open(html_path, encoding="utf-8").read()
    d = json.loads(re.search(r'<script id="gb-data" type="application/json">(.*?)</script>', t, re.S)
                   .group(1).replace("<\\/", "</"))
    md = open(md_path, encoding="utf-8").read()
    lines = [ln for f in d["findings"] for ln in f["lines"]]
    want = md_findings(md)
    assert want, "report.md has no findings"
    it = iter(lines)
    missing = [w for w in want if not any(w == ln for ln in it)]
    assert not missing, "findings of report.md not in report.html, in order: %s" % missing[:3]
    assert [f["suite"] for f in d["findings"]] == [s["name"] for s in d["suites"]], "findings' suites"
    tables = md_tables(md)
    shown = list(lines)
    n_checked = 0
    for s in d["suites"]:
        tabs = [s["summary"]] + [c["table"] for c in s["charts"] if c.get("kind") == "speedup"]
        for tab in tabs:
            cells = [["" if v is None else v for v in row] for row in tab["rows"]]
            shown += [v for row in cells for v in row]
            cand = tables.get(tuple(tab["columns"]))
            assert cand, "no table of report.md has the columns %s" % tab["columns"]
            assert cells in cand, "a table of report.html differs from report.md's: %s" % cells[:2]
            n_checked += 1
    shown += [r[12] for r in d["records"]["rows"]]
    raw = [x for v in shown for x in raw_doubles(str(v))]
    assert not raw, "raw doubles shown in report.html: %s" % raw[:5]
    assert n_checked >= 1
    print("findings %d lines, %d tables as report.md's" % (len(lines), n_checked))


if __name__ == "__main__":
    try:
        main(*sys.argv[1:3])
    except AssertionError as e:
        print("report_html_check: %s" % e, file=sys.stderr)
        sys.exit(1)
