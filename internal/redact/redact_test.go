package redact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/redact/redacttest"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fetch https://user:hunter2@github.com/a/b.git failed", "fetch https://***@github.com/a/b.git failed"},
		{"https://user:p@ss@host/x", "https://***@host/x"},
		{"/tmp/p/https:/user:p@ss@host/x does not exist", "/tmp/p/https:/***@host/x does not exist"},
		{"https://x-access-token:ghs_Xq7Lm2Rt9Vb4Nc8Kp1Zw6Yh3Jd5Fg0Ss9QaW@github.com/a/b", "https://***@github.com/a/b"},
		{"token ghp_Xq7Lm2Rt9Vb4Nc8Kp1Zw6Yh3Jd5Fg0Ss9QaW_x leaked", "token *** leaked"},
		{"Authorization: Bearer abc.def.ghi", "Authorization: Bearer ***"},
		{"authorization: xyz", "authorization: ***"},
		{"GITHUB_TOKEN=abc123 next", "GITHUB_TOKEN=*** next"},
		{`DB_PASSWORD="two words"`, `DB_PASSWORD=***`},
		{"password: x", "password: ***"},
		{`{"password": "x", "user": "ada"}`, `{"password": ***, "user": "ada"}`},
		{"https://github.com/a/b.git is public", "https://github.com/a/b.git is public"},
		{"mail me at a@b.c", "mail me at a@b.c"},
		{"rsync user:p@ss@host:/srv", "rsync ***@host:/srv"},
		{"write to mailto:ada@example.com or git@github.com:acme/x.git", "write to mailto:ada@example.com or git@github.com:acme/x.git"},
		{"curl: > Bearer eyJhbGciOiJIUzI1NiJ9.x", "curl: > Bearer ***"},
		{"the bearer of bad news", "the bearer of bad news"},
		{"max_tokens=4096 token_type: bearer", "max_tokens=4096 token_type: bearer"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE\nabc\n-----END RSA PRIVATE KEY-----\nafter", "-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----\nafter"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func corpus(tb testing.TB) []redacttest.Case {
	tb.Helper()
	return redacttest.Corpus()
}

func TestCorpusNoLeak(t *testing.T) {
	cs := corpus(t)
	if len(cs) < 60 {
		t.Fatalf("corpus has %d shapes, want at least 60", len(cs))
	}
	for _, c := range cs {
		for _, in := range []string{c.Text, "log: " + c.Text + " end", c.Text + "\n" + c.Text} {
			if got := String(in); strings.Contains(got, c.Secret) {
				t.Errorf("secret %q survives:\n in: %q\nout: %q", c.Secret, in, got)
			}
		}
	}
}

func TestCorpusInJSON(t *testing.T) {
	for _, c := range corpus(t) {
		doc, _ := json.Marshal(map[string]any{"message": c.Text, "details": map[string]string{"x": c.Text}})
		got := JSON(doc)
		var back map[string]any
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("JSON broke the document: %v\n%s", err, got)
		}
		for _, s := range []string{c.Secret, mustQuote(c.Secret)} {
			if strings.Contains(string(got), s) {
				t.Errorf("secret %q survives in JSON: %s", c.Secret, got)
			}
		}
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

func TestFalsePositives(t *testing.T) {
	var texts []string
	root := filepath.Join("..", "..", "examples", "handbook")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		texts = append(texts, string(data))
		return err
	})
	if err != nil || len(texts) == 0 {
		t.Fatalf("read %s: %v (%d files)", root, err, len(texts))
	}
	texts = append(texts,
		"b0fed33c1e4a2f7d9e8b6a5c4d3e2f1a0b9c8d7e",
		"commit 7578ede0a1b2c3d4e5f60718293a4b5c6d7e8f90 (HEAD -> main)",
		"base 676b97d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7 head 68b01db1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7",
		"session 0f8fad5b-d9cb-469f-a165-70867728950e opened",
		"{\"id\":\"7c9e6679-7425-40de-944b-e07fc1f90ae7\"}",
		"Rotate the password every 90 days and never reuse it.",
		"Never put a password in a commit message; the password manager keeps it.",
		"Enter your password: it must be long.",
		"Forgot the password? Ask in #help.",
		"The token bucket refills every second.",
		"internal/adapters/scheduler/systemd/unit_test.go:12: ok",
		"https://github.com/git-context-tree/git-context-tree/tree/main/docs",
		"max_tokens=4096",
		"PASSWORD_FILE=/run/secrets/db",
		// Paths that are 40 base64 characters in a row, mixed case with digits.
		"tree /tmp/TestSyncOnTerminal1015239743/001/kb at 9dde892",
		"\"treeRoot\": \"/Users/JSmith/Projects/MyRepo42/docs/kbx\"",
		"home/alice/Work/ContextTree2/teams/Platf.md",
	)
	for _, in := range texts {
		if got := String(in); got != in {
			t.Errorf("String changed a text with no secret:\n in: %q\nout: %q", in, got)
		}
		doc, _ := json.MarshalIndent(map[string]string{"body": in}, "", "  ")
		if got := JSON(doc); string(got) != string(doc) {
			t.Errorf("JSON changed a document with no secret:\n in: %s\nout: %s", doc, got)
		}
	}
}

// FuzzRedact: redaction never panics, and a corpus secret on its own line
// never survives whatever text surrounds it.
func FuzzRedact(f *testing.F) {
	cs := corpus(f)
	for i, c := range cs {
		f.Add(c.Text, "", uint8(i))
	}
	f.Add("prose with password in it", "x", uint8(0))
	f.Fuzz(func(t *testing.T, before, after string, pick uint8) {
		c := cs[int(pick)%len(cs)]
		in := before + "\n" + c.Text + "\n" + after
		if got := String(in); strings.Contains(got, c.Secret) && !strings.Contains(before+after, c.Secret) {
			t.Fatalf("secret %q survives:\n in: %q\nout: %q", c.Secret, in, got)
		}
		_ = String(before)
		_ = JSON([]byte(before))
	})
}

// Every lazily compiled pattern compiles.
func TestPatternsCompile(t *testing.T) {
	all := []*lazyRegexp{secretName, secretFlag, pemBlock, midLine, proseBefore, awsCandidate, bareUserinfo}
	for _, r := range lineRules {
		all = append(all, r.re)
	}
	for _, l := range all {
		if _, err := regexp.Compile(l.src); err != nil {
			t.Errorf("%s: %v", l.src, err)
		}
	}
	set := loadRules()
	if len(set.rules) < 200 {
		t.Errorf("%d gitleaks rules loaded, want the ~220 of the default file", len(set.rules))
	}
	for _, r := range set.rules {
		if _, err := r.regexp(); err != nil {
			t.Error(err)
		}
	}
}

// The keyword index that lets clean texts skip the rules holds every
// keyword of every rule, and every rule has one.
func TestKeywordScan(t *testing.T) {
	set := loadRules()
	want := map[string]bool{}
	for _, r := range set.rules {
		if len(r.keywords) == 0 || len(r.kwIDs) != len(r.keywords) {
			t.Errorf("rule %s: keywords %q not all indexed", r.id, r.keywords)
		}
		for _, k := range r.keywords {
			want[k] = true
		}
	}
	if got := len(ruleKeywords().words); got != len(want) {
		t.Errorf("the index holds %d keywords, the rules have %d", got, len(want))
	}
}

// The index answers as a search for each keyword would: for lines holding
// one keyword (at the start, inside, at the end), several, or none.
func TestKeywordIndexAgreesWithSearch(t *testing.T) {
	ix := ruleKeywords()
	lines := []string{"", "a", "plain prose without secrets", "x"}
	for _, k := range ix.words {
		lines = append(lines, k, "my "+k+" here", "tail"+k, k+ix.words[0]+" and "+ix.words[len(ix.words)-1])
	}
	found := make([]bool, len(ix.words))
	for _, line := range lines {
		want := make([]bool, len(ix.words))
		anyWant := false
		for id, k := range ix.words {
			want[id] = strings.Contains(line, k)
			anyWant = anyWant || want[id]
		}
		if got := ix.hits(line, found); got != anyWant || !slices.Equal(found, want) {
			t.Errorf("hits(%q) = %v %v, want %v %v", line, got, found, anyWant, want)
		}
		if got := ix.any(line); got != anyWant {
			t.Errorf("any(%q) = %v, want %v", line, got, anyWant)
		}
	}
}
