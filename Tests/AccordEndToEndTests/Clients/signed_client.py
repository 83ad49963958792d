#!/usr/bin/env python3
"""An independent client for `accord serve`: signs requests from docs/signing.md alone,
with Python's standard library and no Accord code.

usage: signed_client.py PORT             -> prints one line per check, exits 1 on any failure
       signed_client.py --vectors FILE   -> checks every vector of docs/signing-vectors.json, exits 1 on any failure
"""
import hashlib
import json
import sys
import time
import urllib.parse
import urllib.request
import uuid

APP_KEY, APP_SECRET = "dev_app_key", "dev_app_secret"


def integral(value):
    """Numbers with no fractional part as integers, however they were written (1080.0 signs as 1080)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [integral(item) for item in value]
    if isinstance(value, dict):
        return {key: integral(item) for key, item in value.items()}
    return value


def text(value):
    value = integral(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def sorted_params(query, body):
    pairs = list(query)
    if isinstance(body, dict):
        pairs += [(k, text(v)) for k, v in body.items() if v is not None]
    pairs.sort(key=lambda pair: pair[0].encode("utf-8"))  # stable
    return "&".join(f"{k}={v}" for k, v in pairs)


TOKEN = {"access": None}


def call(port, method, path, query=(), body=None, tamper=None):
    timestamp, nonce = str(int(time.time())), uuid.uuid4().hex
    signed = sorted_params(query, body)
    sign = hashlib.md5((APP_KEY + timestamp + nonce + signed + APP_SECRET).encode("utf-8")).hexdigest()
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
    if tamper:
        data = tamper(data)
    url = f"http://127.0.0.1:{port}{path}" + ("?" + urllib.parse.urlencode(list(query)) if query else "")
    request = urllib.request.Request(url, data=data, method=method, headers={
        "X-App-Key": APP_KEY, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Sign": sign,
        "X-Device-Id": "py-client", "X-OS": "android", "X-App-Version": "2.0.0",
        "Content-Type": "application/json",
        **({"Authorization": "Bearer " + TOKEN["access"]} if TOKEN["access"] else {}),
    })
    with urllib.request.urlopen(request) as response:
        return response.status, json.loads(response.read())


def check_vectors(path):
    """Every vector of the file, from its target and body alone: the query decoded as forms are."""
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    failures = 0
    for vector in document["vectors"]:
        target = urllib.parse.urlsplit(vector["target"])
        query = urllib.parse.parse_qsl(target.query, keep_blank_values=True)
        body = None if vector["body"] is None else json.loads(vector["body"])
        signed = sorted_params(query, body)
        sign = hashlib.md5((document["app_key"] + vector["timestamp"] + vector["nonce"] + signed + document["app_secret"]).encode("utf-8")).hexdigest()
        good = signed == vector["sorted_params"] and sign == vector["sign"]
        failures += 0 if good else 1
        print(("ok   " if good else "FAIL ") + vector["note"] + ("" if good else f": {signed!r} {sign}"))
    return failures


def main():
    if sys.argv[1] == "--vectors":
        sys.exit(1 if check_vectors(sys.argv[2]) else 0)
    port = int(sys.argv[1])
    failures = 0

    def check(name, condition, detail):
        nonlocal failures
        failures += 0 if condition else 1
        print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))

    login = {"phone": "13800138000", "code": "123456",
             "device_info": {"os": "android", "device_id": "D-1", "os_version": "15", "model": "Pixel 9", "app_version": "2.0.0"}}
    status, reply = call(port, "POST", "/api/v1/auth/login/phone", body=login)
    check("signed POST with a nested object", status == 200 and reply["code"] == 0, reply)
    TOKEN["access"] = reply.get("data", {}).get("access_token")

    status, reply = call(port, "GET", "/api/v1/signals/inbox", query=[("limit", "20"), ("filter", "flash")])
    check("signed GET with query", status == 200 and reply["code"] == 0, reply)

    signal = {"content": "你好，同路人 👋", "is_flash": True, "tags": ["旅行", "摄影"], "media": None}
    status, reply = call(port, "POST", "/api/v1/signals", body=signal)
    check("non-ASCII, arrays and null members", status == 200 and reply["code"] == 0 and reply["data"]["content"] == signal["content"], reply)

    status, reply = call(port, "POST", "/api/v1/auth/login/phone", body=login,
                         tamper=lambda data: data.replace(b"13800138000", b"13800138001"))
    check("one changed byte is refused with 1001", reply["code"] == 1001, reply)
    expected = sorted_params([], dict(login, phone="13800138001"))
    check("the refusal shows the server's sorted_params", reply.get("data", {}).get("sorted_params") == expected, reply)
    check("the refusal redacts the secret", reply.get("data", {}).get("string_to_sign", "").endswith(expected + "<app_secret>"), reply)

    print(f"{4 + 2 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
