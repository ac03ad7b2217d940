package redact

// keywordIndex finds which rule keywords occur in a lowercase line in one
// pass, indexing keywords by their first two bytes (the shortest has two),
// instead of searching the line once per keyword.
type keywordIndex struct {
	words  []string
	byPair map[uint16][]int
}

func newKeywordIndex(rules []*rule) *keywordIndex {
	ix := &keywordIndex{byPair: map[uint16][]int{}}
	seen := map[string]int{}
	for _, r := range rules {
		r.kwIDs = r.kwIDs[:0]
		for _, k := range r.keywords {
			id, ok := seen[k]
			if !ok {
				if len(k) < 2 {
					// Too short to index: treat the rule as always wanted.
					r.kwIDs = nil
					r.keywords = nil
					break
				}
				id = len(ix.words)
				seen[k] = id
				ix.words = append(ix.words, k)
				p := pair(k, 0)
				ix.byPair[p] = append(ix.byPair[p], id)
			}
			r.kwIDs = append(r.kwIDs, id)
		}
	}
	return ix
}

func pair(s string, i int) uint16 { return uint16(s[i])<<8 | uint16(s[i+1]) }

// hits marks in found (len(words)) the keywords lower contains.
func (ix *keywordIndex) hits(lower string, found []bool) bool {
	clear(found)
	any := false
	for i := 0; i+1 < len(lower); i++ {
		for _, id := range ix.byPair[pair(lower, i)] {
			if !found[id] && len(lower)-i >= len(ix.words[id]) && lower[i:i+len(ix.words[id])] == ix.words[id] {
				found[id], any = true, true
			}
		}
	}
	return any
}
