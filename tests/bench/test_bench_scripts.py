"""Every bench script starts: its --help prints, and the settings module it names exists.

Benches run by hand, outside CI, so a moved module or a slip in a help string would otherwise
show up only when someone next needs the figures (bench/unanswerable.py still named
`cms.settings` after the settings moved to config/)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if "argparse" in p.read_text(encoding="utf-8"))
SETTINGS_DEFAULT = re.compile(r"""DJANGO_SETTINGS_MODULE["'],\s*["']([\w.]+)["']""")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_script_prints_its_help(script):
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60,
                          cwd=BENCH.parent)

    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout


def test_every_settings_module_a_script_names_exists():
    named = {(p.name, m) for p in BENCH.glob("*.py") for m in SETTINGS_DEFAULT.findall(p.read_text(encoding="utf-8"))}

    assert len(named) >= 10  # the pattern still finds the scripts' defaults
    assert [(name, module) for name, module in sorted(named) if importlib.util.find_spec(module) is None] == []
