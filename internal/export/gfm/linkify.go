package gfm

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkifyParser makes bare URLs (http://, https://, ftp://, www.) and
// e-mail addresses links, as GitHub's extended autolinks do. It runs
// after a space, '*', '_', '~' or '(' (and at a line's start, where the
// parser offers the same triggers), which it keeps as text.
type linkifyParser struct{}

func (linkifyParser) Trigger() []byte { return []byte{' ', '*', '_', '~', '('} }

func (linkifyParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, segment := block.PeekLine()
	lead := 0
	if len(line) > 0 && isLinkifyTrigger(line[0]) {
		lead = 1
	}
	line = line[lead:]
	typ, protocol := ast.AutoLinkURL, []byte(nil)
	end := schemeURLEnd(line)
	if end == 0 && bytes.HasPrefix(line, []byte("www.")) {
		if end = hostEnd(line, len("www.")); end > 0 {
			end = pathEnd(line, end, false)
			protocol = []byte("http")
		}
	}
	if end == 0 {
		typ = ast.AutoLinkEmail
		if end = emailEnd(line); end == 0 {
			return nil
		}
	}
	end = trimLinkEnd(line, end)
	if lead != 0 {
		ast.MergeOrAppendTextSegment(parent, segment.WithStop(segment.Start+1))
	}
	block.Advance(lead + end)
	start := segment.Start + lead
	link := ast.NewAutoLink(typ, ast.NewTextSegment(text.NewSegment(start, start+end)))
	link.Protocol = protocol
	return link
}

func (linkifyParser) CloseBlock(ast.Node, parser.Context) {}

func isLinkifyTrigger(b byte) bool {
	return b == ' ' || b == '*' || b == '_' || b == '~' || b == '('
}

// schemeURLEnd is the end of an http, https or ftp URL at the start of s,
// or 0: scheme, host (hostEnd), an optional port, an optional path.
func schemeURLEnd(s []byte) int {
	var p int
	switch {
	case bytes.HasPrefix(s, []byte("http://")):
		p = len("http://")
	case bytes.HasPrefix(s, []byte("https://")):
		p = len("https://")
	case bytes.HasPrefix(s, []byte("ftp://")):
		p = len("ftp://")
	default:
		return 0
	}
	end := hostEnd(s, p)
	if end == 0 {
		return 0
	}
	if end+1 < len(s) && s[end] == ':' && isDigit(s[end+1]) {
		end += 2
		for end < len(s) && isDigit(s[end]) {
			end++
		}
	}
	return pathEnd(s, end, true)
}

// maxHost is how many host bytes before the last label a link may have.
const maxHost = 256

// hostEnd is the end of the host starting at s[p]: the longest run of up
// to maxHost host bytes that a dot and a lowercase label follow, through
// that label; 0 when there is none.
func hostEnd(s []byte, p int) int {
	run := 0
	for p+run < len(s) && run < maxHost && isHostByte(s[p+run]) {
		run++
	}
	for k := run; k >= 1; k-- {
		dot := p + k
		if dot+1 < len(s) && s[dot] == '.' && isLower(s[dot+1]) {
			end := dot + 2
			for end < len(s) && isLower(s[end]) {
				end++
			}
			return end
		}
	}
	return 0
}

// pathEnd extends a link ending at end by a path, query or fragment: one
// of "/#?" and every path byte after it.
func pathEnd(s []byte, end int, dollar bool) int {
	if end >= len(s) || (s[end] != '/' && s[end] != '#' && s[end] != '?') {
		return end
	}
	end++
	for end < len(s) && (isPathByte(s[end]) || dollar && s[end] == '$') {
		end++
	}
	return end
}

// emailEnd is the end of an e-mail address at the start of s, or 0.
func emailEnd(s []byte) int {
	if len(s) > 0 && util.IsPunct(s[0]) {
		return 0
	}
	end := util.FindEmailIndex(s)
	if end < 0 {
		return 0
	}
	at := bytes.IndexByte(s, '@')
	if bytes.IndexByte(s[at:end-1], '.') < 0 {
		return 0
	}
	if s[end-1] == '.' {
		end--
	}
	if end < len(s) && (s[end] == '-' || s[end] == '_') {
		return 0
	}
	return end
}

// trimLinkEnd drops what GitHub leaves out of a link's end: trailing
// punctuation, closing parentheses with no opening one inside the link,
// and an entity reference such as "&amp;".
func trimLinkEnd(s []byte, end int) int {
	opening := bytes.Count(s[:end], []byte{'('})
	closing := bytes.Count(s[:end], []byte{')'})
	for end > 1 {
		switch s[end-1] {
		case '?', '!', '.', ',', ':', '*', '_', '~':
			end--
		case ')':
			if closing <= opening {
				return end
			}
			closing--
			end--
		case ';':
			j := end - 2
			for j > 0 && util.IsAlphaNumeric(s[j]) {
				j--
			}
			if j == end-2 || s[j] != '&' {
				return end
			}
			end = j
		default:
			return end
		}
	}
	return end
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
func isLower(b byte) bool { return 'a' <= b && b <= 'z' }

func isAlnum(b byte) bool { return isDigit(b) || isLower(b) || 'A' <= b && b <= 'Z' }

// isHostByte: letters, digits and -@:%._+~#=.
func isHostByte(b byte) bool {
	return isAlnum(b) || bytes.IndexByte([]byte("-@:%._+~#="), b) >= 0
}

// isPathByte: letters, digits and -@:%_+.~#!?&/=();,'">^{}[]` (and '$'
// after a scheme, which pathEnd adds).
func isPathByte(b byte) bool {
	return isAlnum(b) || bytes.IndexByte([]byte("-@:%_+.~#!?&/=();,'\">^{}[]`"), b) >= 0
}
