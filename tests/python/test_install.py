"""`pip install ./python`, then the three-line session, from the installed
copy: offline (the package has no compiled part; pandas is already there)."""
import os
import shutil
import subprocess
import sys

SESSION = """
import gpubound
r = gpubound.load_run('data/h100/compare-2026-11-23/bw-a')
c = gpubound.compare('data/h100/compare-2026-11-23/bw-a', 'data/h100/compare-2026-11-23/bw-b')
print(gpubound.__file__)
print(len(r), round(r['median_ns'].median()), c.summary['points'], c.summary['unchanged'])
"""


def test_pip_install_and_three_lines(src, tmp_path):
    # A copy: building in place would leave build/ and *.egg-info in the tree.
    pkg = tmp_path / "python"
    shutil.copytree(src / "python", pkg, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = tmp_path / "site"
    p = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-index",
                        "--no-build-isolation", "--no-deps", "--target", str(target), str(pkg)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (target / "gpubound" / "__init__.py").is_file()
    env = dict(os.environ, PYTHONPATH=str(target))
    p = subprocess.run([sys.executable, "-c", SESSION], cwd=src, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    where, numbers = p.stdout.splitlines()
    assert where.startswith(str(target)), "the installed copy was imported, not the source tree's"
    n, median, points, unchanged = numbers.split()
    assert (n, points, unchanged) == ("19", "19", "19")
    assert 600000 < int(median) < 2000000
