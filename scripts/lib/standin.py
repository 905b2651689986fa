#!/usr/bin/env python3
"""A stand-in for the web APIs the rules' scripts call (song.link, oEmbed endpoints, …), for scripts/loadtest-fresh.

Listens on 127.0.0.1 (the port is written to PORT_FILE), answers every request after a fixed latency with a JSON body
in the shape the v5 manifest's scripts read (song.link's `linksByPlatform`, `entitiesByUniqueId`; oEmbed's
`thumbnail_url`, …) and `Cache-Control: max-age=300`, keeps connections alive, and counts requests by their first
path segment (the upstream host the manifest copy named). `GET /__counts` answers the counts at once, as JSON.

Given a certificate and its key, it also listens with TLS (its port written to TLS_PORT_FILE), standing in for the
hosts of the links themselves (open.spotify.com, …: the server is pointed at it with --connect-to): those requests,
the HEAD lookups of the manifest's `headers` rules, are counted as `link:HOST` from their Host header. A request whose
method and URL (host included) were asked before is counted again under `repeat:` + its count key.

    python3 standin.py PORT_FILE [LATENCY_SECONDS=0.05 [TLS_PORT_FILE CERT_PEM KEY_PEM]]
"""
import asyncio
import collections
import json
import sys

PLATFORMS = ["spotify", "appleMusic", "itunes", "youtube", "youtubeMusic", "google", "pandora", "deezer", "tidal",
             "amazonStore", "amazonMusic", "soundcloud", "napster", "yandex", "spinrilla", "audius", "anghami", "boomplay",
             "audiomack"]


def body_for(path):
    entity = "SPOTIFY_SONG::0"
    return json.dumps({
        "entityUniqueId": entity,
        "userCountry": "US",
        "pageUrl": "https://song.link/s/0",
        "entitiesByUniqueId": {entity: {"id": "0", "type": "song", "title": "Stand-in", "artistName": "Loopback",
                                        "thumbnailUrl": "https://i.example/0.jpg", "apiProvider": "spotify"}},
        "linksByPlatform": {p: {"url": "https://%s.example/track/0" % p.lower(),
                                "nativeAppUriMobile": "%s://track/0" % p.lower(),
                                "nativeAppUriDesktop": "%s://track/0" % p.lower(),
                                "entityUniqueId": entity} for p in PLATFORMS},
        "thumbnail_url": "https://i.example/0.jpg",
        "title": "Stand-in",
        "results": [{"artworkUrl100": "https://i.example/0.jpg", "trackName": "Stand-in"}],
    }).encode()


counts = collections.Counter()
seen = set()


async def handle(reader, writer, latency, by_host=False):
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            parts = line.decode("latin-1").split(" ")
            if len(parts) < 2:
                break
            target = parts[1]
            close = False
            host = "-"
            while True:
                header = await reader.readline()
                if header in (b"\r\n", b"\n", b""):
                    break
                name, _, value = header.decode("latin-1").partition(":")
                if name.strip().lower() == "connection" and value.strip().lower() == "close":
                    close = True
                if name.strip().lower() == "host":
                    host = value.strip().split(":")[0]
            path = target.split("?")[0]
            if path == "/__counts":
                body = json.dumps(counts).encode()
                headers = "Content-Type: application/json\r\nCache-Control: no-store\r\n"
            else:
                segment = "link:" + host if by_host else path.strip("/").split("/")[0] or "-"
                counts[segment] += 1
                key = (parts[0], host if by_host else "", target)
                if key in seen:
                    counts["repeat:" + segment] += 1
                seen.add(key)
                await asyncio.sleep(latency)
                body = body_for(path)
                headers = "Content-Type: application/json\r\nCache-Control: max-age=300\r\n"
            head = "HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\n%s\r\n" % (
                headers, len(body), "Connection: close\r\n" if close else "")
            writer.write(head.encode() + (b"" if parts[0] == "HEAD" else body))
            await writer.drain()
            if close:
                break
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main():
    port_file = sys.argv[1]
    latency = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
    server = await asyncio.start_server(lambda r, w: handle(r, w, latency), "127.0.0.1", 0, backlog=1024)
    with open(port_file, "w") as out:
        out.write(str(server.sockets[0].getsockname()[1]))
    if len(sys.argv) > 5:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[4], sys.argv[5])
        tls = await asyncio.start_server(lambda r, w: handle(r, w, latency, by_host=True), "127.0.0.1", 0,
                                         backlog=1024, ssl=context)
        with open(sys.argv[3], "w") as out:
            out.write(str(tls.sockets[0].getsockname()[1]))
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
