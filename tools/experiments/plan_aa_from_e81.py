#!/usr/bin/env python3
"""Session 23, call 2: plan AA = plan Z with the ranges E81 wins (wgmma_tma with no K split and
plain stores, st1: cuBLAS's own 128 x 128 / 128 x 64 tiling on our TMA ring), by session 22's rule,
fixed before the run (plan_rule.best_candidate): per incumbent range, a candidate's span is the run
of measured M it gains >= 0 at that holds the most scored M with a gain >= +1 % (to the range's edge
where the run reaches its first / last measured M); only candidates with a passing `projkit check`
over the range (check-<config>.txt) count; of the candidates of one range the one with the largest
mean gain over the scored M of its span moves. gain = min(ratio gain, time gain) - 1 over the two
runs of each config, against the incumbent (each case's first config; for o at M >= 33 the
baseline, which plan Z runs there).
- o M 65..128 (baseline) against bm64.st1 / bm64.wsl1.st1, measured at 65 / 96 / 128;
- o M 129..256 (baseline) against bm128.st1 / bm128.wsl1.st1, measured at 129 / 160 / 192 / 224 / 256;
- unpooler M 128 (bm128.split2 ki1) against bm64.st1 / bm64.wsl1.st1, measured at 128;
- unpooler M 224..256 (bm256.split2 ki1) against bm128.st1 / bm128.wsl1.st1, measured at 224 / 240 / 256.
Usage: plan_aa_from_e81.py AB_DIR PLAN_IN PLAN_OUT
(The per-range loop moved into plan_rule.move_ranges after the call, in the session's review; on the
call's files the rule prints the same lines.)"""
import sys

from plan_rule import rule_main

W = 'wgmma_tma.bn128.'
ST64, ST128 = W + 'bm64.split1.mc1.stages8.xfit1.red5.rk1', W + 'bm128.split1.mc1.stages6.xfit1.red5.rk1'
C64, C128 = [ST64 + '.st1', ST64 + '.wsl1.st1'], [ST128 + '.st1', ST128 + '.wsl1.st1']
UNP128 = W + 'bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1'
UNP256 = W + 'bm256.split2.mc1.stages4.xfit1.red5.rk1.ki1'
RANGES = [('o', 'baseline', C64, (65, 128), (65, 96, 128)),
          ('o', 'baseline', C128, (129, 256), (129, 160, 192, 224, 256)),
          ('unpooler', UNP128, C64, (128, 128), (128,)),
          ('unpooler', UNP256, C128, (224, 256), (224, 240, 256))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e81', 'E81', RANGES, 'AA')
