"""The Python soak's test runner (run from the corpus copy's root by bench/_soak_python.ts).

cover OUT: run every test of test.test_email once with a profiler and write, per test, which functions of the
           copy (file, first line, last line) it called, so a trial runs only the tests that reach its change.
run IDS [MODULE...]: byte-compile email/ and test/, import each MODULE (the changed ones) and every test
           module (which imports every email module it uses: an import-time break fails here), then run the
           tests named one a line in the file IDS; the exit status says if all passed.
"""
import json
import os
import sys
import threading
import unittest

ROOT = os.getcwd() + os.sep
sys.path[0] = os.getcwd()  # the copy's `email` and `test`, not the standard library's (nor this script's folder)


def test_modules():
    folder = os.path.join("test", "test_email")
    names = sorted(n[:-3] for n in os.listdir(folder) if n.startswith("test_") and n.endswith(".py"))
    return ["test.test_email." + n for n in names]


def flat(suite):
    for test in suite:
        if isinstance(test, unittest.TestSuite):
            yield from flat(test)
        else:
            yield test


def load_all():
    import importlib
    for name in test_modules():
        importlib.import_module(name)
    return list(flat(unittest.defaultTestLoader.loadTestsFromNames(test_modules())))


def cover(out):
    functions, index, per_test = [], {}, {}
    called = set()

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(ROOT):
                called.add(code)

    for test in load_all():
        called.clear()
        threading.setprofile(profile)
        sys.setprofile(profile)
        try:
            test.run(unittest.TestResult())
        finally:
            sys.setprofile(None)
            threading.setprofile(None)
        ids = []
        for code in called:
            if code not in index:
                lines = [line for _, _, line in code.co_lines() if line is not None]
                last = max(lines + [code.co_firstlineno])
                index[code] = len(functions)
                functions.append([code.co_filename[len(ROOT):], code.co_firstlineno, last])
            ids.append(index[code])
        per_test[test.id()] = sorted(ids)
    with open(out, "w") as f:
        json.dump({"functions": functions, "tests": per_test}, f)


def run(ids_file, *modules):
    import compileall
    import importlib
    for folder in ("email", "test"):
        if not compileall.compile_dir(folder, quiet=1):
            sys.exit("compileall: " + folder + " does not byte-compile")
    for name in modules:
        importlib.import_module(name)
    with open(ids_file) as f:
        wanted = set(line.strip() for line in f if line.strip())
    tests = [t for t in load_all() if t.id() in wanted]
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(unittest.TestSuite(tests))
    sys.exit(0 if result.wasSuccessful() and len(tests) == len(wanted) else 1)


if __name__ == "__main__":
    {"cover": cover, "run": run}[sys.argv[1]](*sys.argv[2:])
