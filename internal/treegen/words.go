package treegen

// words make up titles, descriptions and prose. None is a YAML keyword, and
// a few are not ASCII so that UTF-8 handling is exercised.
var words = []string{
	"agent", "api", "archive", "audit", "backlog", "balance", "batch", "boundary",
	"budget", "cache", "capacity", "catalog", "channel", "checkout", "client", "cluster",
	"commit", "component", "config", "constraint", "contract", "cost", "coverage", "customer",
	"dashboard", "data", "deadline", "decision", "default", "delivery", "dependency", "deploy",
	"design", "detail", "domain", "draft", "engine", "entry", "error", "event",
	"export", "feature", "feedback", "field", "filter", "flow", "format", "gateway",
	"goal", "graph", "guide", "handoff", "health", "history", "import", "incident",
	"index", "input", "interface", "inventory", "issue", "job", "journal", "kernel",
	"label", "latency", "layer", "ledger", "library", "limit", "log", "loop",
	"manual", "market", "memory", "merge", "metric", "migration", "model", "module",
	"monitor", "network", "note", "object", "offset", "onboarding", "order", "outcome",
	"owner", "package", "page", "partner", "patch", "payment", "pipeline", "plan",
	"platform", "policy", "pricing", "priority", "process", "product", "profile", "project",
	"protocol", "query", "queue", "quota", "range", "record", "region", "release",
	"report", "request", "research", "resource", "review", "risk", "roadmap", "rollout",
	"route", "rule", "runtime", "schedule", "schema", "scope", "search", "security",
	"segment", "server", "service", "session", "signal", "snapshot", "source", "spec",
	"stage", "standard", "state", "storage", "strategy", "stream", "support", "survey",
	"system", "table", "target", "task", "team", "template", "tenant", "test",
	"ticket", "timeline", "token", "topic", "trace", "traffic", "training", "trend",
	"upgrade", "usage", "user", "value", "vendor", "version", "view", "volume",
	"warehouse", "workflow", "workspace", "zone", "café", "naïve", "Zürich", "façade",
	"déjà", "résumé", "über", "smörgåsbord",
}

// dirWords name directories; none is infrastructure (dist, build, scripts,
// node_modules) or members.
var dirWords = []string{
	"architecture", "billing", "customers", "decisions", "engineering", "finance", "growth", "hiring",
	"infrastructure-notes", "legal", "marketing", "operations", "partners", "platform", "product", "research",
	"sales", "security", "support", "teams", "tooling", "vendors", "onboarding", "quality",
}

// docWords name documents.
var docWords = []string{
	"overview", "runbook", "decision", "guide", "checklist", "faq", "glossary", "postmortem",
	"proposal", "policy", "playbook", "reference", "howto", "notes", "summary", "timeline",
}

// memberNames name the directories under members/.
var memberNames = []string{
	"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
}
