package export

import (
	"bytes"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Images of the tree are copied into the site at their tree paths (so a
// page, which sits in its document's directory, reaches them by the same
// relative path) and shown; an image outside the tree, behind a symlink,
// in infrastructure, too large or not an image by its content shows its
// alt text, as before.

// MaxImageBytes bounds an image the site copies.
const MaxImageBytes = 5 << 20

// imageTypes are the content types a site shows (SVG is checked apart:
// loaded through <img>, its scripts never run).
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// siteImages reads and remembers the tree's images a site uses.
type siteImages struct {
	root string // "" reads none
	mu   sync.Mutex
	ok   map[string]bool
}

// use reports whether the image at tree path p can be shown, reading it
// once.
func (s *siteImages) use(p string) bool {
	if s == nil || s.root == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok, seen := s.ok[p]; seen {
		return ok
	}
	_, err := s.read(p)
	s.ok[p] = err == nil
	return err == nil
}

func (s *siteImages) read(p string) ([]byte, error) {
	data, err := tree.ReadAsset(s.root, p, MaxImageBytes)
	if err != nil {
		return nil, err
	}
	if !isImage(p, data) {
		return nil, errNotImage
	}
	return data, nil
}

type notImage struct{}

func (notImage) Error() string { return "not an image by its content" }

var errNotImage error = notImage{}

func isImage(p string, data []byte) bool {
	ct := http.DetectContentType(data)
	for _, t := range imageTypes {
		if ct == t {
			return true
		}
	}
	head := data[:min(len(data), 1024)]
	return strings.EqualFold(path.Ext(p), ".svg") && bytes.Contains(head, []byte("<svg"))
}

// paths is every image used, sorted.
func (s *siteImages) paths() []string {
	var out []string
	for p, ok := range s.ok {
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// localImage is the tree path an image destination names from a document
// in docDir, "" for a URL, an absolute path or one leaving the tree.
func localImage(docDir, dest string) string {
	if dest == "" || isWebURL(dest) || strings.HasPrefix(dest, "/") || strings.Contains(dest, ":") {
		return ""
	}
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		dest = dest[:i]
	}
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	p := path.Clean(path.Join(docDir, dest))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}
