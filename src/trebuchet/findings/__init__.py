"""Failing cases turned into findings: crash sites symbolized, the signature rule, contract violations, their making, storage and text."""
