#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_format.py — every C++ file git tracks is laid out as .clang-format says.

    tools/check_format.py [ROOT]     exit 1 and name the files clang-format
                                     would change (ROOT: the checkout)
    tools/check_format.py --fix      re-lay them out in place

Uses clang-format 14 (the version .clang-format was written for; another
version lays some lines out differently). The layer-check fixture
(tests/layers/) is left alone: its test expects its line numbers.
"""
import os
import shutil
import subprocess
import sys


def tracked_cpp_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "*.cpp", "*.h"], check=True, capture_output=True, text=True)
    return [f for f in out.stdout.splitlines() if not f.startswith("tests/layers/")]


def main(argv):
    fix = "--fix" in argv
    args = [a for a in argv if a != "--fix"]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    tool = shutil.which("clang-format-14") or shutil.which("clang-format")
    if not tool:
        print("check_format: clang-format 14 is not installed (scripts/bootstrap.sh test installs it)", file=sys.stderr)
        return 2
    files = tracked_cpp_files(root)
    if fix:
        subprocess.run([tool, "-i", *files], cwd=root, check=True)
        return 0
    # One clang-format for all files; each line it would change is reported
    # as "FILE:LINE:COL: error: code should be clang-formatted".
    r = subprocess.run([tool, "--dry-run", "-Werror", *files], cwd=root, capture_output=True, text=True)
    bad = sorted({line.split(":", 1)[0] for line in r.stderr.splitlines() if "clang-format" in line and ":" in line})
    if r.returncode != 0 and not bad:
        print(r.stderr, file=sys.stderr)
        return 2
    for f in bad:
        print(f"{f}: not laid out as .clang-format says (tools/check_format.py --fix)")
    print(f"check_format: {len(bad)} of {len(files)} files differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
