#!/usr/bin/env python3
#===- check-layering.py - Dependencies between the compiler's stages -------===#
#
# The libraries under lib/ form one order, lowest first (LAYERS below). A
# stage may use the stages before it, never one after it; stages on one line
# are independent of each other and may not use one another. This script
# checks both ways a stage can use another:
#
#   - an #include "loopy/<Stage>/..." in lib/<A>/ or include/loopy/<A>/
#     (include/loopy/loopy.h belongs to Api), and
#   - a target_link_libraries() in lib/<A>/CMakeLists.txt naming a library
#     defined in another stage's CMakeLists.txt.
#
# tools/, benchmarks/ and examples/ sit above every stage. test/ may use
# anything. Each violation is printed as `file:line: error: ...`; the exit
# status is 1 if there is any.
#
# Usage: check-layering.py [ROOT]   (default: the repository holding this file)
#
#===------------------------------------------------------------------------===#
import os
import re
import sys

# Lowest first. Stages on one line may not use each other.
LAYERS = [
    ["Support"],
    ["Frontend"],
    ["IR"],
    ["Sema"],
    ["Analysis"],
    ["Schedule"],
    ["Planner"],
    ["CodeGen"],
    ["Interp", "Runtime"],
    ["Compile"],
    ["Tuner"],
    ["Driver", "Api"],
]
TOP = len(LAYERS)  # tools/, benchmarks/, examples/

RANK = {Stage: R for R, Line in enumerate(LAYERS) for Stage in Line}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"(loopy/([A-Za-z]+)(/|\.h")[^"]*)')
LINK_RE = re.compile(r"target_link_libraries\s*\(([^)]*)\)", re.S)
ADD_LIB_RE = re.compile(r"add_library\s*\(\s*([A-Za-z0-9_]+)")


def stage_of_include(Name, Tail):
    """The stage a "loopy/Name..." include belongs to."""
    if Tail == '.h"':
        return "Api" if Name == "loopy" else None
    return Name


def order_text():
    return " -> ".join("/".join(Line) for Line in LAYERS)


def check_use(Errors, Where, User, Used, What):
    """Records an error if stage User may not use stage Used."""
    if Used == User:
        return
    if Used not in RANK:
        Errors.append(f"{Where}: error: {What} names '{Used}', which is no "
                      f"stage of the layering; add it to LAYERS in "
                      f"scripts/check-layering.py")
        return
    UserRank = TOP if User is None else RANK[User]
    UserName = "tools" if User is None else User
    if RANK[Used] < UserRank:
        return
    Why = ("stages on one level are independent"
           if RANK[Used] == UserRank else f"{Used} is above {UserName}")
    Errors.append(f"{Where}: error: {UserName} may not use {Used} ({What}); "
                  f"{Why} in the order {order_text()}")


def source_files(Dir):
    for Root, Dirs, Files in os.walk(Dir):
        Dirs.sort()
        for F in sorted(Files):
            if F.endswith((".h", ".hpp", ".cpp", ".cc", ".c")):
                yield os.path.join(Root, F)


def check_includes(Top, Errors):
    Places = []
    for Base in ("lib", os.path.join("include", "loopy")):
        BaseDir = os.path.join(Top, Base)
        if not os.path.isdir(BaseDir):
            continue
        for Entry in sorted(os.listdir(BaseDir)):
            Path = os.path.join(BaseDir, Entry)
            if os.path.isdir(Path):
                Places.append((Path, Entry))
            elif Entry == "loopy.h":
                Places.append((Path, "Api"))
    for Dir in ("tools", "benchmarks", "examples"):
        if os.path.isdir(os.path.join(Top, Dir)):
            Places.append((os.path.join(Top, Dir), None))
    for Path, Stage in Places:
        if Stage is not None and Stage not in RANK:
            Errors.append(f"{os.path.relpath(Path, Top)}: error: folder "
                          f"'{Stage}' is no stage of the layering; add it to "
                          f"LAYERS in scripts/check-layering.py")
            continue
        Files = [Path] if os.path.isfile(Path) else source_files(Path)
        for F in Files:
            with open(F, encoding="utf-8", errors="replace") as Text:
                for LineNo, Line in enumerate(Text, 1):
                    M = INCLUDE_RE.match(Line)
                    if not M:
                        continue
                    Used = stage_of_include(M.group(2), M.group(3))
                    if Used is None:
                        continue
                    check_use(Errors, f"{os.path.relpath(F, Top)}:{LineNo}",
                              Stage, Used,
                              f'#include "{M.group(1)}"')


def check_links(Top, Errors):
    LibDir = os.path.join(Top, "lib")
    if not os.path.isdir(LibDir):
        return
    Defined = {}  # library target -> stage
    Files = []
    for Stage in sorted(os.listdir(LibDir)):
        Path = os.path.join(LibDir, Stage, "CMakeLists.txt")
        if os.path.isfile(Path):
            with open(Path, encoding="utf-8") as F:
                Text = F.read()
            Files.append((Stage, Path, Text))
            for M in ADD_LIB_RE.finditer(Text):
                Defined[M.group(1)] = Stage
    for Stage, Path, Text in Files:
        if Stage not in RANK:
            continue  # reported by check_includes
        for M in LINK_RE.finditer(Text):
            Words = M.group(1).split()
            LineNo = Text.count("\n", 0, M.start()) + 1
            for Word in Words[1:]:
                if Word in Defined:
                    check_use(Errors, f"{os.path.relpath(Path, Top)}:{LineNo}",
                              Stage, Defined[Word],
                              f"target_link_libraries({Words[0]} ... {Word})")


def main():
    Top = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    Errors = []
    check_includes(Top, Errors)
    check_links(Top, Errors)
    for E in Errors:
        print(E)
    if Errors:
        print(f"check-layering: {len(Errors)} uses against the order "
              f"{order_text()}")
        return 1
    print(f"check-layering: every stage uses only those below it: "
          f"{order_text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
