"""A string a simple regular expression matches, built from Python's parse of it (Java's syntax agrees on what
real mapping files use: literals, classes, groups, alternation, repetition). None when it cannot say one."""
try:
    import re._parser as parser
    import re._constants as constants
except ImportError:  # Python before 3.11
    import sre_parse as parser
    import sre_constants as constants

CATEGORIES = {"CATEGORY_DIGIT": "1", "CATEGORY_WORD": "a", "CATEGORY_SPACE": " ",
              "CATEGORY_NOT_DIGIT": "a", "CATEGORY_NOT_WORD": "-", "CATEGORY_NOT_SPACE": "a"}


def sample(pattern):
    try:
        return "".join(_walk(parser.parse(pattern)))
    except Exception:  # anything the walk does not know: no sample
        return None


def _walk(tokens):
    for op, value in tokens:
        name = str(op)
        if name == "LITERAL":
            yield chr(value)
        elif name == "NOT_LITERAL":
            yield "a" if value != ord("a") else "b"
        elif name == "ANY":
            yield "a"
        elif name == "IN":
            yield _member(value)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, item = value
            for _ in range(max(low, min(1, high))):  # once at least: a header value loses trailing spaces
                yield from _walk(item)
        elif name == "SUBPATTERN":
            yield from _walk(value[-1])
        elif name == "BRANCH":
            yield from _walk(value[1][0])
        elif name in ("AT", "GROUPREF_EXISTS"):
            continue
        else:
            raise ValueError(name)


def _member(items):
    negated = False
    for op, value in items:
        name = str(op)
        if name == "NEGATE":
            negated = True
        elif negated:
            continue
        elif name == "LITERAL":
            return chr(value)
        elif name == "RANGE":
            return chr(value[0])
        elif name == "CATEGORY":
            return CATEGORIES[str(value)]
    if negated:
        excluded = set()
        for op, value in items:
            if str(op) == "LITERAL":
                excluded.add(chr(value))
            elif str(op) == "RANGE":
                excluded.update(chr(c) for c in range(value[0], value[1] + 1))
        for candidate in "a1-_zZ":
            if candidate not in excluded:
                return candidate
    raise ValueError("class")
