"""Response templates, the same on any server: creates one mapping per template (POST /__admin/mappings),
asks each with the same request, prints one JSON line per answer. Usage: python3 templates_script.py BASE_URL"""
import json
import sys

from plain_http import call as exchange

base = sys.argv[1]

TEMPLATES = [
    "{{request.path}}",
    "{{request.url}}",
    "{{request.method}}",
    "{{request.path.[1]}}",
    "{{request.pathSegments.[2]}}",
    "{{request.query.name}}",
    "{{request.query.tag.[1]}}",
    "{{request.headers.X-Trace}}",
    "{{request.cookies.session}}",
    "{{request.body}}",
    "{{{request.body}}}",
    "{{jsonPath request.body '$.user.name'}}",
    "{{jsonPath request.body '$.items[1].price'}}",
    "{{jsonPath request.body '$.missing'}}",
    "{{upper request.query.name}}-{{lower request.method}}",
    "[{{trim '  spaced  '}}]",
    "{{size request.query.name}}",
    "{{#if request.query.name}}has a name{{else}}no name{{/if}}",
    "{{#if request.query.nothing}}yes{{else}}no{{/if}}",
    "{{#unless request.query.nothing}}absent{{/unless}}",
    "{{#eq request.method 'POST'}}a post{{else}}not a post{{/eq}}",
    "{{#neq request.query.name 'Ada'}}other{{else}}ada{{/neq}}",
    "{{#each request.query.tag}}[{{this}}]{{/each}}",
    "{{#each (jsonPath request.body '$.items') as |item|}}{{item.name}}={{item.price}};{{/each}}",
    "{{#each (jsonPath request.body '$.items')}}{{@index}}:{{this.name}}{{#if @last}}.{{else}},{{/if}}{{/each}}",
    "{{#if (eq request.query.name 'Ada')}}equal{{/if}}",
    "{{#gt (jsonPath request.body '$.items[0].price') 2}}big{{else}}small{{/gt}}",
    "{{#with (jsonPath request.body '$.user')}}{{this.name}} ({{this.age}}){{/with}}",
    "{{#contains request.headers.X-Trace 'abc'}}traced{{/contains}}",
    "<{{request.query.html}}> <{{{request.query.html}}}>",
    "{{! a comment }}visible",
    "a {{~ request.method ~}} b",
    "{{request.query.tag}}",
    "{{request.query.missing}}|",
    "{{#each request.query.name}}<{{this}}>{{/each}}",
    "{{jsonPath request.body '$.user'}}",
    "{{jsonPath request.body '$.items[*].name'}}",
    "{{size (jsonPath request.body '$.items')}}",
    "{{#eq (jsonPath request.body '$.user.name') 'Ada'}}ada by json{{/eq}}",
    "{{#lt (jsonPath request.body '$.items[1].price') 2}}cheap{{/lt}}",
    "{{eq 'a' 'a'}} {{neq 'a' 'b'}} {{not true}}",
    "{{#and request.query.name request.headers.X-Trace}}both{{/and}}",
    "{{#or request.query.missing request.query.name}}either{{/or}}",
    "{{#each (jsonPath request.body '$.user')}}{{@key}}={{this}};{{/each}}",
    "{{#each request.query.missing}}x{{else}}none{{/each}}",
    "{{jsonPath request.body '$.items'}}",
    "{{{jsonPath request.body '$.user'}}}",
    "{{size request.path}} {{size request.query.tag}}",
    "{{#eq request.query.name.[0] 'Ada'}}first is ada{{else}}no{{/eq}}",
    "{{#if request.query.missing}}y{{else if request.query.name}}second{{/if}}",
    # The request's query, headers and path as collections (each, with, if, size, printed whole).
    "{{#each request.query}}{{@key}}={{this}};{{/each}}",
    "[{{size request.query}}] [{{size request.headers}}] [{{size request.pathSegments}}]",
    "{{#with request.query}}{{name}}/{{tag}}{{/with}}",
    "{{#if request.query}}y{{else}}n{{/if}} {{#if request.pathSegments}}p{{/if}} {{#if request.headers}}h{{/if}}",
    "{{#each request.pathSegments}}{{this}};{{/each}}",
    "{{#each request.path}}{{@index}}{{this}};{{/each}}",
    "{{request.query}} {{{request.query}}}",
    "{{request.pathSegments}}",
    "{{#each request.query as |v k|}}{{k}}:{{v}},{{/each}}",
    "{{#with request.headers}}{{X-Trace}}{{/with}}",
    "{{#each request.query}}{{#each this}}<{{this}}>{{/each}}{{size this}}{{/each}}",
    # The cookies as a collection, a name sent twice first (r8a A8).
    "[{{request.cookies.session}}] [{{request.cookies.session.[1]}}] [{{size request.cookies}}] [{{size request.cookies.session}}]",
    "{{#each request.cookies}}{{@key}}={{this}};{{/each}} {{#if request.cookies}}y{{else}}n{{/if}}",
    "{{#with request.cookies}}{{b}}{{/with}} {{request.cookies}} {{#each request.cookies.session}}<{{this}}>{{/each}}",
]

REQUEST_BODY = json.dumps({"user": {"name": "Ada", "age": 36}, "items": [{"name": "tea", "price": 3}, {"name": "milk", "price": 1.5}]})


def call(method, path, body=None, headers=None):
    return exchange(base, method, path, body, headers)


call("DELETE", "/__admin/mappings")
for index, template in enumerate(TEMPLATES):
    mapping = {"request": {"urlPathPattern": f"/t/{index}/.*"},
               "response": {"status": 200, "body": template, "transformers": ["response-template"]}}
    status, answer = call("POST", "/__admin/mappings", json.dumps(mapping), {"Content-Type": "application/json"})
    if status != 201:
        print(json.dumps({"template": template, "created": status, "answer": answer[:200]}))
for index, template in enumerate(TEMPLATES):
    status, body = call("POST", f"/t/{index}/orders/7?name=Ada&tag=a&tag=b&html=%3Cb%3E%26%22'%3D",
                        REQUEST_BODY, {"Content-Type": "application/json", "X-Trace": "abc-123", "Cookie": "session=s3cr3t; b=2; session=other"})
    print(json.dumps({"template": template, "status": status, "body": body}, sort_keys=True))

# The path as WireMock's UrlPath holds it: percent-decoded, `%2F` splitting a segment (r9a B2).
PATH_TEMPLATE = "[{{request.path}}][{{request.pathSegments.[1]}}][{{#each request.pathSegments}}<{{this}}>{{/each}}][{{size request.path}}]"
call("POST", "/__admin/mappings", json.dumps({"request": {"urlPathPattern": "/enc/.*"}, "response": {
    "status": 200, "body": PATH_TEMPLATE, "transformers": ["response-template"]}}), {"Content-Type": "application/json"})
for path in ["/enc/caf%C3%A9", "/enc/a%20b", "/enc/a%2Fb", "/enc/a%3Fb", "/enc/%25zz", "/enc/%2e%2e", "/enc/%C3", "/enc/%FF%FE",
             "/enc/a+b", "/enc/%2F%2F/x", "/enc/a//b", "/enc/John%20Doe/%E2%82%AC"]:
    status, body = call("GET", path)
    print(json.dumps({"path": path, "status": status, "body": body}, sort_keys=True))

# The query as WireMock reads it (r9a B9): split at every '&' (an empty piece is a parameter "" of value "", a '?'
# with nothing after it none), escapes decoded by Java's URLDecoder (a malformed UTF-8 sequence one U+FFFD as Java
# counts them: an encoded surrogate is one, a sequence cut by the end one); the path's escapes as Java's URI reads them.
QUERY_TEMPLATE = "[{{#each request.query}}<{{@key}}={{this}}|{{size this}}>{{/each}}][{{size request.query}}]"
call("POST", "/__admin/mappings", json.dumps({"request": {"urlPath": "/query"}, "response": {
    "status": 200, "body": QUERY_TEMPLATE, "transformers": ["response-template"]}}), {"Content-Type": "application/json"})
for query in ["&&a=1&&", "&", "", "a", "=x", "a=1&", "a=%ED%A0%80", "a=%ED%A0%80%ED%B0%80", "a=%E0%80%80", "a=%C0%AF",
              "a=%F4%90%80%80", "a=%F0%80%80%80", "a=%F5%80%80%80", "a=%C3", "a=%E0%A0", "a=%E0%A0x", "a=%ED%A0", "a=%F0%90%80",
              "a=%F0%90%80x", "a=%F0%90x", "a=%F0", "a=%C3%28", "a=%E2%82", "a=%E2%82%AC%80", "%C3=1", "a=%C3&b=1", "a=%C3+", "a=%F8%88%80%80%80"]:
    status, body = call("GET", "/query?" + query)
    print(json.dumps({"query": query, "status": status, "body": body}, sort_keys=True))
for path in ["/enc/%ED%A0%80", "/enc/%E0%A0", "/enc/%F0%90%80x", "/enc/%E0%80%80"]:
    status, body = call("GET", path)
    print(json.dumps({"path": path, "status": status, "body": body}, sort_keys=True))
