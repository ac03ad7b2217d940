package test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/cli"
)

// TestEveryFindingCodeHasAScenario keeps the rule that each finding code of
// the contract (the enum of the finding schema) is asserted by some script:
// `jsonpath ... code CODE` or a JSON object with "code":"CODE".
func TestEveryFindingCodeHasAScenario(t *testing.T) {
	raw, ok := contracts.Schema("finding")
	if !ok {
		t.Fatal("no finding schema")
	}
	var schema struct {
		Properties struct {
			Code struct {
				Enum []string `json:"enum"`
			} `json:"code"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	if len(schema.Properties.Code.Enum) == 0 {
		t.Fatal("the finding schema lists no codes")
	}
	// The schema's enum is the contract's list: a code declared in
	// contracts/findings.go but missing from the enum would escape this guard.
	src, err := os.ReadFile(filepath.Join("..", "contracts", "findings.go"))
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, m := range regexp.MustCompile(`FindingCode = "(\w+)"`).FindAllStringSubmatch(string(src), -1) {
		declared = append(declared, m[1])
	}
	if !slices.Equal(slices.Sorted(slices.Values(declared)), slices.Sorted(slices.Values(schema.Properties.Code.Enum))) {
		t.Errorf("contracts/findings.go declares %q; the finding schema enumerates %q", declared, schema.Properties.Code.Enum)
	}
	scripts := allScripts(t)
	for _, code := range schema.Properties.Code.Enum {
		asserted := regexp.MustCompile(`(?m)^jsonpath \S+ \S*code ` + code + `$|"code":"` + code + `"`)
		if !asserted.MatchString(scripts) {
			t.Errorf("finding code %s is asserted by no script in testdata/", code)
		}
	}
}

// TestEveryCommandHasHelp runs `<command> -h` for every command the
// top-level help lists: exit 0, usage on stdout, nothing on stderr.
func TestEveryCommandHasHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := cli.Main(scratchProcess(t, &stdout, &stderr), []string{"-h"}); code != 0 {
		t.Fatalf("-h: exit %d; stderr:\n%s", code, stderr.String())
	}
	names := helpCommands(stdout.String())
	if len(names) < 5 {
		t.Fatalf("found only %q in the help:\n%s", names, stdout.String())
	}
	t.Logf("commands: %q", names)
	for _, name := range names {
		stdout.Reset()
		stderr.Reset()
		args := append(strings.Fields(name), "-h")
		code := cli.Main(scratchProcess(t, &stdout, &stderr), args)
		if code != 0 || stderr.Len() > 0 || !strings.HasPrefix(stdout.String(), "Usage: git context-tree "+name) {
			t.Errorf("%s -h: exit %d\nstdout:\n%s\nstderr:\n%s", name, code, stdout.String(), stderr.String())
		}
	}
}

// helpCommands lists the commands in kong's help: lines indented by exactly
// two spaces below "Commands:", up to the first run of two spaces.
func helpCommands(help string) []string {
	_, list, _ := strings.Cut(help, "\nCommands:\n")
	var names []string
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(line, "  "), "  ")
		names = append(names, strings.TrimSpace(name))
	}
	return names
}

func allScripts(t *testing.T) string {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
		all.WriteByte('\n')
	}
	return all.String()
}
