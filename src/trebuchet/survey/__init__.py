"""The survey of libraries under examples/: its runs and its page."""
