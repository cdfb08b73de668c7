#!/usr/bin/env python3
"""Count the results of one guest boot.

  parse-results.py kunit CONSOLE_LOG KERNEL_TREE   KTAP, through kunit.py parse
  parse-results.py kselftest RESULTS_LOG           kselftest TAP (run_kselftest.sh)

Prints "PASSED FAILED SKIPPED SKIPPED_NAMES FAILED_NAMES" on stdout (the
names comma-separated, or "-"; KUnit's failures are not named); the name
of every test that did not pass goes to stderr, with the lines the test logged. No results at all count nothing:
the caller compares what ran with what it planned.
"""
import os
import re
import subprocess
import sys


def kunit(console, tree):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1')
    out = subprocess.run(
        [sys.executable, os.path.join(tree, 'tools/testing/kunit/kunit.py'), 'parse',
         os.path.abspath(console)],
        capture_output=True, text=True, env=env).stdout
    counts = {}
    m = re.search(r'Ran (\d+) tests?: (.*)', out)
    if not m:
        print('  no KTAP results in ' + console, file=sys.stderr)
        return 0, 0, 0, [], []
    for what, num in re.findall(r'(\w+): (\d+)', m.group(2)):
        counts[what] = int(num)
    failed = counts.get('failed', 0) + counts.get('crashed', 0) + counts.get('errors', 0)
    if failed:
        for line in out.splitlines():
            if '[FAILED]' in line or '[CRASHED]' in line or 'EXPECTATION FAILED' in line \
                    or 'Expected' in line:
                print('  ' + re.sub(r'^\[[0-9:]+\] ', '', line), file=sys.stderr)
    skips = re.findall(r'\[SKIPPED\] (\S+)', out)
    return counts.get('passed', 0), failed, counts.get('skipped', 0), skips, []


def kselftest(results):
    passed = failed = skipped = 0
    skips = []
    fails = []
    log = []
    inner_failed = inner_seen = False
    if not os.path.exists(results):
        print('  no results file ' + results, file=sys.stderr)
        return 0, 0, 0, [], []
    with open(results, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = re.match(r'^# (not ok|ok) \d+ (\S+)(.*)$', line)
            if m:
                status, name, rest = m.groups()
                # ksft_test_result_skip(): "ok N # SKIP name"
                sm = re.match(r'^ SKIP (\S+)(.*)$', rest) if name == '#' else None
                if sm:
                    name, rest = sm.group(1), ' # SKIP' + sm.group(2)
                inner_seen = True
                if '# SKIP' in rest:
                    skipped += 1
                    skips.append(name)
                    print('  SKIP %s%s' % (name, rest), file=sys.stderr)
                elif status == 'ok':
                    passed += 1
                else:
                    failed += 1
                    fails.append(name)
                    inner_failed = True
                    print('  FAIL %s%s' % (name, rest), file=sys.stderr)
                    for l in log[-12:]:
                        print('      ' + l, file=sys.stderr)
                log = []
                continue
            m = re.match(r'^(not ok|ok) \d+ selftests: (\S+): (\S+)(.*)$', line)
            if m:
                status, _, prog, rest = m.groups()
                if status == 'not ok' and not inner_failed:
                    failed += 1
                    fails.append(prog)
                    print('  FAIL %s%s' % (prog, rest), file=sys.stderr)
                elif '# SKIP' in rest and not inner_seen:
                    skipped += 1
                    skips.append(prog)
                    print('  SKIP %s%s' % (prog, rest), file=sys.stderr)
                inner_failed = inner_seen = False
                continue
            if line.startswith('# #') and ('RUN' not in line):
                log.append(line[4:])
    return passed, failed, skipped, skips, fails


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'kunit':
        counts = kunit(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'kselftest':
        counts = kselftest(sys.argv[2])
    else:
        sys.exit(__doc__)
    passed, failed, skipped, skips, fails = counts
    print('%d %d %d %s %s' % (passed, failed, skipped, ','.join(skips) or '-',
                              ','.join(fails) or '-'))


if __name__ == '__main__':
    main()
