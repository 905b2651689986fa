#!/usr/bin/env python3
"""A faulty upstream for scripts/loadtest-faults: one host failing the way the web's hosts fail.

    python3 faulty.py MODE[@warm:LATENCY] PORT_FILE CONTROL_PORT_FILE [CERT_PEM KEY_PEM]

MODE is one of
    hang     accepts connections and reads requests, and never answers;
    slow:S   answers like the healthy stand-in (scripts/lib/standin.py), but after S seconds;
    503:S    answers 503 with Retry-After: S;
    500      answers 500.
With `@warm:LATENCY` it first answers like the healthy stand-in after LATENCY seconds, and fails as MODE says from
the moment `GET /__fault` is asked on the control port: a host that fails while the service runs, as hosts do. With a
certificate and its key it speaks TLS (standing in for a link's own host, reached with --connect-to). Every request
it reads while failing is counted; `GET /__counts` on the control port (plain HTTP, its port in CONTROL_PORT_FILE)
answers {"requests": N, "connections": M} at once.
"""
import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from standin import body_for  # noqa: E402  the healthy stand-in's bodies, so a slow answer reads the same

counts = {"requests": 0, "connections": 0}
state = {"failing": True, "warm_latency": 0.0}


async def read_request(reader):
    """The request line's method and target, after its headers; None at the end of the connection."""
    line = await reader.readline()
    if not line:
        return None
    parts = line.decode("latin-1").split(" ")
    while True:
        header = await reader.readline()
        if header in (b"\r\n", b"\n", b""):
            break
    return parts[0], parts[1] if len(parts) > 1 else "/"


async def handle(reader, writer, mode):
    counts["connections"] += 1
    try:
        while True:
            request = await read_request(reader)
            if request is None:
                break
            method, target = request
            if not state["failing"]:
                await asyncio.sleep(state["warm_latency"])
                body = body_for(target.split("?")[0])
                head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: max-age=300\r\n"
                        "Content-Length: %d\r\n\r\n" % len(body))
                writer.write(head.encode() + (b"" if method == "HEAD" else body))
                await writer.drain()
                continue
            counts["requests"] += 1
            if mode == "hang":
                await asyncio.sleep(3600)
                break
            if mode.startswith("slow:"):
                await asyncio.sleep(float(mode.split(":")[1]))
                body = body_for(target.split("?")[0])
                status, extra = "200 OK", "Content-Type: application/json\r\nCache-Control: max-age=300\r\n"
            elif mode.startswith("503:"):
                body = b"busy"
                status, extra = "503 Service Unavailable", "Retry-After: %s\r\n" % mode.split(":")[1]
            else:
                body = b"failed"
                status, extra = "500 Internal Server Error", ""
            head = "HTTP/1.1 %s\r\n%sContent-Length: %d\r\n\r\n" % (status, extra, len(body))
            writer.write(head.encode() + (b"" if method == "HEAD" else body))
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def control(reader, writer):
    request = await read_request(reader)
    if request and request[1] == "/__fault":
        state["failing"] = True
    body = json.dumps(counts).encode()
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
                 % len(body) + body)
    await writer.drain()
    writer.close()


async def main():
    mode, port_file, control_file = sys.argv[1], sys.argv[2], sys.argv[3]
    if "@warm:" in mode:
        mode, warm = mode.split("@warm:")
        state["failing"], state["warm_latency"] = False, float(warm)
    context = None
    if len(sys.argv) > 5:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[4], sys.argv[5])
    server = await asyncio.start_server(lambda r, w: handle(r, w, mode), "127.0.0.1", 0, backlog=1024, ssl=context)
    side = await asyncio.start_server(control, "127.0.0.1", 0)
    with open(control_file, "w") as out:
        out.write(str(side.sockets[0].getsockname()[1]))
    with open(port_file, "w") as out:
        out.write(str(server.sockets[0].getsockname()[1]))
    async with server:
        await server.serve_forever()


asyncio.run(main())
