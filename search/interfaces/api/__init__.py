"""The HTTP API (DRF): thin views over the search functions."""
