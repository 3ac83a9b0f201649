"""Time aider's SEARCH/REPLACE matcher on the same inputs as bench/text_aider.bench.ts.

Usage: python3 bench/_aider_side.py EDITBLOCK_CODER_PY JOB_JSON

Then, for each line "NAME" read from standard input, it runs case NAME once and
writes one line of JSON: {"ms": duration in ms, "out": sha256 of the new text or
of the hint}, so that the caller can interleave these runs with its own.

EDITBLOCK_CODER_PY is aider's own aider/coders/editblock_coder.py (from an aider-chat
wheel or checkout; nothing of aider is kept in this repository). Only its pure
functions are loaded (by name, from the file's syntax tree), so neither aider nor
its dependencies need to be installed.

JOB_JSON: {"text": str, "cases": [{"name", "search", "replace", "kind"}]}
where kind is "replace" (replace_most_similar_chunk must return the new text) or
"miss" (it returns nothing; then find_similar_lines gives the did-you-mean, as
aider's apply_edits does for a failed block).
"""

import ast
import hashlib
import json
import sys
import time

FUNCTIONS = {
    "prep",
    "perfect_or_whitespace",
    "perfect_replace",
    "replace_most_similar_chunk",
    "try_dotdotdots",
    "replace_part_with_missing_leading_whitespace",
    "match_but_for_leading_whitespace",
    "replace_closest_edit_distance",
    "find_similar_lines",
}


def load(path):
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in FUNCTIONS]
    missing = FUNCTIONS - {n.name for n in body} - {"replace_closest_edit_distance"}
    if missing:
        sys.exit(f"{path}: not aider's editblock_coder.py (missing {sorted(missing)})")
    module = ast.Module(body=body, type_ignores=[])
    scope = {}
    exec("import difflib, math, re\nfrom difflib import SequenceMatcher", scope)
    exec(compile(module, path, "exec"), scope)
    return scope


def main():
    fns = load(sys.argv[1])
    job = json.load(open(sys.argv[2], encoding="utf-8"))
    whole = job["text"]
    replace_chunk = fns["replace_most_similar_chunk"]
    similar = fns["find_similar_lines"]

    def run(case):
        out = replace_chunk(whole, case["search"], case["replace"])
        if case["kind"] == "replace":
            if not out:
                raise SystemExit(f"aider did not place {case['name']}")
            return out
        if out:
            raise SystemExit(f"aider placed {case['name']}, which should miss")
        hint = similar(case["search"], whole)
        # aider's apply_edits also says when the REPLACE text is already in the file
        _ = case["replace"] in whole
        return hint

    cases = {case["name"]: case for case in job["cases"]}
    for case in cases.values():
        for _ in range(2):
            run(case)  # warm-up
    for line in sys.stdin:
        case = cases[line.strip()]
        t = time.perf_counter()
        out = run(case)
        ms = (time.perf_counter() - t) * 1000
        sys.stdout.write(json.dumps({"ms": ms, "out": hashlib.sha256(out.encode()).hexdigest()}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
