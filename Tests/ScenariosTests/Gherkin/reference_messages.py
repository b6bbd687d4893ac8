"""Cucumber Messages for each feature text of a JSON list (argv[1], a file), as Cucumber's reference parser
(PyPI gherkin-official) writes them: per text, its gherkinDocument and pickle envelopes (or parse errors).
CucumberMessagesTests compares ours. Usage: python3 reference_messages.py TEXTS.json"""
import json
import sys

from gherkin.stream.gherkin_events import GherkinEvents

results = []
for index, text in enumerate(json.load(open(sys.argv[1], encoding="utf-8"))):
    events = GherkinEvents(GherkinEvents.Options(print_source=False, print_ast=True, print_pickles=True))
    source = {"source": {"uri": f"case{index}.feature", "data": text, "mediaType": "text/x.cucumber.gherkin+plain"}}
    results.append(list(events.enum(source)))
print(json.dumps(results, ensure_ascii=False))
