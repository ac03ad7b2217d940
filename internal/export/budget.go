package export

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// fitBudget chooses the whole documents llms-full.txt carries under
// o.MaxTokens. Documents are offered breadth first (shallower before
// deeper, tree order within a depth, member content after all the rest);
// each one that still fits is taken, one that does not is left out and
// named in the closing note. Whether a document fits is estimated from
// per-part counts, reserving the note as if every document not taken so
// far were left out, so a later choice never invalidates an earlier one.
// The rendered file is then counted exactly, and while it is over the
// budget (token merges across part boundaries) the last document taken is
// left out too. Nothing depends on time or maps' order, so the same tree
// always gives the same file.
func fitBudget(docs []Document, o LLMSOptions) (included, omitted []Document) {
	offer := breadthFirst(docs)
	used := o.Counter.Count(fullText(nil, nil, o, o.MaxTokens))
	lines, all := 0, 0
	cost := make(map[int]int, len(docs))
	for _, d := range docs {
		cost[d.Order] = afterLine(o.Counter, docSection(d))
		lines += o.Counter.Count(noteLine(d))
		all += d.Tokens
	}
	// The note's header with every count at its largest: an upper bound.
	noteBase := o.Counter.Count(noteHeader(o.MaxTokens, len(docs)+10, all+10))
	taken := make(map[int]bool, len(docs))
	var takenOrder []Document
	for _, d := range offer {
		line := o.Counter.Count(noteLine(d))
		note := 0
		if len(takenOrder) < len(offer)-1 { // something stays left out
			note = noteBase + lines - line
		}
		if used+cost[d.Order]+note <= o.MaxTokens {
			used += cost[d.Order]
			lines -= line
			taken[d.Order] = true
			takenOrder = append(takenOrder, d)
		}
	}
	for {
		included, omitted = split(docs, taken)
		if len(takenOrder) == 0 {
			return included, omitted
		}
		if _, n := renderFull(included, omitted, o); n <= o.MaxTokens {
			return included, omitted
		}
		last := takenOrder[len(takenOrder)-1]
		takenOrder = takenOrder[:len(takenOrder)-1]
		delete(taken, last.Order)
	}
}

// breadthFirst orders documents for the budget: optional ones last,
// then by depth, then in export order.
func breadthFirst(docs []Document) []Document {
	offer := slices.Clone(docs)
	slices.SortStableFunc(offer, func(a, b Document) int {
		if a.Optional() != b.Optional() {
			if a.Optional() {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Depth, b.Depth)
	})
	return offer
}

// split keeps docs' order.
func split(docs []Document, taken map[int]bool) (in, out []Document) {
	for _, d := range docs {
		if taken[d.Order] {
			in = append(in, d)
		} else {
			out = append(out, d)
		}
	}
	return in, out
}

// afterLine counts s where it is always written: after a line's end, with
// which its leading newlines merge into one token.
func afterLine(c *Counter, s string) int {
	return c.Count("x\n"+s) - c.Count("x\n")
}

func noteLine(d Document) string {
	return fmt.Sprintf("- %s: %s (%d tokens)\n", linePath(d.Path), d.Title, d.Tokens)
}

func budgetTooSmall(max, need int) error {
	return contracts.Errorf(contracts.CodeUsage, "--max-tokens %d is too small: llms-full.txt needs %d tokens with every document left out", max, need).
		WithDetails(map[string]any{"maxTokens": max, "minimumTokens": need})
}
