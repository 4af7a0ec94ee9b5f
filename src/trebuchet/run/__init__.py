"""Campaigns: the executor started and read, repeats, pins, one case again (repro), C reproducers, the run's last line."""
