package export

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers split text into the pieces byte-pair merging works
// on, as each encoding's published pattern does when a backtracking
// engine reads it leftmost-first (tiktoken's own engines; regexp2's
// interpreter, which TestPretokenizeAgrees holds these scanners to):
//
//	cl100k_base: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//	o200k_base:  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	            |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	            |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// Text is read as runes, an invalid UTF-8 byte as one U+FFFD (a symbol:
// neither letter, number nor space), and a piece holding such bytes is
// handed on with each replaced by U+FFFD, as the reference library's
// matches are (referencePiece).

// splitter returns where the piece of text that starts at byte i ends;
// i < len(text), and the result is > i.
type splitter func(text string, i int) int

// splitters are the encodings' pre-tokenizers.
var splitters = map[string]splitter{
	"cl100k_base": nextCL100K,
	"o200k_base":  nextO200K,
}

// runeClass is the set of the patterns' classes a rune belongs to.
type runeClass uint8

const (
	classLetter  runeClass = 1 << iota // \p{L}
	classNumber                        // \p{N}
	classSpace                         // \s, which regexp2 reads as unicode.IsSpace
	classNewline                       // [\r\n]
	classSlash                         // '/', in o200k_base's [\r\n/]
	classUpper                         // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	classLower                         // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	classEnd                           // past the end of the text: in no class
)

// notPrefix are the classes outside [^\r\n\p{L}\p{N}] (and the end);
// notOther those outside [^\s\p{L}\p{N}].
const (
	notPrefix = classNewline | classLetter | classNumber | classEnd
	notOther  = classSpace | classLetter | classNumber | classEnd
)

// classify is the class set of a rune.
func classify(r rune) runeClass {
	if r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z':
			return classLetter | classLower
		case 'A' <= r && r <= 'Z':
			return classLetter | classUpper
		case '0' <= r && r <= '9':
			return classNumber
		case r == '\r' || r == '\n':
			return classSpace | classNewline
		case r == ' ' || '\t' <= r && r <= '\r':
			return classSpace
		case r == '/':
			return classSlash
		}
		return 0
	}
	switch {
	case unicode.IsLetter(r):
		switch {
		case unicode.Is(unicode.Ll, r):
			return classLetter | classLower
		case unicode.Is(unicode.Lu, r) || unicode.Is(unicode.Lt, r):
			return classLetter | classUpper
		}
		return classLetter | classUpper | classLower // Lm, Lo
	case unicode.Is(unicode.M, r):
		return classUpper | classLower
	case unicode.IsNumber(r):
		return classNumber
	case unicode.IsSpace(r):
		return classSpace
	}
	return 0
}

// at is the class and byte width of the rune at byte i of text, classEnd
// and 0 past the end.
func at(text string, i int) (runeClass, int) {
	if i >= len(text) {
		return classEnd, 0
	}
	if b := text[i]; b < utf8.RuneSelf {
		return classify(rune(b)), 1
	}
	r, w := utf8.DecodeRuneInString(text[i:])
	return classify(r), w
}

// while is where the run of runes from byte i in any of the classes
// ends.
func while(text string, i int, classes runeClass) int {
	for {
		c, w := at(text, i)
		if c&classes == 0 {
			return i
		}
		i += w
	}
}

// until is where the run of runes from byte i in none of the classes
// ends; classes include classEnd.
func until(text string, i int, classes runeClass) int {
	for {
		c, w := at(text, i)
		if c&classes != 0 {
			return i
		}
		i += w
	}
}

// contraction is where (?i:'s|'t|'re|'ve|'m|'ll|'d) matched at byte i
// ends, or i. regexp2 matches a letter case-insensitively with the
// letters of its simple case folding orbit: for these letters the ASCII
// capital and, for s, also U+017F (ſ).
func contraction(text string, i int) int {
	if i >= len(text) || text[i] != '\'' {
		return i
	}
	first, w1 := utf8.DecodeRuneInString(text[i+1:])
	second, w2 := utf8.DecodeRuneInString(text[i+1+w1:])
	switch fold(first) {
	case 's', 't', 'm', 'd':
		return i + 1 + w1
	case 'r', 'v':
		if fold(second) == 'e' {
			return i + 1 + w1 + w2
		}
	case 'l':
		if fold(second) == 'l' {
			return i + 1 + w1 + w2
		}
	}
	return i
}

// fold maps the runes the contractions match case-insensitively to
// their ASCII small letter.
func fold(r rune) rune {
	switch {
	case 'A' <= r && r <= 'Z':
		return r + 'a' - 'A'
	case r == 'ſ':
		return 's'
	}
	return r
}

// numbers is where \p{N}{1,3} matched at byte i ends (at least one
// number is there).
func numbers(text string, i int) int {
	for range 3 {
		c, w := at(text, i)
		if c&classNumber == 0 {
			break
		}
		i += w
	}
	return i
}

// other is where ` ?[^\s\p{L}\p{N}]+` followed by a run of the trailing
// classes ([\r\n]* or [\r\n/]*) matched at byte i ends, or i.
func other(text string, i int, trailing runeClass) int {
	start := i
	if text[i] == ' ' {
		if c, _ := at(text, i+1); c&notOther == 0 {
			start = i + 1
		}
	}
	if c, _ := at(text, start); c&notOther != 0 {
		return i
	}
	return while(text, until(text, start, notOther), trailing)
}

// space is where the whitespace alternatives matched at byte i end, the
// first that matches: \s*[\r\n]+ up to the last newline of the run of
// spaces; else \s+(?!\S), the whole run at the end of the text, or the
// run but its last space before a non-space (so that space may lead the
// next piece); else \s+, a single space before a non-space.
func space(text string, i int) int {
	end, last, newline := i, i, -1
	for {
		c, w := at(text, end)
		if c&classSpace == 0 {
			break
		}
		last = end
		end += w
		if c&classNewline != 0 {
			newline = end
		}
	}
	switch {
	case newline >= 0:
		return newline // \s*[\r\n]+
	case end == len(text):
		return end // \s+(?!\S) at the end
	case last > i:
		return last // \s+(?!\S) before a non-space
	case end > i:
		return end // \s+
	}
	// Not a space: unreachable, as every rune is a letter, a number, a
	// space or in [^\s\p{L}\p{N}]; take the rune so the split advances.
	_, w := at(text, i)
	return i + w
}

// nextCL100K is cl100k_base's pre-tokenizer.
func nextCL100K(text string, i int) int {
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if end := contraction(text, i); end > i {
		return end
	}
	c, w := at(text, i)
	// [^\r\n\p{L}\p{N}]?\p{L}+: the optional rune first, then without it.
	if c&notPrefix == 0 {
		if next, _ := at(text, i+w); next&classLetter != 0 {
			return while(text, i+w, classLetter)
		}
	}
	if c&classLetter != 0 {
		return while(text, i, classLetter)
	}
	// \p{N}{1,3}
	if c&classNumber != 0 {
		return numbers(text, i)
	}
	// ` ?[^\s\p{L}\p{N}]+[\r\n]*`
	if end := other(text, i, classNewline); end > i {
		return end
	}
	// \s*[\r\n]+|\s+(?!\S)|\s+
	return space(text, i)
}

// nextO200K is o200k_base's pre-tokenizer.
func nextO200K(text string, i int) int {
	c, w := at(text, i)
	prefixed := c&notPrefix == 0
	// [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|…)?
	// with the optional rune, then without it (a mark is in both).
	if prefixed {
		if end, ok := lowerWord(text, i+w); ok {
			return end
		}
	}
	if end, ok := lowerWord(text, i); ok {
		return end
	}
	// [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|…)?
	if prefixed {
		if end, ok := upperWord(text, i+w); ok {
			return end
		}
	}
	if end, ok := upperWord(text, i); ok {
		return end
	}
	// \p{N}{1,3}
	if c&classNumber != 0 {
		return numbers(text, i)
	}
	// ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
	if end := other(text, i, classNewline|classSlash); end > i {
		return end
	}
	// \s*[\r\n]+|\s+(?!\S)|\s+
	return space(text, i)
}

// lowerWord is where [U]*[W]+(?i:'s|…)? matched at byte i ends, U
// being [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and W [\p{Ll}\p{Lm}\p{Lo}\p{M}].
// [U]* takes the whole run of U first and gives back runes until [W]+
// can start: right after the run if a small letter (the only W outside
// U) follows, and [W]+ then takes the run of W; else at the last rune of
// the run that is also W (Lm, Lo, M), and [W]+ takes that rune alone (the
// runes after it in the run are capitals, outside W).
func lowerWord(text string, i int) (int, bool) {
	end, lastBoth := i, -1
	for {
		c, w := at(text, end)
		if c&classUpper == 0 {
			break
		}
		end += w
		if c&classLower != 0 {
			lastBoth = end
		}
	}
	switch c, _ := at(text, end); {
	case c&classLower != 0:
		end = while(text, end, classLower)
	case lastBoth >= 0:
		end = lastBoth
	default:
		return 0, false
	}
	return contraction(text, end), true
}

// upperWord is where [U]+[W]*(?i:'s|…)? matched at byte i ends (see
// lowerWord): each part greedy, nothing after them can fail.
func upperWord(text string, i int) (int, bool) {
	if c, _ := at(text, i); c&classUpper == 0 {
		return 0, false
	}
	end := while(text, while(text, i, classUpper), classLower)
	return contraction(text, end), true
}

// referencePiece is a piece as the reference library hands it to
// byte-pair merging: regexp2 matches over the text's runes, so each
// invalid UTF-8 byte comes back as U+FFFD.
func referencePiece(piece string) string {
	if utf8.ValidString(piece) {
		return piece
	}
	return string([]rune(piece))
}
