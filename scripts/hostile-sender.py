#!/usr/bin/env python3
# The hostile tenth of scripts/hostile-loadtest: 16 connections send the hostile requests in turn, held to a tenth
# of all /v1/resolve requests by feedback. Every 50 ms it reads how many the server has answered (/metrics), takes
# its own away, and sends only while its requests stay under a ninth of the good ones. (A fixed pause cannot do
# this: a hostile request's latency changes with the load, and when the server sets the runaway script aside.)
#   hostile-sender.py PORT SECONDS PATHS.json   (PATHS: [[method, path, body?], ...])
import http.client, json, sys, threading, time
port, seconds, paths = int(sys.argv[1]), float(sys.argv[2]), json.load(open(sys.argv[3]))
lock = threading.Lock()
# answered: /v1/resolve requests the server has answered since this run began (None until first read).
state = {"sent": 0, "done": 0, "answered": None, "statuses": {}, "socket": 0}
deadline = time.monotonic() + seconds

def connect():
    return http.client.HTTPConnection("127.0.0.1", port, timeout=5)

def count_answered():
    connection = connect()
    baseline = None
    while time.monotonic() < deadline:
        try:
            connection.request("GET", "/metrics")
            text = connection.getresponse().read().decode()
            total = sum(int(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                        if line.startswith('switchyard_requests_total{route="/v1/resolve"'))
            baseline = total if baseline is None else baseline
            with lock:
                state["answered"] = total - baseline
        except Exception:
            connection.close()
            connection = connect()
        time.sleep(0.05)

def send():
    connection = connect()
    while time.monotonic() < deadline:
        with lock:
            turn = state["answered"] is not None and state["sent"] * 9 < state["answered"] - state["done"]
            if turn:
                method, path, *body = paths[state["sent"] % len(paths)]
                state["sent"] += 1
        if not turn:
            time.sleep(0.002)
            continue
        try:
            headers = {"Content-Type": "application/json"} if body else {}
            connection.request(method, path, body=body[0] if body else None, headers=headers)
            response = connection.getresponse()
            response.read()
            with lock:
                state["done"] += 1
                state["statuses"][response.status] = state["statuses"].get(response.status, 0) + 1
        except Exception:
            with lock:
                state["done"] += 1
                state["socket"] += 1
            connection.close()
            connection = connect()

threads = [threading.Thread(target=count_answered)] + [threading.Thread(target=send) for _ in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
statuses = state["statuses"]
non2xx = sum(count for status, count in statuses.items() if not 200 <= status < 300)
print("RESULT requests=%d rate=%.1f non2xx=%d socket=%d statuses=%s" % (
    state["done"], state["done"] / seconds, non2xx, state["socket"],
    ",".join("%d:%d" % item for item in sorted(statuses.items()))))
