package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/environ"
)

// git runs with the Git's environment, never the process's: found along
// its PATH, reading its configuration, with the repository variables of
// its own environment scrubbed for Isolated. Gits with different
// environments run side by side in one process.
func TestGitRunsInItsOwnEnvironment(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	for _, name := range []string{"Ada", "Grace", "Barbara"} {
		wg.Go(func() {
			cfg := filepath.Join(dir, name+".gitconfig")
			if err := os.WriteFile(cfg, []byte("[user]\n\tname = "+name+"\n"), 0o644); err != nil {
				t.Error(err)
				return
			}
			g := New(environ.Vars{"PATH=" + filepath.Dir(gitPath), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + cfg,
				"GIT_DIR=" + filepath.Join(dir, "no-such-repository")})
			for range 3 {
				got, ok, err := g.UserConfig(context.Background(), dir, "user.name")
				if err != nil || !ok || got != name {
					t.Errorf("%s: user.name = %q, %v, %v", name, got, ok, err)
				}
			}
		})
	}
	wg.Wait()

	g := New(environ.Vars{"PATH=" + t.TempDir(), "HOME=" + dir})
	if _, err := g.Run(context.Background(), Invoking, dir, "version"); err == nil || !strings.Contains(err.Error(), "executable file not found") {
		t.Errorf("git along a PATH without it: %v", err)
	}
}

// Every git process has its directory set: one without a directory of
// its own runs from the root, not from the process's working directory.
func TestGitCommandsHaveADirectory(t *testing.T) {
	g := New(environ.Vars(os.Environ()))
	cmd, err := g.command(context.Background(), Isolated, "", "version")
	if err != nil || cmd.Dir != "/" {
		t.Errorf("command without a directory: Dir %q, %v", cmd.Dir, err)
	}
	if out, err := runCmd(cmd, []string{"version"}); err != nil || !strings.HasPrefix(string(out), "git version ") {
		t.Errorf("git version from the root: %q, %v", out, err)
	}
}
