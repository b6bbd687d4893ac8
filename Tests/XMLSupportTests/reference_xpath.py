"""The reference for XPathDifferentialTests: lxml (its own libxml2 build) evaluates each case of the JSON file named
on the command line ([document, expression, {prefix: uri}]) and prints one JSON answer per case, in order:
{"kind": "nodes", "values": [string value of each node]}, {"kind": "boolean"|"number"|"string", "value": ...}, or
{"kind": "error"} when the document or expression is refused. Numbers as integers when whole, else repr.

Usage: python3 reference_xpath.py CASES.json
"""
import json
import math
import sys

from lxml import etree


def number(value):
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def node_value(node):
    if isinstance(node, etree._Element):
        return node.xpath("string(.)")
    return str(node)


answers = []
for document, expression, namespaces in json.load(open(sys.argv[1], encoding="utf-8")):
    try:
        # CDATA sections stay nodes of their own, as in libxml2's parse here and WireMock's DOM.
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, strip_cdata=False)
        tree = etree.fromstring(document.encode("utf-8"), parser).getroottree()
        result = tree.xpath(expression, namespaces=namespaces or None)
    except Exception:
        answers.append({"kind": "error"})
        continue
    if isinstance(result, list):
        answers.append({"kind": "nodes", "values": [node_value(node) for node in result]})
    elif isinstance(result, bool):
        answers.append({"kind": "boolean", "value": result})
    elif isinstance(result, float):
        answers.append({"kind": "number", "value": number(result)})
    else:
        answers.append({"kind": "string", "value": str(result)})
print(json.dumps(answers))
