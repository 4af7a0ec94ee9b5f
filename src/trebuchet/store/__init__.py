"""The SQLite store as the Python side opens it."""
