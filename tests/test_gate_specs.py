"""The gate when a pull request's spec is not the baseline's: each run is
made from a spec file of its own (kv1.yaml links version 1 of demolib,
kv2.yaml version 2, which dropped demo_count's NULL check), as a CI job
writes one spec per build.  New failures are run again with the gated
run's spec, so against the library that failed."""
import subprocess

from conftest import ROOT, trebuchet
from test_gate import expected_regression
from trebuchet.build import plugins as build
from trebuchet.spec import load as specs


def spec_of_version(folder, version):
    """kvN.yaml in folder: demolib's spec, target kv, linking version N built
    beside it."""
    lib = folder / f"v{version}" / "libdemo.so"
    lib.parent.mkdir(exist_ok=True)
    flags = ["-DDEMOLIB_DROP_NULL_CHECK"] if version == 2 else []
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", *flags, "-o", lib,
                    ROOT / "tests/demolib/demolib.c"], check=True)
    (folder / "demolib.h").write_text((ROOT / "tests/demolib/demolib.h").read_text())
    text = (ROOT / "tests/demolib/demolib.yaml").read_text()
    spec = folder / f"kv{version}.yaml"
    spec.write_text(text.replace("target: demolib", "target: kv")
                    .replace("build/tests/demolib/libdemo.so", str(lib)))
    return spec


def run(spec, db, *args):
    trebuchet("run", "--target", spec, "--db", db, "--quiet", *args)


def test_new_failures_are_run_again_with_the_gated_run_s_spec(tmp_path):
    db, baseline = tmp_path / "kv.db", tmp_path / "kv.baseline"
    kv1, kv2 = spec_of_version(tmp_path, 1), spec_of_version(tmp_path, 2)
    run(kv1, db, "--functions", "demo_count")
    trebuchet("baseline", "--db", db, "--target", kv1, "--out", baseline)
    run(kv2, db, "--functions", "demo_count")
    plugin = build.plugin_path(specs.load(kv2))
    plugin.unlink()  # as in a CI job of its own: the gate builds it, saying nothing of that
    result = trebuchet("gate", "--db", db, "--baseline", baseline, "--confirm", "1",
                       check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith("gate kv: ") and not result.stderr
    assert f"new failures: {len(expected_regression())}, each run again once on its own: " \
           f"{len(expected_regression())} confirmed, 0 flaky" in result.stdout
    # the repro commands name the spec that reproduces them
    assert f"trebuchet repro --target {kv2} --function demo_count" in result.stdout
    # the reproducers, without reruns: each case run once, on the plugin built again
    plugin.unlink()
    emitted = trebuchet("gate", "--db", db, "--baseline", baseline, "--confirm", "0",
                        "--emit-c", tmp_path / "repro", check=False)
    assert emitted.returncode == 1, emitted.stdout + emitted.stderr
    assert emitted.stdout.startswith("gate kv: ") and not emitted.stderr
    assert not [line for line in emitted.stdout.splitlines() if line.startswith("building")]
    assert len(list((tmp_path / "repro").iterdir())) == 1  # by finding: one new finding
