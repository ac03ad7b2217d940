package treegen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

func generate(t *testing.T, opts Options) string {
	t.Helper()
	dir := t.TempDir()
	if err := Generate(dir, opts); err != nil {
		t.Fatal(err)
	}
	root, err := tree.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestGeneratedTreeVerifies(t *testing.T) {
	t.Parallel()
	const docs, wide = 500, 40
	root := generate(t, Options{Seed: 1, Docs: docs, WideChildren: wide})
	rep := tree.Verify(root)
	for _, f := range rep.Findings {
		t.Errorf("%s:%d: %s %s (%s)", f.Path, f.Line, f.Code, f.Message, f.Target)
	}
	if rep.Scanned.Documents != docs {
		t.Errorf("scanned %d documents, want %d", rep.Scanned.Documents, docs)
	}
	if rep.Scanned.Member == 0 || rep.Scanned.Assets == 0 || rep.Scanned.Directories < 10 {
		t.Errorf("scanned %+v, want members, assets and many directories", rep.Scanned)
	}
	got, err := tree.Read(root, WideDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Children) != wide {
		t.Errorf("%s has %d children, want %d", WideDir, len(got.Children), wide)
	}
	fi, err := os.Stat(filepath.Join(root, NodeName))
	if err != nil || fi.Size() > maxRootBytes {
		t.Errorf("root NODE.md: %v, %v", fi, err)
	}

	// The tree must exercise what verification checks: links going up,
	// root-relative links, URLs, reference definitions, soft_links and
	// escaping links hidden in code.
	all := readAll(t, root)
	var joined bytes.Buffer
	sizes := 0
	for name, b := range all {
		joined.Write(b)
		if strings.HasSuffix(name, ".md") && !strings.HasSuffix(name, NodeName) && (len(b) < 900 || len(b) > 3600) {
			sizes++
			t.Logf("%s: %d bytes", name, len(b))
		}
	}
	if sizes > 0 {
		t.Errorf("%d documents are not about 1-3 KB", sizes)
	}
	for _, want := range []string{"](../", "](/", "](https://", "](mailto:", "\n[ref]: ", "soft_links:\n", "```text\nsee [the source](", "/outside/", "`[", "\r\n"} {
		if !bytes.Contains(joined.Bytes(), []byte(want)) {
			t.Errorf("no generated document contains %q", want)
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	t.Parallel()
	opts := Options{Seed: 42, Docs: 300, FanOut: 3, DocsPerDir: 5, WideChildren: 20}
	a := readAll(t, generate(t, opts))
	b := readAll(t, generate(t, opts))
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	opts.Seed++
	c := readAll(t, generate(t, opts))
	same := 0
	for name, data := range a {
		if bytes.Equal(data, c[name]) {
			same++
		}
	}
	if same > len(a)/10 {
		t.Errorf("%d of %d files unchanged by another seed", same, len(a))
	}
}

func TestGenerateRefusesTooFewDocs(t *testing.T) {
	if err := Generate(t.TempDir(), Options{Docs: 10, WideChildren: 20}); err == nil {
		t.Error("10 documents with 20 wide children: want an error")
	}
}

func readAll(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
