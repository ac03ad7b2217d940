package export

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/git-context-tree/git-context-tree/internal/export/internal/gen"
)

// TestVocabGenerated: vocab/ is what go generate writes from the
// tiktoken-go module go.mod pins: the embedded tokens are the library's,
// rank for rank, and NOTICE names the version and carries its licence.
// tiktoken-go is linked into tests only.
func TestVocabGenerated(t *testing.T) {
	version, licence, err := gen.Locate()
	if err != nil {
		t.Fatal(err)
	}
	notice, err := os.ReadFile(filepath.Join("vocab", "NOTICE"))
	if err != nil {
		t.Fatal(err)
	}
	if want := gen.Notice(version, licence); !bytes.Equal(notice, want) {
		t.Errorf("vocab/NOTICE is not tiktoken-go %s's: run go generate ./internal/export (-want +got):\n%s",
			version, cmp.Diff(string(want), string(notice)))
	}
	for _, enc := range Encodings() {
		want, err := gen.Tokens(enc)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := vocabData(enc)
		if err != nil {
			t.Fatalf("%s: %v: run go generate ./internal/export", enc, err)
		}
		tokens, err := decodeTokens(raw)
		if err != nil {
			t.Fatalf("%s: %v: run go generate ./internal/export", enc, err)
		}
		got := tokenStrings(tokens)
		if len(got) != len(want) {
			t.Errorf("%s: %d ranks embedded, tiktoken-go %s has %d: run go generate ./internal/export", enc, len(got), version, len(want))
			continue
		}
		for r := range want {
			if got[r] != want[r] {
				t.Errorf("%s: rank %d is %q, tiktoken-go %s has %q: run go generate ./internal/export", enc, r, got[r], version, want[r])
				break
			}
		}
	}
}

// tokenStrings is a token list as a slice.
func tokenStrings(l *tokenList) []string {
	var s []string
	for r := range l.len() {
		s = append(s, l.at(r))
	}
	return s
}

// TestDecodeTokens: the embedded format read back from gen.Encode, and
// the corrupt data decodeTokens refuses.
func TestDecodeTokens(t *testing.T) {
	tokens := []string{"a", "b", "", "ab", "c", "xyz", "abab", "abc", "bc", "ababc"}
	blob, err := gen.Encode(tokens)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := inflate(blob)
	if err != nil {
		t.Fatal(err)
	}
	list, err := decodeTokens(raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tokens, tokenStrings(list)); diff != "" {
		t.Errorf("decoded tokens (-want +got):\n%s", diff)
	}

	// Raw entries: literal = 0, len, bytes; pair = left+1, right.
	lit := func(s string) []byte { return append([]byte{0, byte(len(s))}, s...) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, c := range []struct {
		name string
		raw  []byte
		want string // the error, "" for none
	}{
		{"pairs", cat(lit("a"), lit("b"), []byte{1, 1}, []byte{3, 0}), ""},
		{"pair names its own rank", cat(lit("a"), lit("b"), []byte{1, 2}), "corrupt at rank 2: pair names ranks 0 and 2, not both lower"},
		{"pair names a later rank", cat(lit("a"), lit("b"), []byte{4, 0}, lit("c")), "corrupt at rank 2: pair names ranks 3 and 0, not both lower"},
		{"truncated pair", cat(lit("a"), []byte{1}), "corrupt at rank 1: truncated entry"},
		{"truncated literal", cat(lit("a"), []byte{0, 3}, []byte("bc")), "corrupt at rank 1: truncated token"},
		{"truncated uvarint", cat(lit("a"), []byte{0x80}), "corrupt at rank 1: truncated entry"},
		{"token too long", cat(lit("a"), []byte{0, 0x81, 0x40}, bytes.Repeat([]byte("x"), 0x2001)), "corrupt at rank 1: token too long"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeTokens(c.raw)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("decodeTokens = %q, want %q", got, c.want)
			}
		})
	}
	list, err = decodeTokens(cat(lit("a"), lit("b"), []byte{1, 1}, []byte{3, 0}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "ab", "aba"}, tokenStrings(list)); diff != "" {
		t.Errorf("decoded pairs (-want +got):\n%s", diff)
	}
}

// libraryCodec is tiktoken-go's codec of an encoding.
func libraryCodec(t testing.TB, enc string) *codec.Codec {
	t.Helper()
	switch enc {
	case "cl100k_base":
		return codec.NewCl100kBase()
	case "o200k_base":
		return codec.NewO200kBase()
	}
	t.Fatalf("no library codec for %s", enc)
	return nil
}

// countCorpus is text of every kind a tree may hold.
func countCorpus(t testing.TB) []string {
	t.Helper()
	corpus := []string{
		"The quick brown fox jumps over the lazy dog. It's what we'd've done; they'll see.",
		"I'M SHOUTING, Don't You Know? O'Neil's CamelCaseWords and snake_case_words.",
		"func (m *bpe) count(ranks map[string]uint32, piece string) int {\n\tif len(piece) <= 1 {\n\t\treturn len(piece)\n\t}\n}\n",
		"# Title\n\n- [link](a/b.md)\n- `code`\n\n```go\nx := 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"日本語のテキストと中文文本，还有한국어 텍스트。",
		"emoji 👍🏽 👨‍👩‍👧‍👦 🇫🇷 ✨🔥 and symbols ∀x∈ℝ: x² ≥ 0 → ∞",
		"Ünïcödé ñ café naïve Ελληνικά русский текст עברית العربية हिन्दी",
		"invalid \xff\xfe UTF-8 \xc3\x28 here \xe2\x82 and \xf0\x9f\x98",
		"\xff",
		strings.Repeat(" ", 1000) + "x" + strings.Repeat(" ", 257),
		strings.Repeat("\n", 300) + strings.Repeat("\r\n", 50),
		strings.Repeat("1234567890", 100),
		strings.Repeat("a", 2000),
		strings.Repeat("ab", 700) + strings.Repeat("=", 500),
		"<|endoftext|> special <|fim_prefix|><|endofprompt|> as text",
		"tabs\t\tand   spaces \t \n  trailing   \n",
		"https://example.com/path?query=1&x=y#frag user@example.com 192.168.0.1 2026-12-02T14:58:00Z",
		"",
		"a",
	}
	for _, pattern := range []string{"../../docs/*.md", "../../docs/decisions/*.md", "*.go"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			corpus = append(corpus, string(data))
		}
	}
	return corpus
}

// referencePatterns are the encodings' pre-tokenizers as tiktoken
// publishes them (in the form without possessive quantifiers, which
// regexp2 lacks): the reference our scanners (pretokenize.go) are held to.
var referencePatterns = map[string]string{
	"cl100k_base": `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	"o200k_base": `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
}

// pieces is text split by a regular expression.
func pieces(t testing.TB, re *regexp2.Regexp, text string) []string {
	t.Helper()
	var out []string
	m, err := re.FindStringMatch(text)
	for err == nil && m != nil {
		out = append(out, m.String())
		m, err = re.FindNextMatch(m)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ourPieces is text split by an encoding's pre-tokenizer, each piece as
// Count hands it to byte-pair merging.
func ourPieces(enc, text string) []string {
	var out []string
	split := splitters[enc]
	for i := 0; i < len(text); {
		end := split(text, i)
		out = append(out, referencePiece(text[i:end]))
		i = end
	}
	return out
}

// referenceSplit is regexp2's interpreter of an encoding's pattern, which
// reads it as tiktoken's own engines do: Compile, not MustCompile, so
// never the engine tiktoken-go generated and registered for the pattern.
func referenceSplit(t testing.TB, enc string) *regexp2.Regexp {
	t.Helper()
	re, err := regexp2.Compile(referencePatterns[enc], regexp2.None)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

// librarySplit is tiktoken-go's pre-tokenizer of an encoding: the engine
// its codec package generated with regexp2cg and registered for the
// pattern, which MustCompile returns in a binary that links the package.
func librarySplit(enc string) *regexp2.Regexp {
	return regexp2.MustCompile(referencePatterns[enc], regexp2.None)
}

// splitsAgree: tiktoken-go's generated pre-tokenizer splits text as
// regexp2's interpreter of the same pattern (and ours) does. They differ
// on some whitespace runs, where ours follows tiktoken
// (TestCountWhereTheLibrarySplitsDifferently).
func splitsAgree(t testing.TB, reference *regexp2.Regexp, enc, text string) bool {
	return slices.Equal(pieces(t, librarySplit(enc), text), pieces(t, reference, text))
}

// TestPretokenizeAgrees: our pre-tokenizers split as regexp2's
// interpreter of the published patterns does, piece for piece, on the
// counting corpus; on every text of up to three runes drawn from one
// rune of each class the patterns tell apart, and of four from one rune
// of each set of classes a rune can be in; and around every rune a
// case-insensitive contraction could match.
func TestPretokenizeAgrees(t *testing.T) {
	corpus := countCorpus(t)
	// Small, capital, title-case (Lt), modifier (Lm) and other (Lo)
	// letters, a mark, numbers (Nd, No), the contractions' apostrophe and
	// letters (ſ folds to s), spaces (ASCII, newlines, no-break,
	// next-line), '/', other punctuation, an invalid byte.
	corpus = append(corpus, allTexts(3, "a", "A", "ǅ", "ʰ", "日", "\u0301", "1", "²", "'", "s", "ſ", "l", "E",
		" ", "\t", "\n", "\r", "\u00a0", "\u0085", "/", ".", "\xff")...)
	corpus = append(corpus, allTexts(4, "s", "r", "ſ", "E", "L", "日", "\u0301", "1", "'",
		" ", "\t", "\n", "\r", "/", ".", "\xff")...)
	for r := range rune(unicode.MaxRune + 1) {
		if r < utf8.RuneSelf || unicode.SimpleFold(r) != r || unicode.ToLower(r) != r {
			for _, text := range []string{"1'", "a'", "A'r", "1'l"} {
				corpus = append(corpus, text+string(r)+"x")
			}
		}
	}
	for _, enc := range Encodings() {
		reference := referenceSplit(t, enc)
		failures := 0
		for _, text := range corpus {
			want, got := pieces(t, reference, text), ourPieces(enc, text)
			if slices.Equal(want, got) {
				continue
			}
			t.Errorf("%s: %.60q is split differently from the pattern (-want +got):\n%s", enc, text, cmp.Diff(want, got))
			if failures++; failures == 20 {
				break
			}
		}
	}
}

// allTexts is every text of one to n of the runes.
func allTexts(n int, runes ...string) []string {
	var texts, last []string
	last = []string{""}
	for range n {
		var next []string
		for _, text := range last {
			for _, r := range runes {
				next = append(next, text+r)
			}
		}
		texts, last = append(texts, next...), next
	}
	return texts
}

// TestPretokenizeClasses: every rune is in the classes regexp2 reads in
// the patterns: over a text of all runes in order, the runs each class
// matches are the runs classify puts in it. (The ASCII classes and
// the negated ones are held by TestPretokenizeAgrees.)
func TestPretokenizeClasses(t *testing.T) {
	var all strings.Builder
	var runes []rune
	for r := range rune(unicode.MaxRune + 1) {
		if utf8.ValidRune(r) {
			all.WriteRune(r)
			runes = append(runes, r)
		}
	}
	classes := []struct {
		pattern string
		in      func(runeClass) bool
	}{
		{`\p{L}`, func(c runeClass) bool { return c&classLetter != 0 }},
		{`\p{N}`, func(c runeClass) bool { return c&classNumber != 0 }},
		{`\s`, func(c runeClass) bool { return c&classSpace != 0 }},
		{`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`, func(c runeClass) bool { return c&classUpper != 0 }},
		{`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`, func(c runeClass) bool { return c&classLower != 0 }},
	}
	for _, class := range classes {
		re, err := regexp2.Compile(class.pattern+"+", regexp2.None)
		if err != nil {
			t.Fatal(err)
		}
		var want, got [][2]rune
		m, err := re.FindStringMatch(all.String())
		for err == nil && m != nil {
			want = append(want, [2]rune{runes[m.RuneIndex], runes[m.RuneIndex+m.RuneLength-1]})
			m, err = re.FindNextMatch(m)
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(runes); i++ {
			if class.in(classify(runes[i])) {
				first := runes[i]
				for i+1 < len(runes) && class.in(classify(runes[i+1])) {
					i++
				}
				got = append(got, [2]rune{first, runes[i]})
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: runes in the class differ, as ranges of runes (-regexp2 +classify):\n%s", class.pattern, diff)
		}
	}
}

// TestCountAgrees: our byte-pair merge counts as tiktoken-go does, for
// every encoding, on prose, code, Markdown, CJK, emoji, invalid UTF-8,
// long runs and the repository's own docs.
func TestCountAgrees(t *testing.T) {
	corpus := countCorpus(t)
	for _, enc := range Encodings() {
		c := counter(t, enc)
		lib := libraryCodec(t, enc)
		reference := referenceSplit(t, enc)
		for i, text := range corpus {
			if !splitsAgree(t, reference, enc, text) {
				t.Errorf("%s: corpus[%d] (%.40q…) is split differently by tiktoken-go", enc, i, text)
				continue
			}
			want, err := lib.Count(text)
			if err != nil {
				t.Fatalf("%s: library: %v", enc, err)
			}
			if got := c.Count(text); got != want {
				t.Errorf("%s: corpus[%d] (%.40q…) counts %d tokens, the library %d", enc, i, text, got, want)
			}
		}
	}
}

// TestCountWhereTheLibrarySplitsDifferently: tiktoken-go's generated
// pre-tokenizer splits "\n \n0" as "\n", " \n", "0" (3 tokens); the
// pattern, read as tiktoken's own regex engines and regexp2's interpreter
// read it (Python's re agrees on this input), takes "\n \n" with
// \s*[\r\n]+, one token in both vocabularies. We count as tiktoken does.
func TestCountWhereTheLibrarySplitsDifferently(t *testing.T) {
	const text = "\n \n0"
	for _, enc := range Encodings() {
		c := counter(t, enc)
		if got, want := ourPieces(enc, text), []string{"\n \n", "0"}; !slices.Equal(got, want) {
			t.Errorf("%s: split %q, want %q", enc, got, want)
		}
		if got := c.Count(text); got != 2 {
			t.Errorf("%s: %q counts %d tokens, want 2", enc, text, got)
		}
		if splitsAgree(t, referenceSplit(t, enc), enc, text) {
			t.Errorf("%s: tiktoken-go now splits %q as tiktoken does: make this case part of TestCountAgrees", enc, text)
		}
	}
}

// FuzzCountAgrees: on any text, our pre-tokenizers split as regexp2's
// interpreter of the patterns does (TestPretokenizeAgrees) and, where
// tiktoken-go's generated pre-tokenizer splits alike, we count as the
// library does (TestCountAgrees).
func FuzzCountAgrees(f *testing.F) {
	for _, text := range countCorpus(f) {
		if len(text) < 4096 {
			f.Add(text)
		}
	}
	counters := map[string]*Counter{}
	libs := map[string]*codec.Codec{}
	references := map[string]*regexp2.Regexp{}
	for _, enc := range Encodings() {
		counters[enc] = counter(f, enc)
		libs[enc] = libraryCodec(f, enc)
		references[enc] = referenceSplit(f, enc)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, enc := range Encodings() {
			if diff := cmp.Diff(pieces(t, references[enc], text), ourPieces(enc, text)); diff != "" {
				t.Fatalf("%s: %q is split differently from the pattern (-want +got):\n%s", enc, text, diff)
			}
			if !splitsAgree(t, references[enc], enc, text) {
				t.Skip("tiktoken-go's generated pre-tokenizer splits differently")
			}
			want, err := libs[enc].Count(text)
			if err != nil {
				t.Skip("the library failed:", err)
			}
			if got := counters[enc].Count(text); got != want {
				t.Errorf("%s: %q counts %d tokens, the library %d", enc, text, got, want)
			}
		}
	})
}
