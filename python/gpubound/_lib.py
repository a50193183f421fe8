"""libgpubound through ctypes: where the library is, and its export calls
(include/gpubound/export.h), which return JSON documents written by the
library's own writers."""

import ctypes
import ctypes.util
import json
import os
import shutil
import sys
from pathlib import Path

_SONAMES = ("libgpubound.so.0", "libgpubound.so")
_LIBDIRS = ("lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu")


class GpuboundError(RuntimeError):
    """A call of libgpubound or of the gpubound program failed.

    ``status`` is the library's status name ("io", "format", "usage", ...)
    or, for the program, its exit code; ``str(err)`` is its one-line message.
    """

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


def _source_build_dirs():
    """build/ of the source tree this package sits in (python/gpubound/..),
    then of the source tree in the current directory (an installed package
    used from a checkout)."""
    out = []
    for root in (Path(__file__).resolve().parent.parent.parent, Path.cwd()):
        if (root / "CMakeLists.txt").is_file() and (root / "python" / "pyproject.toml").is_file():
            out.append(root / "build")
    return out


def _prefixes():
    """Install prefixes to look in: this Python's, the gpubound program's
    on PATH, then the usual ones."""
    out = [Path(sys.prefix)]
    exe = shutil.which("gpubound")
    if exe:
        out.append(Path(exe).resolve().parent.parent)
    out += [Path("/usr/local"), Path("/usr")]
    return out


def candidates():
    """Every path tried for libgpubound, in order (for error messages)."""
    paths = []
    env = os.environ.get("GPUBOUND_LIB")
    if env:
        return [Path(env)]
    for prefix in _prefixes():
        for d in _LIBDIRS:
            paths += [prefix / d / name for name in _SONAMES]
    for build in _source_build_dirs():
        paths += [build / name for name in _SONAMES]
    return paths


def library_path():
    """The libgpubound.so this package uses: $GPUBOUND_LIB when set, else
    the first found under an install prefix, else the source tree's build/,
    else what the dynamic linker finds."""
    for p in candidates():
        if p.is_file():
            return str(p)
    if os.environ.get("GPUBOUND_LIB"):
        raise GpuboundError(f"GPUBOUND_LIB={os.environ['GPUBOUND_LIB']} is not a file; "
                            "point it at libgpubound.so", "usage")
    found = ctypes.util.find_library("gpubound")
    if found:
        return found
    raise GpuboundError("libgpubound.so not found (tried $GPUBOUND_LIB, the install prefixes and the "
                        "source tree's build/); build it (make build), install it (make install), or "
                        "set GPUBOUND_LIB to its path", "io")


_lib = None


def lib():
    """The loaded library with the export calls' signatures set (loaded once)."""
    global _lib
    if _lib is None:
        path = library_path()
        try:
            L = ctypes.CDLL(path)
        except OSError as e:
            raise GpuboundError(f"cannot load {path}: {e}", "io") from e
        c_char_pp = ctypes.POINTER(ctypes.c_char_p)
        L.gb_export_run_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        L.gb_export_run_json.restype = ctypes.c_int
        L.gb_export_compare_json.argtypes = [c_char_pp, ctypes.c_int, c_char_pp, ctypes.c_int,
                                             ctypes.c_double, ctypes.c_double, ctypes.POINTER(ctypes.c_void_p)]
        L.gb_export_compare_json.restype = ctypes.c_int
        L.gb_export_free.argtypes = [ctypes.c_void_p]
        L.gb_export_free.restype = None
        L.gb_export_version.argtypes = []
        L.gb_export_version.restype = ctypes.c_char_p
        L.gb_error_message.argtypes = []
        L.gb_error_message.restype = ctypes.c_char_p
        L.gb_status_name.argtypes = [ctypes.c_int]
        L.gb_status_name.restype = ctypes.c_char_p
        L._gb_path = path
        _lib = L
    return _lib


def _take(L, status, doc):
    """The document of a call as a Python object, or the library's error."""
    if status != 0:
        msg = (L.gb_error_message() or b"").decode("utf-8", "replace")
        raise GpuboundError(msg or "libgpubound failed", L.gb_status_name(status).decode())
    try:
        return json.loads(ctypes.string_at(doc.value).decode("utf-8"))
    finally:
        L.gb_export_free(doc)


def _bytes(p):
    return os.fsencode(os.fspath(p))


def export_run(directory):
    """The run directory as the library's export document (a dict)."""
    L = lib()
    doc = ctypes.c_void_p()
    st = L.gb_export_run_json(_bytes(directory), ctypes.byref(doc))
    return _take(L, st, doc)


def export_compare(base, new, alpha, threshold):
    """`gpubound compare --format json` of the lists of run directories."""
    L = lib()
    sides = []
    for dirs in (base, new):
        arr = (ctypes.c_char_p * len(dirs))(*[_bytes(d) for d in dirs])
        sides.append((arr, len(dirs)))
    doc = ctypes.c_void_p()
    st = L.gb_export_compare_json(sides[0][0], sides[0][1], sides[1][0], sides[1][1], float(alpha),
                                  float(threshold), ctypes.byref(doc))
    return _take(L, st, doc)


def version():
    """The library's version and git revision, "0.1.0 (abc123def456)"."""
    return lib().gb_export_version().decode()
