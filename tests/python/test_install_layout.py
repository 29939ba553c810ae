"""`cmake --install` of this build, used from its install prefix with nothing pointing back at the
checkout (no GPU needed): the binding finds the installed library, the library finds the installed
plans (next to itself, ahead of the source tree it was built from), $PROJKIT_PLAN_DIR still comes
first, a C++ program builds against the installed headers and library, and the installed CLI finds
the installed report renderer.

The build is the one whose library PROJKIT_LIB names (ctest passes it through tests/run_pytest.sh).
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, projkit
print(json.dumps({"lib": projkit.library()._name, "h200": projkit.plan_file("NVIDIA H200"),
                  "serving": projkit.plan_file("NVIDIA H100 80GB HBM3", "serving"),
                  "b200": projkit.plan_file("NVIDIA B200"), "families": list(projkit.families())}))
"""


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    lib = os.environ.get("PROJKIT_LIB", "")
    build = Path(lib).parent if lib else None
    if not build or not (build / "cmake_install.cmake").exists():
        pytest.skip(f"PROJKIT_LIB={lib!r} is not in a CMake build directory: nothing to install")
    if not shutil.which("cmake"):
        pytest.skip("cmake not found: cannot run cmake --install")
    out = tmp_path_factory.mktemp("install") / "prefix"
    p = subprocess.run(["cmake", "--install", str(build), "--prefix", str(out)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    return out


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROJKIT_") and k != "PYTHONPATH"}
    env.update(extra)
    return env


def probe(prefix, cwd, **extra):
    p = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=cwd, timeout=60,
                       env=clean_env(PYTHONPATH=str(prefix / "lib" / "python"), **extra))
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)


def test_the_install_holds_library_headers_plans_cli_and_binding(prefix):
    for rel in ("lib/libprojkit.so", "include/projkit/projkit.h", "include/projkit/projkit.hpp",
                "share/projkit/plans/h200.json", "share/projkit/plans/serving/h100-80gb-hbm3.json",
                "lib/python/projkit/__init__.py", "lib/python/projkit/nn.py", "lib/python/projkit/report.py"):
        assert (prefix / rel).is_file(), rel
    assert not (prefix / "share/projkit/plans/tune-logs").exists(), "the tune logs are not a user's file"
    shipped = sorted(p.relative_to(ROOT / "plans").as_posix() for p in (ROOT / "plans").rglob("*.json"))
    installed = sorted(p.relative_to(prefix / "share/projkit/plans").as_posix()
                       for p in (prefix / "share/projkit/plans").rglob("*.json"))
    assert installed == shipped


def test_the_installed_binding_finds_the_installed_library_and_plans(prefix, tmp_path):
    r = probe(prefix, tmp_path)
    assert Path(r["lib"]).resolve() == (prefix / "lib" / "libprojkit.so").resolve()
    assert Path(r["h200"]).resolve() == (prefix / "share/projkit/plans/h200.json").resolve()
    assert Path(r["serving"]).resolve() == (prefix / "share/projkit/plans/serving/h100-80gb-hbm3.json").resolve()
    assert r["b200"] is None
    assert r["families"] == ["qkv", "o", "pooler", "unpooler", "router"]


def test_plan_dir_from_the_environment_comes_first(prefix, tmp_path):
    own = tmp_path / "own-plans"
    own.mkdir()
    (own / "h200.json").write_text("{}")
    r = probe(prefix, tmp_path, PROJKIT_PLAN_DIR=str(own))
    assert Path(r["h200"]).resolve() == (own / "h200.json").resolve()
    assert Path(r["serving"]).resolve() == (prefix / "share/projkit/plans/serving/h100-80gb-hbm3.json").resolve()


def test_a_cpp_program_builds_against_the_install(prefix, tmp_path):
    cxx = shutil.which("g++") or shutil.which("c++")
    cuda_include = next((d for d in ("/usr/local/cuda/include", "/usr/local/cuda-13.0/include")
                         if Path(d, "cuda_runtime.h").exists()), None)
    if not cxx or not cuda_include:
        pytest.skip("no C++ compiler or CUDA headers (projkit.hpp includes cuda_runtime.h)")
    src = tmp_path / "use.cpp"
    src.write_text('#include <projkit/projkit.h>\n#include <projkit/projkit.hpp>\n#include <cstdio>\n'
                   'int main() {\n  char buf[4096];\n'
                   '  const pkStatus s = pk_plan_file("NVIDIA H200", nullptr, buf, sizeof buf);\n'
                   '  std::printf("%d %s %s\\n", int(s), projkit::kVersion, buf);\n  return s == PK_OK ? 0 : 1;\n}\n')
    exe = tmp_path / "use"
    lib = prefix / "lib"
    p = subprocess.run([cxx, "-std=c++20", str(src), f"-I{prefix / 'include'}", f"-I{cuda_include}", f"-L{lib}",
                        "-lprojkit", f"-Wl,-rpath,{lib}", "-o", str(exe)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, env=clean_env(), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    status, _, path = p.stdout.strip().split(" ", 2)
    assert Path(path).resolve() == (prefix / "share/projkit/plans/h200.json").resolve()


def test_the_installed_cli_renders_a_report_with_the_installed_renderer(prefix, tmp_path):
    cli = prefix / "bin" / "projkit"
    if not cli.exists():
        pytest.skip("the build has no CLI (PROJKIT_BUILD_TOOLS=OFF)")
    pytest.importorskip("matplotlib")
    out = tmp_path / "report"
    p = subprocess.run([str(cli), "report", str(ROOT / "tests" / "data" / "bench-example.json"), "--out", str(out)],
                       capture_output=True, text=True, timeout=120, env=clean_env(), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (out / "report.md").is_file()
