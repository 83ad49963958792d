#!/usr/bin/env python3
"""Writes a synthetic contract set: a service file and N/100 domain files of 100 endpoints.

Each endpoint has a typed path parameter, query, body or response object types,
codes and an example, so lint exercises every stage. Deterministic for a given N.

usage: synthetic_contracts.py ENDPOINTS OUT_DIR
"""
import os
import sys

SERVICE = """service:
  name: synthetic
  base_path: /api/v1
signing:
  apps: {dev_app_key: dev_app_secret}
auth:
  access_ttl: 2h
  refresh_ttl: 30d
  refresh: d000.refresh
  login: [d000.login]
codes:
  1000: {name: invalid-request, msg: 请求参数错误, http: 400}
  1002: {name: token-expired, msg: 登录已过期, flow: refresh-and-retry}
  3008: {name: quota, msg: 今日信号已达上限, flow: alert}
"""


def domain(index, count):
    name = f"d{index:03d}"
    out = [f"domain: {name}", f"description: 合成领域 {index}，用于基准测试。", "types:"]
    for e in range(count):
        t = f"Item{index}x{e}"
        out += [
            f"  {t}:",
            f"    description: 第 {e} 号条目。",
            "    fields:",
            "      id: string",
            "      title: {type: string, min_length: 1, max_length: 80}",
            "      price: decimal",
            "      status: active | archived | deleted",
            "      tags: [string]",
            "      created_at: date-time",
            "      note: string?",
        ]
    out.append("endpoints:")
    for e in range(count):
        t = f"Item{index}x{e}"
        eid = f"{name}.e{e}"
        if index == 0 and e == 0:
            eid = f"{name}.login"
        if index == 0 and e == 1:
            eid = f"{name}.refresh"
        method = ["GET", "POST", "PUT", "DELETE"][e % 4]
        out += [
            f"  {eid}:",
            f"    route: {method} /{name}/r{e}/{{item_id}}",
            f"    summary: 第 {e} 个接口",
            "    params:",
            "      item_id: string",
        ]
        if method in ("GET", "DELETE"):
            out += [
                "    query:",
                "      cursor: string?",
                "      limit: {type: int, optional: true, min: 1, max: 50, default: 20}",
            ]
        else:
            out += [
                "    body:",
                "      title: {type: string, min_length: 1, max_length: 80}",
                "      price: decimal",
                "      tags: {type: '[string]', optional: true, max_items: 5}",
            ]
        out += [
            "    response:",
            f"      item: {t}",
            "      next_cursor: string?",
            "    codes: [3008]",
            "    examples:",
            "      default:",
            "        params: {item_id: it_1}",
        ]
        if method not in ("GET", "DELETE"):
            out.append("        body: {title: 你好，同路人, price: \"9.99\", tags: [旅行]}")
        out += [
            "        response:",
            f"          item: {{id: it_1, title: 西湖日落, price: \"68.00\", status: active, tags: [摄影, 旅行],"
            " created_at: 2026-11-30T08:00:00Z}",
        ]
    return "\n".join(out) + "\n"


def main():
    total, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "service.yaml"), "w") as f:
        f.write(SERVICE)
    per_file = 100
    for index in range((total + per_file - 1) // per_file):
        count = min(per_file, total - index * per_file)
        with open(os.path.join(directory, f"d{index:03d}.yaml"), "w") as f:
            f.write(domain(index, count))


if __name__ == "__main__":
    main()
