#!/usr/bin/env python3
"""The platform's folders include only from the folders whose libraries they link.

platform/CMakeLists.txt builds one library per folder with
`ssdvp_folder_library(NAME lib FOLDER folder [DEPENDS lib...])`; this test
reads those lines, so the graph people read and the graph checked are one.
A file in a folder may include "other/..." only if its library links other's
library (directly or through another); the graph must have no cycle; the
host's lower libraries (host/workload, host/fs, host/gcdetect, host/ftl) and
accel/ include no platform folder at all (a file of theirs that a folder's
library builds, SOURCES, counts as that folder's).

    python3 testbench/platform/folder_layering_test.py [REPO]
"""
import glob
import os
import re
import sys

TOP = ("soc", "host", "run", "array", "nbd", "app")
LOWER = ("host/workload", "host/fs", "host/gcdetect", "host/ftl")


def read_graph(cmake):
    text = re.sub(r"#[^\n]*", "", open(cmake).read())
    folder_of, deps, extra = {}, {}, {}
    for m in re.finditer(r"ssdvp_folder_library\(([^)]*)\)", text):
        words = m.group(1).split()
        kw, cur, args = None, None, {"NAME": [], "FOLDER": [], "DEPENDS": [], "SOURCES": []}
        for w in words:
            if w in args:
                kw = w
            elif kw:
                args[kw].append(w)
        if len(args["NAME"]) != 1 or len(args["FOLDER"]) != 1:
            raise SystemExit(f"folder_layering: cannot read {m.group(0)!r}")
        cur = args["NAME"][0]
        folder_of[cur] = args["FOLDER"][0]
        deps[cur] = args["DEPENDS"]
        for src in args["SOURCES"]:  # a file of another folder built into this library: checked as its own
            extra[os.path.splitext(src.split("/")[-1])[0]] = args["FOLDER"][0]
    return folder_of, deps, extra


def reachable(lib, deps):
    seen, todo = set(), list(deps.get(lib, []))
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo.extend(deps.get(d, []))
    return seen


def includes(path):
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(path, errors="replace").read(), re.M)


def sources(folder):
    out = []
    for ext in ("cpp", "h"):
        out += glob.glob(os.path.join(folder, f"*.{ext}"))
    return sorted(out)


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
    platform = os.path.join(repo, "platform")
    folder_of, deps, extra = read_graph(os.path.join(platform, "CMakeLists.txt"))
    lib_of = {f: lib for lib, f in folder_of.items()}
    problems = []
    missing = [f for f in TOP if f != "app" and f not in lib_of]
    if missing:
        problems.append(f"no ssdvp_folder_library for: {' '.join(missing)}")
    for lib in deps:
        if lib in reachable(lib, deps):
            problems.append(f"{lib} depends on itself (a cycle)")
    def files_of(folder):
        own = sources(os.path.join(platform, folder))
        for lower in LOWER:
            own += [p for p in sources(os.path.join(platform, lower))
                    if extra.get(os.path.splitext(os.path.basename(p))[0]) == folder]
        return own

    for folder in TOP:
        allowed = {folder}
        if folder == "app":
            allowed |= set(TOP)  # the commands link everything
        elif folder in lib_of:
            allowed |= {folder_of[d] for d in reachable(lib_of[folder], deps) if d in folder_of}
        for path in files_of(folder):
            for inc in includes(path):
                top = inc.split("/", 1)[0]
                if "/" in inc and top in TOP and top not in allowed:
                    problems.append(f"{os.path.relpath(path, repo)} includes {inc}: "
                                    f"{lib_of.get(folder, folder)} does not link {lib_of.get(top, top)}")
    for lower in LOWER:
        for path in sources(os.path.join(platform, lower)):
            if os.path.splitext(os.path.basename(path))[0] in extra:
                continue
            for inc in includes(path):
                if "/" in inc and inc.split("/", 1)[0] in TOP:
                    problems.append(f"{os.path.relpath(path, repo)} includes {inc}: {lower} is below the platform")
    for path in glob.glob(os.path.join(repo, "accel", "**", "*.[ch]*"), recursive=True):
        for inc in includes(path):
            if "/" in inc and inc.split("/", 1)[0] in TOP:
                problems.append(f"{os.path.relpath(path, repo)} includes {inc}: accel/ is below the platform")
    for p in problems:
        print("folder_layering:", p)
    if not problems:
        order = " ; ".join(f"{folder_of[lib]} -> {' '.join(folder_of.get(d, d) for d in deps[lib]) or '(models, firmware)'}"
                           for lib in folder_of)
        print(f"folder_layering: includes follow the libraries: {order}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
