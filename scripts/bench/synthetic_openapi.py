"""A synthetic OpenAPI 3.1 document of N operations for scripts/bench/import.sh.

Each resource has list, get, create, update and delete operations with path and query
parameters, JSON bodies and answers, error answers and examples; its schema uses refs,
allOf, an enum, a nullable member and a tagged union, as real documents do.
"""
import json
import sys

operations, path = int(sys.argv[1]), sys.argv[2]
resources = max(1, (operations + 4) // 5)
paths, schemas = {}, {
    "Problem": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}, "detail": {"type": "string"}}},
    "Audit": {"type": "object", "required": ["created_at"], "properties": {"created_at": {"type": "string", "format": "date-time"}}},
}
problem = {"description": "Problem", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
count = 0
for index in range(resources):
    name = f"Item{index}"
    ref = {"$ref": f"#/components/schemas/{name}"}
    schemas[name] = {"allOf": [{"$ref": "#/components/schemas/Audit"}, {
        "type": "object", "required": ["id", "name", "status"],
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9_]+$"},
            "name": {"type": "string", "minLength": 1, "maxLength": 80},
            "status": {"type": "string", "enum": ["active", "archived"]},
            "note": {"type": ["string", "null"]},
            "count": {"type": "integer", "format": "int32", "minimum": 0},
            "card": {"oneOf": [
                {"type": "object", "required": ["kind", "text"], "properties": {"kind": {"const": "text"}, "text": {"type": "string"}}},
                {"type": "object", "required": ["kind", "url"], "properties": {"kind": {"const": "link"}, "url": {"type": "string", "format": "uri"}}},
            ]},
        }}]}
    example = {"id": f"i_{index}", "name": "one", "status": "active", "created_at": "2026-11-30T08:00:00Z"}
    item_id = {"name": "item_id", "in": "path", "required": True, "schema": {"type": "string"}}
    tag = [f"group{index % 20}"]
    answer = {"description": "The item", "content": {"application/json": {"schema": ref, "example": example}}}
    collection = f"/items{index}"
    paths[collection] = {
        "get": {"operationId": f"list{name}", "tags": tag, "parameters": [
            {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
            {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["active", "archived"]}}],
            "responses": {"200": {"description": "Items", "content": {"application/json": {"schema": {"type": "array", "items": ref}}}},
                          "400": problem}},
        "post": {"operationId": f"create{name}", "tags": tag,
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref, "example": example}}},
                 "responses": {"200": answer, "422": problem}},
    }
    paths[collection + "/{item_id}"] = {
        "get": {"operationId": f"get{name}", "tags": tag, "parameters": [item_id], "responses": {"200": answer, "404": problem}},
        "put": {"operationId": f"update{name}", "tags": tag, "parameters": [item_id],
                "requestBody": {"required": True, "content": {"application/json": {"schema": ref}}}, "responses": {"200": answer, "404": problem}},
        "delete": {"operationId": f"delete{name}", "tags": tag, "parameters": [item_id], "responses": {"200": answer, "404": problem}},
    }
    count += 5
    if count >= operations:
        break

document = {"openapi": "3.1.0", "info": {"title": "Synthetic", "version": "1.0.0"}, "servers": [{"url": "https://api.example.com/v1"}],
            "paths": paths, "components": {"schemas": schemas}}
with open(path, "w") as output:
    # JSON is YAML: the document stays one the YAML parser reads, written fast.
    json.dump(document, output, indent=1)
