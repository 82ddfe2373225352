"""bench/peers.py runs end to end on a tiny corpus where the peers are installed (make bench-peers).

CI does not install the peers (requirements-peers.txt), so there the test is skipped, with
the reason; it is never a pass on zero work: every engine must print a figure.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PEER_MODULES = ("tantivy", "bm25s", "lancedb", "hnswlib", "usearch")
QUALITY_ENGINES = ("ours keyword", "ours hybrid", "ours semantic", "tantivy", "bm25s", "lancedb fts", "exact knn",
                   "hnswlib", "usearch", "lancedb vec", "lancedb hyb rrf", "lancedb hyb lin")
SPEED_ROWS = {"keyword": ("ours", "ours API", "tantivy", "bm25s", "lancedb fts"),
              "vector": ("ours", "ours API", "exact", "hnswlib", "usearch", "lancedb vec"),
              "hybrid": ("ours", "ours API", "lancedb rrf", "lancedb linear")}
FIGURES = re.compile(r"(\d+\.\d+) / (\d+\.\d+)")

sys.path.insert(0, str(REPO_ROOT / "bench"))
missing = [name for name in PEER_MODULES if importlib.util.find_spec(name) is None]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bool(missing), reason=f"the bench peers are not installed ({', '.join(missing)}): "
                                             "make bench-peers installs requirements-peers.txt"),
]


def eval_data() -> Path:
    from evalsets import EVAL_DIR

    return EVAL_DIR


@pytest.fixture(scope="module")
def output() -> str:
    if not (eval_data() / "covidfaq-en" / "corpus.jsonl").is_file():
        pytest.skip(f"no judged sets at {eval_data()} (set EVAL_DIR to the folder holding covidfaq-en/)")
    env = {**os.environ, "DEBUG": "true", "EVAL_DIR": str(eval_data())}
    run = subprocess.run(
        [sys.executable, "bench/peers.py", "--docs", "1200", "--real", "200", "--sets", "covidfaq-en",
         "--max-queries", "12", "--speed-queries", "3", "--load"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout


def test_quality_table_scores_every_engine_on_the_set(output):
    table = output.split("QUALITY:", 1)[1].split("margins", 1)[0]
    for engine in QUALITY_ENGINES:
        row = re.search(rf"^{re.escape(engine)}\s+(\d\.\d{{3}})", table, re.MULTILINE)
        assert row, f"no nDCG@10 for {engine}:\n{table}"
        assert 0 < float(row.group(1)) <= 1, f"{engine} found nothing relevant:\n{table}"
    assert "12/537" in table


def test_vector_engines_report_recall_against_exact_knn(output):
    table = output.split("QUALITY:", 1)[1].split("margins", 1)[0]
    for engine in ("ours semantic", "hnswlib", "usearch", "lancedb vec"):
        assert re.search(rf"^{re.escape(engine)}\s+\d\.\d{{3}} \[(0\.\d{{3}}|1\.000)\]", table, re.MULTILINE), engine


def test_speed_table_times_every_engine_in_every_class(output):
    table = output.split("\nSPEED at", 1)[1].split("ours (in-process) p95 over", 1)[0]
    for family, engines in SPEED_ROWS.items():
        for engine in engines:
            row = re.search(rf"^{family}\s+{re.escape(engine)}\s+(.*)$", table, re.MULTILINE)
            assert row, f"no row for {family} {engine}:\n{table}"
            # usearch has no filtered search: its two filter classes print '-'.
            expected = 3 if engine == "usearch" else 5
            assert len(FIGURES.findall(row.group(1))) == expected, row.group(0)


def test_speed_run_prints_ratios_builds_load_and_versions(output):
    assert re.search(r"^bench/peers\.py: tantivy \S+, bm25s \S+, lancedb \S+", output, re.MULTILINE)
    assert "load average" in output.split("\nSPEED at", 1)[1].splitlines()[0]
    ratios = output.split("ours (in-process) p95 over", 1)[1].split("build time", 1)[0]
    assert len(re.findall(r"\d+\.\d\dx \(", ratios)) == 15
    builds = output.split("build time and size on disk per index", 1)[1]
    for name in ("tantivy", "bm25s", "hnswlib", "usearch", "lancedb"):
        assert re.search(rf"^{name}\S*.*\s\d+\.\d\s+\d+\.\d$", builds, re.MULTILINE), name


def test_speed_run_prints_the_floor_of_a_statement_beside_the_peers(output):
    floor = output.split("\nTHE FLOOR: ", 1)[1]
    p50, p95 = (float(x) for x in re.search(r"p50 (\d+\.\d{3}) / p95 (\d+\.\d{3}) ms \(400 timed\)", floor).groups())
    assert 0 < p50 <= p95
    for engine in ("tantivy", "bm25s", "lancedb fts"):
        assert re.search(rf"^  {engine} rare words p95 \d+\.\d{{3}} ms: 3x is \d+\.\d{{3}} ms, \d+\.\d\dx the floor",
                         floor, re.MULTILINE), floor
