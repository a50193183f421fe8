"""The Python tier: the gpubound package of python/ against the built
libgpubound and gpubound (ctest sets GPUBOUND_LIB, GPUBOUND and GB_SRC; by
hand: GPUBOUND_LIB=build/libgpubound.so GPUBOUND=build/gpubound pytest tests/python)."""
import os
import sys
from pathlib import Path

import pytest

SRC = Path(os.environ.get("GB_SRC") or Path(__file__).resolve().parents[2])
sys.path.insert(0, str(SRC / "python"))


@pytest.fixture
def src():
    return SRC


@pytest.fixture
def program():
    return os.environ.get("GPUBOUND") or str(SRC / "build" / "gpubound")
