#!/usr/bin/env bash
# Checks the house rules of the package (issue #25, DESIGN.md "The house") and prints each figure:
#   - no Swift module holds more than 35 % of the lines under Sources/ (.swift, .c, .h);
#   - no function, initializer, subscript or braced property (computed, observed, or set from a closure literal)
#     in Sources/ is longer than 80 lines, from its declaration line to its closing brace; a nested one is
#     reported on its own too;
#   - no source file (.swift, .c, .h) under Sources/ is longer than 400 lines;
#   - README.md is at most 400 lines;
#   - no inline assembly (asm, __asm, __asm__) in Sources/;
#   - warning only: `import Glibc`/`import Darwin`/`import Musl` outside a Platform/ folder or a +Linux/+Darwin file.
# Exit 1 when a rule fails (warnings do not fail), 0 otherwise.
#
# Usage: scripts/house-check.sh               check the repository
#        scripts/house-check.sh --self-test   test the brace scanner on tricky inputs (strings, raw strings,
#                                              multi-line literals, regex literals, comments, nesting)
# Limits can be overridden: MODULE_SHARE_MAX (35), FUNCTION_LINES_MAX (80), FILE_LINES_MAX (400),
# README_LINES_MAX (400).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

exec python3 - "$@" <<'PY'
import os
import re
import sys

MODULE_SHARE_MAX = float(os.environ.get("MODULE_SHARE_MAX", "35"))
FUNCTION_LINES_MAX = int(os.environ.get("FUNCTION_LINES_MAX", "80"))
FILE_LINES_MAX = int(os.environ.get("FILE_LINES_MAX", "400"))
README_LINES_MAX = int(os.environ.get("README_LINES_MAX", "400"))
SOURCE_EXTENSIONS = (".swift", ".c", ".h")


# --- Swift lexing: blank out comments and literals, keep code and newlines -----------------------------------

def mask(text):
    """Returns text with every comment, string literal and regex literal replaced by spaces (newlines kept), so
    that braces and keywords left in it are code. Interpolations inside strings are blanked with their string."""
    out = list(text)
    n = len(text)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    def prev_code_char(i):
        k = i - 1
        while k >= 0 and out[k] in " \t":
            k -= 1
        return out[k] if k >= 0 else "\n"

    def prev_word(i):
        k = i - 1
        while k >= 0 and out[k] in " \t":
            k -= 1
        end = k + 1
        while k >= 0 and (out[k].isalnum() or out[k] == "_"):
            k -= 1
        return "".join(out[k + 1:end])

    def skip_block_comment(i):
        # Swift block comments nest.
        depth = 0
        while i < n:
            if text.startswith("/*", i):
                depth += 1
                i += 2
            elif text.startswith("*/", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        return n

    def skip_string(i):
        """i at the first '#' or '"' of a string literal; returns the index after its closing delimiter."""
        hashes = 0
        while i < n and text[i] == "#":
            hashes += 1
            i += 1
        multiline = text.startswith('"""', i)
        i += 3 if multiline else 1
        closing = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if text.startswith(escape, i):
                i += len(escape)
                if i < n and text[i] == "(":
                    i = skip_code(i + 1, stop=")")
                else:
                    i += 1
            elif text.startswith(closing, i):
                return i + len(closing)
            elif text[i] == "\n" and not multiline:
                return i  # unterminated: stop at the line's end
            else:
                i += 1
        return n

    def regex_end(i, hashes):
        """i at the opening '/'; the index after the literal, or None when this '/' is an operator."""
        j = i + 1
        if hashes == 0:
            if j >= n or text[j] in " \t\n=/*)":
                return None
        in_class = 0
        closing = "/" + "#" * hashes
        while j < n:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "\n" and hashes == 0:
                return None
            if c == "[":
                in_class += 1
            elif c == "]" and in_class:
                in_class -= 1
            elif in_class == 0 and text.startswith(closing, j):
                return j + len(closing)
            j += 1
        return None

    def skip_code(i, stop=None):
        """Scans code from i; with stop=')' returns after the parenthesis closing an interpolation."""
        depth = 0
        while i < n:
            c = text[i]
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                blank(i, end)
                i = end
            elif text.startswith("/*", i):
                end = skip_block_comment(i)
                blank(i, end)
                i = end
            elif c == '"' or (c == "#" and re.match(r'#+"', text[i:i + 64])):
                end = skip_string(i)
                blank(i, end)
                i = end
            elif c == "#" and re.match(r"#+/", text[i:i + 64]):
                hashes = len(re.match(r"#+", text[i:]).group(0))
                end = regex_end(i + hashes, hashes)
                if end is None:
                    i += 1
                else:
                    blank(i, end)
                    i = end
            elif c == "/" and (prev_code_char(i) in "([{,=:;!&|?^~+-*%<>\n" or prev_word(i) in ("return", "try", "await", "in", "case")):
                end = regex_end(i, 0)
                if end is None:
                    i += 1
                else:
                    blank(i, end)
                    i = end
            elif stop and c == "(":
                depth += 1
                i += 1
            elif stop and c == ")":
                if depth == 0:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        return n

    skip_code(0)
    return "".join(out)


# --- Declarations and their bodies ----------------------------------------------------------------------------

DECLARATION = re.compile(
    r"(?<![.\w])(?:"
    r"func\s+(?P<func>[^\s(<]+)"
    r"|(?P<init>init)\s*[?!]?\s*[(<]"
    r"|(?P<deinit>deinit)\s*\{"
    r"|(?P<subscript>subscript)\s*[(<]"
    r"|(?:var|let)\s+(?P<property>\w+)"
    r")"
)
# Words that cannot appear in a signature at depth 0: seeing one first means the declaration has no body.
NOT_IN_SIGNATURE = re.compile(
    r"(?<![.\w])(?:func|init|deinit|var|let|case|subscript|typealias|associatedtype|struct|class|enum|protocol|"
    r"extension|actor|import|static|public|private|fileprivate|internal|package|open|mutating|nonmutating|"
    r"override|final|lazy|weak|unowned|@\w+)(?!\w)"
)


def matching_braces(masked):
    pairs = {}
    stack = []
    for k, c in enumerate(masked):
        if c == "{":
            stack.append(k)
        elif c == "}" and stack:
            pairs[stack.pop()] = k
    return pairs


def body_open(masked, start, property_):
    """The index of the '{' opening the body of the declaration whose name ends at start, or None.
    For a property: a '{' after its type (computed or observed), or a closure literal right after '='."""
    depth = 0
    k = start
    n = len(masked)
    while k < n:
        c = masked[k]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0:
            if c == "{":
                return k
            if c == "}" or c == ";":
                return None
            if property_:
                if c == "=" and masked[k + 1:k + 2] != "=":
                    rest = masked[k + 1:]
                    stripped = rest.lstrip(" \t\n")
                    if stripped.startswith("{"):
                        return k + 1 + (len(rest) - len(stripped))
                    # an initial value then observers: `var x = 0 { didSet { ... } }`
                    observers = re.match(r"[^\n]*?\{\s*(?:didSet|willSet)\b", rest)
                    return k + 1 + observers.group(0).index("{") if observers and "{" not in rest[:observers.group(0).index("{")] else None
                if c == "\n":
                    # a property's type ends at the line's end unless a '{' or '=' opens the next line
                    nxt = masked[k + 1:].lstrip(" \t\n")[:1]
                    if nxt not in ("{", "="):
                        return None
            m = NOT_IN_SIGNATURE.match(masked, k)
            if m and (k == 0 or not (masked[k - 1].isalnum() or masked[k - 1] == "_")):
                return None
        k += 1
    return None


def bodies(text):
    """Every function, initializer, deinitializer, subscript and braced property of a Swift file:
    (line, kind, name, lines from the declaration line to the closing brace)."""
    masked = mask(text)
    pairs = matching_braces(masked)
    found = []
    for m in DECLARATION.finditer(masked):
        kind = next(k for k in ("func", "init", "deinit", "subscript", "property") if m.group(k))
        name = m.group(kind)
        after = m.end(kind)
        opening = body_open(masked, after, kind == "property")
        if opening is None or opening not in pairs:
            continue
        first = masked.count("\n", 0, m.start()) + 1
        last = masked.count("\n", 0, pairs[opening]) + 1
        label = {"func": name, "init": "init", "deinit": "deinit", "subscript": "subscript", "property": "var " + name}[kind]
        found.append((first, kind, label, last - first + 1))
    return found


# --- The rules ------------------------------------------------------------------------------------------------

def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def line_count(text):
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def source_files(root="Sources"):
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_EXTENSIONS):
                yield os.path.join(directory, name)


def check():
    failures = []
    warnings = []

    # Module shares
    modules = {}
    swift_modules = set()
    for path in source_files():
        module = path.split(os.sep)[1]
        modules[module] = modules.get(module, 0) + line_count(read(path))
        if path.endswith(".swift"):
            swift_modules.add(module)
    total = sum(modules.values())
    print(f"Module shares of the {total} lines under Sources/ (.swift, .c, .h; limit {MODULE_SHARE_MAX:g} % per Swift module):")
    for module, lines in sorted(modules.items(), key=lambda item: -item[1]):
        share = 100.0 * lines / total if total else 0.0
        over = module in swift_modules and share > MODULE_SHARE_MAX
        language = "Swift" if module in swift_modules else "C"
        print(f"  {module:<24} {lines:>6} lines  {share:5.1f} %  {language}{'  OVER' if over else ''}")
        if over:
            failures.append(f"module {module} holds {share:.1f} % of Sources/ (limit {MODULE_SHARE_MAX:g} %)")

    # Bodies
    offenders = []
    count = 0
    for path in source_files():
        if path.endswith(".swift"):
            for line, kind, name, length in bodies(read(path)):
                count += 1
                if length > FUNCTION_LINES_MAX:
                    offenders.append((path, line, name, length))
    print(f"\nBodies longer than {FUNCTION_LINES_MAX} lines (functions, initializers, subscripts, braced properties; {count} scanned): {len(offenders)}")
    for path, line, name, length in sorted(offenders, key=lambda o: -o[3]):
        print(f"  {path}:{line} {name} {length}")
    if offenders:
        failures.append(f"{len(offenders)} bodies over {FUNCTION_LINES_MAX} lines")

    # Files
    sizes = [(path, line_count(read(path))) for path in source_files()]
    long_files = [(p, s) for p, s in sizes if s > FILE_LINES_MAX]
    largest = max(sizes, key=lambda item: item[1]) if sizes else ("-", 0)
    print(f"\nSource files longer than {FILE_LINES_MAX} lines ({len(sizes)} files; largest {largest[0]} {largest[1]}): {len(long_files)}")
    for path, size in sorted(long_files, key=lambda item: -item[1]):
        print(f"  {path} {size}")
    if long_files:
        failures.append(f"{len(long_files)} files over {FILE_LINES_MAX} lines")

    # README
    readme = line_count(read("README.md")) if os.path.exists("README.md") else 0
    print(f"\nREADME.md: {readme} lines (limit {README_LINES_MAX}){'  OVER' if readme > README_LINES_MAX else ''}")
    if readme > README_LINES_MAX:
        failures.append(f"README.md has {readme} lines (limit {README_LINES_MAX})")

    # Inline assembly: the statement or a register variable, in code (comments and strings are blanked in Swift;
    # in C, comments are stripped and the keyword must be followed by '(' or a qualifier).
    assembly = []
    asm_use = re.compile(r"\b(?:__asm__|__asm|asm)\b\s*(?:volatile|__volatile__|goto|inline)?\s*\(")
    for path in source_files():
        text = read(path)
        if path.endswith(".swift"):
            text = mask(text)
        else:
            text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
            text = re.sub(r"//[^\n]*", "", text)
        for number, line in enumerate(text.split("\n"), 1):
            if asm_use.search(line):
                assembly.append(f"{path}:{number}: {line.strip()}")
    print(f"\nInline assembly in Sources/: {len(assembly)} lines")
    for entry in assembly:
        print(f"  {entry}")
    if assembly:
        failures.append(f"{len(assembly)} lines of inline assembly")

    # Platform imports (warning only)
    platform_import = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:Glibc|Darwin|Musl)\b", re.M)
    importing = []
    for path in source_files():
        if not path.endswith(".swift"):
            continue
        masked = mask(read(path))
        if not platform_import.search(masked):
            continue
        parts = path.split(os.sep)
        base = os.path.basename(path)
        if "Platform" in parts[:-1] or "+Linux" in base or "+Darwin" in base:
            continue
        importing.append(path)
    print(f"\nFiles importing Glibc/Darwin/Musl outside Platform/ and +Linux/+Darwin files (warning only): {len(importing)}")
    for path in importing:
        print(f"  {path}")
    if importing:
        warnings.append(f"{len(importing)} files import a C library outside the platform layer")

    print()
    for warning in warnings:
        print(f"warning: {warning}")
    if failures:
        for failure in failures:
            print(f"FAIL: {failure}")
        return 1
    print("house-check: every rule holds")
    return 0


# --- Self-test ----------------------------------------------------------------------------------------------

def self_test():
    cases = []

    def case(title, source, expected):
        cases.append((title, source, expected))

    case("braces in strings and comments", '''\
func a() {
    let s = "}}}{"  // }
    /* } { */
    print(s)
}
func b() { }
''', [(1, "a", 5), (6, "b", 1)])

    case("escaped quote and interpolation holding a string with braces", '''\
func a() {
    let s = "\\"}\\(f("}")) {"
    let t = "\\(x.map { "\\($0)}" })"
}
''', [(1, "a", 4)])

    case("multi-line literal with braces, quotes and a lone \\\"\\\"\\\" inside a line", '''\
func a() -> String {
    """
    } " "" { \\""" }
    \\(g { 1 })
    """
}
func b() {}
''', [(1, "a", 6), (7, "b", 1)])

    case("raw strings: quotes and backslashes are literal, \\\\#( interpolates", '''\
func a() {
    let r = #"a " } \\(not) {"#
    let s = #"\\#(f("}"))"#
    let t = ##"x "# } "##
    let u = #"""
    """ } {
    """#
}
func b() {}
''', [(1, "a", 8), (9, "b", 1)])

    case("regex literals with quotes and braces; division is not one", '''\
func a() {
    let x = s.replacing(/"(?:[^"\\\\]|\\\\.)*"/, with: "")
    let y = #/ } " /#
    let z = (w) / 2 + q/3
}
func b() {}
''', [(1, "a", 5), (6, "b", 1)])

    case("nested functions: each reported", '''\
struct S {
    func outer() {
        func inner() {
            print("{")
        }
        inner()
    }
}
''', [(2, "outer", 6), (3, "inner", 3)])

    case("initializers, subscripts, computed and closure properties; calls and protocol requirements are not bodies", '''\
protocol P {
    func required() -> Int
    var value: Int { get }
}
final class C {
    let stored: Int
    var observed = 0 { didSet { print(1) } }
    var computed: [String: Int] {
        ["a": 1]
    }
    lazy var made: Int = {
        1
    }()
    init(x: Int = { 3 }()) {
        self.stored = x
        super.init()
    }
    deinit {
        print(0)
    }
    subscript(i: Int) -> Int {
        i
    }
    func generic<T>(_ t: T) -> T where T: Equatable {
        t
    }
}
''', [(3, "var value", 1), (7, "var observed", 1), (8, "var computed", 3), (11, "var made", 3), (14, "init", 4),
      (18, "deinit", 3), (21, "subscript", 3), (24, "generic", 3)])

    case("nested block comments and line comments with keywords", '''\
/* func fake() { /* nested } */ { */
// func alsoFake() {
func real() {
    // }
}
''', [(3, "real", 3)])

    failed = 0
    for title, source, expected in cases:
        got = [(line, name, length) for line, _, name, length in bodies(source)]
        ok = got == expected
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {title}")
        if not ok:
            print(f"     expected {expected}\n     got      {got}")

    asm_use = re.compile(r"\b(?:__asm__|__asm|asm)\b\s*(?:volatile|__volatile__|goto|inline)?\s*\(")
    checks = [
        ("asm statement found", bool(asm_use.search('__asm__ volatile("syscall" : : : "memory");'))),
        ("asm register variable found", bool(asm_use.search('register long r10 __asm__("r10") = d;'))),
        ("the word asm in prose is not", not asm_use.search("no inline asm here")),
    ]
    for title, ok in checks:
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {title}")
    print(f"self-test: {len(cases) + len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if sys.argv[1:] == ["--self-test"]:
    sys.exit(self_test())
if sys.argv[1:]:
    print("usage: scripts/house-check.sh [--self-test]", file=sys.stderr)
    sys.exit(2)
sys.exit(check())
PY
