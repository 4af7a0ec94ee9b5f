"""A target's spec: read, validated, and read once per report."""
