"""The same WireMock-client session against any server: prints one JSON line per observation.

Run against real WireMock and against `sut-launch serve`; the test compares the lines. Observations are
normalised to what a client relies on (statuses, bodies, counts, the fields it reads), not ids or times.
Usage: python3 client_script.py BASE_URL
"""
import json
import sys

from plain_http import call as exchange

from wiremock.constants import Config
from wiremock.resources.mappings import Mapping, MappingRequest, MappingResponse, HttpMethods
from wiremock.resources.mappings.resource import Mappings
from wiremock.resources.requests.resource import Requests
from wiremock.resources.near_misses import NearMissMatchPatternRequest, NearMissMatchRequest
from wiremock.resources.near_misses.resource import NearMisses
from wiremock.resources.scenarios.resource import Scenarios

base = sys.argv[1]
Config.base_url = base + "/__admin"


def show(step, value):
    print(json.dumps({"step": step, "value": value}, sort_keys=True))


def call(method, path, body=None, headers=None):
    status, data = exchange(base, method, path, body, headers)
    return {"status": status, "body": data}


Mappings.delete_all_mappings()
Requests.reset_request_journal()

created = Mappings.create_mapping(Mapping(
    priority=5,
    request=MappingRequest(method=HttpMethods.GET, url="/hello"),
    response=MappingResponse(status=200, body="hi there"),
))
show("create returns the mapping", {"has_id": bool(created.id), "status": created.response.status})
Mappings.create_mapping(Mapping(
    priority=1,
    request=MappingRequest(method=HttpMethods.GET, url="/hello"),
    response=MappingResponse(status=202, body="more specific"),
))
Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.POST, url_path="/login",
                           body_patterns=[{"equalToJson": {"user": "ada"}, "ignoreExtraElements": True}]),
    response=MappingResponse(status=201, json_body={"token": "abc"}, headers={"Content-Type": "application/json"}),
))
Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.GET, url="/same"),
    response=MappingResponse(status=200, body="older"),
))
Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.GET, url="/same"),
    response=MappingResponse(status=200, body="newer"),
))
Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.GET, url_path_pattern="/users/[0-9]+",
                           query_parameters={"full": {"equalTo": "true"}}),
    response=MappingResponse(status=200, body="user {{request.path.[1]}}", transformers=["response-template"]),
))

everything = Mappings.retrieve_all_mappings()
show("mappings listed", {"total": everything.meta.total, "count": len(everything.mappings)})

show("priority 1 wins", call("GET", "/hello"))
show("POST equalToJson", call("POST", "/login", body=json.dumps({"user": "ada", "extra": 1}), headers={"Content-Type": "application/json"}))
show("POST wrong body", call("POST", "/login", body=json.dumps({"user": "bob"}))["status"])
show("template with path segment", call("GET", "/users/42?full=true"))
show("query mismatch", call("GET", "/users/42?full=false")["status"])
show("HEAD on a GET mapping", call("HEAD", "/hello")["status"])
show("most recent first at equal priority", call("GET", "/same"))

count = Requests.get_matching_request_count(NearMissMatchPatternRequest(method="GET", url="/hello"))
show("count GET /hello", count.count)
count_all = Requests.get_matching_request_count(NearMissMatchPatternRequest(method="ANY", url_pattern="/.*"))
show("count everything", count_all.count)
found = Requests.get_matching_requests(NearMissMatchPatternRequest(method="POST", url_path="/login"))
show("find POST /login", sorted(json.loads(request.body).get("user") for request in found.requests))
received = Requests.get_all_received_requests()
show("journal size", received.meta.total)
show("journal newest first", [request.request.url for request in received.requests][:2])
unmatched = Requests.get_unmatched_requests()
show("unmatched", sorted(request.url for request in unmatched.requests))
near = Requests.get_unmatched_requests_near_misses()
show("near misses exist", len(near.near_misses) > 0)
# WireMock's shape, against the stubs as they are now (r9a B3): the stubs nearest each unmatched request, newest first.
show("unmatched newest first", [request.url for request in unmatched.requests])
raw_near = json.loads(exchange(base, "GET", "/__admin/requests/unmatched/near-misses")[1])["nearMisses"]
show("near misses name a stub and a distance",
     sorted({(n["request"]["url"], "url" in json.dumps(n.get("stubMapping", {}).get("request", {})),
              isinstance(n.get("matchResult", {}).get("distance"), (int, float))) for n in raw_near}))
show("near misses newest first", list(dict.fromkeys(n["request"]["url"] for n in raw_near)))

# Scenarios: a state machine the client drives and resets.
Mappings.create_mapping(Mapping(
    scenario_name="cart", required_scenario_state="Started", new_scenario_state="filled",
    request=MappingRequest(method=HttpMethods.POST, url="/cart"),
    response=MappingResponse(status=200, body="added"),
))
Mappings.create_mapping(Mapping(
    scenario_name="cart", required_scenario_state="filled",
    request=MappingRequest(method=HttpMethods.GET, url="/cart"),
    response=MappingResponse(status=200, body="one item"),
))
show("scenario before", call("GET", "/cart")["status"])
show("scenario moves", call("POST", "/cart"))
show("scenario after", call("GET", "/cart"))
Scenarios.reset_all_scenarios()
show("scenario reset", call("GET", "/cart")["status"])

# One mapping: read back, changed in place, found and removed by metadata.
tagged = Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.GET, url="/tagged"),
    response=MappingResponse(status=200, body="v1"),
    metadata={"team": "checkout"},
))
again = Mappings.retrieve_mapping(tagged.id)
show("retrieve by id", {"same_id": again.id == tagged.id, "body": again.response.body, "metadata": again.metadata})
tagged.response = MappingResponse(status=200, body="v2")
Mappings.update_mapping(tagged)
show("after update", call("GET", "/tagged"))
Mappings.delete_mapping_by_metadata({"matchesJsonPath": {"expression": "$.team", "equalTo": "checkout"}})
show("after remove by metadata", call("GET", "/tagged")["status"])

received = Requests.get_all_received_requests(limit=2)
show("journal limit", len(received.requests))
one = Requests.get_request(received.requests[0].id)
show("request by id", {"url": one.request.url, "method": one.request.method})

# Near misses for a request and for a pattern, against the mappings that exist now.
by_request = NearMisses.find_nearest_misses_by_request(NearMissMatchRequest(url="/helo", method="GET"))
show("near misses by request", {"some": len(by_request.near_misses) > 0})
by_pattern = NearMisses.find_nearest_misses_by_request_pattern(NearMissMatchPatternRequest(url="/helo", method="GET"))
show("near misses by pattern", {"some": len(by_pattern.near_misses) > 0})

# Global settings: a fixed delay for every answer, then none; the file-backed mappings saved; back to them.
# (The client's own update_global_settings fails against WireMock itself: it parses an empty answer.)
show("settings", call("POST", "/__admin/settings", json.dumps({"fixedDelay": 0}), {"Content-Type": "application/json"})["status"])
show("answers after settings", call("GET", "/hello")["status"])
Mappings.persist_mappings()
Mappings.reset_mappings()
show("after reset mappings", call("GET", "/hello")["status"])

Mappings.delete_mapping(created.id)
show("after delete", call("GET", "/hello"))
Requests.reset_request_journal()
show("journal after reset", Requests.get_all_received_requests().meta.total)
Mappings.delete_all_mappings()
show("mappings after delete all", Mappings.retrieve_all_mappings().meta.total)
show("unmatched after delete all", call("GET", "/hello")["status"])

# Find and remove by metadata when some mappings have none (WireMock matches those as the text `null`).
J = {"Content-Type": "application/json"}
for url, metadata in [("/m1", {"tags": ["smoke"]}), ("/m2", {"tags": ["other"]}), ("/m3", None), ("/m4", {})]:
    mapping = {"request": {"url": url}, "response": {"status": 200}}
    if metadata is not None:
        mapping["metadata"] = metadata
    call("POST", "/__admin/mappings", json.dumps(mapping), J)


def urls(answer):
    return sorted(m["request"]["url"] for m in json.loads(answer["body"])["mappings"])


for pattern in [{"doesNotContain": "smoke"}, {"matches": ".*"}, {"anything": "x"}, {"absent": True}, {"equalTo": "null"},
                {"contains": "n"}, {"equalToJson": "null"}, {"equalToJson": {}}, {"matchesJsonPath": "$.tags"}]:
    show("find by metadata " + json.dumps(pattern), urls(call("POST", "/__admin/mappings/find-by-metadata", json.dumps(pattern), J)))
call("POST", "/__admin/mappings/remove-by-metadata", json.dumps({"doesNotContain": "smoke"}), J)
show("after remove by metadata without metadata", urls(call("GET", "/__admin/mappings")))
