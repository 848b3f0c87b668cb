"""Drives ilaj's MCP server with the official Python SDK (`pip install mcp`), as an agent would.

    python3 tests/mcp/client.py http URL --key KEY --paste FILE
    python3 tests/mcp/client.py stdio --ilaj BINARY --content DIR --paste FILE

Over either transport: initialize, list the tools and resources, call every tool (the seed
paste must come back with `cuda-oom-training` first), read a resource, get the REST error
codes back as tool errors, and survive a malformed message. Over HTTP also: a bad API key is
refused. Prints one line per check; exits non-zero (with a traceback) on the first failure.
"""

import argparse
import json
import subprocess
import sys

import anyio
import httpx2
from mcp import ClientSession, MCPError
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOOLS = {"match_error", "search_fixes", "get_article", "estimate_memory"}
STATES = {"confident", "uncertain", "none"}
# Protocol revisions this server must speak: 2025-06-18 or later.
OLDEST_REVISION = "2025-06-18"


def check(name, condition, detail=""):
    if not condition:
        raise AssertionError(f"{name}: {detail}")
    print(f"ok  {name}")


async def exercise(session, paste):
    """Everything both transports must do, on an open session."""
    init = await session.initialize()
    check(
        "initialize negotiates 2025-06-18 or later",
        init.protocol_version >= OLDEST_REVISION,
        init.protocol_version,
    )
    check("the server is ilaj", init.server_info.name == "ilaj", init.server_info)

    tools = (await session.list_tools()).tools
    names = {tool.name for tool in tools}
    check("the four tools are listed", names == TOOLS, names)
    for tool in tools:
        check(
            f"{tool.name} has an object input schema",
            tool.input_schema.get("type") == "object" and tool.input_schema.get("properties"),
            tool.input_schema,
        )

    resources = (await session.list_resources()).resources
    uris = {str(resource.uri) for resource in resources}
    check("every article is a resource", len(uris) >= 4 * 30, len(uris))
    check(
        "the training article is listed in French",
        "ilaj://articles/fr/cuda-oom-training" in uris,
        sorted(uris)[:5],
    )
    templates = (await session.list_resource_templates()).resource_templates
    check(
        "the article template is listed",
        any(t.uri_template == "ilaj://articles/{lang}/{id}" for t in templates),
        templates,
    )

    matched = await session.call_tool("match_error", {"text": paste, "lang": "fr"})
    body = matched.structured_content
    check("match_error succeeds", not matched.is_error, matched.content)
    check(
        "the seed paste comes back with cuda-oom-training first",
        body["results"][0]["id"] == "cuda-oom-training",
        [r["id"] for r in body["results"]],
    )
    check("match_error says how sure it is", body["answer"] in STATES, body.get("answer"))
    check("match_error reads the paste", body["diagnosis"]["kind"] == "cuda_oom", body["diagnosis"])
    section = body["results"][0]["section"]
    check("the fixing section's Markdown comes along", section and section["markdown"].strip(), section)
    text = matched.content[0].text
    check(
        "the text answer cites the article in French",
        body["results"][0]["title"] in text and section["url"] in text,
        text,
    )

    searched = await session.call_tool("search_fixes", {"q": "CUDA out of memory", "lang": "ar", "limit": 3})
    body = searched.structured_content
    check("search_fixes succeeds", not searched.is_error, searched.content)
    check(
        "search_fixes answers in Arabic",
        body["lang"] == "ar" and body["results"] and body["answer"] in STATES,
        body,
    )

    article = await session.call_tool("get_article", {"lang": "hi", "id": "cuda-oom-training"})
    check(
        "get_article returns the Hindi article",
        not article.is_error and article.structured_content["lang"] == "hi",
        article.content,
    )

    estimate = await session.call_tool("estimate_memory", {"n_layer": 12, "n_head": 12, "n_embd": 768})
    check(
        "estimate_memory counts GPT-2 small's parameters",
        not estimate.is_error and estimate.structured_content["parameters"] == 123587328,
        estimate.content,
    )

    refused = await session.call_tool("match_error", {"text": "CUDA out of memory", "lang": "de"})
    check(
        "an unknown language is a tool error with the REST code",
        refused.is_error and refused.structured_content["error"]["code"] == "unsupported_language",
        refused,
    )
    refused = await session.call_tool("match_error", {"text": "x" * (256 * 1024 + 1)})
    check(
        "an oversized paste is a tool error with the REST code",
        refused.is_error and refused.structured_content["error"]["code"] == "text_too_large",
        refused.content,
    )
    refused = await session.call_tool("estimate_memory", {"n_layers": 12})
    check(
        "a misspelt estimate field is a tool error with the REST code",
        refused.is_error and refused.structured_content["error"]["code"] == "unknown_field",
        refused.content,
    )

    read = await session.read_resource("ilaj://articles/fr/cuda-oom-training")
    contents = read.contents[0]
    check(
        "a resource reads as Markdown with its code blocks",
        contents.mime_type == "text/markdown" and contents.text.startswith("# ") and "```" in contents.text,
        contents.text[:200],
    )
    try:
        await session.read_resource("ilaj://articles/fr/no-such-article")
        missing = None
    except MCPError as error:
        missing = error
    check("an unknown resource is refused", missing is not None, "it was read")


async def over_http(url, key, paste):
    headers = {"Authorization": f"Bearer {key}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await exercise(session, paste)

        # A malformed message is answered with a JSON-RPC error, and the server goes on.
        broken = await http.post(
            url,
            content=b'{"jsonrpc": "2.0", "id": 1, "method": ',
            headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
        )
        check("a malformed message gets a 4xx", 400 <= broken.status_code < 500, broken.status_code)
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                again = await session.call_tool("search_fixes", {"q": "NCCL timeout"})
                check("the server answers after a malformed message", not again.is_error, again.content)

    async with create_mcp_http_client(headers={"Authorization": "Bearer ilaj_not_a_key"}) as http:
        refused = await http.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream"},
        )
        check(
            "a bad API key is refused with 401 invalid_api_key",
            refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_api_key",
            refused.text,
        )
        failed = False
        try:
            with anyio.fail_after(30):
                async with streamable_http_client(url, http_client=http) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
        except Exception:  # the SDK raises its own wrapper of the 401
            failed = True
        check("the SDK cannot open a session with a bad key", failed, "it initialized")


async def over_stdio(ilaj, content, paste):
    params = StdioServerParameters(command=ilaj, args=["mcp", "--content", content], env={"RUST_LOG": "warn"})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await exercise(session, paste)

    # A line that is not JSON must not end the server: the next request is still answered.
    initialize = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "initialize",
        "params": {
            "protocolVersion": OLDEST_REVISION,
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    }
    process = subprocess.run(
        [ilaj, "mcp", "--content", content],
        input=('{"jsonrpc": "2.0", "id": 1, "method": \n' + json.dumps(initialize) + "\n").encode(),
        capture_output=True,
        timeout=60,
    )
    answers = [json.loads(line) for line in process.stdout.decode().splitlines() if line.strip()]
    check(
        "the stdio server answers after a malformed line",
        any(answer.get("id") == 7 and "result" in answer for answer in answers),
        (answers, process.stderr.decode()[-500:]),
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", choices=["http", "stdio"])
    parser.add_argument("url", nargs="?")
    parser.add_argument("--key")
    parser.add_argument("--ilaj")
    parser.add_argument("--content", default="content")
    parser.add_argument("--paste", required=True)
    args = parser.parse_args()
    with open(args.paste, encoding="utf-8") as file:
        paste = file.read()

    async def run():
        with anyio.fail_after(180):
            if args.transport == "http":
                await over_http(args.url, args.key, paste)
            else:
                await over_stdio(args.ilaj, args.content, paste)

    anyio.run(run)
    print("all checks passed")


if __name__ == "__main__":
    sys.exit(main())
