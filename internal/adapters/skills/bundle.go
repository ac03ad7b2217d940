// Package skills installs the product's agent skills (S20): it detects
// coding-agent hosts from the home directory and their environment
// variables, copies the embedded context-tree-* skills into their skill
// directories (staging directory, then swap), removes them, and reports
// what is installed. It owns only directories named context-tree-*; other
// skills are never touched, and it never writes instruction files such as
// AGENTS.md or CLAUDE.md.
package skills

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	skillsrc "github.com/git-context-tree/git-context-tree/skills"
)

// Prefix is the name prefix of every skill the product owns.
const Prefix = "context-tree-"

// stagingPrefix names the hidden sibling directories installs build in.
// A leftover one is a half-written install; the next install or uninstall
// removes it.
const stagingPrefix = ".context-tree-staging-"

// skillFile is the skill's entry point, whose frontmatter carries the version.
const skillFile = "SKILL.md"

// Bundle is the set of skills this binary installs, stamped with its version.
type Bundle struct {
	Version string
	Skills  []Skill // sorted by name
}

// Skill is one skill: its directory name and files (slash-separated paths
// relative to the skill directory).
type Skill struct {
	Name  string
	Files map[string][]byte
}

// Load reads the embedded skills and stamps each SKILL.md's
// metadata.version with version.
func Load(version string) (*Bundle, error) {
	return load(skillsrc.Files, version)
}

func load(fsys fs.FS, version string) (*Bundle, error) {
	b := &Bundle{Version: version}
	dirs, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if !d.IsDir() || !strings.HasPrefix(d.Name(), Prefix) {
			continue
		}
		s := Skill{Name: d.Name(), Files: map[string][]byte{}}
		err := fs.WalkDir(fsys, d.Name(), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			s.Files[strings.TrimPrefix(p, d.Name()+"/")] = data
			return nil
		})
		if err != nil {
			return nil, err
		}
		main, ok := s.Files[skillFile]
		if !ok {
			return nil, fmt.Errorf("skill %s has no %s", s.Name, skillFile)
		}
		if s.Files[skillFile], err = Stamp(main, version); err != nil {
			return nil, fmt.Errorf("skill %s: %w", s.Name, err)
		}
		b.Skills = append(b.Skills, s)
	}
	sort.Slice(b.Skills, func(i, j int) bool { return b.Skills[i].Name < b.Skills[j].Name })
	return b, nil
}

// Names lists the bundle's skill names, sorted.
func (b *Bundle) Names() []string {
	names := make([]string, len(b.Skills))
	for i, s := range b.Skills {
		names[i] = s.Name
	}
	return names
}

// Skill returns the named skill.
func (b *Bundle) Skill(name string) (*Skill, bool) {
	for i := range b.Skills {
		if b.Skills[i].Name == name {
			return &b.Skills[i], true
		}
	}
	return nil, false
}

// Paths lists the skill's files, sorted.
func (s *Skill) Paths() []string {
	ps := make([]string, 0, len(s.Files))
	for p := range s.Files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// dirs lists the skill's subdirectories (not the skill directory itself),
// parents first.
func (s *Skill) dirs() []string {
	seen := map[string]bool{}
	var ds []string
	for _, p := range s.Paths() {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if !seen[d] {
				seen[d] = true
				ds = append(ds, d)
			}
		}
	}
	sort.Strings(ds)
	return ds
}

// Stamp sets the metadata.version of a SKILL.md: the frontmatter must have
// a top-level "metadata:" line followed by exactly one "  version: …" line
// in that block, whose value is replaced by version (a YAML double-quoted
// string, as the Agent Skills format wants metadata values to be strings).
func Stamp(skillMD []byte, version string) ([]byte, error) {
	lines := strings.SplitAfter(string(skillMD), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], "\r\n") != "---" {
		return nil, fmt.Errorf("%s has no frontmatter", skillFile)
	}
	inMetadata, stamped := false, -1
	for i := 1; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r\n")
		switch {
		case l == "---":
			if stamped < 0 {
				return nil, fmt.Errorf("%s frontmatter has no metadata.version line", skillFile)
			}
			lines[stamped] = "  version: " + strconv.Quote(version) + "\n"
			return []byte(strings.Join(lines, "")), nil
		case l == "metadata:":
			inMetadata = true
		case !strings.HasPrefix(l, " "):
			inMetadata = false
		case inMetadata && strings.HasPrefix(l, "  version:"):
			if stamped >= 0 {
				return nil, fmt.Errorf("%s has two metadata.version lines", skillFile)
			}
			stamped = i
		}
	}
	return nil, fmt.Errorf("%s frontmatter is not closed", skillFile)
}
