#!/usr/bin/env python3
"""Man pages of gpubound, from the help text that docs/cli.md is made of.

usage: man_pages.py GPUBOUND OUT_DIR

Reads `GPUBOUND help --markdown` (the text of docs/cli.md, which a test holds
equal to it) and writes OUT_DIR/gpubound.1 (the commands) and
OUT_DIR/gpubound-COMMAND.1 for each command, in roff (man(7)): `man -l` reads
them. The help's option lines ("  --name ARG   what it does", continued by
deeper-indented lines) become the OPTIONS list, "Example:" lines EXAMPLES,
and the other lines the DESCRIPTION.
"""
import re
import subprocess
import sys
from pathlib import Path

ENTRY = re.compile(r"^  (\S.*?)(?:\s{2,}(\S.*))?$")


def esc(text):
    """Text safe in roff: backslashes, leading dots and quotes, minus signs."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def parse(markdown):
    """The markdown reference as (intro lines, [(name, summary, usage, help lines)])."""
    parts = re.split(r"^## ", markdown, flags=re.M)
    cmds = []
    for part in parts[1:]:
        name, rest = part.split("\n", 1)
        summary = rest.strip().split("\n", 1)[0].rstrip(".")
        usage_block = re.search(r"^```\n(.*?)^```", rest, flags=re.M | re.S)
        if not usage_block:  # a section of prose (as "Outputs"), not a command
            continue
        block = usage_block.group(1).rstrip("\n").split("\n")
        usage = []
        while block and (not usage or block[0].startswith(" " * 10)) and not block[0].startswith("  -"):
            usage.append(block.pop(0).strip())
        cmds.append((name.strip(), summary, usage, block))
    return parts[0], cmds


def sections(lines):
    """Help lines as entries [(option or argument, [text])], description
    lines and examples. An entry is a line indented by two spaces; deeper
    lines continue the entry or example above them."""
    options, desc, examples = [], [], []
    last = None
    for line in lines:
        m = ENTRY.match(line)
        if line.startswith("    ") and last == "entry":
            options[-1][1].append(line.strip())
        elif line.startswith("    ") and last == "example":
            examples[-1] += "\n" + line
        elif m:
            options.append((m.group(1).strip(), [m.group(2)] if m.group(2) else []))
            last = "entry"
        elif line.startswith("Example: "):
            examples.append(line[len("Example: "):])
            last = "example"
        elif line.strip():
            desc.append(line.strip())
            last = "desc"
    return options, desc, examples


def header(name, version, title):
    return [f'.TH "{name.upper()}" "1" "" "gpubound {version}" "{title}"']


def command_page(cmd, version):
    name, summary, usage, lines = cmd
    options, desc, examples = sections(lines)
    out = header(f"gpubound-{name}", version, "gpubound manual")
    out += [".SH NAME", esc(f"gpubound-{name} - {summary}"), ".SH SYNOPSIS", ".nf"]
    out += [esc(u) for u in usage] + [".fi", ".SH DESCRIPTION", esc(summary) + "."]
    if desc:
        out += [".PP"] + [esc(d) for d in desc]
    if options:
        out.append(".SH OPTIONS")
        for flags, text in options:
            out += [".TP", f"\\fB{esc(flags)}\\fR"] + [esc(t) for t in text]
    if examples:
        out += [".SH EXAMPLES", ".nf"]
        for e in examples:
            out += [esc(x) for x in e.split("\n")] + [""]
        out[-1:] = [".fi"]
    out += [".SH EXIT STATUS", "0 ok, 1 a benchmark or command failed, 2 usage error, 3 no usable GPU.",
            ".SH SEE ALSO", "\\fBgpubound\\fR(1)"]
    return "\n".join(out) + "\n"


def main_page(cmds, version):
    out = header("gpubound", version, "gpubound manual")
    out += [".SH NAME", esc("gpubound - measure, model and explain the performance of GPU kernels"),
            ".SH SYNOPSIS", ".B gpubound", ".I COMMAND", "[options]", ".SH COMMANDS"]
    for name, summary, _, _ in cmds:
        out += [".TP", f"\\fBgpubound\\-{esc(name)}\\fR(1)", esc(summary) + "."]
    out += [".SH EXIT STATUS", "0 ok, 1 a benchmark or command failed, 2 usage error, 3 no usable GPU.",
            "Errors are one line on stderr: what failed, why, and what to do.",
            ".SH SEE ALSO", ", ".join(f"\\fBgpubound\\-{esc(c[0])}\\fR(1)" for c in cmds)]
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: man_pages.py GPUBOUND OUT_DIR\n")
        return 2
    prog, out_dir = argv[1], Path(argv[2])
    markdown = subprocess.run([prog, "help", "--markdown"], check=True, capture_output=True, text=True).stdout
    version = subprocess.run([prog, "--version"], check=True, capture_output=True, text=True).stdout.split()[1]
    _, cmds = parse(markdown)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "gpubound.1").write_text(main_page(cmds, version))
    for cmd in cmds:
        (out_dir / f"gpubound-{cmd[0]}.1").write_text(command_page(cmd, version))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
