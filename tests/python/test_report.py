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
