// Package export renders a tree's documents into the views agents look for:
// llms.txt and llms-full.txt, and the .ctxfile envelope; and into the one
// people browse, a static site (site*.go). It only formats:
// reading the tree, git facts and writing files are the caller's
// (internal/operations), so every output is a function of its input and
// byte-identical for the same tree.
package export

import (
	"bytes"
	"compress/flate"
	"embed"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
)

//go:generate go run ./internal/gen/vocabgen -o vocab

// The vocabularies are tiktoken-go's (github.com/tiktoken-go/tokenizer),
// compiled in as compressed data (vocab/*.bin, written by go generate from
// the pinned module through its own codecs, each token literal bytes or
// the pair of lower ranks it concatenates, see decodeTokens; vocab/NOTICE
// carries its licence) and read on first use: the library keeps them as
// Go map literals, ~10 MB of binary. Counting is our own byte-pair merge
// over them; TestVocabGenerated and TestCountAgrees check data and counts
// against the library, which is linked into tests only.

//go:embed vocab/cl100k_base.bin vocab/o200k_base.bin
var vocabFiles embed.FS

// DefaultEncoding is the tokenizer vocabulary of current OpenAI models
// (GPT-4o and later); counts in other models' tokens differ by a few
// percent.
const DefaultEncoding = "o200k_base"

// encodings are the vocabularies --encoding accepts, those of current
// models. Each is embedded in the binary (counting never touches the
// network) and costs its compressed size: 1.1 MB for both (356 kB and
// 768 kB); the GPT-3 era's p50k_base and r50k_base would add more.
var encodings = []string{"cl100k_base", "o200k_base"}

// vocabularies load each encoding once, on the first NewCounter for it.
var vocabularies = map[string]func() (*vocabulary, error){
	"cl100k_base": sync.OnceValues(func() (*vocabulary, error) { return loadVocabulary("cl100k_base") }),
	"o200k_base":  sync.OnceValues(func() (*vocabulary, error) { return loadVocabulary("o200k_base") }),
}

// vocabulary is an encoding's pre-tokenizer and its tokens' ranks.
type vocabulary struct {
	split splitter
	ranks map[string]uint32
}

// Encodings lists the accepted encoding names.
func Encodings() []string { return slices.Clone(encodings) }

// Counter counts tokens with one encoding. It is safe for concurrent use.
type Counter struct {
	Encoding string
	vocab    *vocabulary
}

// NewCounter returns a counter for an encoding name ("" is the default).
func NewCounter(encoding string) (*Counter, error) {
	if encoding == "" {
		encoding = DefaultEncoding
	}
	if !slices.Contains(encodings, encoding) {
		return nil, contracts.Errorf(contracts.CodeUsage, "unknown encoding %q; use one of %s", encoding, strings.Join(encodings, ", "))
	}
	v, err := vocabularies[encoding]()
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeInternal, "token vocabulary %s: %v", encoding, err)
	}
	return &Counter{Encoding: encoding, vocab: v}, nil
}

// Count is the number of tokens in s. Special-token text such as
// "<|endoftext|>" in a document counts as ordinary text, as it would in a
// prompt that carries it.
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	var m bpe
	n := 0
	for i := 0; i < len(s); {
		end := c.vocab.split(s, i)
		n += m.count(c.vocab.ranks, referencePiece(s[i:end]))
		i = end
	}
	return n
}

// bpe is the working state of byte-pair merging, reused across the
// pieces of one text.
type bpe struct {
	bounds []int    // start offsets of the parts, then len(piece)
	ranks  []uint32 // ranks[i]: rank of parts i and i+1 merged, or none
}

const noRank = math.MaxUint32

// count is the number of tokens of one piece of pre-tokenized text: a
// piece in the vocabulary is one token; otherwise, starting from its
// bytes, the adjacent pair of parts whose concatenation has the lowest
// rank (the leftmost on ties) is merged until no pair is in the
// vocabulary, and each part left is a token.
func (m *bpe) count(ranks map[string]uint32, piece string) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := ranks[piece]; ok {
		return 1
	}
	m.bounds = m.bounds[:0]
	for i := range len(piece) + 1 {
		m.bounds = append(m.bounds, i)
	}
	m.ranks = m.ranks[:0]
	for i := range len(piece) - 1 {
		m.ranks = append(m.ranks, rankOf(ranks, piece[i:i+2]))
	}
	m.ranks = append(m.ranks, noRank)
	for len(m.ranks) > 1 {
		best := 0
		for i, r := range m.ranks {
			if r < m.ranks[best] {
				best = i
			}
		}
		if m.ranks[best] == noRank {
			break
		}
		// Merge part best with part best+1.
		m.bounds = slices.Delete(m.bounds, best+1, best+2)
		m.ranks = slices.Delete(m.ranks, best+1, best+2)
		m.ranks[best] = m.pairRank(ranks, piece, best)
		if best > 0 {
			m.ranks[best-1] = m.pairRank(ranks, piece, best-1)
		}
	}
	return len(m.ranks)
}

// pairRank is the rank of parts i and i+1 merged.
func (m *bpe) pairRank(ranks map[string]uint32, piece string, i int) uint32 {
	if i+2 >= len(m.bounds) {
		return noRank
	}
	return rankOf(ranks, piece[m.bounds[i]:m.bounds[i+2]])
}

func rankOf(ranks map[string]uint32, token string) uint32 {
	if r, ok := ranks[token]; ok {
		return r
	}
	return noRank
}

// loadVocabulary reads an encoding's embedded vocabulary (see
// internal/gen.Encode for the format).
func loadVocabulary(encoding string) (*vocabulary, error) {
	raw, err := vocabData(encoding)
	if err != nil {
		return nil, err
	}
	tokens, err := decodeTokens(raw)
	if err != nil {
		return nil, err
	}
	ranks := make(map[string]uint32, tokens.len())
	for rank := range tokens.len() {
		if token := tokens.at(rank); token != "" {
			ranks[token] = uint32(rank)
		}
	}
	return &vocabulary{split: splitters[encoding], ranks: ranks}, nil
}

// vocabData is an embedded vocabulary, decompressed.
func vocabData(encoding string) ([]byte, error) {
	blob, err := vocabFiles.ReadFile("vocab/" + encoding + ".bin")
	if err != nil {
		return nil, fmt.Errorf("read embedded vocabulary: %w", err)
	}
	return inflate(blob)
}

// inflate decompresses a vocabulary blob.
func inflate(blob []byte) ([]byte, error) {
	var raw bytes.Buffer
	raw.Grow(3 * len(blob))
	if _, err := raw.ReadFrom(flate.NewReader(bytes.NewReader(blob))); err != nil {
		return nil, fmt.Errorf("decompress embedded vocabulary: %w", err)
	}
	return raw.Bytes(), nil
}

// maxTokenLen bounds a rebuilt token, so that corrupt pairs cannot double
// a token's length rank after rank; the longest token of either
// vocabulary is 128 bytes.
const maxTokenLen = 1 << 12

// tokenList is a vocabulary's tokens in rank order, "" for a rank with
// no token: slices of one string.
type tokenList struct {
	all  string
	ends []uint32 // ends[r]: end of rank r's token in all; it starts at ends[r-1]
}

func (l *tokenList) len() int { return len(l.ends) }

func (l *tokenList) at(rank int) string {
	start := uint32(0)
	if rank > 0 {
		start = l.ends[rank-1]
	}
	return l.all[start:l.ends[rank]]
}

// decodeTokens rebuilds the tokens of a decompressed vocabulary. The data
// hold one entry per rank (internal/gen.Encode): a literal, uvarint(0)
// uvarint(len) and len bytes, or a pair, uvarint(left+1) uvarint(right),
// whose token is the token of rank left followed by that of rank right,
// both ranks lower than its own. The tokens are rebuilt in rank order
// into one buffer.
func decodeTokens(raw []byte) (*tokenList, error) {
	var (
		buf  = make([]byte, 0, 2*len(raw))
		ends = make([]uint32, 0, len(raw)/3)
	)
	span := func(r uint64) []byte {
		start := uint32(0)
		if r > 0 {
			start = ends[r-1]
		}
		return buf[start:ends[r]]
	}
	for at := 0; at < len(raw); {
		rank := len(ends)
		corrupt := func(why string) error {
			return fmt.Errorf("embedded vocabulary is corrupt at rank %d: %s", rank, why)
		}
		first, w := binary.Uvarint(raw[at:])
		if w <= 0 {
			return nil, corrupt("truncated entry")
		}
		at += w
		second, w := binary.Uvarint(raw[at:])
		if w <= 0 {
			return nil, corrupt("truncated entry")
		}
		at += w
		if first == 0 {
			if uint64(len(raw)-at) < second {
				return nil, corrupt("truncated token")
			}
			if second > maxTokenLen {
				return nil, corrupt("token too long")
			}
			buf = append(buf, raw[at:at+int(second)]...)
			at += int(second)
		} else {
			left := first - 1
			if left >= uint64(rank) || second >= uint64(rank) {
				return nil, corrupt(fmt.Sprintf("pair names ranks %d and %d, not both lower", left, second))
			}
			l, r := span(left), span(second)
			if len(l)+len(r) > maxTokenLen {
				return nil, corrupt("token too long")
			}
			buf = append(buf, l...)
			buf = append(buf, r...)
		}
		if len(buf) > math.MaxUint32 {
			return nil, corrupt("vocabulary too large")
		}
		ends = append(ends, uint32(len(buf)))
	}
	return &tokenList{all: string(buf), ends: ends}, nil
}
