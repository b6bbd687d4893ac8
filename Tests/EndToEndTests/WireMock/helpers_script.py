"""WireMock 2.35's helpers, the same on any server: one mapping per template whose answer does not depend on the
clock or on chance (math, dates parsed and printed, strings, JSON, regular expressions, form data), asked with
the same request; prints one JSON line per answer. Usage: python3 helpers_script.py BASE_URL"""
import json
import os
import sys

from plain_http import call as exchange

base = sys.argv[1]

TEMPLATES = [
    "{{math 1 '+' 2}} {{math 10 '/' 4}} {{math 10.0 '/' 3}} {{math 1 '/' 3.0}} {{math 1.5 '+' 2}} {{math 1.0 '+' 2}}",
    "{{math 0.1 '+' 0.2}} {{math 5 '%' 3}} {{math -5 '%' 3}} {{math 7 '%' 2.5}} {{math 2 'x' 3}} {{math 1 '-' 0.75}}",
    "{{math 10000000 '*' 1.5}} {{math 0.000001 '*' 1}} {{math '10' '/' '4'}} {{math 'abc' '+' 1}} {{math '1e3' '+' 1}}",
    "{{math 2147483647 '+' 1}} {{math -2147483648 '-' 1}} {{math 3000000000 '-' 6000000000}} {{math 0 '-' 3000000000}}",
    "{{math (jsonPath request.body '$.items[1].price') '*' 2}} {{math (jsonPath request.body '$.user.age') '/' 5}} {{math request.query.name '+' 1}}",
    "{{math 2 request.query.name 3}}",
    "{{parseDate '2021-11-10T10:15:30Z'}} {{parseDate '2021-11-10T10:15:30+01:00'}} {{parseDate 'Tue, 3 Jun 2008 11:05:30 GMT'}}",
    "{{parseDate 'Sun Nov  6 08:49:37 1994'}}|{{parseDate 'Sunday, 06-Nov-94 08:49:37 GMT'}}|{{parseDate 'junk'}}",
    "{{parseDate '10/11/2021' format='dd/MM/yyyy'}} {{parseDate '1577964091000' format='epoch'}} {{parseDate '1577964091' format='unix'}}",
    "{{parseDate '2021-11' format='yyyy-MM'}} {{parseDate '2021' format='yyyy'}} {{parseDate '2021-01-02 10' format='yyyy-MM-dd HH'}}",
    "{{parseDate '2021-01-02 10:11 +0530' format='yyyy-MM-dd HH:mm Z'}} {{parseDate '2021-02-30' format='yyyy-MM-dd'}} {{parseDate '2021-01-01 24:00' format='yyyy-MM-dd HH:mm'}}",
    "{{parseDate '20210102' format='yyyyMMdd'}} {{parseDate '2/1/2021' format='d/M/yyyy'}} {{parseDate 'Jan 2, 2021' format='MMM d, yyyy'}}",
    "{{parseDate '10:11 PM 2021-01-02' format='hh:mm a yyyy-MM-dd'}}|{{parseDate 'Sun 2021-01-02' format='EEE yyyy-MM-dd'}}|{{parseDate '2021-02-32' format='yyyy-MM-dd'}}",
    "{{parseDate '1500-03-04T05:06:07Z'}} {{parseDate '-0044-03-15T12:00:00Z'}} {{parseDate '+12345-01-01T00:00:00Z'}}",
    "{{date (parseDate '2021-01-02T10:11:12Z') offset='1 months' format='yyyy-MM-dd'}} {{date (parseDate '2021-01-31T10:11:12Z') offset='1 months'}}",
    "{{date (parseDate '2024-02-29T00:00:00Z') offset='1 years'}} {{date (parseDate '2021-01-02T00:00:00Z') offset='-1 days'}} {{date (parseDate '2021-01-02T00:00:00Z') offset='now +5 years' format='yyyy'}}",
    "{{date (parseDate '2021-03-04T05:06:07Z') format='yyyy-MM-dd HH:mm:ss.SSS S SSSS E EEEE MMM MMMM a h K k D u G yy y yyy Z X XX XXX z'}}",
    "{{date (parseDate '2021-03-04T05:06:07+05:30') format='HH:mm Z X XX XXX z'}} {{date (parseDate '2021-03-04T05:06:07Z') format='yyyy-MM-dd\\'T\\'HH'}}",
    "{{date (parseDate '1582-10-15T00:00:00Z') offset='-1 days' format='yyyy-MM-dd EEE D'}} {{date (parseDate '0001-01-01T00:00:00Z') offset='-3 days' format='yyyy-MM-dd G'}}",
    "{{date (parseDate '2021-01-02T00:00:00Z') format='epoch'}} {{date (parseDate '1969-12-31T23:59:59.5Z') format='unix'}}",
    "{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'yyyy-MM-dd HH:mm:ss.SSS EEE a z Z X'}} {{dateFormat (parseDate '2021-01-02T10:11:12Z')}}",
    "{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'full'}}|{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'long'}}|{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'short'}}",
    "{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'medium' time='short'}}|{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'medium' time='medium'}}",
    "{{dateFormat (parseDate '-0001-06-01T00:00:00Z') 'yyyy-MM-dd G uuuu yy uu'}} {{dateFormat (parseDate '+12345-01-01T00:00:00Z') 'yyyy uuuu y u'}} {{dateFormat request.query.x 'yyyy'}}",
    "{{truncateDate (parseDate '2021-01-02T10:11:12Z') 'first day of month'}} {{truncateDate (parseDate '2021-01-31T10:11:12Z') 'first day of next month'}}",
    "{{truncateDate (parseDate '2021-01-31T10:11:12Z') 'last day of year'}} {{truncateDate (parseDate '2021-01-31T10:11:12Z') 'FIRST_SECOND_OF_MINUTE'}} {{truncateDate 'x' 'first day of month'}}",
    "{{now format='yyyy'}}-{{now offset='1 years' format='yyyy'}}",
    "{{array 1 'two' 3.5}} {{array}} {{array 1 (array 2 3)}} {{size (array 1 2)}} {{#each (array 'a' 'b')}}[{{this}}]{{/each}}",
    "{{join (array 'a' 'b' 'c') ', '}} {{join 'a' 'b' 'c' '-'}} {{join (array 'a' 'b') ',' prefix='[' suffix=']'}} {{join (array 1 2.5 true) '/'}}",
    "{{abbreviate 'Mocking APIs helps you develop faster' 21}} {{abbreviate 'abcdef' 4}} {{abbreviate 'abc' 10}}",
    "{{capitalize 'mock my stuff'}} {{capitalize 'mOCK my-stuff  x' fully=true}} {{capitalizeFirst 'mock my'}} {{capitalize 'émile ßtraße'}}",
    "[{{upper ''}}] {{upper request.query.none 'dflt'}} {{lower 'ÀB'}} [{{trim '  a b  '}}] {{#trim}}  c d  {{/trim}}",
    "{{base64 'hello'}} {{{base64 'hello'}}} {{base64 'hi' padding=false}} {{base64 'aGVsbG8=' decode=true}} {{base64 'aGVsbG8' decode=true}} {{#base64}}block{{/base64}}",
    "{{base64 'ü€😀'}} {{urlEncode 'a b&c=d/é~*._-'}} {{urlEncode 'a+b%20c' decode=true}}",
    "{{regexExtract 'abc-DEF-123' '[A-Z]+'}} {{regexExtract 'abc' '[0-9]+'}} {{regexExtract 'abc' '[0-9]+' default='none'}}",
    "{{regexExtract 'abc-DEF-123' '([a-z]+)-([A-Z]+)-([0-9]+)' 'parts'}}{{parts.0}},{{parts.1}},{{parts.2}}|{{parts}}",
    "{{regexExtract 'a1b2' '([a-z])([0-9])' 'p'}}{{p}}|{{p.[3]}}|{{size p}} {{regexExtract 'aaa' '(a*)' 'q'}}{{size q}} {{regexExtract request.headers.X-Trace '[0-9]+'}}",
    "{{matches 'abc' '[a-c]+'}} {{matches 'abcd' '[a-c]+'}} {{#matches 'abc' 'a.c'}}yes{{else}}no{{/matches}}|{{#matches 'abc' 'z'}}yes{{else}}no{{/matches}}",
    "{{#contains 'abc' 'b'}}yes{{/contains}}|{{#contains 'abc' 'z'}}yes{{else}}no{{/contains}}|{{contains (array 'a' 'b') 'b'}} {{contains 'abc' 'z'}}",
    "{{formData 'a=1&b=2&b=3&c=&d=x=y& e = f ' 'f'}}{{f}}|{{f.a}}|{{f.b}}|{{f.b.1}}|{{f.d}}|{{size f}}",
    "{{formData 'a=%41+b' 'f' urlDecode=true}}{{f.a}} {{formData 'a=%41+b'}} {{#each (formData 'a=1&b=2')}}{{@key}}:{{this}},{{/each}}",
    "{{parseJson '{\"a\":1,\"b\":[1,2],\"c\":{\"d\":\"x\"}}'}} {{parseJson '[1,2,3]'}} {{parseJson '{}'}} {{parseJson}}",
    "{{#with (parseJson '{\"a\":1,\"b\":[1,2]}')}}{{a}}/{{b.[1]}}/{{size b}}{{/with}} {{parseJson request.body 'doc'}}{{doc.user.name}} {{doc.items.1.price}}",
    "{{#parseJson 'j'}}{\"x\":2}{{/parseJson}}{{j.x}} {{#each (parseJson request.body)}}{{@key}};{{/each}} {{parseJson '{\"a\":null,\"b\":\"x\",\"c\":3.0}'}}",
    "{{#each (jsonPath request.body '$.items')}}{{name}}={{price}};{{/each}} {{size 'abc'}} {{size '😀'}} {{size 5}}|{{size (jsonPath request.body '$.missing')}}",
    "{{range 1 4}} {{range 3 3}} {{pickRandom 'only'}} {{range 1 request.query.name}}",
    "{{systemValue key='PATH'}} {{systemValue}} {{systemValue type='PROPERTY' key='user.home'}}",
    "{{eq (math 1 '+' 1) 2}} {{jsonPath request.body '$.items'}} {{{jsonPath request.body '$.user'}}}",
]

ZONED = [
    "{{parseDate '2021-11-10T10:15:30+01:00[Europe/Paris]'}} {{date (parseDate '2021-01-02T10:11:12Z') timezone='Australia/Sydney'}}",
    "{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'yyyy-MM-dd HH:mm z' tz='Australia/Sydney'}} {{dateFormat (parseDate '2021-07-01T12:00:00Z') 'HH:mm z Z VV' tz='Europe/Paris'}}",
    "{{dateFormat (parseDate '2021-07-01T12:00:00Z') 'HH:mm z ZZZZ ZZZZZ xxx XXXXX' tz='America/St_Johns'}} {{dateFormat (parseDate '2045-07-01T12:00:00Z') 'yyyy-MM-dd HH:mm z' tz='America/New_York'}}",
    "{{parseDate '2021-03-28 02:30 Europe/Paris' format='yyyy-MM-dd HH:mm VV'}} {{parseDate '2021-10-31 02:30 Europe/Paris' format='yyyy-MM-dd HH:mm VV'}}",
    "{{truncateDate (parseDate '2021-03-28T05:00:00+02:00[Europe/Paris]') 'first hour of day'}} {{dateFormat (parseDate '2021-01-02T10:11:12Z') 'HH z' tz=request.query.name}}",
]
# The named zones come from the system's tz database on sut-launch's side: asked only where it is installed.
if os.path.exists("/usr/share/zoneinfo/Europe/Paris"):
    TEMPLATES += ZONED

REQUEST_BODY = json.dumps({"user": {"name": "Ada", "age": 36}, "items": [{"name": "tea", "price": 3}, {"name": "milk", "price": 1.5}]})


def call(method, path, body=None, headers=None):
    return exchange(base, method, path, body, headers)


call("DELETE", "/__admin/mappings")
for index, template in enumerate(TEMPLATES):
    mapping = {"request": {"urlPathPattern": f"/h/{index}/.*"},
               "response": {"status": 200, "body": template, "transformers": ["response-template"]}}
    status, answer = call("POST", "/__admin/mappings", json.dumps(mapping), {"Content-Type": "application/json"})
    if status != 201:
        print(json.dumps({"template": template, "created": status, "answer": answer[:200]}))
for index, template in enumerate(TEMPLATES):
    status, body = call("POST", f"/h/{index}/orders/7?name=Ada&tag=a&tag=b",
                        REQUEST_BODY, {"Content-Type": "application/json", "X-Trace": "abc-123", "Cookie": "session=s3cr3t"})
    print(json.dumps({"template": template, "status": status, "body": body}, sort_keys=True))

# xPath and soapXPath over XML bodies (and one that is not XML): elements printed as WireMock prints them, text and
# attribute values, nothing found, a number result's error text.
XML_TEMPLATES = [
    "[{{xPath request.body '/r/a'}}]|[{{xPath request.body '/r/a/text()'}}]|[{{xPath request.body '//@x'}}]",
    "[{{xPath request.body 'count(//a)'}}]|[{{xPath request.body '//zz'}}]|[{{{xPath request.body '//a'}}}]",
    "[{{soapXPath request.body '/a'}}]|[{{soapXPath request.body '/a/text()'}}]|[{{{xPath request.body '/'}}}]",
    # r8b A11: a CDATA section is a node of its own, printed as a section; text beside it is found as one node.
    "[{{{xPath request.body '//a'}}}]|[{{xPath request.body '//a/text()'}}]|[{{xPath request.body '//a/node()[2]'}}]",
]
XML_BODIES = [
    "<r><a x='1'>hi<b>t</b></a></r>", "<r><a>1</a><a>2</a></r>", "<Envelope><Body><a>s</a></Body></Envelope>",
    "<s:Envelope xmlns:s='urn:s'><s:Body><a>s &amp; t</a></s:Body></s:Envelope>", "not xml", "<r xmlns='urn:d'><a>q</a></r>",
    "<r><a>x&amp;y<![CDATA[<z>]]></a></r>", "<r><a><b/><![CDATA[y]]></a></r>", "<r><a><![CDATA[y]]><b/></a></r>",
]
call("DELETE", "/__admin/mappings")
for index, template in enumerate(XML_TEMPLATES):
    mapping = {"request": {"urlPathPattern": f"/x/{index}/.*"},
               "response": {"status": 200, "body": template, "transformers": ["response-template"]}}
    call("POST", "/__admin/mappings", json.dumps(mapping), {"Content-Type": "application/json"})
for index, template in enumerate(XML_TEMPLATES):
    for number, body in enumerate(XML_BODIES):
        status, answer = call("POST", f"/x/{index}/{number}", body, {"Content-Type": "application/xml"})
        print(json.dumps({"template": template, "xml": body, "status": status, "body": answer}, sort_keys=True))
