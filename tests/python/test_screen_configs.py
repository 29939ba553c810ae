"""tools/screen_configs.py: reading the applicable M ranges from `projkit info`."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import screen_configs  # noqa: E402

INFO = """projkit 0.1.0 (git abc)
kernel families:
  router_hilo_wgmma: router M 33..256: ...
    router_hilo_wgmma.split32.wgn1  applies to: router[M 1..256]
    router_hilo_wgmma.split16.wgn1  applies to: router[M 1..192]
  gemv_stream: streaming GEMV
    gemv_stream.rows4.warps4  applies to: qkv[M 1..8] pooler[M 1..8] unpooler[M 1..2,9..12]
"""


def test_ranges_become_lo_mid_hi_per_family(monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, INFO, ""))
    got = screen_configs.applicable("projkit", ["router_hilo_wgmma"])
    assert got == [("router_hilo_wgmma.split32.wgn1", "router", [1, 128, 256]),
                   ("router_hilo_wgmma.split16.wgn1", "router", [1, 96, 192])]


def test_only_the_named_kernels_and_every_range(monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, INFO, ""))
    got = screen_configs.applicable("projkit", ["gemv_stream"])
    assert ("gemv_stream.rows4.warps4", "unpooler", [1, 2]) in got
    assert ("gemv_stream.rows4.warps4", "unpooler", [9, 10, 12]) in got
    assert all(cfg.startswith("gemv_stream.") for cfg, _, _ in got)
    assert len(got) == 4
