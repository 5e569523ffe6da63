"""Development tooling, never shipped: benchmarks, the load test and the gates."""
