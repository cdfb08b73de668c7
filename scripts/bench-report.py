#!/usr/bin/env python3
"""Turn the raw lines of `make bench` (in DIR) into DIR/report.md and
DIR/summary.txt. Every figure comes from those lines."""
import os
import re
import statistics
import sys

out = sys.argv[1]


def lines(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return []
    return [dict(re.findall(r'(\w+)=(\S+)', l)) for l in open(path)]


def med(xs):
    return statistics.median(xs) if xs else float('nan')


report, summary = [], []
report.append('# Fork bomb killer: benchmark report\n')
report.append('Guests under QEMU TCG. Fork and exec costs: 1 vCPU with `-icount shift=0,sleep=off` '
              '(the guest clock counts instructions); each round times N operations.\n')

# 1. overhead
per_kernel = {}
for k in ('patched', 'nofbk', 'stock'):
    per_kernel[k] = lines('overhead-%s.txt' % k)
if any(per_kernel.values()):
    report.append('## Fork and exec cost\n')
for kind, what in (('fork', 'fork+exit+wait'), ('exec', 'fork+exec+exit+wait')):
    rows = [r for r in per_kernel['patched'] if r.get('kind') == kind and 'round' in r]
    rounds = sorted({(r.get('boot', '1'), int(r['round'])) for r in rows})
    ratios = []
    if rounds:
        report.append('### %s, tracking on vs off in the same boot\n' % what)
        report.append('| boot | round | off (ns/op) | on (ns/op) | on/off |')
        report.append('|---:|---:|---:|---:|---:|')
    for b, n in rounds:
        this = [r for r in rows if r.get('boot', '1') == b and int(r['round']) == n]
        off = [float(r['ns_per_op']) for r in this if r['tracking'] == 'off']
        on = [float(r['ns_per_op']) for r in this if r['tracking'] == 'on']
        if off and on:
            ratios.append(on[0] / off[0])
            report.append('| %s | %d | %.0f | %.0f | %.4f |' % (b, n, off[0], on[0], ratios[-1]))
    if ratios:
        report.append('\nMedian ratio on/off: **%.4f** (min %.4f, max %.4f, %d rounds)\n'
                      % (med(ratios), min(ratios), max(ratios), len(ratios)))
        summary.append('%s, tracking on vs off (same boot, %d interleaved rounds): median ratio %.4f '
                       '(min %.4f, max %.4f)' % (what, len(ratios), med(ratios), min(ratios), max(ratios)))
    # Across kernels: medians of all rounds.
    m = {}
    for k, tracking in (('patched', 'on'), ('patched', 'off'), ('nofbk', 'none'), ('stock', 'none')):
        xs = [float(r['ns_per_op']) for r in per_kernel[k]
              if r.get('kind') == kind and r.get('tracking') == tracking]
        m[(k, tracking)] = med(xs)
    stock = m[('stock', 'none')]
    if stock == stock:
        report.append('### %s, across kernels (median of all rounds of all boots)\n' % what)
        report.append('| kernel | ns/op | vs stock |')
        report.append('|---|---:|---:|')
        for (k, tracking), label in (((('stock', 'none')), 'stock 6.12'),
                                      (('nofbk', 'none'), 'series applied, CONFIG_FORKBOMB_KILLER=n'),
                                      (('patched', 'off'), 'CONFIG_FORKBOMB_KILLER=y, tracking disabled'),
                                      (('patched', 'on'), 'CONFIG_FORKBOMB_KILLER=y, tracking enabled')):
            v = m[(k, tracking)]
            report.append('| %s | %.0f | %.4f |' % (label, v, v / stock))
        report.append('')
        spread = {}
        for k in ('patched', 'nofbk', 'stock'):
            per_boot = {}
            for r in per_kernel[k]:
                if r.get('kind') == kind:
                    per_boot.setdefault(r.get('boot', '1'), []).append(float(r['ns_per_op']))
            spread[k] = [med(v) for v in per_boot.values()]
        if len(spread['stock']) > 1:
            report.append('Boot-to-boot: the median of one boot of the same kernel ranges over %s '
                          '(stock), so differences of that size across kernels are noise.\n'
                          % ', '.join('%.0f' % v for v in spread['stock']))
        summary.append('%s vs stock (medians, separate boots): CONFIG=n %.4f, disabled %.4f, enabled %.4f'
                       % (what, m[('nofbk', 'none')] / stock, m[('patched', 'off')] / stock,
                          m[('patched', 'on')] / stock))

# 2. records
recs = [r for r in lines('records.txt') if r.get('kind') == 'records']
scans = [r for r in lines('records.txt') if r.get('kind') == 'scan']
if recs:
    report.append('## History memory and scan time\n')
    report.append('| processes forked (all exited) | records | object size | slab size | memory | scan (median of 5) |')
    report.append('|---:|---:|---:|---:|---:|---:|')
    total = 0
    for i, r in enumerate(recs):
        total += int(r['processes'])
        s = [int(x['scan_ns']) for x in scans[i * 5:(i + 1) * 5]]
        mem = int(r['records_after']) * int(r['slab_size'])
        report.append('| %d | %s | %s B | %s B | %.1f MiB | %.2f ms |'
                      % (total, r['records_after'], r['object_size'], r['slab_size'],
                         mem / 2**20, med(s) / 1e6))
        summary.append('after %d processes: %s records of %s bytes (%s in the slab), %.1f MiB; '
                       'a scan takes %.2f ms' % (total, r['records_after'], r['object_size'],
                                                 r['slab_size'], mem / 2**20, med(s) / 1e6))
    report.append('\nThe scan time is that of the debugfs dry run: the OOM scan without the kill, '
                  'in a 2-vCPU TCG guest (slower than hardware).\n')

# 3. precision
if lines('precision.txt'):
    report.append('## Precision: fork bombs and busy programs, patched vs stock\n')
    report.append('| case | kind | kernel | exhausted at | recovered after exhaustion | bomb processes left '
                  '| fork bomb kills (tasks) | ordinary OOM victims | parent | bystander |')
    report.append('|---|---|---|---:|---|---:|---:|---:|---|---|')
bombs_ok = busy_ok = bombs = busy = 0
worst = 0.0
for r in lines('precision.txt'):
    if r.get('failed'):
        report.append('| %s | | %s | (guest failed) | | | | | | |' % (r['case'], r['kernel']))
        continue
    ex, rec = float(r['exhausted']), float(r['recovered'])
    fbk = '-' if r['fbk_kills'] == '-1' else '%s (%s)' % (r['fbk_kills'], r['fbk_tasks'])
    if r['kind'] == 'bomb':
        after = 'never (within the window)' if rec < 0 else \
            '%.1f s' % max(rec - max(ex, 0), 0)
        if r['kernel'] == 'patched':
            bombs += 1
            if rec >= 0 and r['left'] == '0':
                bombs_ok += 1
                worst = max(worst, rec - max(ex, 0))
    else:
        after = ''
        if r['kernel'] == 'patched':
            busy += 1
            busy_ok += r['fbk_kills'] == '0' and r['parent'] == 'alive'
    report.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |'
                  % (r['case'], r['kind'], r['kernel'],
                     '%.1f s' % ex if ex >= 0 else 'never',
                     after, r['left'] if r['kind'] == 'bomb' else '',
                     fbk, r['oom_victims'], r['parent'], r['bystander']))
if lines('precision.txt'):
    report.append('\nExhausted: the first OOM kill or failed fork, in seconds from the start of the case. '
                  'Recovered: the bomb is gone and a bystander forks in under 50 ms again. '
                  'Ordinary OOM victims: the OOM killer\'s own reports in the kernel log.\n')
if bombs or busy:
    summary.append('precision (patched): %d of %d bombs gone for good, the slowest %.1f s after exhaustion; '
                   '%d of %d busy programs left to the ordinary OOM killer with their parent alive'
                   % (bombs_ok, bombs, worst, busy_ok, busy))

# 4. the big bomb
big = [r for r in lines('bigbomb.txt') if r.get('tracking') and 'peak' in r or r.get('failed')]
if big:
    report.append('## A bomb of 100,000 processes (threads-max, 14 GiB guest, 2 vCPUs)\n')
    report.append('| tracking | processes at the limit | exhausted at | bomb gone after | recovered after '
                  '| tasks killed | scan | kill | longest irqs-off (where) | real-time probe, worst: growth / kill '
                  '| bystander fork(), worst: growth / kill |')
    report.append('|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|')
for r in big:
    if r.get('failed'):
        report.append('| %s | (guest failed) | | | | | | | | | |' % r['tracking'])
        continue
    ex = float(r['exhausted'])
    base = ex if r['tracking'] == 'on' else float(r['killed_at'])
    gone = float(r['empty'])
    rec = float(r['recovered'])
    secs = (lambda v: '%.1f s' % (v - base) if v >= 0 and base >= 0 else 'never')
    ms = (lambda v: '%.1f ms' % (int(v) / 1000) if int(v) >= 0 else '-')
    report.append('| %s | %s | %.1f s | %s | %s | %s | %s | %s | %s us (%s) | %s / %s ms | %s / %s ms |'
                  % (r['tracking'], r['peak'], ex, secs(gone), secs(rec),
                     r['fbk_tasks'] if r['tracking'] == 'on' else '- (cgroup.kill)',
                     ms(r['scan_us']), ms(r['kill_us']), r['irqsoff_us'], r['irqsoff_at'],
                     r['rt_grow_ms'], r['rt_kill_ms'], r['fork_grow_ms'], r['fork_kill_ms']))
    if r['tracking'] == 'on':
        summary.append('a bomb of %s processes at threads-max (2 vCPUs): gone %s after exhaustion, '
                       'recovered %s; scan %s, kill %s; longest irqs-off %s us; worst real-time '
                       'wake-up during the kill %s ms, bystander fork() %s ms'
                       % (r['peak'], secs(gone), secs(rec), ms(r['scan_us']), ms(r['kill_us']),
                          r['irqsoff_us'], r['rt_kill_ms'], r['fork_kill_ms']))
# The kill against cgroup.kill, each from its own decision: for the fork bomb
# killer, the end of its scan; for cgroup.kill, the write.
on = [r for r in big if r.get('tracking') == 'on' and not r.get('failed')]
off = [r for r in big if r.get('tracking') == 'off' and not r.get('failed')]
if on and off and float(on[0]['empty']) >= 0 and float(off[0]['empty']) >= 0:
    r, b = on[0], off[0]
    decided = float(r['exhausted']) + max(int(r['scan_us']), 0) / 1e6
    killer = float(r['empty']) - decided
    baseline = float(b['empty']) - float(b['killed_at'])
    report.append('\nFrom the decision to the last process gone: fork bomb killer %.1f s (decided '
                  '%.2f s after exhaustion), `cgroup.kill` %.1f s: ratio **%.2f** (target 1.2; the '
                  'decision within 1 s: %s).\n'
                  % (killer, decided - float(r['exhausted']), baseline, killer / baseline,
                     'met' if decided - float(r['exhausted']) <= 1 else 'not met'))
    summary.append('a bomb of %s processes: gone %.1f s after the kill decision, against %.1f s '
                   'after cgroup.kill of the same bomb (ratio %.2f)'
                   % (r['peak'], killer, baseline, killer / baseline))
if big:
    report.append('\nTracking on: the fork bomb killer removes the bomb; times count from the first '
                  'failed fork. Tracking off (the kernel as without the feature): the bomb stays at '
                  'the limit until the bench removes it with `cgroup.kill` after 20 s; times count from '
                  'that write. "Growth": from the start of the bomb to that moment; "kill": from it to '
                  'recovered. The real-time probe (SCHED_FIFO, one per CPU, 1 ms period) measures how '
                  'long the kernel ran without a point where it could switch to it; irqs-off comes from '
                  'the irqsoff tracer (function tracing off), over the whole boot.\n')

# 5. locks
storms = [r for r in lines('locks.txt') if r.get('kind') == 'lockstorm']
stats = [r for r in lines('locks.txt') if r.get('kind') == 'lockstat']
if stats:
    report.append('## Lock statistics of a fork+exit storm (CONFIG_LOCK_STAT, 2 vCPUs)\n')
    for r in storms:
        report.append('- tracking %s: %s forks+exits on %s CPUs in %s s' %
                      (r['tracking'], r['forks'], r['cpus'], r['seconds']))
    report.append('\n| tracking | lock class | acquisitions | contentions | wait max | wait total '
                  '| hold max | hold total | hold avg |')
    report.append('|---|---|---:|---:|---:|---:|---:|---:|---:|')
    for r in stats:
        count = (lambda k: '%.0f' % float(r[k]) if k in r else '?')
        report.append('| %s | %s | %s | %s | %s us | %s us | %s us | %s us | %s us |'
                      % (r['tracking'], r['class'], count('acquisitions'),
                         count('contentions'), r.get('wait_max_us', '?'),
                         r.get('wait_total_us', '?'), r.get('hold_max_us', '?'),
                         r.get('hold_total_us', '?'), r.get('hold_avg_us', '?')))
    report.append('\nTimes are lockdep\'s, on a kernel slowed by its bookkeeping: they compare the '
                  'locks with each other. `-W`/`-R`: taken for writing/reading.\n')
    for r in stats:
        if r['tracking'] == 'on' and r['class'] in ('fbk_lock', 'tasklist_lock-W'):
            summary.append('fork+exit storm, tracking on: %s acquired %.0f times, %.0f contended, '
                           'held %s us at most, %s us on average'
                           % (r['class'], float(r.get('acquisitions', 'nan')),
                              float(r.get('contentions', 'nan')), r.get('hold_max_us'),
                              r.get('hold_avg_us')))

# 6. scoped cost
scoped = lines('scoped.txt')
if scoped:
    report.append('## What a small cgroup\'s trigger costs, alone and beside many processes (8 GiB guest, 2 vCPUs)\n')
    report.append('A cgroup of 100 idle processes. memcg OOM: a hog in it (memory.max 32M) allocates '
                  'until killed, timed from its start to its death. pids.max: with pids.max at '
                  'pids.current, a process of the cgroup forks once a second, each failing fork() '
                  'timed. Scan: the longest forkbomb:forkbomb_scan of each round. Medians of the rounds.\n')
    report.append('| kernel | others | memcg OOM: hog killed after | its scan | failing fork() | its scan |')
    report.append('|---|---:|---:|---:|---:|---:|')
    for k in ('stock', 'patched'):
        if any(r.get('kernel') == k and r.get('failed') for r in scoped):
            report.append('| %s | (guest failed) | | | | |' % k)
            continue
        for others in sorted({int(r['others']) for r in scoped if r.get('kernel') == k and 'others' in r}):
            rows = [r for r in scoped if r.get('kernel') == k and r.get('others') == str(others)]
            col = (lambda kind, key: [float(r[key]) for r in rows if r['kind'] == kind and float(r[key]) >= 0])
            fmt = (lambda xs, unit, scale: '%.2f %s' % (med(xs) * scale, unit) if xs else '-')
            report.append('| %s | %d | %s | %s | %s | %s |'
                          % (k, others, fmt(col('memcg_oom', 'ms'), 'ms', 1),
                             fmt(col('memcg_oom', 'scan_us'), 'ms', 1e-3),
                             fmt(col('pids_fork_fail', 'ms'), 'ms', 1),
                             fmt(col('pids_fork_fail', 'scan_us'), 'ms', 1e-3)))
            if k == 'patched':
                summary.append('a cgroup of 100 processes beside %d others: memcg OOM scan %s, pids.max scan %s'
                               % (others, fmt(col('memcg_oom', 'scan_us'), 'ms', 1e-3),
                                  fmt(col('pids_fork_fail', 'scan_us'), 'ms', 1e-3)))

# 7. unprivileged abuse
abuse = [r for r in lines('abuse.txt')]
if abuse:
    report.append('## An unprivileged fork loop at its RLIMIT_NPROC, beside many processes (8 GiB guest, 2 vCPUs)\n')
    report.append('A user (uid 1000) holds LIMIT - 1 processes and runs one more that calls fork() in a loop, '
                  'every call failing at RLIMIT_NPROC, beside the idle processes of root (others). '
                  'Meanwhile a bystander (root, SCHED_OTHER) forks, exits and waits every 20 ms, and a '
                  'real-time probe (SCHED_FIFO 2) sleeps 1 ms at a time. Scans: the '
                  'forkbomb:forkbomb_scan events of the user\'s failures, their total duration and its '
                  'share of the window. Tracking on and off in the same boot; over rounds, medians '
                  '(worst: the maximum).\n')
    if any(r.get('failed') for r in abuse):
        report.append('(guest failed)\n')
    report.append('| RLIMIT_NPROC | others | tracking | rounds | loop\'s failed forks/s | bystander fork p50 / p99 / worst (ms) '
                  '| real-time probe late p99 / worst (ms) | scans | scan time (share) | longest scan | kills |')
    report.append('|---:|---:|---|---:|---:|---|---|---:|---|---:|---:|')
    for limit in sorted({int(r['limit']) for r in abuse if 'limit' in r}):
        for tracking in ('on', 'off'):
            rows = [r for r in abuse if r.get('limit') == str(limit) and r.get('tracking') == tracking]
            if not rows:
                continue
            f = (lambda key: [float(r[key]) for r in rows])
            secs = sum(f('seconds'))
            report.append('| %d | %s | %s | %d | %.0f | %.2f / %.2f / %.2f | %.2f / %.2f | %.0f | %.0f ms (%.2f %%) | %.1f ms | %.0f |'
                          % (limit, rows[0]['others'], tracking, len(rows), sum(f('failures')) / secs,
                             med(f('fork_ms_p50')), med(f('fork_ms_p99')), max(f('fork_ms_max')),
                             med(f('rt_late_ms_p99')), max(f('rt_late_ms_max')), sum(f('scans')),
                             sum(f('scan_ms_total')), sum(f('scan_ms_total')) / secs / 10,
                             max(f('scan_ms_max')), sum(f('kills'))))
        on = [r for r in abuse if r.get('limit') == str(limit) and r.get('tracking') == 'on']
        off = [r for r in abuse if r.get('limit') == str(limit) and r.get('tracking') == 'off']
        if on and off:
            g = (lambda rs, key: med([float(r[key]) for r in rs]))
            summary.append('an unprivileged fork loop at RLIMIT_NPROC %d beside %s processes, tracking on/off: '
                           'bystander fork p99 %.2f/%.2f ms, real-time probe p99 %.2f/%.2f ms, '
                           'scans %.0f taking %.2f %% of the time'
                           % (limit, on[0]['others'], g(on, 'fork_ms_p99'), g(off, 'fork_ms_p99'),
                              g(on, 'rt_late_ms_p99'), g(off, 'rt_late_ms_p99'),
                              sum(float(r['scans']) for r in on),
                              sum(float(r['scan_ms_total']) for r in on) /
                              sum(float(r['seconds']) for r in on) / 10))
    report.append('')

# 8. busy host
busy = lines('busy.txt')
if busy:
    report.append('## A busy host that never calms (1 GiB guest, 2 vCPUs)\n')
    report.append('A reader streams a 2 GiB disk through the page cache again and again (kswapd reclaims all '
                  'the time), beside 2,000 idle processes and a server forking short-lived children. '
                  'Every 30 s: the records, their slab memory, the kswapd runs since the last sample, the '
                  'forks, and the duration of the scan an OOM would run (debugfs dry run).\n')
    samples = [r for r in busy if 't' in r]
    total = [r for r in busy if 'cap' in r]
    if any(r.get('failed') for r in busy) or not total:
        report.append('(guest failed)\n')
    else:
        report.append('| t (s) | records | their memory | kswapd runs | forks | OOM scan (dry run) | calm |')
        report.append('|---:|---:|---:|---:|---:|---:|---|')
        for r in samples:
            report.append('| %s | %s | %s KiB | %s | %s | %s ms | %s |'
                          % (r['t'], r['records'], r['slab_kb'], r['kswapd_runs'], r['forks'], r['scan_ms'],
                             'never' if int(r['calm_ms_ago']) >= int(float(r['t'])) * 1000 else 'yes'))
        t = total[0]
        cap = int(t['cap'])
        report.append('\nkswapd ran in %s of %s intervals; %s exits a second; records at most %s '
                      '(the cap: %d, trimmed at three quarters, %d), %s KiB; %s dropped; the OOM scan '
                      'took %s ms at most.\n'
                      % (t['kswapd_samples'], t['samples'], t['exits_per_s'], t['max_records'], cap,
                         cap // 4 * 3, t['max_slab_kb'], t['dropped'], t['max_scan_ms']))
        summary.append('busy host (kswapd awake %s s, %s exits/s beside %s live): records at most %s '
                       '(cap %d), %s KiB, OOM scan at most %s ms'
                       % (t['seconds'], t['exits_per_s'], t['live'], t['max_records'], cap,
                          t['max_slab_kb'], t['max_scan_ms']))

open(os.path.join(out, 'report.md'), 'w').write('\n'.join(report) + '\n')
open(os.path.join(out, 'summary.txt'), 'w').write(''.join('  - %s\n' % s for s in summary))
