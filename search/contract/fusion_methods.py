"""The fusion methods a caller may name and the rerank weights' keys and defaults: part of the
request contract, so the options validate them without importing the engine (engine/legs/fusion.py
uses the same names)."""

FUSION_ADAPTIVE = "adaptive"
FUSION_WEIGHTED = "weighted"
FUSION_RRF = "rrf"
FUSION_METHODS = (FUSION_ADAPTIVE, FUSION_WEIGHTED, FUSION_RRF)
DEFAULT_FUSION = FUSION_ADAPTIVE

# Mastra's defaults (packages/rag/src/rerank: semantic 0.4, vector 0.4, position 0.2).
DEFAULT_RERANK_WEIGHTS = {"rerank": 0.4, "vector": 0.4, "position": 0.2}
