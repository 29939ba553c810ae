"""Render a projkit.bench/1 result as markdown tables and PNG figures.

    python3 -m projkit.report RESULTS.json --out DIR

writes DIR/report.md (a table per family: M, method, base µs, cand µs, ratio, × floor;
the load speedups and the score), DIR/speedup_heatmap.png (family × M) and
DIR/latency_vs_m.png (baseline and projkit latency per family with the read floor).
Pure Python + matplotlib (no torch): `projkit report` execs this module.
"""
from __future__ import annotations

import argparse
import json
import lzma
import sys
from pathlib import Path

SCHEMA = "projkit.bench/1"
HEATMAP = "speedup_heatmap.png"
LATENCY = "latency_vs_m.png"


class ReportError(RuntimeError):
    """The input cannot be rendered; the message says why."""


def load(path: str | Path) -> dict:
    """The result at path: JSON, or JSON compressed by xz (results/ keeps its larger device files as
    FILE.xz since session 59)."""
    try:
        raw = Path(path).read_bytes()
        if raw.startswith(b"\xfd7zXZ\x00"):
            raw = lzma.decompress(raw)
        data = json.loads(raw.decode("utf-8"))
    except OSError as e:
        raise ReportError(f"cannot read '{path}': {e.strerror}") from e
    except lzma.LZMAError as e:
        raise ReportError(f"'{path}' is not a readable xz file: {e}") from e
    except UnicodeDecodeError as e:
        raise ReportError(f"'{path}' is not UTF-8 text (JSON or xz-compressed JSON): {e}") from e
    except json.JSONDecodeError as e:
        raise ReportError(f"'{path}' is not JSON: {e}") from e
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ReportError(f"'{path}' is not a {SCHEMA} result (schema: {data.get('schema') if isinstance(data, dict) else None!r})")
    for key in ("cases", "loads", "score", "env"):
        if key not in data:
            raise ReportError(f"'{path}': missing field '{key}'")
    return data


def families(data: dict) -> list[str]:
    """Families in order of first appearance."""
    out: list[str] = []
    for c in data["cases"]:
        if c["family"] not in out:
            out.append(c["family"])
    return out


def markdown(data: dict, figures: bool = True) -> str:
    env = data["env"]
    lines = [
        f"# projkit bench on {env.get('gpu', '?')}",
        "",
        f"plan `{env.get('plan_source', '?')}` · git `{env.get('projkit_git_sha', '?')}` · "
        f"CUDA {env.get('cuda_runtime', '?')} · cuBLAS {env.get('cublas', '?')} · "
        f"L2 flush `{env.get('flush', '?')}` · replay overhead {data.get('overhead_us', 0.0):.2f} µs subtracted",
        "",
        f"**Score** (geometric mean of the load speedups): **{data['score']:.4f}×**",
        "",
        "| load M | speedup |",
        "|---:|---:|",
    ]
    lines += [f"| {l['m']} | {l['speedup']:.3f}× |" for l in data["loads"]]
    for fam in families(data):
        cases = sorted((c for c in data["cases"] if c["family"] == fam), key=lambda c: c["m"])
        c0 = cases[0]
        lines += ["", f"## {fam} (N={c0['n']}, K={c0['k']}, W {c0.get('weight_dtype', 'bf16')})", "",
                  "| M | method | base µs | cand µs | ratio | × floor |", "|---:|---|---:|---:|---:|---:|"]
        for c in cases:
            lines.append(f"| {c['m']} | `{c['method']}` | {c['base_us']:.2f} | {c['cand_us']:.2f} | "
                         f"{c['ratio']:.3f} | {c['over_floor']:.2f} |")
    if figures:
        lines += ["", "## Figures", "", f"![speedup heatmap]({HEATMAP})", "", f"![latency vs M]({LATENCY})"]
    return "\n".join(lines) + "\n"


def _pyplot():
    try:
        import matplotlib
    except ImportError as e:
        raise ReportError("matplotlib is missing: python3 -m pip install matplotlib") from e
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def heatmap(data: dict, path: Path) -> None:
    plt = _pyplot()
    fams = families(data)
    ms = sorted({c["m"] for c in data["cases"]})
    grid = [[float("nan")] * len(ms) for _ in fams]
    for c in data["cases"]:
        grid[fams.index(c["family"])][ms.index(c["m"])] = c["ratio"]
    fig, ax = plt.subplots(figsize=(1.0 + 0.9 * min(len(ms), 16), 1.2 + 0.6 * len(fams)), dpi=120)
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0.5, vmax=1.5, aspect="auto")
    dense = len(ms) <= 16  # an M sweep gets sparse ticks and no cell labels
    ticks = range(len(ms)) if dense else range(0, len(ms), max(1, len(ms) // 16))
    ax.set_xticks(list(ticks), [str(ms[j]) for j in ticks])
    ax.set_yticks(range(len(fams)), fams)
    ax.set_xlabel("M")
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if dense and v == v:  # not NaN
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="speedup over baseline (×)")
    ax.set_title(f"projkit speedup · score {data['score']:.3f}×")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def latency(data: dict, path: Path) -> None:
    plt = _pyplot()
    fams = families(data)
    cols = min(len(fams), 3)
    rows = (len(fams) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), dpi=110, squeeze=False)
    for ax, fam in zip(axes.flat, fams):
        cases = sorted((c for c in data["cases"] if c["family"] == fam), key=lambda c: c["m"])
        ms = [c["m"] for c in cases]
        ax.plot(ms, [c["base_us"] for c in cases], "o-", label="baseline (cuBLAS)")
        ax.plot(ms, [c["cand_us"] for c in cases], "s-", label="projkit")
        ax.plot(ms, [c["floor_us"] for c in cases], "k--", label="read floor")
        ax.set_xscale("log", base=2)
        if len(ms) <= 16:
            ax.set_xticks(ms, [str(m) for m in ms])
        ax.set_ylim(bottom=0)
        ax.set_title(fam)
        ax.set_xlabel("M")
        ax.set_ylabel("µs per call")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(fams):]:
        ax.set_visible(False)
    axes.flat[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def render(results: str | Path, out: str | Path) -> list[Path]:
    """Writes report.md and the two figures into out; returns their paths."""
    data = load(results)
    _pyplot()  # fail before writing anything when matplotlib is missing
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    md = out / "report.md"
    md.write_text(markdown(data))
    heatmap(data, out / HEATMAP)
    latency(data, out / LATENCY)
    return [md, out / HEATMAP, out / LATENCY]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="projkit report", description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="projkit.bench/1 JSON (projkit bench --json), or that JSON as FILE.xz")
    ap.add_argument("--out", default=".", help="directory for report.md and the figures")
    args = ap.parse_args(argv)
    try:
        for p in render(args.results, args.out):
            print(f"wrote {p}")
    except ReportError as e:
        print(f"projkit report: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
