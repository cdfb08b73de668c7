#!/usr/bin/env python3
"""Count and judge the results of one guest boot.

  parse-results.py [OPTIONS] kunit CONSOLE_LOG KERNEL_TREE  KTAP, through kunit.py parse
  parse-results.py [OPTIONS] kselftest RESULTS_LOG          kselftest TAP (run_kselftest.sh)
  parse-results.py compare STOCK_LIST PATCHED_LIST          two --list files, side by side

Options:
  --allow LIST   the tests allowed to skip (or to end in XFAIL), and with
                 "!NAME" to fail (counted as skipped) and to differ from the
                 golden file either way (a test that flips between runs):
                 the skips field of a line of scripts/testplan,
                 comma-separated, "-" for none. Names are exact and full; a
                 comma in a name is written %2C, a per cent sign %25.
  --golden FILE  compare every result with FILE, the stock kernel's (a
                 --list file; lines starting with # are comments): a test
                 that fails there too counts as skipped and says so; any
                 other difference, a test missing or a new one is counted
  --list FILE    write every result to FILE, one "NAME RESULT" line per test

Test names: a kselftest's is "PROGRAM/TEST", TEST as TAP prints it after
the test's number (for ksft_test_result_skip()'s "ok N # SKIP TEXT", the
TEXT), spaces and all; a name that recurs in a program gets "#2", "#3"...
(an allowance of the name covers them all). The program's own result is
"PROGRAM/(program)". A KUnit test's is what kunit.py prints for it.
RESULT is pass, FAIL, skip, xfail (kselftest_harness's XFAIL: not a pass;
allowed by name like a skip) or xpass (a test marked to fail that passed:
a failure, as kselftest counts it).

Prints "PASSED FAILED SKIPPED EXCUSED DIFFERENT" on stdout: EXCUSED the
failures allowed by the plan or the same as the golden file's (counted in
SKIPPED), DIFFERENT the tests whose result is not the golden file's,
missing and new ones included (1 when there is no golden file). What did
not pass, and why it counts as it does, goes to stderr ("  FAIL NAME...",
"  SKIP NAME...", "  EXCUSED NAME..." for an excused failure), with the
lines a failed test logged. No results at all count nothing: the caller compares
what ran with what it planned.

compare prints the table of make check-kernel-selftests; exits 1 when a
test differs, or when there are none.
"""
import argparse
import os
import re
import subprocess
import sys
from urllib.parse import unquote


def kunit(console, tree):
    """(passed, failed, skipped, names of the skipped)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1')
    out = subprocess.run(
        [sys.executable, os.path.join(tree, 'tools/testing/kunit/kunit.py'), 'parse',
         os.path.abspath(console)],
        capture_output=True, text=True, env=env).stdout
    counts = {}
    m = re.search(r'Ran (\d+) tests?: (.*)', out)
    if not m:
        print('  no KTAP results in ' + console, file=sys.stderr)
        return 0, 0, 0, []
    for what, num in re.findall(r'(\w+): (\d+)', m.group(2)):
        counts[what] = int(num)
    failed = counts.get('failed', 0) + counts.get('crashed', 0) + counts.get('errors', 0)
    if failed:
        for line in out.splitlines():
            if '[FAILED]' in line or '[CRASHED]' in line or 'EXPECTATION FAILED' in line \
                    or 'Expected' in line:
                print('  ' + re.sub(r'^\[[0-9:]+\] ', '', line), file=sys.stderr)
    skips = [s.strip() for s in re.findall(r'\[SKIPPED\] (.*)', out)]
    return counts.get('passed', 0), failed, counts.get('skipped', 0), skips


def split_tap(text):
    """Name, directive and note of what follows "ok N " in a TAP line.

    "NAME", "NAME # SKIP reason", "NAME #  diagnostic" (kselftest_harness),
    "# SKIP NAME" (ksft_test_result_skip() and friends), "# error NAME".
    """
    m = re.match(r'# (SKIP|XFAIL|XPASS|error)(?: (.*))?$', text)
    if m:
        return (m.group(2) or '').strip(), m.group(1), '# ' + m.group(1)
    name, sep, rest = text.partition(' # ')
    m = re.match(r'(SKIP|XFAIL|XPASS)\b', rest) if sep else None
    return name.strip(), m.group(1) if m else '', ('# ' + rest.strip()) if sep else ''


def kselftest(results):
    """[(name, result, note, logged lines)] of every test, in order."""
    tests = []
    if not os.path.exists(results):
        print('  no results file ' + results, file=sys.stderr)
        return tests
    prog = None		# from the runner's "# selftests: DIR: PROG"
    pending = []	# [test, result, note, lines] of this program so far
    log = []
    with open(results, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            m = re.match(r'^# selftests: \S+: (\S+)$', line)
            if m:
                prog = m.group(1)
                continue
            m = re.match(r'^# (not ok|ok) \d+ (.*)$', line)
            if m:
                status, text = m.groups()
                name, directive, note = split_tap(text)
                result = {'SKIP': 'skip', 'XFAIL': 'xfail', 'XPASS': 'xpass'}.get(
                    directive, 'pass' if status == 'ok' else 'FAIL')
                pending.append([name, result, note, log[-12:]])
                log = []
                continue
            m = re.match(r'^(not ok|ok) \d+ selftests: \S+: (\S+)(.*)$', line)
            if m:
                status, program, rest = m.groups()
                result = 'skip' if '# SKIP' in rest else 'pass' if status == 'ok' else 'FAIL'
                pending.append(['(program)', result, rest.strip(), log[-12:]])
                # Its tests are this program's, also without the runner's
                # header (scripts/system/data/run.sh prints none).
                tests.extend(qualify(program, pending))
                pending, prog, log = [], None, []
                continue
            if line.startswith('# #') and ('RUN' not in line):
                log.append(line[4:])
    # A program that never ended (the guest stopped).
    tests.extend(qualify(prog or '?', pending))
    return tests


def qualify(program, tests):
    """The tests of @program, named PROGRAM/TEST, recurring names numbered."""
    seen = {}
    out = []
    for name, result, note, lines in tests:
        key = program + '/' + name
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key += '#%d' % seen[key]
        out.append((key, result, note, lines))
    return out


def read_list(path):
    """{name: result} of a --list file; None when there is no such file."""
    if not os.path.exists(path):
        return None
    out = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            name, _, result = line.rpartition(' ')
            out[name] = result
    return out


def allowances(text):
    """(skips, failures) allowed by the skips field of a line of the plan."""
    skips, fails = set(), set()
    if text in (None, '', '-'):
        return skips, fails
    for item in text.split(','):
        if item.startswith('!'):
            fails.add(unquote(item[1:]))
        else:
            skips.add(unquote(item))
    return skips, fails


def say(*words):
    print(' '.join(w for w in words if w), file=sys.stderr)


def judge(tests, allow_text, golden_path):
    """(passed, failed, skipped, excused, different) of @tests."""
    allow_skip, allow_fail = allowances(allow_text)
    golden = None
    different = 0
    if golden_path:
        golden = read_list(golden_path)
        if golden is None:
            say('  FAIL no golden file %s, nothing to compare with: make'
                ' check-kernel-selftests writes it from a stock boot' % golden_path)
            different = 1
    passed = failed = skipped = excused = 0
    failed_in = set()	# programs with a failed test
    tested_in = set()	# programs with a test result
    for name, result, note, lines in tests:
        prog, _, test = name.partition('/')
        base = re.sub(r'#\d+$', '', name)
        stock = golden.get(name, 'missing') if golden is not None else None
        differs = stock is not None and stock != result
        was = '(stock kernel: %s)' % stock if differs else ''
        if differs and base in allow_fail:
            # "!NAME": the test may fail, here or on stock, either way.
            differs = False
            was = '(stock kernel: %s; allowed by the plan: !%s)' % (stock, base)
        different += differs
        shown = {'skip': 'skipped', 'xfail': 'XFAIL', 'xpass': 'XPASS',
                 'FAIL': 'failed', 'pass': 'passed'}.get(result, result)
        if test == '(program)':
            # The program's own result counts only where its tests said
            # nothing: it failed with none failed, or skipped as a whole.
            if result == 'FAIL' and prog not in failed_in:
                kind = 'failed'
            elif result == 'skip' and prog not in tested_in:
                kind = 'skipped'
            else:
                if differs:
                    say('  FAIL', name, shown, 'here', was)
                continue
        else:
            tested_in.add(prog)
            kind = {'pass': 'passed', 'skip': 'skipped', 'xfail': 'skipped'}.get(result, 'failed')
            if kind == 'failed':
                failed_in.add(prog)

        if kind == 'passed':
            if differs:
                failed += 1
                say('  FAIL', name, 'passes here, not on the stock kernel', was)
            else:
                passed += 1
                if was:
                    say('  PASS', name, was)
        elif kind == 'skipped':
            if base not in allow_skip:
                failed += 1
                say('  FAIL', name, note, '(%s, and the plan does not allow it)' % shown, was)
            elif differs:
                failed += 1
                say('  FAIL', name, note, '(%s here)' % shown, was)
            else:
                skipped += 1
                say('  SKIP', name, note, '(allowed by the plan)')
        elif base in allow_fail:
            skipped += 1
            excused += 1
            say('  EXCUSED', name, note, '(%s, allowed by the plan: !%s)' % (shown, base))
        elif golden is not None and not differs:
            skipped += 1
            excused += 1
            say('  EXCUSED', name, note, '(%s, as on the stock kernel: golden file)' % shown)
        else:
            failed += 1
            say('  FAIL', name, note, '(XPASS: passed, though marked to fail)'
                if result == 'xpass' else '', was)
            for l in lines:
                say('      ' + l)
    if golden:
        here = {t[0] for t in tests}
        for name in sorted(set(golden) - here):
            different += 1
            say('  FAIL', name, 'did not run here (stock kernel: %s)' % golden[name])
    return passed, failed, skipped, excused, different


def write_list(path, tests):
    with open(path, 'w') as f:
        for t in tests:
            f.write('%s %s\n' % (t[0], t[1]))


def compare(stock_path, patched_path):
    stock, patched = read_list(stock_path), read_list(patched_path)
    for path, what in ((stock_path, stock), (patched_path, patched)):
        if what is None:
            sys.exit('no such file: ' + path)
    names = sorted(set(stock) | set(patched))
    width = max([len(n) for n in names] + [40])
    print('%-*s %-8s %s' % (width, 'test', 'stock', 'patched'))
    diffs = 0
    for n in names:
        s, p = stock.get(n, 'missing'), patched.get(n, 'missing')
        diffs += s != p
        print('%-*s %-8s %s%s' % (width, n, s, p, '' if s == p else '   <- differs'))
    print()
    print('%d tests, %d differ between the stock and the patched kernel' % (len(names), diffs))
    return 0 if names and not diffs else 1


def main():
    ap = argparse.ArgumentParser(
        usage='%(prog)s [--allow LIST] [--golden FILE] [--list FILE] '
              '{kunit,kselftest,compare} FILE...',
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--allow', default='-')
    ap.add_argument('--golden')
    ap.add_argument('--list')
    ap.add_argument('what', choices=['kunit', 'kselftest', 'compare'])
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    wanted = {'kunit': 2, 'kselftest': 1, 'compare': 2}[args.what]
    if len(args.files) != wanted:
        sys.exit(__doc__)
    if args.what == 'compare':
        sys.exit(compare(*args.files))
    if args.what == 'kunit':
        passed, failed, skipped, skips = kunit(*args.files)
        # KUnit names only its skips: those are judged, the rest counted.
        tests = [(name, 'skip', '', []) for name in skips]
        _, bad, _, _, _ = judge(tests, args.allow, None)
        counts = (passed, failed + bad, max(skipped - bad, 0), 0, 0)
    else:
        tests = kselftest(args.files[0])
        counts = judge(tests, args.allow, args.golden)
    if args.list:
        write_list(args.list, tests)
    print('%d %d %d %d %d' % counts)


if __name__ == '__main__':
    main()
