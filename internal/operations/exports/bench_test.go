package exports

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// BenchmarkExportLLMS exports a generated tree of 1,000 documents (no git):
// the walk, redaction, token counts and both files.
func BenchmarkExportLLMS(b *testing.B) {
	for _, bc := range []struct {
		name string
		max  int
	}{{"all", 0}, {"max-tokens-50k", 50000}} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			root := filepath.Join(dir, "tree")
			if err := treegen.Generate(root, treegen.Options{Seed: 1, Docs: 1000, MemberDocs: 50}); err != nil {
				b.Fatal(err)
			}
			b.Setenv("CONTEXT_TREE_HOME", filepath.Join(dir, "home"))
			home, err := state.Locate(os.Environ(), "")
			if err != nil {
				b.Fatal(err)
			}
			env := operations.Env{Dir: dir, Vars: os.Environ(), Git: git.New(os.Environ()), Home: home}
			b.ResetTimer()
			for b.Loop() {
				res, err := LLMS(context.Background(), env, LLMSRequest{Selector: root, OutDir: filepath.Join(dir, "out"), MaxTokens: bc.max})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.TotalTokens), "tokens")
			}
			_ = os.RemoveAll(filepath.Join(dir, "out"))
		})
	}
}

// BenchmarkExportSite exports the static site of a generated tree of
// 10,000 documents (no git): the walk, rendering every page, the search
// index and the map, and writing and swapping the directory (a previous
// export is replaced from the second run on). Goal: < 5 s.
func BenchmarkExportSite(b *testing.B) {
	dir := b.TempDir()
	root := filepath.Join(dir, "tree")
	if err := treegen.Generate(root, treegen.Options{Seed: 1, Docs: 10000}); err != nil {
		b.Fatal(err)
	}
	// The generated tree reaches the disk before the clock starts, so its
	// writeback does not compete with the export's writes.
	syscall.Sync()
	b.Setenv("CONTEXT_TREE_HOME", filepath.Join(dir, "home"))
	home, err := state.Locate(os.Environ(), "")
	if err != nil {
		b.Fatal(err)
	}
	env := operations.Env{Dir: dir, Vars: os.Environ(), Git: git.New(os.Environ()), Home: home}
	b.ResetTimer()
	for b.Loop() {
		res, err := Site(context.Background(), env, SiteRequest{Selector: root, OutDir: filepath.Join(dir, "site")})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Bytes)/1e6, "MB")
		b.ReportMetric(float64(len(res.Pages)), "pages")
	}
}
