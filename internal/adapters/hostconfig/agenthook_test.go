package hostconfig

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

const otherHooks = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],
    "PostToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "gofmt -w"}]}
    ]
  },
  "permissions": {"allow": ["Read"]}
}
`

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return m
}

func TestReadHookMergesKeepsOthersAndIsIdempotent(t *testing.T) {
	file := filepath.Join(t.TempDir(), ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(otherHooks), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := InspectReadHook(file); st != Absent {
		t.Fatalf("before: %s, want absent", st)
	}
	changed, err := InstallReadHook(file)
	if err != nil || !changed {
		t.Fatalf("install: changed %v, %v", changed, err)
	}
	installed, _ := os.ReadFile(file)
	got := decode(t, installed)
	want := decode(t, []byte(otherHooks))
	post := want["hooks"].(map[string]any)["PostToolUse"].([]any)
	want["hooks"].(map[string]any)["PostToolUse"] = append(post, map[string]any{"matcher": ReadHookMatcher,
		"hooks": []any{map[string]any{"type": "command", "command": ReadHookCommand, "timeout": float64(ReadHookTimeout)}}})
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("installed settings (-want +got):\n%s", d)
	}
	if st, _ := InspectReadHook(file); st != Current {
		t.Fatalf("after install: %s, want current", st)
	}
	if changed, err := InstallReadHook(file); err != nil || changed {
		t.Fatalf("second install: changed %v, %v", changed, err)
	}
	again, _ := os.ReadFile(file)
	if string(again) != string(installed) {
		t.Fatalf("second install rewrote the file")
	}
	if changed, err := UninstallReadHook(file); err != nil || !changed {
		t.Fatalf("uninstall: changed %v, %v", changed, err)
	}
	after, _ := os.ReadFile(file)
	if d := cmp.Diff(decode(t, []byte(otherHooks)), decode(t, after)); d != "" {
		t.Fatalf("uninstall left (-want +got):\n%s", d)
	}
	if changed, err := UninstallReadHook(file); err != nil || changed {
		t.Fatalf("second uninstall: changed %v, %v", changed, err)
	}
}

func TestReadHookFromNothingAndBack(t *testing.T) {
	file := filepath.Join(t.TempDir(), "settings.json")
	if st, _ := InspectReadHook(file); st != NoFile {
		t.Fatalf("no file: %s", st)
	}
	if _, err := InstallReadHook(file); err != nil {
		t.Fatal(err)
	}
	if _, err := UninstallReadHook(file); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if string(data) != "{}\n" {
		t.Fatalf("after uninstall: %q, want the empty object", data)
	}
}

func TestReadHookOutdatedAndSharedGroup(t *testing.T) {
	file := filepath.Join(t.TempDir(), "settings.json")
	shared := `{"hooks": {"PostToolUse": [{"matcher": "Read", "hooks": [
  {"type": "command", "command": "git context-tree cites --hook claude-code --old"},
  {"type": "command", "command": "log.sh"}]}]}}`
	if err := os.WriteFile(file, []byte(shared), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := InspectReadHook(file); st != Differs {
		t.Fatalf("outdated: %s, want differs", st)
	}
	if _, err := InstallReadHook(file); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	groups := decode(t, data)["hooks"].(map[string]any)["PostToolUse"].([]any)
	want := []any{
		map[string]any{"matcher": "Read", "hooks": []any{map[string]any{"type": "command", "command": "log.sh"}}},
		map[string]any{"matcher": ReadHookMatcher, "hooks": []any{map[string]any{"type": "command", "command": ReadHookCommand, "timeout": float64(ReadHookTimeout)}}},
	}
	if d := cmp.Diff(want, groups); d != "" {
		t.Fatalf("groups (-want +got):\n%s", d)
	}
}

func TestReadHookRefusesInvalidJSONAndSymlinks(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"hooks": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := InstallReadHook(bad)
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeHostConfigInvalid {
		t.Fatalf("invalid JSON: %v, want HOST_CONFIG_INVALID", err)
	}
	if data, _ := os.ReadFile(bad); string(data) != `{"hooks": [` {
		t.Fatalf("invalid file changed: %q", data)
	}
	target := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(target, []byte("[user]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := InstallReadHook(link); !errors.As(err, &ce) || ce.Code != contracts.CodeHostConfigInvalid {
		t.Fatalf("symlinked file: %v, want HOST_CONFIG_INVALID", err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if _, err := InstallReadHook(filepath.Join(dir, "linked", "new.json")); !errors.As(err, &ce) {
		t.Fatalf("symlinked directory: %v, want a refusal", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "[user]\n" {
		t.Fatalf("link target changed: %q", data)
	}
}
