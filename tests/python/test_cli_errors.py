"""The projkit CLI refuses bad arguments with an error that names the violated constraint, and does
so before any GPU work: every case here fails the same way on a machine with no GPU (CI) as on the
card, and never reaches the device query ("no CUDA device ...") or a crash (a signal).

The executable is this build's `projkit` (PROJKIT_CLI; ctest passes it through tests/run_pytest.sh).
"""
import os
import subprocess

import pytest

NOPE = "/nonexistent-projkit-dir"


@pytest.fixture(scope="module")
def cli():
    path = os.environ.get("PROJKIT_CLI", "")
    if not path:
        pytest.skip("PROJKIT_CLI not set: no projkit executable to test (build with PROJKIT_BUILD_TOOLS=ON)")
    if not os.access(path, os.X_OK):
        pytest.fail(f"PROJKIT_CLI={path!r} is not an executable file")
    return path


def run_cli(cli, args):
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def assert_refused(rc, out, expected):
    assert rc > 0, f"exit {rc} (a negative code is a signal): {out}"
    assert "no CUDA device" not in out, f"the argument was not checked before the device query: {out}"
    assert expected in out, f"expected {expected!r} in: {out}"


# (arguments, text the error must contain)
CASES = [
    # bench
    (["bench", "--flush", "sideways"], "flush mode must be 'write' or 'read', got 'sideways'"),
    (["bench", "--m-sweep", "0..5"], "M must be >= 1"),
    (["bench", "--m-sweep", "5..2"], "range 5..2 is empty"),
    (["bench", "--loads", "1", "--m-sweep", "1..2"], "--loads and --m-sweep are exclusive"),
    (["bench", "--method", "baseline", "--plan", "safe"], "--method and --plan are exclusive"),
    (["bench", "--method", "baseline", "--baseline-vs-baseline"], "--method and --baseline-vs-baseline are exclusive"),
    (["bench", "--pairs", "10"], "--pairs: Value 10 not in range 50"),
    (["bench", "--copies", "4"], "--copies: Value 4 not in range 8"),
    (["bench", "--families", "qkv,foo"], "no family 'foo'"),
    (["bench", "--ballast-touch"], "--ballast-before / --ballast-touch need --ballast"),
    (["bench", "--json", f"{NOPE}/b.json"], f"--json '{NOPE}/b.json': directory '{NOPE}' does not exist"),
    (["bench", "--workload", f"{NOPE}/w.json"], f"workload file '{NOPE}/w.json' cannot be opened"),
    (["bench", "--no-such-option"], "--no-such-option"),
    # check
    (["check", "--m", "0"], "M must be >= 1"),
    (["check", "--families", "foo"], "no family 'foo'"),
    (["check", "--method", "baseline", "--plan", "safe"], "--method and --plan are exclusive"),
    (["check", "--seeds", "0"], "--seeds: Value 0 not in range 1"),
    (["check", "--json", f"{NOPE}/c.json"], f"--json '{NOPE}/c.json': directory '{NOPE}' does not exist"),
    # floor
    (["floor", "--flush", "sideways"], "flush mode must be 'write' or 'read', got 'sideways'"),
    (["floor", "--fill", "sand"], "floor fill must be 'zero' or 'weights' (got 'sand')"),
    (["floor", "--workload", f"{NOPE}/w.json"], f"workload file '{NOPE}/w.json' cannot be opened"),
    (["floor", "--json", f"{NOPE}/f.json"], f"--json '{NOPE}/f.json': directory '{NOPE}' does not exist"),
    # tune (--log is required; LOG stands for a writable path in a fresh directory)
    (["tune"], "--log is required"),
    (["tune", "--log", "LOG", "--m", "300"], "M must be in [1, 256], got 300"),
    (["tune", "--log", "LOG", "--families", "foo"], "foo"),
    (["tune", "--log", "LOG", "--kernels", "nope"], "unknown kernel 'nope' in --kernels"),
    (["tune", "--log", "LOG", "--pairs", "10"], "--pairs must be >= 60, got 10"),
    (["tune", "--log", "LOG", "--screen-pairs", "2"], "--screen-pairs must be >= 4, got 2"),
    (["tune", "--log", "LOG", "--margin", "1.5"], "--margin must be in [0, 1)"),
    (["tune", "--log", "LOG", "--flush", "sideways"], "--flush must be 'write' or 'read', got 'sideways'"),
    (["tune", "--log", "LOG", "--resume", f"{NOPE}/r.jsonl"], f"--resume file '{NOPE}/r.jsonl' cannot be opened"),
    (["tune", "--log", f"{NOPE}/t.jsonl"], f"--log '{NOPE}/t.jsonl': directory '{NOPE}' does not exist"),
    (["tune", "--log", "LOG", "--out", f"{NOPE}/p.json"], f"--out '{NOPE}/p.json': directory '{NOPE}' does not exist"),
    # a negative device ordinal, in every subcommand that opens a device
    (["bench", "--device", "-1"], "--device: Value -1 not in range 0"),
    (["check", "--device", "-1"], "--device: Value -1 not in range 0"),
    (["floor", "--device", "-1"], "--device: Value -1 not in range 0"),
    (["info", "--device", "-1"], "--device: Value -1 not in range 0"),
    (["tune", "--log", "LOG", "--device", "-1"], "--device: Value -1 not in range 0"),
    # no subcommand
    ([], "A subcommand is required"),
]


@pytest.mark.parametrize("args,expected", CASES, ids=[" ".join(a) or "(none)" for a, _ in CASES])
def test_cli_refuses_a_bad_argument_before_any_gpu_work(cli, tmp_path, args, expected):
    log = tmp_path / "tune.jsonl"
    args = [str(log) if a == "LOG" else a for a in args]
    rc, out = run_cli(cli, args)
    assert_refused(rc, out, expected)
    assert not log.exists(), "a refused tune must not create its log"


def test_cli_refuses_a_malformed_workload_file_naming_it(cli, tmp_path):
    w = tmp_path / "bad-workload.json"
    w.write_text("{bad")
    for sub in ("bench", "floor"):
        rc, out = run_cli(cli, [sub, "--workload", str(w)])
        assert_refused(rc, out, f"{w}: workload: malformed JSON")


def test_tune_refuses_the_shipped_compressed_log_as_resume_naming_the_remedy(cli, tmp_path):
    # plans/tune-logs/ keeps the tune's log xz-compressed: --resume names the file and `xz -dk`.
    shipped = os.path.join(os.path.dirname(__file__), "..", "..", "plans", "tune-logs", "h200-tune.jsonl.xz")
    shipped = os.path.abspath(shipped)
    assert os.path.exists(shipped), shipped
    log = tmp_path / "tune.jsonl"
    rc, out = run_cli(cli, ["tune", "--log", str(log), "--resume", shipped])
    assert_refused(rc, out, f"--resume {shipped}: the tune log is xz-compressed")
    assert "xz -dk" in out, out
    assert not log.exists(), "a refused tune must not create its log"


def test_cli_refuses_a_json_path_that_is_a_directory(cli, tmp_path):
    rc, out = run_cli(cli, ["check", "--json", str(tmp_path)])
    assert_refused(rc, out, f"--json '{tmp_path}' is a directory")


def test_cli_refuses_a_json_path_in_a_read_only_directory(cli, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user who can write a 0555 directory (root): the check cannot fail here")
        rc, out = run_cli(cli, ["bench", "--json", str(ro / "b.json")])
        assert_refused(rc, out, f"--json '{ro / 'b.json'}': directory '{ro}' is not writable")
    finally:
        ro.chmod(0o755)


def test_report_refuses_a_missing_or_foreign_result(cli, tmp_path, monkeypatch):
    repo_python = os.path.join(os.path.dirname(__file__), "..", "..", "python")
    monkeypatch.setenv("PROJKIT_PYTHON_DIR", os.path.abspath(repo_python))
    rc, out = run_cli(cli, ["report", f"{NOPE}/r.json", "--out", str(tmp_path)])
    assert_refused(rc, out, f"cannot read '{NOPE}/r.json'")
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"schema": "something/else"}')
    rc, out = run_cli(cli, ["report", str(foreign), "--out", str(tmp_path)])
    assert_refused(rc, out, "is not a projkit.bench/1 result")
    assert not (tmp_path / "report.md").exists(), "a refused report must write nothing"
    monkeypatch.setenv("PROJKIT_PYTHON_DIR", str(tmp_path))
    rc, out = run_cli(cli, ["report", str(foreign)])
    assert_refused(rc, out, f"$PROJKIT_PYTHON_DIR='{tmp_path}' has no projkit/report.py")
