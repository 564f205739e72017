#!/usr/bin/env python3
"""Counts passed, failed and skipped tests in Bazel build-event (BEP) JSON files.

    test_summary.py cpu.json cuda.json consumer.json

Each file comes from `bazel test|build --keep_going --build_event_json_file=FILE`.
Every GoogleTest case in this run's test.xml files counts once. A test target that
failed with no failing case (a crash, a timeout), failed to build, or never ran counts
as one failure; so does any other target that failed to build. Test targets skipped
as incompatible (GPU-only tests in a CPU build) count as skipped. A file that is missing
or empty counts as one failure: the step never reported.

Prints one line per file and, last, `N passed, N failed` (`, N skipped` when some were);
exits 1 if anything failed.
"""

import json
import sys
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree


def read_events(path):
    try:
        with open(path) as stream:
            return [json.loads(line) for line in stream if line.strip()]
    except (OSError, json.JSONDecodeError) as error:
        print(f"  {path}: unreadable ({error})", file=sys.stderr)
        return []


def count_cases(xml_path):
    """Returns (passed, failed, skipped) over the <testcase> entries of a test.xml."""
    counts = [0, 0, 0]
    try:
        root = ElementTree.parse(xml_path).getroot()
    except (OSError, ElementTree.ParseError):
        return counts
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            counts[1] += 1
        elif case.get("result") == "skipped" or case.find("skipped") is not None:
            counts[2] += 1
        else:
            counts[0] += 1
    return counts


def summarize(events):
    """Returns (passed, failed, skipped, failure descriptions) for one BEP file."""
    test_targets = set()
    results = {}  # label -> [passed, failed, skipped]
    broken = {}  # label -> why it did not build or run
    skipped_targets = set()
    ran_tests = False
    for event in events:
        event_id = event.get("id", {})
        if "started" in event_id:
            ran_tests = event.get("started", {}).get("command") == "test"
        elif "targetConfigured" in event_id:
            kind = event.get("configured", {}).get("targetKind", "")
            if kind.endswith("_test rule"):
                test_targets.add(event_id["targetConfigured"]["label"])
        elif "targetCompleted" in event_id:
            label = event_id["targetCompleted"]["label"]
            if event.get("aborted", {}).get("reason") == "SKIPPED":
                skipped_targets.add(label)
            elif "aborted" in event or not event.get("completed", {}).get("success", False):
                broken[label] = "failed to build"
        elif "testResult" in event_id:
            label = event_id["testResult"]["label"]
            result = event.get("testResult", {})
            counts = [0, 0, 0]
            for output in result.get("testActionOutput", []):
                if output.get("name") == "test.xml":
                    path = urllib.parse.urlparse(output["uri"]).path
                    counts = count_cases(urllib.request.url2pathname(path))
            if result.get("status") != "PASSED" and counts[1] == 0:
                counts[1] += 1
                broken[label] = result.get("status", "no status").lower().replace("_", " ")
            totals = results.setdefault(label, [0, 0, 0])
            for i in range(3):
                totals[i] += counts[i]
    passed = sum(r[0] for r in results.values())
    failed = sum(r[1] for r in results.values())
    skipped = sum(r[2] for r in results.values()) + len(skipped_targets & test_targets)
    failures = [f"{label}: {results[label][1]} failed case(s)"
                for label in sorted(results) if results[label][1] and label not in broken]
    if ran_tests:
        for label in sorted(test_targets - set(results) - skipped_targets - set(broken)):
            broken[label] = "no status (never ran)"
    for label, why in sorted(broken.items()):
        if label not in results:
            failed += 1
        failures.append(f"{label}: {why}")
    return passed, failed, skipped, failures


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    total = [0, 0, 0]
    for path in paths:
        events = read_events(path)
        if events:
            passed, failed, skipped, failures = summarize(events)
        else:
            passed, failed, skipped, failures = 0, 1, 0, [f"{path}: no build events"]
        print(f"  {path}: {passed} passed, {failed} failed, {skipped} skipped")
        for failure in failures:
            print(f"    FAILED {failure}")
        total = [total[0] + passed, total[1] + failed, total[2] + skipped]
    line = f"{total[0]} passed, {total[1]} failed"
    print(line + (f", {total[2]} skipped" if total[2] else ""))
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
