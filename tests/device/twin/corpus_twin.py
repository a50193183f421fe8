#!/usr/bin/env python3
"""corpus_twin.py - plain-program twins of the corpus kernels (issue 45).

A twin is the host program a CUDA programmer writes around a corpus kernel:
the kernel's own source file compiled by nvcc -O3 -arch=sm_90 with the
configuration's axis values as the defines gpubound gives NVRTC, cudaMalloc,
the inputs gpubound's spec makes (kernels/spec_data.h's generator, run on the
host: corpus_data.c) copied up with cudaMemcpy, the outputs poisoned, one
<<<>>> launch verified against the spec's reference kernel run in the twin,
a warm-up, then CUDA events around batches of back-to-back launches and
around single launches (hot: nothing between launches, as gpubound's hot
samples and a plain program's loop).

    corpus_twin.py pick RUN_DIR CORPUS_DIR          the points: per bench, its fastest
                                                    and a slow configuration of one problem
    corpus_twin.py emit SPEC BENCH AXIS=V ...       one twin's .cu on stdout
    corpus_twin.py plan POINTS SRC OUTDIR [KERNEL..] every twin's .cu, the points (of these
                                                    corpus kernels) and gpubound's specs
                                                    narrowed to them
    corpus_twin.py table POINTS RAW OUTDIR          the comparison: OUTDIR/corpus-twins.md
                                                    and .tsv; a count on stdout
    corpus_twin.py eval EXPR [NAME=V ...]           a spec expression's value (tests)

Standard library only. Exit 0 ok, 1 failed, 2 usage.
"""
import gzip
import json
import math
import os
import re
import sys

M64 = (1 << 64) - 1
# gpubound's run seed: gb_run_seed (src/suites/spec_args.c) from the first
# two rand() values of a process that never called srand (glibc: 1804289383,
# 846930886); its inputs equal the twin's only while nothing else in the
# process calls rand() first, their distribution always.
RAND0, RAND1 = 1804289383, 846930886
SLOW_CAP_NS = 5e6   # a slow configuration is at most 5 ms (the run's time)

TYPES = {  # spec type -> (CUDA type, bytes); aliases included
    "float": ("float", 4), "double": ("double", 8), "int": ("int", 4), "int32": ("int", 4),
    "uint": ("unsigned int", 4), "uint32": ("unsigned int", 4), "long": ("long long", 8),
    "int64": ("long long", 8), "ulong": ("unsigned long long", 8), "uint64": ("unsigned long long", 8),
    "half": ("__half", 2), "float16": ("__half", 2), "bfloat16": ("__nv_bfloat16", 2),
    "bf16": ("__nv_bfloat16", 2), "fp8_e4m3": ("__nv_fp8_e4m3", 1), "fp8_e5m2": ("__nv_fp8_e5m2", 1),
    "int8": ("signed char", 1), "uint8": ("unsigned char", 1), "int16": ("short", 2),
    "uint16": ("unsigned short", 2),
}
FLOATS = {"float", "double", "half", "float16", "bfloat16", "bf16", "fp8_e4m3", "fp8_e5m2"}
SCALAR_SUFFIX = {"float": "f", "double": "", "int": "", "int32": "", "uint": "u", "uint32": "u",
                 "long": "LL", "int64": "LL", "ulong": "ULL", "uint64": "ULL"}


class SpecError(Exception):
    pass


def mix(z):
    """splitmix64's finaliser (gb_sd_mix)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def run_seed():
    return mix(((RAND0 << 32) ^ RAND1 ^ 0x5EED) & M64) | 1


# ---- expressions (docs/kernel-spec.md, "Expressions") ----
TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)|([A-Za-z_]\w*)|"
                   r"(<=|>=|==|!=|&&|\|\||[-+*/^(),<>]))")
FUNCS = {"ceil": math.ceil, "floor": math.floor, "sqrt": math.sqrt, "exp": math.exp, "log": math.log,
         "abs": abs, "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin,
         "acos": math.acos, "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
         "min": min, "max": max}
CONSTS = {"e": math.e, "pi": math.pi}


class Expr:
    """A spec expression evaluated over named values: libmatheval's arithmetic
    (+ - * /, ^ left to right, real division) with gpubound's ceil, floor,
    min, max, comparisons, && and || (1 or 0)."""

    def __init__(self, text, names):
        self.text, self.names, self.toks, self.i = str(text), names, [], 0
        pos, s = 0, self.text
        while pos < len(s):
            if s[pos:].strip() == "":
                break
            m = TOKEN.match(s, pos)
            if not m:
                raise SpecError(f'"{s}": unexpected character {s[pos:].strip()[0]!r}')
            self.toks.append(m.group(1) and ("num", float(m.group(1))) or m.group(2) and ("name", m.group(2))
                             or ("op", m.group(3)))
            pos = m.end()

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else ("end", None)

    def take(self, op=None):
        t = self.peek()
        if op is not None and t != ("op", op):
            raise SpecError(f'"{self.text}": expected {op!r}')
        self.i += 1
        return t

    def value(self):
        v = self.orx()
        if self.peek()[0] != "end":
            raise SpecError(f'"{self.text}": unexpected {self.peek()[1]!r}')
        return float(v)

    def orx(self):
        v = self.andx()
        while self.peek() == ("op", "||"):
            self.take()
            w = self.andx()
            v = 1.0 if (v != 0 or w != 0) else 0.0
        return v

    def andx(self):
        v = self.cmp()
        while self.peek() == ("op", "&&"):
            self.take()
            w = self.cmp()
            v = 1.0 if (v != 0 and w != 0) else 0.0
        return v

    def cmp(self):
        v = self.add()
        t = self.peek()
        if t[0] == "op" and t[1] in ("<", "<=", ">", ">=", "==", "!="):
            self.take()
            w = self.add()
            v = float({"<": v < w, "<=": v <= w, ">": v > w, ">=": v >= w, "==": v == w, "!=": v != w}[t[1]])
        return v

    def add(self):
        v = self.mul()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            w = self.mul()
            v = v + w if op == "+" else v - w
        return v

    def mul(self):
        v = self.unary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            w = self.unary()
            v = v * w if op == "*" else (v / w if w != 0 else math.copysign(math.inf, v) if v else math.nan)
        return v

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            return -self.unary()
        if self.peek() == ("op", "+"):
            self.take()
            return self.unary()
        return self.power()

    def power(self):
        v = self.atom()
        while self.peek() == ("op", "^"):
            self.take()
            w = -self.atom() if self.peek() == ("op", "-") and self.take() else self.atom()
            v = float(v) ** w
        return v

    def atom(self):
        kind, x = self.take()
        if kind == "end":
            raise SpecError(f'"{self.text}": ends where a value was expected')
        if kind == "num":
            return x
        if kind == "op" and x == "(":
            v = self.orx()
            self.take(")")
            return v
        if kind == "name":
            if self.peek() == ("op", "("):
                if x not in FUNCS:
                    raise SpecError(f'"{self.text}": unknown function "{x}"')
                self.take()
                args = [self.orx()]
                while self.peek() == ("op", ","):
                    self.take()
                    args.append(self.orx())
                self.take(")")
                return float(FUNCS[x](*args))
            if x in self.names:
                return float(self.names[x])
            if x in CONSTS:
                return CONSTS[x]
            raise SpecError(f'"{self.text}": unknown name "{x}"')
        raise SpecError(f'"{self.text}": unexpected {x!r}')


def ev(text, names):
    return Expr(text, names).value()


def ev_int(text, names, what):
    v = ev(text, names)
    if v != math.floor(v) or v < 0:
        raise SpecError(f"{what}: \"{text}\" = {v} is not a non-negative integer")
    return int(v)


def c_num(x):
    """A value as gpubound's -D option spells it (gb_opt: integers as
    integers, other values with 17 digits)."""
    return str(int(x)) if x == math.floor(x) and abs(x) < 9e15 else "%.17g" % x


# ---- a point of a bench ----
class Point:
    """One configuration of one bench of a spec, everything evaluated."""

    def __init__(self, spec_path, bench_name, axes):
        self.spec_path = spec_path
        self.spec = json.load(open(spec_path))
        names = [b["name"] for b in self.spec["benches"]]
        if bench_name not in names:
            raise SpecError(f"{spec_path}: no bench {bench_name} (benches: {', '.join(names)})")
        self.index = names.index(bench_name)
        b = self.b = self.spec["benches"][self.index]
        self.bench = bench_name
        axis_names = [a["name"] for a in b["axes"]]
        missing = [n for n in axis_names if n not in axes]
        extra = [n for n in axes if n not in axis_names]
        if missing or extra:
            raise SpecError(f"{spec_path}/{bench_name}: axes given {sorted(axes)}, the bench has {axis_names}")
        self.axes = [(n, float(axes[n])) for n in axis_names]
        v = dict(self.axes)
        self.defines = list(self.axes)
        for name, expr in (b.get("defines") or {}).items():
            v[name] = ev(expr, v)
            self.defines.append((name, v[name]))
        self.v = v
        for r in b.get("restrictions", []):
            if ev(r, v) == 0:
                raise SpecError(f'{spec_path}/{bench_name}: restriction "{r}" is false at this point')
        self.kernel, self.grid, self.block, self.smem, self.max_smem = self.launch(b, v, "")
        ref = b.get("reference", "first")
        if not isinstance(ref, dict) or "kernel" not in ref:
            raise SpecError(f"{spec_path}/{bench_name}: the twin needs a reference kernel (\"reference\": "
                            f"{{\"kernel\": ...}}), not {json.dumps(ref)}")
        rv = dict(v)
        self.ref_defines = []
        for name, expr in (ref.get("defines") or {}).items():
            rv[name] = ev(expr, rv)
            self.ref_defines.append((name, rv[name]))
        merged = dict(b)
        merged.update({k: ref[k] for k in ("kernel", "grid", "block", "dynamic_smem", "max_dynamic_smem")
                       if k in ref})
        self.ref_kernel, self.ref_grid, self.ref_block, self.ref_smem, self.ref_max_smem = \
            self.launch(merged, rv, "reference.")
        src = self.spec["source"]
        self.source = src[0] if isinstance(src, list) else src
        self.ref_source = ref.get("source", self.source)
        self.args = self.eval_args(b, v)
        pa = b.get("problem_axes") or [n for n in axis_names if not n.startswith("block_size_")]
        h = self.index + 1
        for a, n in enumerate(axis_names):
            if n in pa:
                h = mix(h ^ (int(v[n]) & M64) ^ ((a << 56) & M64))
        self.problem = h
        self.seed = run_seed()

    def launch(self, b, v, pre):
        kernel = re.sub(r"\{([^}]*)\}", lambda m: c_num(ev(m.group(1), v)), b["kernel"])
        grid = [ev_int(e, v, f"{pre}grid[{i}]") for i, e in enumerate(b["grid"])]
        if "block" in b:
            block = [ev_int(e, v, f"{pre}block[{i}]") for i, e in enumerate(b["block"])]
        else:
            block = [int(v.get(n, 1)) for n in ("block_size_x", "block_size_y", "block_size_z")]
        grid, block = (grid + [1, 1])[:3], (block + [1, 1])[:3]
        smem = ev_int(b.get("dynamic_smem", 0), v, f"{pre}dynamic_smem")
        max_smem = b.get("max_dynamic_smem")
        max_smem = ev_int(max_smem, v, f"{pre}max_dynamic_smem") if max_smem is not None else \
            (smem if smem > 48 * 1024 else None)
        return kernel, grid, block, smem, max_smem

    def eval_args(self, b, v):
        out = []
        for i, a in enumerate(b["args"]):
            t = a["type"]
            if t not in TYPES:
                raise SpecError(f"args[{i}].type: \"{t}\" is not a type")
            d = {"name": a["name"], "type": t, "ctype": TYPES[t][0], "size": TYPES[t][1], "index": i}
            if "value" in a:
                if t not in SCALAR_SUFFIX:
                    raise SpecError(f"args[{i}]: a {t} scalar is not supported by the twin")
                d["value"] = ev(a["value"], v)
                out.append(d)
                continue
            d["count"] = ev_int(a["count"], v, f"args[{i}].count")
            d["output"] = bool(a.get("output"))
            init = a.get("init")
            if init is None and not d["output"]:
                init = {"random": [-1, 1]} if t in FLOATS else {"random": [1, 100]}
            if init is None:
                d["init"] = None
            elif "random" in init:
                d["init"] = (1, float(init["random"][0]), float(init["random"][1]))
            elif "constant" in init:
                d["init"] = (2, float(init["constant"]), 0.0)
            elif "iota" in init:
                d["init"] = (3, float(init["iota"][0]), float(init["iota"][1]))
            elif "file" in init:
                d["init"] = ("file", os.path.join(os.path.dirname(os.path.abspath(self.spec_path)), init["file"]))
            else:
                raise SpecError(f"args[{i}].init: {json.dumps(init)} is not random, constant, iota or file")
            d["rtol"], d["atol"] = a.get("rtol"), a.get("atol")
            d["key"] = None  # set below, once the problem is known
            out.append(d)
        return out

    def config(self):
        return " ".join(f"{n}={c_num(x)}" for n, x in self.axes)


# ---- the twin's source ----
def dims(v):
    return f"dim3({v[0]}, {v[1]}, {v[2]})"


def emit(p, src_root, label):
    """The twin's .cu for point p: the argument table and the host program
    (corpus_twin_main.cuh) first, then the configuration's defines and the
    corpus source (#included from src_root: nvcc -I src_root), then the two
    <<<>>> launches."""
    seed, L = p.seed, []
    spec_dir = os.path.relpath(os.path.dirname(os.path.abspath(p.spec_path)), src_root)
    w = L.append
    w(f"// Plain-program twin of {p.spec['suite']}/{p.bench} at {p.config()},")
    w("// written by tests/device/twin/corpus_twin.py. Build:")
    w("//   nvcc -O3 -arch=sm_90 -I SRC -o twin THIS.cu corpus_data.o -lgomp")
    w('#include "tests/device/twin/corpus_twin_main.cuh"')
    w("")
    w("// The arguments: name, type, count (-1: a scalar), output, init (0 poisoned,")
    w("// 1 random, 2 constant, 3 iota, 4 file), its a and b, the generator's stream")
    w(f"// (run seed {seed}, problem {p.problem}), rtol and atol (-1: the type's).")
    w("static const twin_arg twin_args[] = {")
    for a in p.args:
        if "value" in a:
            w(f'    {{"{a["name"]}", "{a["type"]}", -1, 0, 0, {float(a["value"])!r}, 0.0, 0ULL, -1.0, -1.0, nullptr}},')
            continue
        key = mix((seed ^ mix(p.problem) ^ mix((a["index"] + 77) & M64)) & M64)
        init, fa, fb, path = a["init"], 0.0, 0.0, "nullptr"
        if init is None:
            code = 0
        elif init[0] == "file":
            code, path = 4, json.dumps(init[1])
        else:
            code, fa, fb = init
        rt = -1.0 if a["rtol"] is None else float(a["rtol"])
        at = -1.0 if a["atol"] is None else float(a["atol"])
        w(f'    {{"{a["name"]}", "{a["type"]}", {a["count"]}LL, {int(a["output"])}, {code}, {fa!r}, {fb!r}, '
          f'{key}ULL, {rt!r}, {at!r}, {path}}},')
    w("};")
    w("")
    w("// The configuration's axes and defines, as gpubound's -D options to NVRTC")
    w("// spell them (src/suites/spec_point.c, gb_opt). #defines rather than nvcc -D")
    w("// options, which nvcc's implicit cuda_runtime.h would see too (an axis named")
    w("// n breaks it); from here on the kernel's source sees what NVRTC's does.")
    seen, pragma_names = set(), set()
    for f in {p.source, p.ref_source}:
        try:
            text = open(os.path.join(os.path.dirname(os.path.abspath(p.spec_path)), f)).read()
        except OSError as e:
            raise SpecError(f"{p.spec_path}: cannot read {f}: {e.strerror}")
        for line in re.findall(r"^\s*#\s*pragma\b(.*)$", text, re.M):
            pragma_names.update(re.findall(r"[A-Za-z_]\w*", line))
    for n, x in p.defines + p.ref_defines:
        if n in seen:
            continue
        seen.add(n)
        if n in pragma_names:
            # nvcc leaves a #pragma's argument unexpanded (NVRTC expands it:
            # "#pragma unroll unroll" unrolls by the axis), so the name is
            # also a constant of that value, declared before the macro.
            ctype = "long long" if x == math.floor(x) and abs(x) < 9e15 else "double"
            w(f"static constexpr {ctype} {n} = {c_num(x)};")
        w(f"#define {n} {c_num(x)}")
    w(f'#include "{spec_dir}/{p.source}"')
    if p.ref_source != p.source:
        w(f'#include "{spec_dir}/{p.ref_source}"')
    w("")

    def call(kernel, grid, block, smem):
        parts = []
        for a in p.args:
            if "value" in a:
                lit = ("%.17g" % a["value"]) if a["type"] in FLOATS else c_num(a["value"]) + SCALAR_SUFFIX[a["type"]]
                parts.append(f"({a['ctype']})({lit})")
            else:
                parts.append(f"twin_ptr{{twin_d[{a['index']}]}}")
        return f"{kernel}<<<{dims(grid)}, {dims(block)}, {smem}>>>({', '.join(parts)});"
    w("static void twin_setup(void)")
    w("{")
    for k, mx in ((p.kernel, p.max_smem), (p.ref_kernel, p.ref_max_smem)):
        if mx is not None:
            w(f"    TWIN_CK(cudaFuncSetAttribute({k}, cudaFuncAttributeMaxDynamicSharedMemorySize, {mx}));")
    w("}")
    w("")
    w("static void twin_launch(void *const *twin_d)")
    w("{")
    w(f"    {call(p.kernel, p.grid, p.block, p.smem)}")
    w("}")
    w("")
    w("static void twin_launch_ref(void *const *twin_d)")
    w("{")
    w(f"    {call(p.ref_kernel, p.ref_grid, p.ref_block, p.ref_smem)}")
    w("}")
    w("")
    w("int main(void)")
    w("{")
    w(f'    return twin_main("{label}", twin_args, {len(p.args)}, twin_setup, twin_launch, twin_launch_ref,')
    w(f'                     "seed={seed} problem={p.problem}");')
    w("}")
    return "\n".join(L) + "\n"


# ---- pick: the points of the committed run ----
def problem_axes(b):
    names = [a["name"] for a in b["axes"]]
    return b.get("problem_axes") or [n for n in names if not n.startswith("block_size_")]


def pick(run_dir, corpus_dir):
    """Per bench: one problem (the one whose fastest configuration is the
    longest: the largest), its fastest configuration and its slowest of at
    most 5 ms."""
    points = []
    for kdir in sorted(os.listdir(corpus_dir)):
        spec_path = os.path.join(corpus_dir, kdir, "spec.json")
        res = os.path.join(run_dir, kdir, "results.json")
        if not os.path.isfile(spec_path):
            continue
        if not os.path.isfile(res) and not os.path.isfile(res + ".gz"):
            raise SpecError(f"{res}: no records of {kdir}")
        recs = [r for r in json.load(open_maybe_gz(res)) if r.get("status") == "ok"]
        spec = json.load(open(spec_path))
        for b in spec["benches"]:
            pa = problem_axes(b)
            probs = {}
            for r in recs:
                if r["bench"] == b["name"]:
                    probs.setdefault(tuple(r["axes"][n] for n in pa), []).append(r)
            if not probs:
                raise SpecError(f"{res}: no ok record of bench {b['name']}")
            key = max(probs, key=lambda k: min(r["time_ns"]["median"] for r in probs[k]))
            rs = sorted(probs[key], key=lambda r: r["time_ns"]["median"])
            slow = [r for r in rs if r["time_ns"]["median"] <= SLOW_CAP_NS][-1]
            for role, r in (("fast", rs[0]), ("slow", slow)):
                points.append({"kernel": kdir, "bench": b["name"], "role": role,
                               "axes": {a["name"]: int(r["axes"][a["name"]]) for a in b["axes"]},
                               "h100_median_ns": r["time_ns"]["median"]})
    return points


def point_id(pt):
    return f"{pt['kernel']}-{pt['bench']}-{pt['role']}"


# ---- plan: everything the device script builds and runs ----
def restriction(pts, b):
    terms = []
    for pt in pts:
        terms.append("(" + " && ".join(f"{a['name']} == {pt['axes'][a['name']]}" for a in b["axes"]) + ")")
    return " || ".join(terms)


def plan(points_path, src, out, kernels=()):
    points = [pt for pt in json.load(open(points_path)) if not kernels or pt["kernel"] in kernels]
    if not points:
        raise SpecError(f"{points_path}: no point of {' '.join(kernels)}")
    os.makedirs(os.path.join(out, "twins"), exist_ok=True)
    with open(os.path.join(out, "points.json"), "w") as f:
        json.dump(points, f, indent=1)
    rows = []
    for pt in points:
        spec_path = os.path.join(src, "corpus", pt["kernel"], "spec.json")
        p = Point(spec_path, pt["bench"], pt["axes"])
        pid = point_id(pt)
        with open(os.path.join(out, "twins", pid + ".cu"), "w") as f:
            f.write(emit(p, src, pid))
        # The kernel's function name, as Nsight Compute's -k matches it (no template arguments).
        fn = re.sub(r"<.*", "", p.kernel).strip()
        rows.append(f"{pid}\t{pt['kernel']}\t{pt['bench']}\t{pt['role']}\t{p.config()}\t{fn}")
    # gpubound's side: each corpus spec, its benches narrowed by one more
    # restriction to the points (the same benches, in the same order, so the
    # problems and their inputs are the same as the corpus spec's).
    for kdir in sorted({pt["kernel"] for pt in points}):
        d = os.path.join(src, "corpus", kdir)
        gd = os.path.join(out, "gb", kdir)
        os.makedirs(gd, exist_ok=True)
        for fn in os.listdir(d):
            if fn != "spec.json":
                with open(os.path.join(d, fn), "rb") as f, open(os.path.join(gd, fn), "wb") as g:
                    g.write(f.read())
        spec = json.load(open(os.path.join(d, "spec.json")))
        for b in spec["benches"]:
            pts = [pt for pt in points if pt["kernel"] == kdir and pt["bench"] == b["name"]]
            if pts:
                b["restrictions"] = b.get("restrictions", []) + [restriction(pts, b)]
            else:
                raise SpecError(f"{kdir}/{b['name']}: no point planned (gpubound would refuse a bench left empty)")
        json.dump(spec, open(os.path.join(gd, "spec.json"), "w"), indent=1)
    with open(os.path.join(out, "points.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


# ---- table ----
def kv_line(path):
    try:
        for line in open(path):
            if line.startswith("twin label="):
                return dict(re.findall(r"(\w+)=(\S+)", line))
    except OSError:
        pass
    return None


def open_maybe_gz(path):
    """PATH, or PATH.gz where only the compressed copy is kept (records under data/)."""
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        return gzip.open(path + ".gz", "rt")
    return open(path)


def gb_records(raw, prefix, kernels):
    """gpubound's records of each corpus kernel's run RAW/PREFIX-KERNEL, by (kernel, bench, axes)."""
    gb = {}
    for kdir in kernels:
        try:
            for r in json.load(open_maybe_gz(os.path.join(raw, f"{prefix}-{kdir}", "results.json"))):
                gb[(kdir, r["bench"], tuple(sorted((k, int(v)) for k, v in r["axes"].items())))] = r
        except (OSError, ValueError):
            pass
    return gb


def ncu_median_ms(raw, pid):
    """The median gpu__time_duration of the twin's launches that Nsight Compute
    timed (RAW/ncu-PID.csv), in ms, and how many; (None, 0) without them."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
    from truth_compare import ncu_durations
    try:
        v = sorted(ncu_durations(os.path.join(raw, f"ncu-{pid}.csv"), ""))
    except (OSError, StopIteration, ValueError, KeyError, IndexError):
        return None, 0
    if not v:
        return None, 0
    n = len(v)
    return (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2) / 1e6, n


def gb_median_ms(r):
    return r["time_ns"]["median"] / 1e6 if r and r.get("status") == "ok" else None


def gap_pct(a, b):
    return (a - b) / b * 100 if a and b else None


TABLE_HEAD = [
    "# Corpus kernels: gpubound against their plain twins\n",
    "GPU: {gpu}\n",
    "gpubound: `run SPEC/BENCH` (the point picked by a restriction; the median of `gpu__time_duration`, "
    "hot), with its default compiler ({compiler}, as run.json's cuda.compiler says) and with "
    "`--compiler nvrtc`. Twin: nvcc -O3 -arch=sm_90, "
    "cudaMalloc, host-made inputs, `<<<>>>` on the default stream, hot; *ncu*: Nsight Compute's "
    "`gpu__time_duration` of 15 of the twin's launches after its first 11 (`--cache-control none "
    "--clock-control none`), median: the twin's own kernel time, clock against like clock; *batch*: "
    "CUDA events around a batch of back-to-back launches over the launches, median of 7 batches "
    "(includes the gaps between launches). Gaps: (twin ncu - gpubound) / gpubound; the batch gap "
    "against gpubound's default.\n",
    "| kernel/bench | config | role | gpubound default (ms) | gpubound nvrtc (ms) | twin ncu (ms) | gap default | "
    "gap nvrtc | within 2%: default, nvrtc | twin batch (ms), gap | status |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |"]


def table(points_path, raw):
    points = json.load(open(points_path))
    kernels = sorted({pt["kernel"] for pt in points})
    gb, gbn = gb_records(raw, "gb", kernels), gb_records(raw, "gbnvrtc", kernels)
    compiler = "?"
    for kdir in kernels:
        try:
            compiler = json.load(open(os.path.join(raw, f"gb-{kdir}", "run.json")))["cuda"]["compiler"]
            break
        except (OSError, ValueError, KeyError, TypeError):
            pass
    gpu = "?"
    try:
        lines = [l.strip() for l in open(os.path.join(raw, "info.txt")) if l.strip()]
        gpu = next((l.split(":", 1)[1].strip() for l in lines if re.match(r"device \d+: ", l)),
                   lines[0] if lines else "?")
    except OSError:
        pass
    md = [h.replace("{gpu}", gpu).replace("{compiler}", compiler) for h in TABLE_HEAD]
    tsv = ["point\tgpubound_ms\tgpubound_nvrtc_ms\ttwin_ncu_ms\tgap_pct\tgap_nvrtc_pct\twithin\twithin_nvrtc\t"
           "twin_batch_ms\tbatch_gap_pct\tstatus"]
    n_in = n_in_nvcc = n_cmp = n_cmp_nvcc = 0
    yn = lambda w: "" if w is None else ("yes" if w else "**no**")
    f = lambda x: "" if x is None else f"{x:.4f}"
    fp = lambda x: "" if x is None else f"{x:+.2f}%"
    for pt in points:
        pid = point_id(pt)
        key = (pt["kernel"], pt["bench"], tuple(sorted(pt["axes"].items())))
        r, rn = gb.get(key), gbn.get(key)
        t = kv_line(os.path.join(raw, f"twin-{pid}.txt"))
        g, gn = gb_median_ms(r), gb_median_ms(rn)
        tn, n_ncu = ncu_median_ms(raw, pid)
        tb = float(t["batch_ms"]) if t else None
        status = []
        if g is None:
            status.append("gpubound: " + (r.get("status", "?") + " " + str(r.get("reason", ""))).strip()
                          if r else "gpubound: no record")
        if t is None:
            status.append("twin: " + twin_failure(raw, pid))
        elif tn is None:
            status.append("ncu: no launch timed")
        gap, gapn, gapb = gap_pct(tn, g), gap_pct(tn, gn), gap_pct(tb, g)
        within = None if gap is None else abs(gap) <= 2.0
        within_n = None if gapn is None else abs(gapn) <= 2.0
        n_cmp += within is not None
        n_in += bool(within)
        n_cmp_nvcc += within_n is not None
        n_in_nvcc += bool(within_n)
        cfg = " ".join(f"{k}={v}" for k, v in pt["axes"].items())
        md.append(f"| {pt['kernel']}/{pt['bench']} | {cfg} | {pt['role']} | {f(g)} | {f(gn)} | {f(tn)} | "
                  f"{fp(gap)} | {fp(gapn)} | {yn(within)}, {yn(within_n)} | {f(tb)}, {fp(gapb)} | "
                  f"{'; '.join(status) or 'ok'} |")
        tsv.append("\t".join([pid, f(g), f(gn), f(tn), "" if gap is None else f"{gap:.3f}",
                              "" if gapn is None else f"{gapn:.3f}", "" if within is None else str(int(within)),
                              "" if within_n is None else str(int(within_n)), f(tb),
                              "" if gapb is None else f"{gapb:.3f}", "; ".join(status) or "ok"]))
    md.append(f"\nTwin's kernel time (ncu) against gpubound: {n_in} of {n_cmp} compared points within 2% "
              f"with gpubound's default ({compiler}), {n_in_nvcc} of {n_cmp_nvcc} with --compiler nvrtc "
              f"({len(points)} points planned).\n")
    return "\n".join(md) + "\n", "\n".join(tsv) + "\n", (n_in, n_cmp, n_in_nvcc, n_cmp_nvcc), len(points)


def twin_failure(raw, pid):
    """Why a point has no twin line: its build's error, its exit code and last line, or not run."""
    try:
        rc = open(os.path.join(raw, f"twin-{pid}.rc")).read().strip()
        lines = [l.strip() for l in open(os.path.join(raw, f"twin-{pid}.txt")) if l.strip()]
        if rc != "0":
            return f"exit {rc}" + (f": {lines[-1][:160]}" if lines else "")
    except OSError:
        pass
    try:
        errs = [l.strip() for l in open(os.path.join(raw, f"build-{pid}.log")) if "error" in l]
        if errs:
            return "did not build: " + errs[0][:160]
    except OSError:
        pass
    return "not run"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    cmd, args = argv[1], argv[2:]
    try:
        if cmd == "pick" and len(args) == 2:
            print(json.dumps(pick(*args), indent=1))
        elif cmd == "emit" and len(args) >= 2:
            axes = dict(a.split("=", 1) for a in args[2:])
            p = Point(args[0], args[1], axes)
            src = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
            sys.stdout.write(emit(p, src, f"{p.spec['suite']}/{p.bench}"))
        elif cmd == "plan" and len(args) >= 3:
            plan(args[0], args[1], args[2], args[3:])
        elif cmd == "table" and len(args) == 3:
            md, tsv, (n_in, n_cmp, n_in_nvcc, n_cmp_nvcc), n = table(args[0], args[1])
            with open(os.path.join(args[2], "corpus-twins.md"), "w") as f:
                f.write(md)
            with open(os.path.join(args[2], "corpus-twins.tsv"), "w") as f:
                f.write(tsv)
            print(f"{n_in} of {n_cmp} compared points within 2% with gpubound's default, {n_in_nvcc} of "
                  f"{n_cmp_nvcc} with --compiler nvrtc ({n} planned)")
        elif cmd == "eval" and len(args) >= 1:
            names = {k: float(v) for k, v in (a.split("=", 1) for a in args[1:])}
            print(c_num(ev(args[0], names)))
        else:
            print(f"corpus_twin.py: bad arguments for {cmd!r} (see --help)", file=sys.stderr)
            return 2
    except (SpecError, KeyError, ValueError, OSError) as e:
        print(f"corpus_twin.py {cmd}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
