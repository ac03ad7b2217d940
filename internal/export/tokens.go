// Package export renders a tree's documents into the views agents look for:
// llms.txt and llms-full.txt, and the .ctxfile envelope; and into the one
// people browse, a static site (site*.go). It only formats:
// reading the tree, git facts and writing files are the caller's
// (internal/operations), so every output is a function of its input and
// byte-identical for the same tree.
package export

import (
	"slices"
	"strings"

	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// DefaultEncoding is the tokenizer vocabulary of current OpenAI models
// (GPT-4o and later); counts in other models' tokens differ by a few
// percent.
const DefaultEncoding = "o200k_base"

// encodings are the vocabularies --encoding accepts, those of current
// models. Each is embedded in the binary (counting never touches the
// network) and costs its size: o200k_base and cl100k_base add 10 MB to the
// binary; the GPT-3 era's p50k_base and r50k_base would add 2.5 MB more.
var encodings = []string{"cl100k_base", "o200k_base"}

// Encodings lists the accepted encoding names.
func Encodings() []string { return slices.Clone(encodings) }

// Counter counts tokens with one encoding.
type Counter struct {
	Encoding string
	codec    *codec.Codec
}

// NewCounter returns a counter for an encoding name ("" is the default).
func NewCounter(encoding string) (*Counter, error) {
	if encoding == "" {
		encoding = DefaultEncoding
	}
	if !slices.Contains(encodings, encoding) {
		return nil, contracts.Errorf(contracts.CodeUsage, "unknown encoding %q; use one of %s", encoding, strings.Join(encodings, ", "))
	}
	// The codecs are named one by one, not through tokenizer.Get, so the
	// linker keeps only these vocabularies.
	var c *codec.Codec
	switch encoding {
	case "cl100k_base":
		c = codec.NewCl100kBase()
	default:
		c = codec.NewO200kBase()
	}
	return &Counter{Encoding: encoding, codec: c}, nil
}

// Count is the number of tokens in s. Special-token text such as
// "<|endoftext|>" in a document counts as ordinary text, as it would in a
// prompt that carries it.
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	n, err := c.codec.Count(s)
	if err != nil {
		// Invalid UTF-8 is the only failure; documents are checked to be
		// UTF-8 before they get here, and a byte count is a safe bound.
		return len(s)
	}
	return n
}
