"""Runs the AAR authors' tool code (their mcp_servers, unchanged, imported from the reference folder) on
cases, with every request they make sent to the stand-in upstream instead of the real services.

Our own code (AAR Harness test driver, MIT): it imports their modules and only redirects their HTTP:
  - httpx (Google Maps, Serper, Open-Meteo, REST Countries, Binance, fetch): each module's
    create_mcp_http_client is replaced by one whose client rewrites real hosts to the stand-in's paths;
  - yfinance (stocks): its curl_cffi session's requests are rewritten the same way, its cookie and crumb
    dance answered with a fixed crumb, its time zone cache kept in a temporary folder;
  - the code model: OPENAI_BASE_URL points at the stand-in.
Tools are called through their ToolRegistry, the object their golden executor (src/trail/golden.py) called,
and chains are wired as it wired them: a geocoded point as {"latitude": str, "longitude": str}, origins
and destinations as "lat,lng" strings.

stdin: {"reference": DIR, "stand_in": URL, "routes": [{"host", "to"}], "cases": [{"id", "steps": [{"tool",
"args", "output_key"}]}]}; stdout: {"<case id>": [{"ok": bool, "text": str}, ...]} (a failed step ends its case).
"""
import asyncio
import json
import os
import re
import sys
import tempfile
from urllib.parse import urlsplit


def rewrite(url, stand_in, routes):
    parts = urlsplit(str(url))
    for route in routes:
        pattern = "^" + re.escape(route["host"]).replace(r"\{lang\}", "(?P<lang>[a-z-]+)") + "$"
        m = re.match(pattern, parts.hostname or "")
        if not m:
            continue
        path = route["to"].replace("{path}", parts.path or "/")
        if "lang" in m.groupdict():
            path = path.replace("{lang}", m.group("lang"))
        return stand_in + path + (("?" + parts.query) if parts.query else "")
    return str(url)


def redirect_httpx(modules, stand_in, routes):
    import httpx

    class Rewriting(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request):
            request.url = httpx.URL(rewrite(request.url, stand_in, routes))
            request.headers["host"] = request.url.netloc.decode()
            return await super().handle_async_request(request)

    def client_factory(headers=None, timeout=None, auth=None):
        return httpx.AsyncClient(transport=Rewriting(), headers=headers, timeout=timeout or 30, auth=auth, follow_redirects=True)

    for module in modules:
        module.create_mcp_http_client = client_factory


def redirect_yfinance(stand_in, routes):
    import yfinance
    from curl_cffi import requests as curl_requests
    from yfinance.data import YfData

    yfinance.set_tz_cache_location(tempfile.mkdtemp(prefix="aar-yf-"))
    original = curl_requests.Session.request

    def request(self, method, url, *args, **kwargs):
        return original(self, method, rewrite(url, stand_in, routes), *args, **kwargs)

    curl_requests.Session.request = request
    YfData._get_cookie_and_crumb = lambda self, timeout=30: ("StandInCrumb01", "basic")


def wired(args, context):
    """The arguments of a chain step, its "__" keys replaced by earlier outputs (as their golden executor did)."""
    out = {}
    for key, value in args.items():
        if key == "__from_previous":
            refs = value if isinstance(value, list) else [value]
            for ref in refs:
                got = context.get(ref)
                if isinstance(got, dict):
                    out.update(got)
                elif got is not None:
                    out[ref] = got
        elif key == "__from_previous_as_locations":
            got = context.get(value)
            if isinstance(got, dict):
                out["locations"] = [got]
        elif key == "__from_previous_as_origins_destinations":
            a, b = context.get(value[0], {}), context.get(value[1], {})
            point = lambda p: f"{p.get('latitude', '')},{p.get('longitude', '')}" if isinstance(p, dict) else str(p)
            out["origins"], out["destinations"] = [point(a)], [point(b)]
        else:
            out[key] = value
    return out


def remembered(tool, text):
    """What a step's output is kept as for later steps: a geocoded point as strings, anything else parsed."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if tool == "maps_geocode" and isinstance(data, dict):
        loc = data.get("location", data)
        if isinstance(loc, dict) and loc.get("lat") is not None and loc.get("lng") is not None:
            return {"latitude": str(loc["lat"]), "longitude": str(loc["lng"])}
    return data


async def run_case(registry, case):
    context, results = {}, []
    for step in case["steps"]:
        spec = registry.available_tools().get(step["tool"])
        if spec is None:
            results.append({"ok": False, "text": f"(no tool {step['tool']} in the reference registry)"})
            break
        try:
            result = await spec.execute(wired(step["args"], context))
        except Exception as error:  # their tools fail by raising
            results.append({"ok": False, "text": f"{type(error).__name__}: {error}"})
            break
        results.append({"ok": True, "text": result.output_text})
        context[step.get("output_key") or "result"] = remembered(step["tool"], result.output_text)
    return results


async def main():
    job = json.load(sys.stdin)
    stand_in, routes = job["stand_in"], job["routes"]
    os.environ.update({"GOOGLE_API_KEY": "stand-in", "SERPER_API_KEY": "stand-in", "OPENAI_API_KEY": "stand-in",
                       "OPENAI_BASE_URL": stand_in + "/openai/v1", "NO_PROXY": "127.0.0.1,localhost"})
    sys.path.insert(0, job["reference"])
    from importlib import import_module

    modules = [import_module(f"mcp_servers.{name}") for name in
               ("fetch_server", "weather_server", "search_server", "google_maps_server", "countries_server", "crypto_server")]
    redirect_httpx(modules, stand_in, routes)
    redirect_yfinance(stand_in, routes)
    from mcp_servers.registry import ToolRegistry

    registry = ToolRegistry()
    out = {}
    for case in job["cases"]:
        out[case["id"]] = await run_case(registry, case)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    os.chdir(tempfile.mkdtemp(prefix="aar-ref-"))  # their load_dotenv() reads a .env from here: none
    asyncio.run(main())
