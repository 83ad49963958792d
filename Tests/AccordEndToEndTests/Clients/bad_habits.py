#!/usr/bin/env python3
"""A client with one bad habit after a flow's code, for the flow checks of `accord serve
--check-flows`: it signs its requests (docs/signing.md) with the standard library alone.

usage: bad_habits.py PORT HABIT
  old-token       after 1002, refreshes, then sends the call again with the old token
  refresh-twice   two calls meet 1002; it refreshes for the first, retries it, refreshes again for the second
  after-logout    after 1006, goes on calling with the revoked token
  alert-loop      sends a publish again right after it was answered 3008
  banned-retry    retries a call answered 1008
  reset-loop      retries a GET whose connection is reset, again and again (the policy allows two retries)
  post-retry      sends a POST again after a 503 (the policy retries only GET, PUT and DELETE)
"""
import hashlib
import http.client
import json
import sys
import time
import urllib.request
import uuid

APP_KEY, APP_SECRET = "dev_app_key", "dev_app_secret"
LOGIN = {"phone": "13800138000", "code": "123456",
         "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1", "model": "iPhone", "app_version": "1.2.0"}}


def signature(body, timestamp, nonce):
    params = sorted((key, value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), sort_keys=True))
                    for key, value in (body or {}).items())
    sorted_params = "&".join(f"{key}={value}" for key, value in params)
    return hashlib.md5((APP_KEY + timestamp + nonce + sorted_params + APP_SECRET).encode()).hexdigest()


def call(port, method, path, body=None, token=None):
    timestamp, nonce = str(int(time.time())), uuid.uuid4().hex
    headers = {"X-App-Key": APP_KEY, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Sign": signature(body, timestamp, nonce),
               "X-Device-Id": "D-1", "X-OS": "ios", "X-App-Version": "1.2.0", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def attempt(port, method, path, body=None, token=None):
    """The call's answer, or None when it met a fault (a reset, a 5xx)."""
    try:
        return call(port, method, path, body, token)
    except (OSError, http.client.HTTPException):
        return None


def control(port, method, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/__accord/{path}", method=method, data=json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).read()


def login(port):
    data = call(port, "POST", "/auth/login/phone", LOGIN)["data"]
    return data["access_token"], data["refresh_token"]


def refresh(port, refresh_token):
    data = call(port, "POST", "/auth/token/refresh", {"refresh_token": refresh_token})["data"]
    return data["access_token"], data["refresh_token"]


def main(port, habit):
    access, renewal = login(port)
    if habit == "old-token":
        control(port, "POST", "tokens/expire")
        assert call(port, "GET", "/signals/inbox", token=access)["code"] == 1002
        refresh(port, renewal)
        call(port, "GET", "/signals/inbox", token=access)
    elif habit == "refresh-twice":
        control(port, "POST", "tokens/expire")
        assert call(port, "GET", "/signals/inbox", token=access)["code"] == 1002
        assert call(port, "GET", "/users/me", token=access)["code"] == 1002
        access, renewal = refresh(port, renewal)
        call(port, "GET", "/signals/inbox", token=access)
        access, renewal = refresh(port, renewal)
        call(port, "GET", "/users/me", token=access)
    elif habit == "after-logout":
        control(port, "POST", "users/10086/force-logout")
        assert call(port, "GET", "/users/me", token=access)["code"] == 1006
        call(port, "GET", "/signals/inbox", token=access)
    elif habit == "alert-loop":
        control(port, "POST", "rules", {"match": {"endpoint": "signal.publish"}, "respond": {"code": 3008}, "times": 2})
        body = {"content": "again and again", "is_flash": False}
        assert call(port, "POST", "/signals", body, token=access)["code"] == 3008
        call(port, "POST", "/signals", body, token=access)
    elif habit == "banned-retry":
        control(port, "POST", "users/10086/ban", {"reason": "bad habits"})
        assert call(port, "GET", "/signals/inbox", token=access)["code"] == 1008
        call(port, "GET", "/signals/inbox", token=access)
    elif habit == "reset-loop":
        control(port, "POST", "rules", {"match": {"endpoint": "signal.inbox"}, "fault": "reset"})
        for wait in [0.25, 0.45, 0.05, 0.05]:
            assert attempt(port, "GET", "/signals/inbox", token=access) is None
            time.sleep(wait)
        attempt(port, "GET", "/signals/inbox", token=access)
    elif habit == "post-retry":
        control(port, "POST", "rules", {"match": {"endpoint": "signal.publish"}, "fault": "503", "times": 1})
        body = {"content": "once more", "is_flash": False}
        assert attempt(port, "POST", "/signals", body, token=access) is None
        time.sleep(0.25)
        call(port, "POST", "/signals", body, token=access)
    else:
        sys.exit(f"unknown habit {habit}")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
