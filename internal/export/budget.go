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
// named in the closing note. The estimate adds per-document section
// counts; the rendered file is then counted exactly, and while it is over
// the budget the last document taken is left out too. Nothing depends on
// time or maps, so the same tree always gives the same file.
func fitBudget(docs []Document, o LLMSOptions) (included, omitted []Document) {
	offer := breadthFirst(docs)
	base := o.Counter.Count(fullText(nil, nil, o, o.MaxTokens))
	noteBase := o.Counter.Count(omittedNote(nil, o.MaxTokens)) + 4 // its counts' digits
	used, noteCost := base, 0
	taken := make(map[int]bool, len(docs))
	var takenOrder []Document
	for _, d := range offer {
		cost := o.Counter.Count(docSection(d))
		note := noteCost
		if note == 0 {
			note = noteBase
		}
		if used+cost+note <= o.MaxTokens {
			used += cost
			taken[d.Order] = true
			takenOrder = append(takenOrder, d)
			continue
		}
		if noteCost == 0 {
			noteCost = noteBase
		}
		noteCost += o.Counter.Count(noteLine(d))
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

// breadthFirst orders documents for the budget: non-member before member,
// then by depth, then in export order.
func breadthFirst(docs []Document) []Document {
	offer := slices.Clone(docs)
	slices.SortStableFunc(offer, func(a, b Document) int {
		if a.Member() != b.Member() {
			if a.Member() {
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

func noteLine(d Document) string {
	return fmt.Sprintf("- %s: %s (%d tokens)\n", d.Path, d.Title, d.Tokens)
}

func budgetTooSmall(max, need int) error {
	return contracts.Errorf(contracts.CodeUsage, "--max-tokens %d is too small: llms-full.txt needs %d tokens without any document", max, need).
		WithDetails(map[string]any{"maxTokens": max, "minimumTokens": need})
}
