"""What every layer stands on: errors and exit codes, paths, how outcomes, signals and errnos read, YAML with line numbers, the platform a run belongs to."""
