"""Benchmarks: generated sets, retrieval quality, search and hook latency."""
