"""Benchmarks: extraction throughput, proxy overhead and concurrency, with JSON results."""
