"""Parses each feature text of a JSON list (argv[1], a file) with Cucumber's reference parser (PyPI
gherkin-official) and prints, per text, whether it parses and the pickles it compiles to, as one JSON list.
GherkinConformanceTests compares ours. Usage: python3 reference_parse.py TEXTS.json"""
import json
import sys

from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler

results = []
for index, text in enumerate(json.load(open(sys.argv[1], encoding="utf-8"))):
    try:
        document = Parser().parse(text)
    except Exception as error:  # the reference rejects the file
        results.append({"ok": False, "error": str(error).splitlines()[-1][:200]})
        continue
    document["uri"] = f"case{index}.feature"
    pickles = Compiler().compile(document)
    results.append({"ok": True, "pickles": [{
        "name": pickle["name"],
        "tags": [tag["name"] for tag in pickle["tags"]],
        "steps": [{
            "text": step["text"],
            "type": step.get("type", ""),
            "docString": (step.get("argument", {}).get("docString") or {}).get("content"),
            "mediaType": (step.get("argument", {}).get("docString") or {}).get("mediaType"),
            "table": [[cell["value"] for cell in row["cells"]] for row in (step.get("argument", {}).get("dataTable") or {}).get("rows", [])],
        } for step in pickle["steps"]],
    } for pickle in pickles]})
print(json.dumps(results, ensure_ascii=False))
