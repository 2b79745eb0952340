# Varnish in front of the service (Debian's varnish 7.x, no extra vmods): keeps the CCIP-Read gateway's GET
# answers for their s-maxage (RESOLUTION_CACHE_SECONDS), serves them stale while the service is down for up to
# stale-if-error, and drops the answers of changed names when the service sends PURGE with Surrogate-Key
# (CACHE_PURGE_URL pointing here). Everything else passes through. See docs/operators.md#a-cache-in-front-of-the-gateway.
vcl 4.1;

import std;

# The service as docker-compose names it; test/varnish.e2e-spec.ts points a copy at its own port.
backend default {
  .host = "api";
  .port = "3000";
  .probe = {
    .url = "/health/live";
    .interval = 2s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
  }
}

# Who may PURGE: the service's replicas. Widen to their network (e.g. "10.0.0.0"/8) in a deployment.
acl purgers {
  "localhost";
  "127.0.0.1";
  "::1";
  "172.16.0.0"/12;
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(405, "PURGE not allowed from this address"));
    }
    # Keys are namehashes (0x + 64 hex digits); anything else in the header is dropped before it becomes a regex.
    set req.http.X-Purge-Keys = regsuball(std.tolower(req.http.Surrogate-Key), "[^0-9a-fx ]", "");
    set req.http.X-Purge-Keys = regsuball(regsuball(req.http.X-Purge-Keys, "^ +| +$", ""), " +", "|");
    if (req.http.X-Purge-Keys == "") {
      return (synth(400, "PURGE needs a Surrogate-Key header"));
    }
    # No space in the regex: ban() splits its argument at spaces.
    ban("obj.http.Surrogate-Key ~ (^|[[:space:]])(" + req.http.X-Purge-Keys + ")([[:space:]]|$)");
    return (synth(200, "Purged"));
  }
  if ((req.method != "GET" && req.method != "HEAD") || req.url !~ "^/api/v1/ccip-read/0x") {
    return (pass);
  }
  unset req.http.Cookie;
  unset req.http.Authorization;
  # Stale answers only while the service is down (stale-if-error), never instead of asking a healthy service.
  if (std.healthy(req.backend_hint)) {
    set req.grace = 0s;
  }
  return (hash);
}

sub vcl_backend_response {
  # The built-in rules already take s-maxage before max-age as the object's lifetime.
  if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
    set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1") + "s", 0s);
  }
  # A failing refresh keeps the stale answer rather than replacing it with the error.
  if (beresp.status >= 500 && bereq.is_bgfetch) {
    return (abandon);
  }
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
