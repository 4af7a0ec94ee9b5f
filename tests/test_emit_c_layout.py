"""A reproducer of a library whose headers include each other by relative
paths (include/sbuf.h includes "../common/defs.h", the spec in
robustness/ includes "../include/sbuf.h") builds when its folder is copied
anywhere else and `make LIBDIRS=` says where the library lies; nothing in
it names a folder of the machine that wrote it."""
import json
import subprocess

from conftest import trebuchet

FILES = {
    "common/defs.h": "#ifndef DEFS_H\n#define DEFS_H\n#include \"bias.h\"\n"
                     "typedef long sb_len_t;\n#endif\n",
    # found beside its includer, as a compiler looks first
    "common/bias.h": "#define SB_BIAS 40\n",
    "include/sbuf.h": "#ifndef SBUF_H\n#define SBUF_H\n#include \"../common/defs.h\"\n"
                      "sb_len_t sb_len(const char *s);\n#endif\n",
    "src/sbuf.c": "#include <string.h>\n#include \"../include/sbuf.h\"\n"
                  "sb_len_t sb_len(const char *s) { return (sb_len_t)strlen(s) + SB_BIAS; }\n",
    "robustness/sbuf.yaml": "target: sbuf\nincludes: [../include/sbuf.h]\n"
                            "libraries: [../build/libsbuf.so.1]\nfunctions:\n"
                            "  - name: sb_len\n    returns: sb_len_t\n    params:\n"
                            "      - {name: s, type: const char *, datatype: string}\n"
                            "    error: {when: none}\n",
}


def project(root):
    """The library's repository, its library built as its own Makefile would."""
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "build").mkdir()
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-Wl,-soname,libsbuf.so.1", "-o",
                    str(root / "build/libsbuf.so.1"), str(root / "src/sbuf.c")], check=True)
    return root / "robustness/sbuf.yaml"


def test_a_copied_reproducer_builds_with_its_headers_as_they_include_each_other(tmp_path):
    spec = project(tmp_path / "home" / "sbuf")
    written = tmp_path / "home" / "repro"
    cases = {}
    for value in ("string:EMPTY", "string:NULL"):
        out = written / value.replace(":", "-")
        ran = trebuchet("repro", "--target", spec, "--function", "sb_len", "--values", value,
                        "--json", "--emit-c", out, cwd=spec.parent.parent)
        cases[value] = json.loads(ran.stdout)
        # how trebuchet says to build it here names the folder it lies in
        assert f"LIBDIRS={tmp_path / 'home/sbuf/build'}" in ran.stderr
    # the library's headers byte for byte, in the folders they include each other by
    support = written / "string-NULL" / "support"
    for name in ("common/defs.h", "common/bias.h", "include/sbuf.h"):
        assert (support / name).read_text() == FILES[name]
    assert "--target robustness/sbuf.yaml " in (written / "string-NULL" / "repro.c").read_text()
    mentions = subprocess.run(["grep", "-rln", str(tmp_path), str(written)],
                              capture_output=True, text=True).stdout
    assert mentions == ""
    # elsewhere: another folder, the library in another place, the project gone
    subprocess.run(["cp", "-a", str(written), str(tmp_path / "elsewhere")], check=True)
    libs = tmp_path / "libs"
    libs.mkdir()
    (tmp_path / "home/sbuf/build/libsbuf.so.1").rename(libs / "libsbuf.so.1")
    subprocess.run(["rm", "-rf", str(tmp_path / "home")], check=True)
    for value, result in cases.items():
        out = tmp_path / "elsewhere" / value.replace(":", "-")
        made = subprocess.run(["make", "-C", str(out), f"LIBDIRS={libs}",
                               "CFLAGS=-O2 -Wall -Werror"], capture_output=True, text=True)
        assert made.returncode == 0, made.stdout + made.stderr
        ran = subprocess.run(["./repro"], cwd=out, capture_output=True, text=True, timeout=10)
        if value == "string:EMPTY":
            assert (result["outcome"], result["ret"]) == ("PASS", 40)
            assert ran.returncode == 0, ran.stderr
            assert "sb_len returned 40, errno 0" in ran.stdout
        else:
            assert result["outcome"] == "ABORT" and result["signal"] > 0
            assert ran.returncode == -result["signal"]
