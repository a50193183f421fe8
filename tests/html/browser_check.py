#!/usr/bin/env python3
"""browser_check.py GPUBOUND SRC OUT - report.html in headless Chromium.

For committed runs under SRC/data: writes the report, opens report.html in
headless Chromium with the network shut off (no proxy reachable, every host
unresolvable, and the page's own Content-Security-Policy), and checks what
the page's test hook (#test) wrote into the DOM:
  - no console error or uncaught exception;
  - every chart of report.md is drawn, with as many marks (points, bars,
    cells) as its gnuplot script (.gp, written by the same report) holds,
    and a heat grid's best / 5% / 25% / failed marks as the script's;
  - every canvas has ink;
  - the bars of a speedup chart start at 1 (up for a gain, down for a loss);
  - the CampProf calculator, driven with given inputs, shows the band of
    `gpubound camp predict` for the same inputs: the same configurations,
    the same numbers (full precision through --format csv) and the same
    printed cells as its table;
  - a screenshot of the camping report is not blank.
Prints the size of each report.html and how long the page took to draw.
"""
import csv
import io
import json
import os
import re
import struct
import subprocess
import sys
import time
import urllib.parse
import zlib

GB, SRC, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
CHROMIUM = os.environ.get("GB_CHROMIUM", "chromium")
TIMEOUT = int(os.environ.get("GB_BROWSER_TIMEOUT", "180"))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
         "--disable-background-networking", "--proxy-server=127.0.0.1:9",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--disable-dev-shm-usage",
         "--user-data-dir=" + os.path.join(OUT, "chromium-profile")]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def chromium(args, budget_ms=20000):
    cmd = [CHROMIUM] + FLAGS + ["--virtual-time-budget=%d" % budget_ms] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)


def page_results(html, fragment="#test"):
    url = "file://" + os.path.abspath(html) + fragment
    t0 = time.time()
    p = chromium(["--dump-dom", url])
    wall = time.time() - t0
    m = re.search(r'<pre id="gb-test">(.*?)</pre>', p.stdout, re.S)
    if not m:
        fail("%s: the page wrote no test result (chromium rc %d): %s" % (html, p.returncode, p.stderr[-800:]))
        return None, wall
    import html as h
    return json.loads(h.unescape(m.group(1))), wall


def gp_blocks(path):
    blocks, name = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        mm = re.match(r"^\$(\w+) << EOD$", line)
        if mm:
            name = mm.group(1)
            blocks[name] = []
        elif line == "EOD":
            name = None
        elif name:
            blocks[name].append(line)
    return blocks


def expected_marks(report_dir, chart):
    gp = os.path.join(report_dir, chart["name"] + ".gp")
    if not os.path.exists(gp):
        return None
    b = gp_blocks(gp)
    if chart["kind"] == "heat":
        return {k: len(b.get(k, [])) for k in ("best", "w5", "w25", "fail")}
    if chart["kind"] == "speedup":
        return len(b.get("bars", []))
    if chart["kind"] == "bar":
        n = 0
        for line in b.get("bars", []):
            vals = re.findall(r'"[^"]*"|\S+', line)[1:]
            n += sum(1 for k in range(0, len(vals), 3) if vals[k] != "?")
        return n
    return sum(1 for k, v in b.items() if re.match(r"s\d+$", k) for line in v if line.split()[1] != "?")


def check_report(run):
    tag = run.replace("/", "-")
    rdir = os.path.join(OUT, "r-" + tag)
    p = subprocess.run([GB, "report", os.path.join(SRC, run), "--out", rdir], capture_output=True, text=True)
    html = os.path.join(rdir, "report.html")
    if p.returncode != 0 or not os.path.exists(html):
        fail("%s: report failed (rc %d) or wrote no report.html: %s" % (run, p.returncode, p.stderr[-400:]))
        return None
    res, wall = page_results(html)
    if res is None:
        return None
    print("%s: report.html %.2f MB, open and drawn %.1f s after navigation (drawing %.1f s; %.1f s with "
          "the browser's start), %d charts" % (run, os.path.getsize(html) / 1e6, res["ms"] / 1e3,
                                               res["draw_ms"] / 1e3, wall, len(res["charts"])), flush=True)
    if res["errors"]:
        fail("%s: console errors: %s" % (run, res["errors"][:5]))
    md = open(os.path.join(rdir, "report.md"), encoding="utf-8").read()
    if res.get("first_section") != "findings" or not res.get("findings"):
        fail("%s: report.html does not open with its findings (first section %r, %d lines)"
             % (run, res.get("first_section"), len(res.get("findings") or [])))
    md_first = re.search(r"^## Findings\n\n- (.*)$", md, re.M)
    if md_first and re.sub(r"\\(.)", r"\1", md_first.group(1)) not in (res.get("findings") or []):
        fail("%s: report.md's first finding is not on the page" % run)
    if res.get("long_numbers"):
        fail("%s: the page shows raw doubles: %s" % (run, res["long_numbers"][:5]))
    for ch in res["charts"]:
        if ch["marks"] <= 0:
            fail("%s: chart %s has no mark" % (run, ch["name"]))
        if ch["kind"] != "speedup" and "(" + ch["name"] + "." not in md:
            fail("%s: chart %s is not one of report.md's" % (run, ch["name"]))
        if ch["kind"] == "speedup" and ch.get("from_base") is not True:
            fail("%s: chart %s: a speedup bar does not start at 1 (from_base %r)" % (run, ch["name"], ch.get("from_base")))
        exp = expected_marks(rdir, ch)
        got = {k: ch["kinds"][k] for k in ("best", "w5", "w25", "fail")} if ch["kind"] == "heat" else ch["marks"]
        if exp is not None and exp != got:
            fail("%s: chart %s shows %s marks, its gnuplot script %s" % (run, ch["name"], got, exp))
    if "\n## Roofline\n" in md and not any(ch["name"] == "roofline" for ch in res["charts"]):
        fail("%s: report.md has a roofline, report.html draws none" % run)
    n_md = len(re.findall(r"!\[[^\]]*\]\(([^)]+)\.(?:svg|png)\)", md))
    n_drawn = sum(1 for ch in res["charts"])
    if n_drawn < n_md:
        fail("%s: report.md shows %d charts, report.html %d" % (run, n_md, n_drawn))
    for cv in res["canvases"]:
        if cv["w"] <= 0 or cv["h"] <= 0 or cv["inked"] <= 0:
            fail("%s: canvas %s is empty (%s)" % (run, cv["chart"], cv))
    return html


def camp_predict(model, inputs, fmt):
    args = [GB, "camp", "predict", "--model", model, "--format", fmt]
    for w in (1, 2, 4, 8, 16):
        for k, opt in (("ld", "--gld"), ("st", "--gst")):
            if inputs.get("%s%d" % (k, w)):
                args += [opt, "%d:%s" % (w, inputs["%s%d" % (k, w)])]
    for k, opt in (("threads", "--threads"), ("regs", "--regs"), ("smem", "--smem"), ("grid", "--grid"),
                   ("warps", "--warps"), ("time_ns", "--time-ns"), ("at_warps", "--at-warps")):
        if k in inputs:
            args += [opt, str(inputs[k])]
    p = subprocess.run(args, capture_output=True, text=True)
    return p


def table_rows(text):
    """The cells of a terminal table, cut where its rule of dashes puts the
    columns (an empty cell stays in its place), and its column names."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("------------"):
            spans = [m.span() for m in re.finditer(r"-+", line)]
            spans[-1] = (spans[-1][0], None)
            cut = lambda row: [row[a:b].strip() for a, b in spans]
            return cut(lines[i - 1]), [cut(row) for row in lines[i + 1:] if row.strip()]
    return [], []


def check_calc(html, model, inputs, label):
    frag = "#test&calc=" + urllib.parse.quote(json.dumps(inputs))
    res, _ = page_results(html, frag)
    if res is None:
        return
    if res["errors"]:
        fail("%s: console errors: %s" % (label, res["errors"][:5]))
    calc = res.get("calc")
    if not calc:
        fail("%s: the calculator did not report" % label)
        return
    p = camp_predict(model, inputs, "csv")
    if p.returncode != 0:
        if calc["raw"]:
            fail("%s: camp predict refuses (%s) but the page shows a band" % (label, p.stderr.strip()))
        elif not calc["error"]:
            fail("%s: camp predict refuses but the page shows no error" % label)
        return
    head, *want = list(csv.reader(io.StringIO(p.stdout)))
    why = head.index("no time") if "no time" in head else None
    if len(want) != len(calc["raw"]):
        fail("%s: %d configurations in the page, %d from camp predict" % (label, len(calc["raw"]), len(want)))
        return
    worst = 0.0
    for w, g in zip(want, calc["raw"]):
        if int(w[0]) != g[0]:
            fail("%s: configuration %s in camp predict, %s in the page" % (label, w[0], g[0]))
            return
        # A time camp predict does not give (outside the model's range, a
        # line <= 0) the page does not give either, and says why as it does.
        if [a == "" for a in w[1:4]] != [b is None for b in g[1:4]] or (w[why] if why else "") != (g[4] if len(g) > 4 else ""):
            fail("%s: at %s warps camp predict gives %s, the page %s" % (label, w[0], w[1:4] + w[7:], g[1:]))
            return
        for a, b in zip(w[1:4], g[1:4]):
            if a != "":
                a, b = float(a), float(b)
                worst = max(worst, abs(a - b) / max(abs(a), 1e-300))
    if worst > 1e-12:
        fail("%s: the page's band differs from camp predict's by %.3g (relative)" % (label, worst))
    # The printed cells, blanks in their places; the page does not show the
    # achieved warps.
    names, shown = table_rows(camp_predict(model, inputs, "table").stdout)
    keep = [i for i, n in enumerate(names) if n != "achieved warps"]
    shown = [[r[i] for i in keep] for r in shown]
    if shown != calc["rows"]:
        bad = next(((a, b) for a, b in zip(shown, calc["rows"]) if a != b), (len(shown), len(calc["rows"])))
        fail("%s: the printed band differs from camp predict's table: %s" % (label, bad))
    print("%s: %d configurations agree with camp predict (largest relative difference %.3g), %d marks"
          % (label, len(want), worst, calc["marks"]), flush=True)
    return calc


def png_not_blank(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return False, "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        if typ == b"IHDR":
            w, h = struct.unpack(">II", data[pos + 8:pos + 16])
        if typ == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    distinct = len(set(raw))
    # A blank page's filtered scanlines hold a handful of byte values (0, 255, the filter
    # types); text and charts give every value.
    return distinct > 64, "%dx%d, %d distinct byte values in its scanlines" % (w, h, distinct)


def main():
    os.makedirs(OUT, exist_ok=True)
    runs = os.environ.get("GB_HTML_RUNS", "data/h200/patterns-2026-11-21 data/h200/camping-2026-11-21 "
                          "data/h200/bandwidth-2026-11-21-a data/h200/transpose-2026-11-21 "
                          "data/h200/ubench-2026-11-21 data/h100/corpus-2026-11-26/gemm").split()
    pages = {run: check_report(run) for run in runs}
    camp = "data/h200/camping-2026-11-21"
    if pages.get(camp):
        model = os.path.join(SRC, camp, "campprof-model.json")
        cases = [
            ({"ld4": 1179648, "st4": 1179648, "threads": 256, "regs": 16, "smem": 0, "time_ns": 223920}, "launch, time"),
            ({"ld4": 2097152, "st4": 2097152, "threads": 256, "regs": 16, "smem": 4224, "time_ns": 61000}, "smem"),
            ({"ld2": 1000, "ld8": 5000, "st16": 3000, "ld1": 77, "threads": 96, "regs": 40, "smem": 0, "grid": 1000}, "widths, grid, no time"),
            ({"ld4": 1179648, "st4": 1179648, "warps": 64, "time_ns": 223920, "at_warps": 32}, "warps"),
            ({"ld4": 1000, "threads": 256, "regs": 300}, "refused"),
        ]
        for inputs, label in cases:
            check_calc(pages[camp], model, inputs, "calculator (" + label + ")")
        # camp predict --html: the calculator alone, filled with the command's inputs.
        # with the paper's form, so that the page's other branch is checked too
        mi = os.path.join(OUT, "campprof-model-paper.json")
        subprocess.run([GB, "camp", "fit", os.path.join(SRC, camp), "--form", "paper", "--model", mi],
                       capture_output=True, text=True)
        page = os.path.join(OUT, "calc.html")
        p = subprocess.run([GB, "camp", "predict", "--model", mi, "--gld", "4:1179648", "--gst", "4:1179648",
                            "--warps", "64", "--time-ns", "223920", "--at-warps", "32", "--html", page],
                           capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(page):
            fail("camp predict --html: rc %d, %s" % (p.returncode, p.stderr[-300:]))
        else:
            # The paper form's bounds are <= 0 below 15 warps: no time there, as camp predict
            # gives none; measured there, the band does not apply.
            check_calc(page, mi, {"ld4": 1179648, "st4": 1179648, "warps": 64, "time_ns": 223920,
                                  "at_warps": 32}, "camp predict --html")
            calc = check_calc(page, mi, {"ld4": 1179648, "st4": 1179648, "warps": 64, "time_ns": 223920,
                                         "at_warps": 10}, "camp predict --html, measured outside the range")
            if calc and "does not apply to the measured time at 10 warps: outside the model's range" not in calc["summary"]:
                fail("the calculator measured outside the range does not say so: %s" % calc["summary"])
        shot = os.path.join(OUT, "camping.png")
        chromium(["--hide-scrollbars", "--window-size=1280,1400", "--screenshot=" + shot,
                  "file://" + os.path.abspath(pages[camp])])
        ok, why = png_not_blank(shot) if os.path.exists(shot) else (False, "no screenshot")
        print("screenshot %s: %s" % (shot, why))
        if not ok:
            fail("the screenshot of the camping report is blank (%s)" % why)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
