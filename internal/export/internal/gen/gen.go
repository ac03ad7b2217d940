// Package gen writes the token vocabularies of tiktoken-go's codecs as
// compact data for package export (vocab/*.bin), so the binary carries
// them without linking tiktoken-go, whose vocabularies are Go map literals
// (~10 MB of binary). The ranks are read through the library's own codecs;
// the export tests compare the embedded data with a fresh reading.
package gen

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Module is the module whose vocabularies are generated.
const Module = "github.com/tiktoken-go/tokenizer"

// Encodings are the vocabularies generated, each written to <name>.bin.
var Encodings = []string{"cl100k_base", "o200k_base"}

// maxGap is how many ranks in a row may have no token before the
// vocabulary is taken to end.
const maxGap = 1024

// Tokens returns the vocabulary of an encoding in rank order: Tokens[r] is
// the token of rank r, "" for a rank with no token.
func Tokens(encoding string) ([]string, error) {
	var c *codec.Codec
	switch encoding {
	case "cl100k_base":
		c = codec.NewCl100kBase()
	case "o200k_base":
		c = codec.NewO200kBase()
	default:
		return nil, fmt.Errorf("no codec for encoding %q", encoding)
	}
	var tokens []string
	for rank, gap := 0, 0; gap < maxGap; rank++ {
		token, err := c.Decode([]uint{uint(rank)})
		if err != nil {
			token = ""
			gap++
		} else {
			gap = 0
		}
		tokens = append(tokens, token)
	}
	for len(tokens) > 0 && tokens[len(tokens)-1] == "" {
		tokens = tokens[:len(tokens)-1]
	}
	if len(tokens) < 50000 {
		return nil, fmt.Errorf("%s: %d tokens read from %s, want a full vocabulary", encoding, len(tokens), Module)
	}
	return tokens, nil
}

// Encode is the blob of a vocabulary. Each rank in order is written as
// one entry, either a literal or a pair:
//
//	literal: uvarint(0) uvarint(len) bytes   (len 0: a rank with no token)
//	pair:    uvarint(left+1) uvarint(right)  (the token is the token of rank
//	                                          left followed by that of rank right)
//
// A pair names two ranks lower than its own, so a reader rebuilds the
// tokens in rank order. Every token of two bytes or more of cl100k_base and
// o200k_base is such a concatenation; of its possible splits the one with
// the smallest left+right is written (the shortest first part on ties),
// which keeps the numbers small and repetitive for DEFLATE. A token with no
// split into lower ranks, and every single byte, is a literal. The whole
// is compressed with DEFLATE (RFC 1951) at its best compression. Encode is
// deterministic: the same tokens give the same bytes.
func Encode(tokens []string) ([]byte, error) {
	var raw []byte
	lower := make(map[string]int, len(tokens)) // token -> its lowest rank so far
	for rank, t := range tokens {
		left, right, ok := split(lower, t)
		if ok {
			raw = binary.AppendUvarint(raw, uint64(left)+1)
			raw = binary.AppendUvarint(raw, uint64(right))
		} else {
			raw = binary.AppendUvarint(raw, 0)
			raw = binary.AppendUvarint(raw, uint64(len(t)))
			raw = append(raw, t...)
		}
		if _, seen := lower[t]; !seen && t != "" {
			lower[t] = rank
		}
	}
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("compress vocabulary: %w", err)
	}
	if _, err := w.Write(raw); err != nil {
		return nil, fmt.Errorf("compress vocabulary: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compress vocabulary: %w", err)
	}
	return b.Bytes(), nil
}

// split finds the split of token t into two tokens of lower rank (those in
// lower) with the smallest sum of ranks, the shortest first part on ties.
func split(lower map[string]int, t string) (left, right int, ok bool) {
	for i := 1; i < len(t); i++ {
		l, okl := lower[t[:i]]
		r, okr := lower[t[i:]]
		if okl && okr && (!ok || l+r < left+right) {
			left, right, ok = l, r, true
		}
	}
	return left, right, ok
}

// Locate returns the version of the tiktoken-go module the main module
// requires and the text of its LICENSE file (the notice its MIT licence
// requires copies to carry), asking the go command for the module's
// directory in the module cache.
func Locate() (version, licence string, err error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", Module).Output()
	if err != nil {
		return "", "", fmt.Errorf("go list -m %s: %w", Module, err)
	}
	version, dir, ok := strings.Cut(strings.TrimSpace(string(out)), " ")
	if !ok || dir == "" {
		return "", "", fmt.Errorf("go list -m %s: no module directory in %q", Module, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "LICENSE"))
	if err != nil {
		return "", "", fmt.Errorf("tiktoken-go licence: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return "", "", errors.New("tiktoken-go licence: empty LICENSE file")
	}
	return version, string(data), nil
}

// Notice is the text of vocab/NOTICE: where the data come from and the
// licence they are distributed under.
func Notice(version, licence string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "The files %s.bin in this directory are generated by\n", strings.Join(Encodings, ".bin and "))
	fmt.Fprintf(&b, "internal/export/internal/gen/vocabgen (go generate ./internal/export) from\n%s %s; do not edit them.\n", Module, version)
	b.WriteString("They hold the token vocabularies of its codec package, distributed under\nits licence:\n\n")
	b.WriteString(strings.TrimRight(licence, "\n") + "\n")
	return b.Bytes()
}

// Files returns the generated files by name: NOTICE and one .bin per
// encoding.
func Files(version, licence string) (map[string][]byte, error) {
	files := map[string][]byte{"NOTICE": Notice(version, licence)}
	for _, enc := range Encodings {
		tokens, err := Tokens(enc)
		if err != nil {
			return nil, err
		}
		blob, err := Encode(tokens)
		if err != nil {
			return nil, err
		}
		files[enc+".bin"] = blob
	}
	return files, nil
}
