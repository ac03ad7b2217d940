package tree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkCheckBytes is verify's work on one document's bytes, read
// once from a generated tree into memory: what a document costs beyond
// the system calls that read it. Reported per document (CPU time):
//
//	go test -run '^$' -bench BenchmarkCheckBytes -benchtime 20x ./internal/tree/
func BenchmarkCheckBytes(b *testing.B) {
	t := generatedTree(b, 10_000)
	type loaded struct {
		rel  string
		data []byte
	}
	var docs []loaded
	err := filepath.WalkDir(t.root, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(t.root, p)
		docs = append(docs, loaded{filepath.ToSlash(rel), data})
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	x := NewLinkExtractor()
	var cpu time.Duration
	perDoc := func(b *testing.B, n int) {
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N*n), "cpu-ns/doc")
	}
	b.Run("quickRead", func(b *testing.B) {
		cpu = cpuTime()
		for b.Loop() {
			for _, d := range docs {
				quickRead(d.rel, d.data, false, false)
			}
		}
		perDoc(b, len(docs))
	})
	// The bodies and their directories' depths, for the body checks.
	bodies := make([][]byte, len(docs))
	depths := make([]int, len(docs))
	for i, d := range docs {
		doc, _, ok := quickRead(d.rel, d.data, false, false)
		if !ok {
			doc = *ParseDocument(d.rel, d.data, false)
		}
		bodies[i], depths[i] = doc.Body, dirDepth(filepath.Dir(d.rel))
	}
	b.Run("linksMayEscape", func(b *testing.B) {
		cpu = cpuTime()
		for b.Loop() {
			for i := range bodies {
				linksMayEscape(bodies[i], depths[i])
			}
		}
		perDoc(b, len(docs))
	})
	b.Run("markersMayEscape", func(b *testing.B) {
		cpu = cpuTime()
		for b.Loop() {
			for i := range bodies {
				markersMayEscape(bodies[i], depths[i])
			}
		}
		perDoc(b, len(docs))
	})
	b.Run("checkBytes", func(b *testing.B) {
		cpu = cpuTime()
		for b.Loop() {
			for _, d := range docs {
				checkBytes(x, docJob{rel: d.rel}, d.data, nil)
			}
		}
		perDoc(b, len(docs))
	})
}
