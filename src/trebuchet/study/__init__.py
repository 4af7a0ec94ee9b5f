"""The 2001 study's I/O benchmarks: running, storing and reporting them."""
