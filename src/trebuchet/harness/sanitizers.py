"""`trebuchet run --sanitizer`: how a plugin is built for a sanitizer and
what the executor is told so that it runs under the sanitizer's runtime
(harness/world.c sets LD_PRELOAD and the fixed ASAN_OPTIONS, and says why
each option is there)."""
import os
import subprocess
from pathlib import Path

from trebuchet.core.errors import TrebuchetError

# The sanitizers `--sanitizer` takes, and the suffix of their plugins
# (NAME.asan.so beside NAME.so).
SUFFIX = {"address": "asan", "undefined": "ubsan"}
# Those whose shadow memory no address-space limit can hold.
SHADOW = ("address",)
NAMES = tuple(SUFFIX)

# No frame pointer left out: ASan's reports unwind by frame pointers, and a
# frame it cannot walk would leave the function out of the report.  UBSan
# with no recovery: its first report aborts whatever the runtime's options.
_CFLAGS = {"address": ["-fsanitize=address", "-fno-omit-frame-pointer"],
           "undefined": ["-fsanitize=undefined", "-fno-sanitize-recover=all",
                         "-fno-omit-frame-pointer"]}
_RUNTIME = {"address": "libasan.so", "undefined": "libubsan.so"}
_PACKAGE = {"address": "libasan8", "undefined": "libubsan1"}


def cflags(sanitizer):
    return _CFLAGS[sanitizer] if sanitizer else []


def of_plugin(plugin):
    """The sanitizer a plugin was built for (by its name), None for none."""
    suffixes = Path(str(plugin)).suffixes
    for name, suffix in SUFFIX.items():
        if len(suffixes) >= 2 and suffixes[-2] == f".{suffix}":
            return name
    return None


def runtime(sanitizer):
    """The sanitizer's runtime library, as the compiler that built the plugin
    finds it; one line when it has none (libasan not installed)."""
    name = _RUNTIME[sanitizer]
    try:
        found = subprocess.run(["cc", f"-print-file-name={name}"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        found = ""
    # without the library, cc prints the name it was given
    if not found or not os.path.isabs(found) or not os.path.exists(found):
        raise TrebuchetError(f"--sanitizer {sanitizer}: the compiler has no {name} (on Debian:"
                             f" apt-get install {_PACKAGE[sanitizer]})")
    return found


def executor_env(plugin, memory_mb=None):
    """The environment to start trebuchet-exec with for plugin: the caller's,
    plus the sanitizer's request when the plugin was built for one.
    memory_mb: under ASan, the largest allocation it lets succeed, in place
    of the address-space limit (default 1024, the limit's default)."""
    sanitizer = of_plugin(plugin)
    if not sanitizer:
        return None
    return dict(os.environ, TREBUCHET_EXEC_SANITIZER=sanitizer,
                TREBUCHET_EXEC_SANITIZER_RUNTIME=runtime(sanitizer),
                TREBUCHET_EXEC_SANITIZER_ALLOC_MB=str(memory_mb or 1024))
