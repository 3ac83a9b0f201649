"""rope's view of symbol occurrences, for bench/rename_rope.bench.ts.

Reads JSON from stdin: {"root": DIR, "queries": [{"path": REL, "offset": UTF16, "in_hierarchy"?: bool}],
"rename": {...}|null}.
For each query, rope.contrib.findit.find_occurrences (what rope's Rename uses, unsure
occurrences excluded) at that offset; offsets are converted between rope's code points and
UTF-16 code units. With "rename": {"path", "offset", "new_name"}, one cold
Rename(...).get_changes(...) on a fresh project instead, timed. Writes JSON to stdout.
Runs with Debian's python3-rope (rope 1.7.0): /usr/bin/python3 bench/_rope_oracle.py.
"""
import json
import sys
import time


def utf16_to_cp(text, offset):
    units = 0
    for i, ch in enumerate(text):
        if units >= offset:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def cp_to_utf16(text, offset):
    return len(text[:offset].encode("utf-16-le")) // 2


def main():
    req = json.load(sys.stdin)
    t0 = time.perf_counter()
    from rope.base.project import Project
    from rope.contrib import findit
    from rope.refactor.rename import Rename

    t_import = time.perf_counter() - t0
    if req.get("rename"):
        r = req["rename"]
        start = time.perf_counter()
        project = Project(req["root"], ropefolder=None)
        resource = project.get_resource(r["path"])
        text = resource.read()
        changes = Rename(project, resource, utf16_to_cp(text, r["offset"])).get_changes(r["new_name"])
        ms = (time.perf_counter() - start) * 1000
        files = len(changes.changes)
        project.close()
        json.dump({"ms": ms, "import_ms": t_import * 1000, "files": files}, sys.stdout)
        return
    project = Project(req["root"], ropefolder=None)
    out = []
    texts = {}
    for q in req["queries"]:
        resource = project.get_resource(q["path"])
        text = texts.setdefault(q["path"], resource.read())
        try:
            locs = findit.find_occurrences(
                project, resource, utf16_to_cp(text, q["offset"]), unsure=False,
                in_hierarchy=q.get("in_hierarchy", False),
            )
        except Exception as e:  # rope refuses some names (e.g. inside strings): report and go on
            out.append({"error": f"{type(e).__name__}: {e}"})
            continue
        sites = []
        for loc in locs:
            path = loc.resource.path
            t = texts.get(path)
            if t is None:
                t = texts[path] = loc.resource.read()
            sites.append(f"{path}:{cp_to_utf16(t, loc.offset)}")
        out.append({"sites": sites})
    project.close()
    json.dump(out, sys.stdout)


main()
