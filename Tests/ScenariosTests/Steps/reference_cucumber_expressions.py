"""Matches texts against Cucumber Expressions with Cucumber's reference implementation (PyPI cucumber-expressions).

Input: a JSON file [{"expression": "...", "texts": ["...", ...]}, ...]. Output (stdout): a JSON array with, for each
expression, null when the reference refuses it, else for each text null (no match) or the list of the values
as strings (numbers as the reference converted them, so "1.50" reads 1.5).
"""
import json
import sys

from cucumber_expressions.expression import CucumberExpression
from cucumber_expressions.parameter_type_registry import ParameterTypeRegistry

registry = ParameterTypeRegistry()
answers = []
for case in json.load(open(sys.argv[1], encoding="utf-8")):
    try:
        expression = CucumberExpression(case["expression"], registry)
    except Exception:  # the library's errors share no base class beyond Exception
        answers.append(None)
        continue
    verdicts = []
    for text in case["texts"]:
        match = expression.match(text)
        verdicts.append(None if match is None else [a.value if isinstance(a.value, str) else repr(a.value) for a in match])
    answers.append(verdicts)
json.dump(answers, sys.stdout)
