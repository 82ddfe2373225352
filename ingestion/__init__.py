"""Turns opt-in content into embedded chunks: chunking, the Chunk table, and the workers."""
