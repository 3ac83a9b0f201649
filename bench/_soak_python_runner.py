"""The Python soak's test runner (run from the corpus copy's root by bench/_soak_python.ts).

cover OUT: run every test of test.test_email once with a profiler and write, per test, which functions of the
           copy (file, first line, last line) it called, so a trial runs only the tests that reach its change.
serve:     read one JSON request a line ({"ids", "modules", "stress", "out"}), run each as `run` in a forked
           child (its output to the file "out") and answer its exit status a line: the interpreter, unittest
           and the standard library modules the tests import (found by a first child, never email's own)
           load once, not once a trial.
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


_ENDS = {}


def source_end(filename, first):
    """The last line of the function, lambda or comprehension that starts at line `first` (0: none)."""
    if filename not in _ENDS:
        import ast
        ends = {}
        try:
            with open(filename, encoding="utf-8") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, ValueError):
            tree = None
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp,
                 ast.DictComp, ast.GeneratorExp)
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, kinds):
                start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
                ends[start] = max(ends.get(start, 0), node.end_lineno)
        _ENDS[filename] = ends
    return _ENDS[filename].get(first, 0)


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
                # The source's extent too: a constant folded into one instruction keeps only its first line.
                last = max(lines + [code.co_firstlineno, source_end(code.co_filename, code.co_firstlineno)])
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


def preload():
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        load_all()
        own = ("email", "test.test_email", "__main__")
        names = [m for m in sys.modules if not m.startswith(own)]
        with os.fdopen(write, "w") as f:
            json.dump(names, f)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        names = json.load(f)
    os.waitpid(pid, 0)
    import importlib
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            pass
    stale = [m for m in sys.modules if m.startswith(("email", "test.test_email"))]
    if stale:
        sys.exit("preloading imported the code under test: " + ", ".join(stale))


def child(req):
    import traceback
    fd = os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.environ["GRAVER_SOAK_MSGID_SECONDS"] = req["stress"]
    code = 1
    try:
        run(req["ids"], *req["modules"])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def serve():
    preload()
    for line in sys.stdin:
        req = json.loads(line)
        pid = os.fork()
        if pid == 0:
            child(req)
        _, status = os.waitpid(pid, 0)
        sys.stdout.write("%d\n" % os.waitstatus_to_exitcode(status))
        sys.stdout.flush()


if __name__ == "__main__":
    {"cover": cover, "run": run, "serve": serve}[sys.argv[1]](*sys.argv[2:])
