package doctor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestCheckPinnedRelease(t *testing.T) {
	pin := func(rev string) string {
		return "repos:\n  - repo: https://github.com/git-context-tree/git-context-tree\n    rev: " + rev + "\n    hooks:\n      - id: context-tree-verify\n"
	}
	for _, tc := range []struct {
		name, config, installed string
		want                    []contracts.DoctorCheck // Paths filled in below
	}{
		{"pinned newer than the binary", pin("v0.2.0"), "0.1.0", []contracts.DoctorCheck{{Status: contracts.DoctorWarn,
			Message: ".pre-commit-config.yaml pins git-context-tree v0.2.0, newer than this binary (0.1.0): the -system hooks and your own commands run the older one",
			Fix:     "go install github.com/git-context-tree/git-context-tree/cmd/git-context-tree@v0.2.0  # or the v0.2.0 release archive"}}},
		{"pinned newer, written without v", pin("0.1.1"), "0.1.0", []contracts.DoctorCheck{{Status: contracts.DoctorWarn,
			Message: ".pre-commit-config.yaml pins git-context-tree 0.1.1, newer than this binary (0.1.0): the -system hooks and your own commands run the older one",
			Fix:     "go install github.com/git-context-tree/git-context-tree/cmd/git-context-tree@v0.1.1  # or the v0.1.1 release archive"}}},
		{"a release candidate is older than its release", pin("v1.0.0"), "1.0.0-rc.1", []contracts.DoctorCheck{{Status: contracts.DoctorWarn,
			Message: ".pre-commit-config.yaml pins git-context-tree v1.0.0, newer than this binary (1.0.0-rc.1): the -system hooks and your own commands run the older one",
			Fix:     "go install github.com/git-context-tree/git-context-tree/cmd/git-context-tree@v1.0.0  # or the v1.0.0 release archive"}}},
		{"the same release", pin("v0.1.0"), "0.1.0", []contracts.DoctorCheck{{Status: contracts.DoctorOK,
			Message: ".pre-commit-config.yaml pins git-context-tree v0.1.0; this binary is 0.1.0"}}},
		{"the binary is newer (0.10.0 after 0.9.0)", pin("v0.9.0"), "0.10.0", []contracts.DoctorCheck{{Status: contracts.DoctorOK,
			Message: ".pre-commit-config.yaml pins git-context-tree v0.9.0; this binary is 0.10.0"}}},
		{"a development build is never older", pin("v9.0.0"), "0.0.0-dev+1a2b3c4d5e6f.dirty", []contracts.DoctorCheck{{Status: contracts.DoctorOK,
			Message: "this git-context-tree is a development build (0.0.0-dev+1a2b3c4d5e6f.dirty): not compared with the release v9.0.0 that .pre-commit-config.yaml pins"}}},
		{"a commit, not a tag", pin("3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c"), "0.1.0", []contracts.DoctorCheck{{Status: contracts.DoctorOK,
			Message: `.pre-commit-config.yaml pins https://github.com/git-context-tree/git-context-tree at "3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c", not a release tag: not compared with this binary (0.1.0)`}}},
		{"a fork, found by its hook ids", "repos:\n  - repo: git@gitlab.example:acme/ctx-hooks.git\n    rev: v0.3.0\n    hooks:\n      - id: context-tree-verify-system\n", "0.2.0", []contracts.DoctorCheck{{Status: contracts.DoctorWarn,
			Message: ".pre-commit-config.yaml pins git-context-tree v0.3.0, newer than this binary (0.2.0): the -system hooks and your own commands run the older one",
			Fix:     "go install github.com/git-context-tree/git-context-tree/cmd/git-context-tree@v0.3.0  # or the v0.3.0 release archive"}}},
		{"a mirror, found by its name", "repos:\n  - repo: https://mirror.example/git-context-tree.git\n    rev: v0.3.0\n    hooks: []\n", "0.3.0", []contracts.DoctorCheck{{Status: contracts.DoctorOK,
			Message: ".pre-commit-config.yaml pins git-context-tree v0.3.0; this binary is 0.3.0"}}},
		{"other hook repositories and a local hook: no line",
			"repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v9.0.0\n    hooks:\n      - id: trailing-whitespace\n  - repo: local\n    hooks:\n      - id: context-tree-verify\n        entry: git-context-tree verify --staged\n        language: system\n",
			"0.1.0", nil},
		{"not YAML", "repos: [\n", "0.1.0", []contracts.DoctorCheck{{Status: contracts.DoctorWarn,
			Message: "cannot read .pre-commit-config.yaml: yaml: line 1: did not find expected node content",
			Fix:     "pre-commit validate-config .pre-commit-config.yaml"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".pre-commit-config.yaml")
			if err := os.WriteFile(path, []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			r := &doctorReport{res: &contracts.DoctorResult{OK: true}}
			checkPinnedRelease(dir, tc.installed, r)
			for i := range tc.want {
				tc.want[i].Area, tc.want[i].Name, tc.want[i].Paths = "hook", "hook.version", []string{path}
			}
			if diff := cmp.Diff(tc.want, r.res.Checks); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !r.res.OK {
				t.Error("a pinned release never fails doctor")
			}
		})
	}
	t.Run("no configuration: no line", func(t *testing.T) {
		r := &doctorReport{res: &contracts.DoctorResult{OK: true}}
		checkPinnedRelease(t.TempDir(), "0.1.0", r)
		if len(r.res.Checks) != 0 {
			t.Errorf("%+v", r.res.Checks)
		}
	})
}
