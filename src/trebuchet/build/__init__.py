"""From a spec to a plugin: generated call shims, C type probes, the plugin's checks, sanitizer runtimes."""
