#!/usr/bin/env python
"""Hybrid and semantic search with filters keeping 1% and 0.1% of a 100k-chunk workspace:
the HNSW walk (before) against the exact plan for small matching sets (now), with recall@10
against exact ranking.

Run from the repo root:  .venv/bin/python bench/selective.py [--sizes 100000] [--queries 60]

The data set and the measuring are bench/growth.py's (`--selective`); see its docstring.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import growth  # noqa: E402

if __name__ == "__main__":
    sys.argv = [sys.argv[0], "--selective", *(sys.argv[1:] or ["--sizes", "100000"])]
    growth.main()
