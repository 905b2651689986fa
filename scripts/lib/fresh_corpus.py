#!/usr/bin/env python3
"""Links that never repeat, for scripts/loadtest-fresh, written as a wrk Lua script: each of wrk's threads walks its
own share of the list (thread i takes links i, i + T, i + 2T, …), so no link is asked twice in a run as long as the
list is longer than the run's requests.

    python3 fresh_corpus.py music|spotify|mixed|local COUNT MANIFEST THREADS > paths.lua

music: fresh music links (Spotify, Apple Music, TIDAL, Amazon Music, Pandora, song.link), each of which the v5
    manifest sends to song.link's API through seven to nine scripts.
spotify: fresh Spotify links only (song.link's API and Spotify's oEmbed for the preview; a HEAD to open.spotify.com).
mixed: the manifest's own test inputs with their ids made fresh, music links, and links on hosts no rule knows.
local: fresh X (Twitter) status links, each asked as `POST /v1/resolve {"urls": [LINK], "headers": []}`: the headers
    given, so the link's own host is not asked, and every opening a template: a resolution that needs no network.
"""
import json
import random
import re
import string
import sys
import urllib.parse

mode, count, manifest, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
random.seed(2026)
alnum = string.ascii_letters + string.digits


def rid(n, alphabet=alnum):
    return "".join(random.choice(alphabet) for _ in range(n))


def music():
    kind = random.randrange(6)
    if kind == 0:
        return "https://open.spotify.com/%s/%s" % (random.choice(["track", "album"]), rid(22))
    if kind == 1:
        return "https://music.apple.com/us/album/%s/%s?i=%s" % (rid(8, string.ascii_lowercase), rid(10, string.digits),
                                                                rid(10, string.digits))
    if kind == 2:
        return "https://tidal.com/browse/%s/%s" % (random.choice(["track", "album"]), rid(9, string.digits))
    if kind == 3:
        return "https://music.amazon.com/albums/B0%s" % rid(8, string.ascii_uppercase + string.digits)
    if kind == 4:
        return "https://www.pandora.com/artist/%s/%s/TR%s" % (rid(6, string.ascii_lowercase),
                                                                rid(6, string.ascii_lowercase), rid(12))
    return "https://song.link/s/%s" % rid(22)


def spotify():
    return "https://open.spotify.com/%s/%s" % (random.choice(["track", "album"]), rid(22))


def local():
    return "https://twitter.com/%s/status/%s" % (rid(8, string.ascii_lowercase), rid(19, string.digits))


def freshened(link):
    """The link with each run of digits and each long alphanumeric path segment replaced by a fresh one."""
    link = re.sub(r"%[0-9A-Fa-f]{2}|\d+",
                  lambda m: m.group(0) if m.group(0).startswith("%") else rid(len(m.group(0)), string.digits), link)
    return re.sub(r"(?<=/)[A-Za-z0-9_-]{8,}(?=[/?#]|$)", lambda m: rid(len(m.group(0))), link)


def mixed(inputs):
    kind = random.randrange(10)
    if kind < 6 and inputs:
        return freshened(random.choice(inputs))
    if kind < 8:
        return music()
    return "https://%s.%s/%s/%s" % (rid(7, string.ascii_lowercase), random.choice(["com", "org", "net", "example"]),
                                    random.choice(["a", "post", "item", "watch"]), rid(10))


data = json.load(open(manifest))
inputs = [i for a in data.get("actions", []) for i in a.get("testInputs", []) if i.startswith("http")]
links, seen = [], set()
while len(links) < count:
    link = {"music": music, "spotify": spotify, "local": local}.get(mode, lambda: mixed(inputs))()
    if link not in seen:
        seen.add(link)
        links.append(link)

print("paths = {")
for link in links:
    if mode == "local":
        print("  %s," % json.dumps(json.dumps({"urls": [link], "headers": []})))
    else:
        print('  "/v1/resolve?url=%s",' % urllib.parse.quote(link, safe=""))
print("}")
post = "true" if mode == "local" else "false"
print("""
threads, counter, offset = %d, 0, 0
local next_thread = 0
function setup(thread)
  thread:set("offset", next_thread)
  next_thread = next_thread + 1
end
local post = %s
request = function()
  local index = (counter * threads + offset) %% #paths + 1
  counter = counter + 1
  if post then
    return wrk.format("POST", "/v1/resolve", {["Content-Type"] = "application/json"}, paths[index])
  end
  return wrk.format("GET", paths[index])
end
done = function(summary, latency, requests)
  io.write(string.format("requests/s %%.0f, p50 %%.2f ms, p99 %%.2f ms, errors %%d (non-2xx %%d, socket %%d), requests %%d\\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
""" % (threads, post))
