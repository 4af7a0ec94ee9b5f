"""trebuchet: API robustness testing for C libraries."""
