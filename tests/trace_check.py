#!/usr/bin/env python3
"""trace_check.py - checks a --trace file of `particles` against the
program's system DAG and what each step reported.

    python3 trace_check.py TRACE.json DAG.dot A:B PARTICLES LABEL...

TRACE.json must be a Chrome trace (a JSON object with traceEvents and
displayTimeUnit) with one process per LABEL, named so, in order. For each
process:
  - the frames present (step events and every other event's frame) are
    exactly A..B;
  - every worker track (and the step track) holds disjoint complete events:
    subtasks, finishes and sleeps never overlap on one worker;
  - every worker track is named ("worker 0 (main)", "worker 1", ...);
  - every edge a -> b of the DAG (Graphviz dot of --print-dag) holds in
    time: in every frame, b's first event starts after a's last one ended;
  - per frame and system, each pass has as many subtask events as the
    step reported subtasks, numbered 0..n-1, whose entities add up to the
    step's subscribed entities; passes are numbered 0..P-1; a system has a
    finish in every pass or in none;
  - in frame 1 every system ran over all PARTICLES entities (the first
    wave), in later frames over at most that many;
  - every event lies within its frame's step event.
Prints one line per failure and exits 1 if any, else prints a summary.
"""
import collections
import json
import re
import sys


def ns(us):
    """Microseconds as written (3 decimals) to integer nanoseconds."""
    return int(round(float(us) * 1000))


def read_dag(path):
    names, edges = {}, []
    for line in open(path):
        m = re.match(r'\s*(s\d+) \[label="([^\\"]+)', line)
        if m:
            names[m.group(1)] = m.group(2)
        m = re.match(r'\s*(s\d+) -> (s\d+);', line)
        if m:
            edges.append((m.group(1), m.group(2)))
    return [(names[a], names[b]) for a, b in edges]


def main():
    path, dag_path, frames, particles = sys.argv[1:5]
    labels = sys.argv[5:]
    first, last = (int(x) for x in frames.split(':'))
    particles = int(particles)
    errors = []

    def fail(msg):
        if len(errors) < 20:
            print('FAIL ' + msg)
        errors.append(msg)

    doc = json.load(open(path))
    if not isinstance(doc, dict) or 'traceEvents' not in doc or 'displayTimeUnit' not in doc:
        print('FAIL not a JSON object with traceEvents and displayTimeUnit')
        return 1
    edges = read_dag(dag_path)
    if not edges:
        print('FAIL no edges in the DAG file')
        return 1
    events = doc['traceEvents']
    meta = [e for e in events if e['ph'] == 'M']
    spans = [e for e in events if e['ph'] == 'X']
    procs = {e['pid']: e['args']['name'] for e in meta if e['name'] == 'process_name'}
    threads = {(e['pid'], e['tid']): e['args']['name'] for e in meta if e['name'] == 'thread_name'}
    if [procs[p] for p in sorted(procs)] != labels:
        fail('processes %s, want %s' % ([procs[p] for p in sorted(procs)], labels))
    for e in spans:
        if e['pid'] not in procs:
            fail('event in unnamed process %r' % e)
        if float(e['dur']) < 0 or e['cat'] not in ('step', 'subtask', 'finish', 'sleep'):
            fail('bad event %r' % e)
        name = threads.get((e['pid'], e['tid']), '')
        if e['cat'] != 'step' and not re.fullmatch(r'worker \d+( \(main\))?', name):
            fail('event on a track not named for a worker (%r): %r' % (name, e))

    # Disjoint events per track.
    tracks = collections.defaultdict(list)
    for e in spans:
        tracks[(e['pid'], e['tid'])].append((ns(e['ts']), ns(e['ts']) + ns(e['dur']), e))
    for key, evs in tracks.items():
        evs.sort(key=lambda x: (x[0], x[1]))
        for (s0, e0, a), (s1, e1, b) in zip(evs, evs[1:]):
            if s1 < e0:
                fail('overlap on pid %d tid %d: %s %s [%d, %d) and %s %s [%d, %d)' % (
                    key[0], key[1], a['name'], a['args'], s0, e0, b['name'], b['args'], s1, e1))

    want_frames = list(range(first, last + 1))
    total = 0
    for pid in sorted(procs):
        mine = [e for e in spans if e['pid'] == pid]
        steps = {e['args']['frame']: e for e in mine if e['cat'] == 'step'}
        if sorted(steps) != want_frames or len(steps) != len([e for e in mine if e['cat'] == 'step']):
            fail('pid %d: step frames %s, want %s' % (pid, sorted(steps), want_frames))
        by_frame = collections.defaultdict(lambda: collections.defaultdict(list))
        for e in mine:
            if e['cat'] in ('subtask', 'finish'):
                by_frame[e['args']['frame']][e['name']].append(e)
            f = e['args']['frame']
            if f not in steps:
                fail('pid %d: event of frame %s outside %d:%d' % (pid, f, first, last))
                continue
            st = steps[f]
            if ns(e['ts']) < ns(st['ts']) or ns(e['ts']) + ns(e['dur']) > ns(st['ts']) + ns(st['dur']):
                fail('pid %d frame %d: %s outside its step' % (pid, f, e['name']))
        finishes = {}
        for f, st in sorted(steps.items()):
            systems = st['args']['systems']
            sys_events = by_frame[f]
            if set(sys_events) != set(systems):
                fail('pid %d frame %d: systems with events %s, the step names %s' % (
                    pid, f, sorted(sys_events), sorted(systems)))
            for name, info in systems.items():
                evs = sys_events.get(name, [])
                total += len(evs)
                passes = collections.defaultdict(list)
                fins = collections.Counter()
                for e in evs:
                    if e['cat'] == 'finish':
                        fins[e['args']['pass']] += 1
                        if e['args']['subtask'] != 'finish':
                            fail('pid %d frame %d %s: finish with subtask %r' % (pid, f, name, e['args']['subtask']))
                    else:
                        passes[e['args']['pass']].append(e)
                if sorted(passes) != list(range(len(passes))) or not passes:
                    fail('pid %d frame %d %s: passes %s' % (pid, f, name, sorted(passes)))
                has_finish = bool(fins)
                if has_finish and (sorted(fins) != sorted(passes) or set(fins.values()) != {1}):
                    fail('pid %d frame %d %s: finishes %s for passes %s' % (pid, f, name, dict(fins), sorted(passes)))
                if finishes.setdefault(name, has_finish) != has_finish:
                    fail('pid %d %s: a finish in some frames only' % (pid, name))
                for p, pe in passes.items():
                    subs = sorted(e['args']['subtask'] for e in pe)
                    if subs != list(range(info['subtasks'])):
                        fail('pid %d frame %d %s pass %d: subtasks %s, the step reported %d' % (
                            pid, f, name, p, subs, info['subtasks']))
                    count = sum(e['args']['entities'] for e in pe)
                    if count != info['entities']:
                        fail('pid %d frame %d %s pass %d: %d entities, the step reported %d' % (
                            pid, f, name, p, count, info['entities']))
                    for e in pe:
                        lo, hi = (int(x) for x in re.fullmatch(r'\[(\d+), (\d+)\)', e['args']['range']).groups())
                        if e['args']['entities'] and (lo >= hi or e['args']['entities'] > hi - lo):
                            fail('pid %d frame %d %s: range %s for %d entities' % (
                                pid, f, name, e['args']['range'], e['args']['entities']))
                if (f == 1 and info['entities'] != particles) or info['entities'] > particles:
                    fail('pid %d frame %d %s: %d entities of %d particles' % (pid, f, name, info['entities'], particles))
            for a, b in edges:
                ea, eb = sys_events.get(a, []), sys_events.get(b, [])
                if not ea or not eb:
                    fail('pid %d frame %d: no events of %s or %s' % (pid, f, a, b))
                    continue
                end_a = max(ns(e['ts']) + ns(e['dur']) for e in ea)
                start_b = min(ns(e['ts']) for e in eb)
                if start_b < end_a:
                    fail('pid %d frame %d: %s starts at %d before %s ended at %d' % (pid, f, b, start_b, a, end_a))
    if errors:
        print('%d failures' % len(errors))
        return 1
    print('ok %d processes, frames %d:%d, %d system events, %d edges checked' % (
        len(procs), first, last, total, len(edges)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
