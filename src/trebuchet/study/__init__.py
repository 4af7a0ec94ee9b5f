"""The 2001 study's I/O benchmarks (`trebuchet bench io`): running them on
stdio, SFIO and Robust SFIO, storing them, and their statistics."""
