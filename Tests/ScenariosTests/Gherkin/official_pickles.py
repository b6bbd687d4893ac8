"""For every language of Gherkin's official keyword list, writes a feature with each kind of keyword and prints
it with the pickles the reference parser (PyPI gherkin-official, cucumber/gherkin) compiles from it, as JSON.
GherkinLanguageTests parses the same texts and compares. Usage: python3 official_pickles.py"""
import json
import os

import gherkin
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler

languages = json.load(open(os.path.join(os.path.dirname(gherkin.__file__), "gherkin-languages.json"), encoding="utf-8"))


def first(words):
    """The first keyword that is not `* `."""
    return next(word for word in words if word.strip() != "*")


cases = []
for code in sorted(languages):
    words = languages[code]
    text = "\n".join([
        f"# language: {code}",
        f"{words['feature'][0]}: F {code}",
        "",
        f"  {words['background'][0]}:",
        f"    {first(words['given'])}a background step",
        "",
        f"  {words['scenario'][-1]}: S1",
        f"    {first(words['given'])}a context",
        f"    {first(words['and'])}another context",
        f"    {first(words['when'])}an action",
        f"    {first(words['but'])}not that",
        f"    {first(words['then'])}an outcome",
        *(["    * a star step"] if "* " in words["given"] else []),
        "",
        f"  {words['scenarioOutline'][0]}: S2",
        f"    {first(words['given'])}value <x>",
        "",
        f"    {words['examples'][0]}:",
        "      | x |",
        "      | 1 |",
        "",
    ])
    document = Parser().parse(text)
    document["uri"] = f"{code}.feature"
    pickles = Compiler().compile(document)
    cases.append({"code": code, "text": text, "pickles": [
        {"name": pickle["name"], "steps": [[step["text"], step.get("type", "")] for step in pickle["steps"]]} for pickle in pickles
    ]})
print(json.dumps(cases, ensure_ascii=False))
