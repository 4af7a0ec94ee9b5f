"""The `trebuchet` command line."""
