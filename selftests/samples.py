# SPDX-License-Identifier: GPL-2.0
"""Counters the selftests sample over time (lib.sh puts this on PYTHONPATH)."""
import bisect


def at(t, v, x):
    """v, sampled at the ascending times t, at time x: interpolated
    between the samples around x, held at the first and last ones."""
    i = min(max(bisect.bisect_left(t, x), 1), len(t) - 1)
    f = (x - t[i - 1]) / (t[i] - t[i - 1]) if t[i] > t[i - 1] else 1
    return v[i - 1] + (v[i] - v[i - 1]) * min(max(f, 0), 1)
