"""The CI gate, in the order it works: a baseline written from a run and
read back (baseline.py), shards joined into one run (merge.py), the run
compared with its baseline and its new failures confirmed by running them
again (verdict.py), and what CI systems read of the verdict (junit.py,
sarif.py)."""
