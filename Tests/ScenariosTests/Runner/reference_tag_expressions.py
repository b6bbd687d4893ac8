"""Evaluates tag expressions with Cucumber's reference implementation (PyPI cucumber-tag-expressions).

Input: a JSON file {"expressions": [...], "tagSets": [[...], ...]}. Output (stdout): a JSON array with, for each
expression, null when the reference refuses it, else the list of its verdicts on every tag set.
"""
import json
import sys

from cucumber_tag_expressions import parse

request = json.load(open(sys.argv[1], encoding="utf-8"))
answers = []
for expression in request["expressions"]:
    try:
        parsed = parse(expression)
    except Exception:  # the library raises TagExpressionError and, for some inputs, other errors
        answers.append(None)
        continue
    answers.append([bool(parsed.evaluate(tags)) for tags in request["tagSets"]])
json.dump(answers, sys.stdout)
