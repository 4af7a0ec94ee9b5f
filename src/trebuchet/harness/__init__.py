"""The executor trebuchet-exec as the Python side starts and reads it: its queries, the sanitizer runtimes it runs under, and the crash sites it records, read back as names."""
