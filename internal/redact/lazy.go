package redact

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles on first use: the secret-name patterns take ~3 ms to
// compile, which a command whose output holds no trigger word never needs.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func lazy(src string) *lazyRegexp { return &lazyRegexp{src: src} }

// get returns the compiled pattern; the sources are constants, so a compile
// error is a bug (tests compile every one).
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}
