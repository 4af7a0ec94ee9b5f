"""Rates and their intervals, as every number of the reports computes them:
a part of a whole in percent, its Wilson interval, a plain mean."""
import math


def rate(part, whole):
    return 100.0 * part / whole if whole else 0.0


Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(part, whole, z=Z95):
    """The Wilson score interval of part/whole, in percent: (low, high).
    Unlike the normal approximation it stays inside 0..100 and is sound for
    rates near 0 or 100, which most of ours are."""
    if not whole:
        return (0.0, 0.0)
    p = part / whole
    centre = (p + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(p * (1 - p) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return (100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half))


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else 0.0
