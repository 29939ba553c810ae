"""`projkit report` renderer (python/projkit/report.py) on a committed H200 bench result."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
pytest.importorskip("matplotlib")

from projkit import report  # noqa: E402

EXAMPLE = ROOT / "tests" / "data" / "bench-example.json"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_renders_every_case_and_figures(tmp_path):
    paths = report.render(EXAMPLE, tmp_path)
    data = json.loads(EXAMPLE.read_text())
    md = (tmp_path / "report.md").read_text()
    assert f"{data['score']:.4f}" in md
    for fam in {c["family"] for c in data["cases"]}:
        assert f"## {fam} " in md
    for c in data["cases"]:
        row = f"| {c['m']} | `{c['method']}` | {c['base_us']:.2f} | {c['cand_us']:.2f} | {c['ratio']:.3f} |"
        assert row in md, row
    for l in data["loads"]:
        assert f"| {l['m']} | {l['speedup']:.3f}× |" in md
    for name in (report.HEATMAP, report.LATENCY):
        png = tmp_path / name
        assert png in paths
        blob = png.read_bytes()
        assert blob.startswith(PNG_MAGIC)
        assert len(blob) > 10_000, f"{name} is only {len(blob)} bytes"


def test_m_sweep_renders(tmp_path):
    data = json.loads(EXAMPLE.read_text())
    base = data["cases"][0]
    data["cases"] = [dict(base, m=m) for m in range(1, 257)]
    src = tmp_path / "sweep.json"
    src.write_text(json.dumps(data))
    report.render(src, tmp_path / "out")
    assert (tmp_path / "out" / report.HEATMAP).stat().st_size > 10_000


def test_rejects_other_schema(tmp_path):
    src = tmp_path / "check.json"
    src.write_text(json.dumps({"schema": "projkit.check/1"}))
    with pytest.raises(report.ReportError, match="projkit.bench/1"):
        report.load(src)
    assert report.main([str(src), "--out", str(tmp_path)]) == 2


def test_reads_an_xz_compressed_result_as_results_keeps_them(tmp_path):
    # results/ keeps its larger device files as FILE.xz (session 59): the same result, compressed,
    # renders the same report.
    import lzma

    src = tmp_path / "bench.json.xz"
    src.write_bytes(lzma.compress(EXAMPLE.read_bytes()))
    report.render(src, tmp_path / "xz")
    report.render(EXAMPLE, tmp_path / "plain")
    assert (tmp_path / "xz" / "report.md").read_text() == (tmp_path / "plain" / "report.md").read_text()


def test_refuses_a_truncated_xz_or_binary_file_naming_it(tmp_path):
    import lzma

    cut = tmp_path / "cut.json.xz"
    cut.write_bytes(lzma.compress(EXAMPLE.read_bytes())[:200])
    with pytest.raises(report.ReportError, match="cut.json.xz' is not a readable xz file"):
        report.load(cut)
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(report.ReportError, match="junk.json' is not UTF-8 text"):
        report.load(junk)
    assert report.main([str(junk), "--out", str(tmp_path)]) == 2
