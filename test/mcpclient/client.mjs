// A real MCP client for `git context-tree mcp`: the official TypeScript SDK
// (@modelcontextprotocol/sdk, which validates every structured result
// against the tool's advertised outputSchema with Ajv) starts the server,
// lists its tools, calls each one, reads a resource, and checks that bad
// arguments are tool errors. Run by test/mcp_node_test.go:
//
//	node client.mjs <git-context-tree binary> <project directory>
//
// It prints one line per check and exits non-zero on the first failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [bin, project] = process.argv.slice(2);
const fail = (msg) => { console.error("FAIL " + msg); process.exit(1); };
const ok = (msg) => console.log("ok   " + msg);

const transport = new StdioClientTransport({ command: bin, args: ["mcp"], cwd: project, env: process.env, stderr: "inherit" });
const client = new Client({ name: "mcp-node-check", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
if (names.join(",") !== "cited_by,list_trees,outline,read_node,resolve,search,verify") fail("tools: " + names);
ok("tools/list: " + names.join(", "));

// Strict 2020-12 validation too, beyond the SDK's own check.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const schemas = Object.fromEntries(tools.map((t) => [t.name, ajv.compile(t.outputSchema)]));

const calls = [
  ["list_trees", {}],
  ["resolve", {}],
  ["outline", { depth: 2 }],
  ["read_node", { path: "deploy.md" }],
  ["cited_by", { path: "deploy.sh" }],
  ["search", { query: "canaries" }],
  ["verify", {}],
];
for (const [name, args] of calls) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) fail(`${name}: ${JSON.stringify(res.content)}`);
  if (!schemas[name](res.structuredContent)) fail(`${name}: ${JSON.stringify(schemas[name].errors)}`);
  ok(`${name} matches its outputSchema`);
}

const search = await client.callTool({ name: "search", arguments: { query: "canaries" } });
const hit = search.structuredContent.hits[0];
if (!hit || hit.path !== "deploy.md" || hit.snippets[0].line !== 5) fail("search hit: " + JSON.stringify(hit));
const tree = search.structuredContent.trees[0];
if (!/^[0-9a-f]{40}$/.test(tree.head) || tree.dirty !== false) fail("search tree: " + JSON.stringify(tree));
ok("search names the commit and dirtiness");

const cited = await client.callTool({ name: "cited_by", arguments: { path: "deploy.sh" } });
const doc = cited.structuredContent.documents[0];
if (!doc || doc.path !== "release.md" || doc.citations[0].freshness !== "unstamped") fail("cited_by: " + JSON.stringify(cited.structuredContent));
ok("cited_by names the citing document and its freshness");

const old = await client.callTool({ name: "read_node", arguments: { node: "deploy.md" } });
if (old.isError || !old._meta || !old._meta.deprecations || !/"node" is now "path"/.test(old._meta.deprecations[0])) fail("deprecated name: " + JSON.stringify(old));
ok("a former argument name is accepted with a deprecation note");

const bad = await client.callTool({ name: "read_node", arguments: { path: "../outside" } });
if (!bad.isError || JSON.parse(bad.content[0].text).error.code !== "READ_PATH_ESCAPE") fail("escape: " + JSON.stringify(bad));
ok("a path outside the tree is a tool error");
const unknown = await client.callTool({ name: "search", arguments: { query: "x", extra: 1 } });
if (!unknown.isError) fail("unknown argument accepted");
ok("an unknown argument is a tool error");

const { resources } = await client.listResources();
const deploy = resources.find((r) => r.name === "deploy.md");
if (!deploy) fail("resources: " + JSON.stringify(resources));
const read = await client.readResource({ uri: deploy.uri });
if (!read.contents[0].text.includes("canaries")) fail("resource: " + JSON.stringify(read));
ok("resources/list and resources/read");

await client.close();
ok("closed");
