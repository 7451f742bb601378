"""Benchmarks: throughput and ratios against baselines measured in the same run."""
