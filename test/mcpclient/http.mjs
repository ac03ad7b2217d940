// The official TypeScript MCP client over Streamable HTTP against
// `git-context-tree mcp --http` (test/mcp_http_test.go): tools, cited_by
// with the bearer token; a wrong token is refused with 401 and a foreign
// Origin with 403 before any MCP is spoken.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const fail = (msg) => { console.error("FAIL " + msg); process.exit(1); };
const ok = (msg) => console.log("ok   " + msg);

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: "Bearer " + token } },
});
const client = new Client({ name: "mcp-http-check", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
if (!names.includes("cited_by") || !names.includes("read_node")) fail("tools: " + names);
ok("tools/list over HTTP: " + names.join(", "));
const cited = await client.callTool({ name: "cited_by", arguments: { path: "deploy.sh" } });
const doc = cited.structuredContent && cited.structuredContent.documents[0];
if (cited.isError || !doc || doc.path !== "release.md") fail("cited_by: " + JSON.stringify(cited));
ok("cited_by over HTTP");
await client.close();

const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const wrong = await fetch(url, { method: "POST", headers: { ...headers, Authorization: "Bearer wrong" }, body: init });
if (wrong.status !== 401) fail("wrong token: " + wrong.status);
ok("a wrong token: 401");
const none = await fetch(url, { method: "POST", headers, body: init });
if (none.status !== 401) fail("no token: " + none.status);
ok("no token: 401");
const foreign = await fetch(url, { method: "POST", headers: { ...headers, Authorization: "Bearer " + token, Origin: "http://evil.example" }, body: init });
if (foreign.status !== 403) fail("foreign origin: " + foreign.status);
ok("a foreign Origin: 403");
