"""trebuchet.runner: the `trebuchet` CLI, spec loading, code generation and campaigns."""
