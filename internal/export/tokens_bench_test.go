package export

import (
	"os"
	"testing"
)

// BenchmarkCount: counting the user guide (~60 kB of Markdown) with each
// encoding, after the vocabulary is loaded.
func BenchmarkCount(b *testing.B) {
	guide, err := os.ReadFile("../../docs/guide.md")
	if err != nil {
		b.Fatal(err)
	}
	for _, enc := range Encodings() {
		b.Run(enc, func(b *testing.B) {
			c, err := NewCounter(enc)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(guide)))
			for b.Loop() {
				if c.Count(string(guide)) == 0 {
					b.Fatal("no tokens")
				}
			}
		})
	}
}

// BenchmarkLoadVocabulary: the first NewCounter of an encoding, which
// decompresses its vocabulary, builds the rank map and compiles the
// pre-tokenizer.
func BenchmarkLoadVocabulary(b *testing.B) {
	for _, enc := range Encodings() {
		b.Run(enc, func(b *testing.B) {
			for b.Loop() {
				if _, err := loadVocabulary(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
