"""Schemathesis hooks for an Accord mock: sign every request as
docs/signing.md says, and log in once for the bearer token.

Loaded with SCHEMATHESIS_HOOKS=accord_hooks (scripts/schemathesis/run sets it).
The app key and secret come from ACCORD_APP_KEY / ACCORD_APP_SECRET, the
server's base URL from ACCORD_BASE_URL.
"""
import hashlib
import json
import os
import time
import urllib.request
import uuid

import schemathesis

APP_KEY = os.environ.get("ACCORD_APP_KEY", "dev_app_key")
APP_SECRET = os.environ.get("ACCORD_APP_SECRET", "dev_app_secret")
BASE_URL = os.environ.get("ACCORD_BASE_URL", "http://127.0.0.1:8080/api/v1")
DEVICE = {"X-Device-Id": "schemathesis", "X-OS": "ios", "X-App-Version": "1.2.0"}
LOGIN_BODY = {"phone": "13800138000", "code": "123456",
              "device_info": {"device_id": "schemathesis", "os": "ios", "os_version": "26.1",
                              "model": "iPhone", "app_version": "1.2.0"}}


def text(value):
    """A value as sorted_params writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def sorted_params(query, body):
    pairs = []
    for name, value in (query or {}).items():
        for item in value if isinstance(value, list) else [value]:
            if item is not None:
                pairs.append((name, text(item)))
    if isinstance(body, dict):
        pairs += [(name, text(value)) for name, value in body.items() if value is not None]
    pairs.sort(key=lambda pair: pair[0].encode("utf-8"))
    return "&".join(f"{name}={value}" for name, value in pairs)


def signing_headers(query, body):
    timestamp, nonce = str(int(time.time())), uuid.uuid4().hex
    string_to_sign = APP_KEY + timestamp + nonce + sorted_params(query, body) + APP_SECRET
    sign = hashlib.md5(string_to_sign.encode("utf-8")).hexdigest()
    return {"X-App-Key": APP_KEY, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Sign": sign}


def query_text(query):
    """Query values as strings the way the contract reads them (true, not True)."""
    result = {}
    for name, value in (query or {}).items():
        items = value if isinstance(value, list) else [value]
        result[name] = [text(item) for item in items if item is not None]
    return result


@schemathesis.auth(refresh_interval=None)
class AccordLogin:
    """A bearer token from the phone login, fresh for every request: the stateful phase
    calls logout and the token flows, which revoke the tokens they are given."""

    def get(self, case, context):
        headers = {"Content-Type": "application/json", **DEVICE, **signing_headers({}, LOGIN_BODY)}
        request = urllib.request.Request(BASE_URL + "/auth/login/phone", data=json.dumps(LOGIN_BODY).encode(),
                                         headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)["data"]["access_token"]

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def form_text(body):
    """A multipart body's text parts as the server reads them (every value a string, true
    not True); file parts (bytes) stay as they are and are not signed."""
    return {name: value if isinstance(value, (bytes, bytearray)) else text(value) for name, value in body.items() if value is not None}


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.query:
        case.query = query_text(case.query)
    body = case.body if isinstance(case.body, dict) else None
    if body is not None and (case.media_type or "").startswith("multipart/"):
        case.body = form_text(body)
        body = {name: value for name, value in case.body.items() if not isinstance(value, (bytes, bytearray))}
    case.headers = {**(case.headers or {}), **signing_headers(case.query, body)}
