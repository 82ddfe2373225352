"""The size under which a leg ranks every matching row exactly instead of walking its index.

Both legs use it: the vector leg computes every distance and the keyword leg scores every
chunk's BM25 when at most this many chunks pass the filter (docs/design/vectors.md).
"""

EXACT_MAX_ROWS = 2_000
