"""Search over workspace content: full-text over entries, semantic over chunks."""
