"""Checks Cucumber Messages NDJSON files against the message classes of PyPI cucumber-messages (generated from
Cucumber's JSON schema): every line one envelope with one message, every required field present, no key the
schema does not have, enum values it knows, the JSON types it says. Prints one line per problem (at most 50) and
"ok N envelopes" when there is none; exits 1 on problems, 2 when cucumber-messages is missing.

Usage: python3 cucumber_messages_check.py FILE.ndjson...
"""
import dataclasses
import enum
import json
import sys
import types
import typing

try:
    from cucumber_messages import _messages as schema
    from cucumber_messages.json_converter import camel_to_snake, snake_to_camel
except ImportError:
    print("needs PyPI cucumber-messages: pip install cucumber-messages", file=sys.stderr)
    sys.exit(2)

problems = []


def check(value, expected, path):
    if dataclasses.is_dataclass(expected):
        if not isinstance(value, dict):
            problems.append(f"{path}: expected an object ({expected.__name__})")
            return
        fields = {field.name: field for field in dataclasses.fields(expected)}
        hints = typing.get_type_hints(expected, vars(schema))
        for key, member in value.items():
            name = camel_to_snake(key)
            if name not in fields:
                problems.append(f"{path}.{key}: not a field of {expected.__name__}")
                continue
            check(member, hints[name], f"{path}.{key}")
        for name, field in fields.items():
            required = field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
            if required and snake_to_camel(name) not in value:
                problems.append(f"{path}: {expected.__name__} needs {snake_to_camel(name)}")
        return
    origin = typing.get_origin(expected)
    if origin in (typing.Union, types.UnionType):
        if value is not None:
            check(value, next(a for a in typing.get_args(expected) if a is not type(None)), path)
        return
    if origin is list:
        if not isinstance(value, list):
            problems.append(f"{path}: expected an array")
            return
        (element,) = typing.get_args(expected)
        for index, member in enumerate(value):
            check(member, element, f"{path}[{index}]")
        return
    if isinstance(expected, type) and issubclass(expected, enum.Enum):
        if value not in [case.value for case in expected]:
            problems.append(f"{path}: {value!r} is not a {expected.__name__}")
        return
    simple = {str: (str,), int: (int,), bool: (bool,), float: (int, float)}
    if expected in simple and (not isinstance(value, simple[expected]) or (expected is not bool and isinstance(value, bool))):
        problems.append(f"{path}: expected {expected.__name__}, found {value!r}")


count = 0
for file in sys.argv[1:]:
    for number, line in enumerate(open(file, encoding="utf-8"), 1):
        envelope = json.loads(line)
        if len(envelope) != 1:
            problems.append(f"{file}:{number}: an envelope holds one message, found {sorted(envelope)}")
        check(envelope, schema.Envelope, f"{file}:{number}")
        count += 1
for problem in problems[:50]:
    print(problem)
if problems:
    sys.exit(1)
print(f"ok {count} envelopes")
