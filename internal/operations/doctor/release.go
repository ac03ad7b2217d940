package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
	"github.com/git-context-tree/git-context-tree/internal/semver"
)

// installPackage is what `go install` builds: the command of this module.
const installPackage = "github.com/git-context-tree/git-context-tree/cmd/git-context-tree"

// preCommitConfig is the part of the pre-commit framework's
// .pre-commit-config.yaml that says which hook repositories it runs, at
// which rev.
type preCommitConfig struct {
	Repos []struct {
		Repo  string `yaml:"repo"`
		Rev   string `yaml:"rev"`
		Hooks []struct {
			ID string `yaml:"id"`
		} `yaml:"hooks"`
	} `yaml:"repos"`
}

// checkPinnedRelease reports, for each entry of the checkout's
// .pre-commit-config.yaml that runs this tool's hook repository, how the
// release it pins compares with installed (this binary's semantic
// version): a pinned release newer than the binary is a warning that says
// how to install it (the framework builds its golang hooks at the rev, but
// the -system hooks, `hooks install`'s shim and the user's own commands
// run the binary on PATH). A development build is never older; the line
// says it is one. No configuration, or none naming this tool, gives no
// line.
func checkPinnedRelease(checkout, installed string, r *doctorReport) {
	const area, name = "hook", "hook.version"
	path := filepath.Join(checkout, ".pre-commit-config.yaml")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var cfg preCommitConfig
	if err == nil {
		err = yaml.Unmarshal(b, &cfg)
	}
	if err != nil {
		r.warn(area, name, "cannot read .pre-commit-config.yaml: "+err.Error(), "pre-commit validate-config .pre-commit-config.yaml", path)
		return
	}
	bin, binErr := semver.Parse(installed)
	for _, repo := range cfg.Repos {
		ids := make([]string, 0, len(repo.Hooks))
		for _, h := range repo.Hooks {
			ids = append(ids, h.ID)
		}
		if !toolHookRepo(repo.Repo, ids) {
			continue
		}
		pinned, err := semver.Parse(repo.Rev)
		switch {
		case err != nil:
			r.ok(area, name, fmt.Sprintf(".pre-commit-config.yaml pins %s at %q, not a release tag: not compared with this binary (%s)", repo.Repo, repo.Rev, installed), path)
		case binErr != nil || strings.HasPrefix(installed, buildinfo.Dev):
			r.ok(area, name, fmt.Sprintf("this git-context-tree is a development build (%s): not compared with the release %s that .pre-commit-config.yaml pins", installed, repo.Rev), path)
		case bin.Compare(pinned) < 0:
			tag := repo.Rev
			if !strings.HasPrefix(tag, "v") {
				tag = "v" + tag
			}
			r.warn(area, name, fmt.Sprintf(".pre-commit-config.yaml pins git-context-tree %s, newer than this binary (%s): the -system hooks and your own commands run the older one", repo.Rev, installed),
				"go install "+installPackage+"@"+tag+"  # or the "+tag+" release archive", path)
		default:
			r.ok(area, name, fmt.Sprintf(".pre-commit-config.yaml pins git-context-tree %s; this binary is %s", repo.Rev, installed), path)
		}
	}
}

// toolHookRepo reports a hook repository entry that runs this tool's
// hooks: a remote repository (not the framework's local or meta) named
// git-context-tree (any host or owner: a fork, a mirror) or whose hooks
// are this manifest's (ids context-tree-*).
func toolHookRepo(repo string, ids []string) bool {
	if repo == "" || repo == "local" || repo == "meta" {
		return false
	}
	base := strings.TrimSuffix(strings.TrimSuffix(repo, "/"), ".git")
	if i := strings.LastIndexAny(base, "/:"); i >= 0 {
		base = base[i+1:]
	}
	if base == "git-context-tree" {
		return true
	}
	for _, id := range ids {
		if strings.HasPrefix(id, "context-tree-") {
			return true
		}
	}
	return false
}
