"""`trebuchet init` on small headers, one inference rule each: each header
has a real library built from a few lines of C, so the draft is filtered
by a real symbol table and, where it says so, built and run as written."""
import sqlite3
import subprocess
import textwrap

import yaml

from conftest import trebuchet


def library(tmp_path, header, source, name="mini"):
    """Writes name.h and builds libname.so from source; returns the header's path."""
    h = tmp_path / "src" / f"{name}.h"
    h.parent.mkdir(exist_ok=True)
    h.write_text(textwrap.dedent(header))
    c = tmp_path / "src" / f"{name}.c"
    c.write_text(f'#include <stdlib.h>\n#include "{name}.h"\n' + textwrap.dedent(source))
    subprocess.run(["cc", "-shared", "-fPIC", "-o", tmp_path / "src" / f"lib{name}.so", c],
                   check=True)
    return h


def init(tmp_path, header, *more, name="mini", check=True):
    out = tmp_path / "draft"
    result = trebuchet("init", header, "--library", tmp_path / "src" / f"lib{name}.so",
                       "--out", out, *more, check=check)
    return result, out


def drafted(tmp_path, header, source):
    """(spec as data, its text, its values C or "") of a header's draft."""
    init(tmp_path, library(tmp_path, header, source))
    spec = tmp_path / "draft" / "mini.yaml"
    values = tmp_path / "draft" / "mini_values.c"
    return yaml.safe_load(spec.read_text()), spec.read_text(), \
        values.read_text() if values.exists() else ""


def function(spec, name):
    return next(f for f in spec["functions"] if f["name"] == name)


def datatypes(spec, name):
    return [p["datatype"] for p in function(spec, name)["params"]]


BOX_H = """\
    typedef struct box box;
    box *box_new(int size);
    void box_free(box *b);
    int box_put(box *b, int v);
"""
BOX_C = """\
    struct box { int size, used; };
    box *box_new(int size) { box *b = calloc(1, sizeof *b); if (b) b->size = size; return b; }
    void box_free(box *b) { free(b); }
    int box_put(box *b, int v) { return b->used < b->size ? b->used++ : -1; }
"""


def test_opaque_handle_made_by_its_constructor_and_freed_by_its_destructor(tmp_path):
    spec, text, values = drafted(tmp_path, BOX_H, BOX_C)
    assert spec["datatypes"] == {"box": "tb_type_box"}
    assert datatypes(spec, "box_put") == ["box", "int"]
    assert "# Handle box: made by box_new; freed by box_free" in text
    assert "box_new((int)a[0].i)" in values and '"BOX_NEW"' in values
    assert "box_free((box *)h)" in values and '"RELEASED"' in values
    # the draft builds and runs as written, every handle built
    db = tmp_path / "t.db"
    trebuchet("run", "--target", tmp_path / "draft" / "mini.yaml", "--db", db, "--quiet")
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM results WHERE outcome = 'SETUP'").fetchone() == (0,)
    said = trebuchet("repro", "--target", tmp_path / "draft" / "mini.yaml", "--function",
                     "box_put", "--values", "box:BOX_NEW,int:ZERO").stdout
    assert "PASS, returned 0" in said  # a box of size 1, from int:ONE


def test_out_constructor_fills_a_handle_through_its_double_pointer(tmp_path):
    header = library(tmp_path, """\
        #define CTX_VERSION 7
        typedef struct ctx ctx;
        int ctx_create(ctx **out, unsigned version);
        int ctx_destroy(ctx *c);
        int ctx_level(const ctx *c);
    """, """\
        struct ctx { int level; };
        int ctx_create(ctx **out, unsigned version)
        { if (version != CTX_VERSION) return -1; *out = calloc(1, sizeof **out); return 0; }
        int ctx_destroy(ctx *c) { free(c); return 0; }
        int ctx_level(const ctx *c) { return c->level; }
    """)
    init(tmp_path, header)
    values = (tmp_path / "draft" / "mini_values.c").read_text()
    # the version argument is the macro its name names, so the constructor works
    assert "ctx * h = NULL;" in values and "ctx_create(&h, CTX_VERSION)" in values
    spec = yaml.safe_load((tmp_path / "draft" / "mini.yaml").read_text())
    assert datatypes(spec, "ctx_level") == ["ctx"]  # a const ctx * too
    assert datatypes(spec, "ctx_create") == ["buffer", "int"]
    assert function(spec, "ctx_create")["params"][1]["convert"] is True  # unsigned: said
    db = tmp_path / "t.db"
    trebuchet("run", "--target", tmp_path / "draft" / "mini.yaml", "--db", db, "--quiet")
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM results WHERE outcome = 'SETUP'").fetchone() == (0,)


def test_buffer_and_length_offered_as_a_span(tmp_path):
    spec, text, values = drafted(tmp_path, """\
        #include <stddef.h>
        int sum(const void *src, size_t srcSize);
        int fill(void *dst, int flags);
    """, """\
        int sum(const void *src, size_t srcSize) { return 0; }
        int fill(void *dst, int flags) { return 0; }
    """)
    assert datatypes(spec, "sum") == ["bytes_const_void_size_t", "span"]
    assert "# guess: src and srcSize, a buffer and its length" in text
    assert '.ctype = "const void *, size_t"' in values and ".span = 2" in values
    assert datatypes(spec, "fill") == ["buffer", "int"]  # flags is no length


def test_typedefd_integers_kept_as_written_with_honest_widths(tmp_path):
    spec, _, _ = drafted(tmp_path, """\
        #include <stddef.h>
        typedef unsigned int level_t;
        typedef long long big_t;
        int set(level_t level, big_t offset, size_t n, short s, double x, int fd);
    """, "int set(level_t level, big_t offset, size_t n, short s, double x, int fd)"
         " { return 0; }\n")
    params = {p["name"]: p for p in function(spec, "set")["params"]}
    assert params["level"]["type"] == "level_t"
    assert (params["level"]["datatype"], params["level"].get("convert")) == ("int", True)
    assert (params["offset"]["datatype"], params["offset"].get("convert")) == ("int64", None)
    assert (params["n"]["datatype"], params["n"].get("convert")) == ("size", None)
    assert (params["s"]["datatype"], params["s"].get("convert")) == ("int", True)
    assert params["x"]["datatype"] == "double"
    assert params["fd"]["datatype"] == "fd"


def test_function_pointer_parameters_take_callback(tmp_path):
    spec, _, _ = drafted(tmp_path, """\
        typedef int (*cmp_fn)(const void *, const void *);
        void sort_with(cmp_fn cmp);
        void on_signal(void (*handler)(int));
    """, "void sort_with(cmp_fn cmp) {}\nvoid on_signal(void (*handler)(int)) {}\n")
    assert function(spec, "sort_with")["params"] == [
        {"name": "cmp", "type": "cmp_fn", "datatype": "callback"}]
    assert function(spec, "on_signal")["params"] == [
        {"name": "handler", "type": "void (*)(int)", "datatype": "callback"}]


def test_an_array_typedef_parameter_runs_as_the_pointer_c_passes(tmp_path):
    """libuuid's `uuid_t` (unsigned char[16]): a parameter of an array type
    is a pointer to its element; the draft runs as written, and a NULL id
    crashes idclear where a valid one passes."""
    header = library(tmp_path, """\
        typedef unsigned char id16[16];
        void idclear(id16 id);
        int idcompare(const id16 a, const id16 b);
    """, """\
        void idclear(id16 id) { for (int i = 0; i < 16; i++) id[i] = 0; }
        int idcompare(const id16 a, const id16 b) { return a[0] - b[0]; }
    """)
    init(tmp_path, header)
    spec = tmp_path / "draft" / "mini.yaml"
    assert function(yaml.safe_load(spec.read_text()), "idclear")["params"] == [
        {"name": "id", "type": "id16", "datatype": "buffer"}]
    db = tmp_path / "t.db"
    trebuchet("run", "--target", spec, "--db", db, "--quiet")
    outcomes = dict(sqlite3.connect(db).execute(
        "SELECT value_names, outcome FROM results WHERE function = 'idclear'"))
    assert (outcomes["buffer:NULL"], outcomes["buffer:VALID"]) == ("ABORT", "PASS")


def test_what_cannot_be_drafted_is_listed_with_why(tmp_path):
    spec, text, _ = drafted(tmp_path, """\
        struct pt { int x, y; };
        int say(const char *fmt, ...);
        int length(struct pt p);
        static inline int twice(int x) { return 2 * x; }
        int kept(int x);
    """, """\
        int say(const char *fmt, ...) { return 0; }
        int length(struct pt p) { return 0; }
        int kept(int x) { return x; }
    """)
    assert [f["name"] for f in spec["functions"]] == ["kept"]
    assert "#   say (mini.h:2): variadic" in text
    assert "#   length (mini.h:3): parameter p a struct or union by value (struct pt)" in text
    assert "#   twice (mini.h:4): not exported by the library" in text
    assert "# Drafted 1 of 4 functions declared." in text


def test_error_conventions_guessed_from_types_and_the_header(tmp_path):
    spec, text, _ = drafted(tmp_path, """\
        #include <stddef.h>
        enum status { ST_ERROR, ST_OK };
        unsigned is_error(size_t code);
        size_t pack(int x);
        enum status check(int x);
        void nothing(int x);
        char *name(int x);
    """, """\
        unsigned is_error(size_t code) { return code > 100; }
        size_t pack(int x) { return 0; }
        enum status check(int x) { return ST_OK; }
        void nothing(int x) {}
        char *name(int x) { return 0; }
    """)
    assert function(spec, "pack")["error"] == {"when": "expr", "expr": "is_error(ret)"}
    assert function(spec, "check")["error"] == {"when": "equals", "value": 0}
    assert function(spec, "nothing")["error"] == {"when": "none"}
    assert function(spec, "name")["error"] == {"when": "null"}
    assert "# guess: ST_ERROR is an error" in text


def test_an_edited_spec_is_never_overwritten(tmp_path):
    header = library(tmp_path, BOX_H, BOX_C)
    init(tmp_path, header)
    spec = tmp_path / "draft" / "mini.yaml"
    edited = spec.read_text().replace("target: mini", "# reviewed\ntarget: mini")
    spec.write_text(edited)
    library(tmp_path, BOX_H + "int box_size(box *b);\n",
            BOX_C + "int box_size(box *b) { return b->size; }\n")
    result, out = init(tmp_path, header)
    assert spec.read_text() == edited
    assert "box_size" in (out / "mini.draft.yaml").read_text()
    assert "--update" in result.stdout
    result, _ = init(tmp_path, header, "--update")
    assert "added 1 functions (box_size)" in result.stdout
    merged = spec.read_text()
    assert merged.startswith(edited) and "- name: box_size" in merged
    assert [f["name"] for f in yaml.safe_load(merged)["functions"]][-1] == "box_size"
    trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet", "--cap", "5")


def assert_one_line(result, *fragments):
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_bad_input_is_one_line_naming_the_file(tmp_path):
    header = library(tmp_path, BOX_H, BOX_C)
    result, _ = init(tmp_path, tmp_path / "missing.h", check=False)
    assert_one_line(result, "missing.h: no such header file")
    broken = tmp_path / "src" / "broken.h"
    broken.write_text("int ok(int x);\n\nint broken(int x;\n")
    result, _ = init(tmp_path, broken, check=False)
    assert_one_line(result, "broken.h:3:", "cannot parse")
    result = trebuchet("init", header, "--library", "libno_such_thing.so.9", check=False)
    assert_one_line(result, "library libno_such_thing.so.9 not found")


def test_an_umbrella_header_drafts_what_the_headers_it_gathers_declare(tmp_path):
    """lzma.h declares nothing itself: it includes lzma/*.h from its folder."""
    (tmp_path / "src" / "mini").mkdir(parents=True)
    # the second is another library's, as stdio.h's would be beside lzma/*.h
    (tmp_path / "src" / "mini" / "parts.h").write_text("int mini_part(int x);\n"
                                                       "int other_lib(int x);\n")
    umbrella = library(tmp_path, '#include "mini/parts.h"\n',
                       "int mini_part(int x) { return x; }\n")
    result, out = init(tmp_path, umbrella)
    # a gathered function the library does not export is not listed
    assert result.stdout.startswith("drafted 1 of 1 function (none left out)")
    spec = yaml.safe_load((out / "mini.yaml").read_text())
    assert [f["name"] for f in spec["functions"]] == ["mini_part"]
    # cited where it is declared
    assert "# parts.h:1\n  - name: mini_part" in (out / "mini.yaml").read_text()
